"""Terminal rendering of a seat's Dice Derby view, and its events as lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text as RichText

from partygames.cli.layout import Fit
from partygames.cli.narration import people
from partygames.engine.names import acts, name_of, subject_of
from partygames.engine.text import Lang, Text
from partygames.games.dice_derby.horses import die_name
from partygames.games.dice_derby.labels import LABELS

#: Above this many seats the players' table is shown in two halves side by side.
FOLD_SEATS = 12

_L = {
    "race": Text("Race", "レース"), "gate": Text("Gate", "枠"),
    "die": Text("Die", "ダイス"), "owner": Text("Owner", "馬主"), "price": Text("Price", "落札額"),
    "win_odds": Text("Win odds", "単勝オッズ"), "quinella": Text("Quinella odds", "連複オッズ"),
    "who": Text("Who", "参加者"), "money": Text("Money", "所持金"), "prize": Text("Prize", "賞金"),
    "debt": Text("Debt", "借金"), "done": Text("Done", "完了"), "you": Text("you", "あなた"),
    "available": Text("You can stake", "購入可能額"), "tickets": Text("Your tickets", "あなたの馬券"),
    "last": Text("Last race", "前のレース"), "first": Text("1st", "1着"), "second": Text("2nd", "2着"),
    "furlong": Text("Furlong", "ハロン"), "out": Text("out", "脱落"), "fell": Text("fell", "落馬"),
    "house": Text("House", "胴元"), "bid": Text("Your sealed bid", "あなたの入札"),
    "win": Text("win", "単勝"), "quinella_ticket": Text("quinella", "連複"),
    "loans": Text("loans this race", "今回の借金"), "runoff": Text("run-off", "2着決定戦"),
}


def render(view: dict[str, Any], lang: Lang = "en", names: Sequence[str] = ()) -> Group:
    """A readable picture of one seat's view: odds board, players, your tickets, the last race."""
    def t(key: str) -> str:
        return _L[key](lang)

    parts: list[Any] = []
    head = LABELS.phases[view["phase"]](lang)
    if view["race"]:
        head += f"   {t('race')} {view['race']}/{view['races']}"
    head += f"   {t('house')}: {view['house']:+,}"
    parts.append(RichText(head, style="bold"))
    board = Table(show_header=True)
    for key in ("gate", "die", "owner", "price", "win_odds"):
        board.add_column(t(key), justify="left" if key == "owner" else "right")
    for h in view["horses"]:
        owner = "" if h["owner"] is None else subject_of(names, h["owner"], lang)
        odds = "" if h["win_odds"] is None else f"{h['win_odds']:.1f}"
        board.add_row(str(h["gate"]), h["die"], owner, f"{h['price']:,}", odds)
    parts.append(board)
    if view["quinella_odds"]:
        parts.append(RichText(f"{t('quinella')}: " + "  ".join(
            f"{p} {o:.1f}" for p, o in view["quinella_odds"].items())))
    parts.append(_players(view, lang, names))
    mine = view.get("me")
    if mine:
        if view["phase"] == "auction" and mine["bid"] is not None:
            bid = mine["bid"]
            parts.append(RichText(f"{t('bid')}: " + (f"{t('gate')} {bid['horse']} {bid['amount']:,}"
                                                      if bid["horse"] else "-")))
        if view["phase"] == "betting":
            tickets = ", ".join(_ticket(x, lang) for x in mine["tickets"]) or "-"
            line = f"{t('available')}: {mine['available']:,}   {t('tickets')}: {tickets}"
            if mine["pending_loans"]:
                line += f"   {t('loans')}: {mine['pending_loans']}"
            parts.append(RichText(line))
    last = view.get("last_race")
    if last:
        lines = [f"{t('last')} ({t('race')} {last['race']}): {t('first')} {_die(last['first'])}, "
                 f"{t('second')} {_die(last['second'])}"]
        for f in last["furlongs"]:
            rolls = " ".join(f"{g}:{v}" for g, v in f["rolls"])
            fell = f"  {t('fell')} {' '.join(map(_die, f['fallen']))}" if f["fallen"] else ""
            stage = f" ({t('runoff')})" if f["stage"] == "runoff" else ""
            out = f"  {t('out')}: {' '.join(map(_die, f['out']))}" if f["out"] else ""
            lines.append(f"  {t('furlong')} {f['furlong']}{stage}: {rolls}{fell}{out}")
        parts.append(RichText("\n".join(lines)))
    return Group(*parts)


def _players(view: dict[str, Any], lang: Lang, names: Sequence[str]) -> RenderableType:
    """Everyone's money, prizes, debt and whether done betting: side by side in two halves at a big table,
    so that the board keeps within a screen, where the terminal is wide enough to show them whole."""
    seats = list(range(view["seats"]))
    if len(seats) <= FOLD_SEATS:
        return _players_table(view, lang, names, [seats])
    halves = [seats[: (len(seats) + 1) // 2], seats[(len(seats) + 1) // 2:]]
    return Fit(_players_table(view, lang, names, halves), _players_table(view, lang, names, [seats]))


def _players_table(view: dict[str, Any], lang: Lang, names: Sequence[str], halves: list[list[int]]) -> Table:
    table = Table(show_header=True)
    for _ in halves:
        for key in ("who", "money", "prize", "debt", "done"):
            table.add_column(_L[key](lang), justify="left" if key == "who" else "right", no_wrap=True)
    for row in range(len(halves[0])):
        cells: list[str] = []
        for half in halves:
            if row < len(half):
                s = half[row]
                done = ("✓" if view["done"][s] else "") if view["done"] else ""
                cells += [subject_of(names, s, lang), f"{view['money'][s]:,}", f"{view['prize'][s]:,}",
                          f"{view['debt'][s]:,}", done]
            else:
                cells += [""] * 5
        table.add_row(*cells)
    return table


def _ticket(ticket: dict[str, Any], lang: Lang) -> str:
    """ "win 4 8,400", "quinella 1-3 400"."""
    kind = _L["win" if ticket["kind"] == "win" else "quinella_ticket"](lang)
    return f"{kind} {ticket['pick']} {ticket['stake']:,}"


def _die(gate: int) -> str:
    return f"{gate}({die_name(gate)})"


def value_text(key: str, value: Any, lang: Lang, names: Sequence[str] = ()) -> str | None:
    """A gate in a result reads as its horse: "5 (d12)"."""
    if key in ("horse", "first", "second") and isinstance(value, int):
        return f"{value} ({die_name(value)})"
    return None


#: Result details whose values are seats.
SEAT_KEYS = frozenset({"seats"})


def choice_text(param: str, value: Any, view: dict[str, Any], lang: Lang, names: Sequence[str] = (),
                action: str = "") -> str | None:
    """A gate (its key) as its die with its odds ("d8 ×4.2"), a pair as its dice with their odds ("d4-d6
    ×80.9"), a ticket as its kind, pick and stake ("win 4 8,400")."""
    odds: float | None = None
    if param == "horse" and isinstance(value, int):
        horse = next((h for h in view.get("horses", []) if h["gate"] == value), None)
        odds = horse["win_odds"] if horse else None
        text = die_name(value)
    elif param == "pair" and isinstance(value, str) and "-" in value:
        odds = (view.get("quinella_odds") or {}).get(value)
        text = "-".join(die_name(int(gate)) for gate in value.split("-"))
    elif param == "ticket" and isinstance(value, str) and ":" in value:
        return _ticket(_held(view, value), lang)
    else:
        return None
    return text if odds is None else f"{text} ×{odds:.1f}"


#: The auction's and the betting's moves keep their keys from race to race (`cli/terminal.py`): a ticket
#: bought, a loan taken or the last ticket of a kind no longer moves "Done betting" off 3.
ACTION_KEYS = {"bid": "1", "pass": "2", "bet_win": "1", "bet_quinella": "2", "done": "3", "cancel": "4", "borrow": "5"}


def choice_key(param: str, value: Any, view: dict[str, Any], action: str = "") -> str | tuple[str, ...] | None:
    """A gate is typed as its number, a pair as shown ("5-6", or "6-5"); a ticket by its place in the menu."""
    if param == "horse" and isinstance(value, int):
        return str(value)
    if param == "pair" and isinstance(value, str) and "-" in value:
        first, second = value.split("-", 1)
        return value, f"{second}-{first}", f"{first}{second}", f"{first} {second}"
    return None


def _held(view: dict[str, Any], ticket: str) -> dict[str, Any]:
    """The seat's ticket that a cancel names ("win:4"), with its stake where the view holds it."""
    kind, pick = ticket.split(":", 1)
    mine = (view.get("me") or {}).get("tickets") or []
    return next((t for t in mine if t["kind"] == kind and str(t["pick"]) == pick), {"kind": kind, "pick": pick, "stake": 0})


def confirm(action: dict[str, Any], view: dict[str, Any], lang: Lang, names: Sequence[str] = ()) -> str | None:
    """Cancelling a ticket asks first: a key typed from habit must not throw away a ticket."""
    if action["type"] != "cancel":
        return None
    ticket = _ticket(_held(view, action["ticket"]), lang)
    return Text(f"Cancel your ticket {ticket}? Its stake comes back to you.",
                f"馬券 {ticket} を取り消しますか? 購入額は戻ります。")(lang)


def _seats_paid(payments: list[tuple[int, int]], lang: Lang, names: Sequence[str] = (), to: bool = True) -> str:
    """ "Bot Aoi 1,200, you 600" / "ボット アオイに 1,200、あなたに 600" (without "に" for amounts not paid to
    them), each seat by its name in `names`, by its number where there is none ("seat 3 1,200")."""
    if lang == "ja":
        return "、".join(f"{name_of(names, seat, lang)}{'に' if to else ''} {amount:,}" for seat, amount in payments)
    return ", ".join(f"{name_of(names, seat, lang)} {amount:,}" for seat, amount in payments)


def describe_event(event: dict[str, Any], lang: Lang = "en", names: Sequence[str] = (),
                   view: Mapping[str, Any] | None = None) -> str | None:
    """One line per race event, so that terminal play shows the dice opening one by one; seats are named by
    `names` (by number where there is none)."""
    ja = lang == "ja"
    kind, d = event["type"], event["data"]

    def who(seat: int) -> str:
        return name_of(names, seat, lang)

    if kind == "auction_result":
        how = {"highest": ("highest bid", "最高額"), "tie_lot": ("tie, by lot", "同額を抽選"),
               "unbid_lot": ("nobody bid: by lot, free", "入札なし: 抽選で無料")}[d["how"]]
        return (f"{_die(d['gate'])} 馬主: {who(d['owner'])}({d['price']:,}、{how[1]})" if ja
                else f"{_die(d['gate'])} owner: {who(d['owner'])} ({d['price']:,}, {how[0]})")
    if kind == "bid_sealed":
        return (f"{who(d['seat'])}が入札を封印した" if ja
                else f"{acts(names, d['seat'], lang, 'has', 'have')} sealed a bid")
    if kind == "my_bid":
        if d["horse"] is None:
            return "あなたは入札しなかった" if ja else "You did not bid"
        return (f"あなたの入札: {_die(d['horse'])} に {d['amount']:,}" if ja
                else f"Your sealed bid: {d['amount']:,} for {_die(d['horse'])}")
    if kind in ("ticket_bought", "ticket_cancelled"):
        ticket = f"{_L['win' if d['kind'] == 'win' else 'quinella_ticket'](lang)} {d['pick']} {d['stake']:,}"
        if ja:
            return f"{'購入' if kind == 'ticket_bought' else '取り消し'}: {ticket}(残りの購入可能額 {d['available']:,})"
        verb = "Bought" if kind == "ticket_bought" else "Cancelled"
        return f"{verb}: {ticket} (you can still stake {d['available']:,})"
    if kind == "loan_taken":
        return (f"借金 {d['amount']:,}(最後に {d['repay']:,} 返済。購入可能額 {d['available']:,})" if ja
                else f"Loan of {d['amount']:,} (repay {d['repay']:,} at the end; you can stake {d['available']:,})")
    if kind == "betting_done":
        return (f"{who(d['seat'])}が投票を完了した" if ja
                else f"{acts(names, d['seat'], lang, 'is', 'are')} done betting")
    if kind == "betting_closed":
        tickets = "; ".join(
            f"{who(int(seat))}: " + ", ".join(
                f"{_L['win' if t['kind'] == 'win' else 'quinella_ticket'](lang)} {t['pick']} {t['stake']:,}" for t in mine)
            for seat, mine in d["tickets"].items()) or ("馬券なし" if ja else "no tickets")
        return (f"第{d['race']}レース 締め切り。馬券: {tickets}" if ja
                else f"Race {d['race']}: betting closed. Tickets: {tickets}")
    if kind == "loans_repaid":
        repaid = _seats_paid([(int(seat), amount) for seat, amount in d["repaid"].items()], lang, names, to=False)
        if not repaid:
            return "返済する借金なし" if ja else "No loans to repay"
        return f"借金の返済: {repaid}" if ja else f"Loans repaid: {repaid}"
    if kind == "match_over":
        money = _seats_paid(list(enumerate(d["money"])), lang, names, to=False)
        return f"全レース終了。所持金: {money}" if ja else f"All races run. Money: {money}"
    if kind == "betting_open":
        return f"第{d['race']}レース 馬券発売開始" if ja else f"Race {d['race']}: betting is open"
    if kind == "furlong_start":
        runners = " ".join(map(_die, d["runners"]))
        if d["stage"] == "runoff":
            return f"2着決定戦 第{d['furlong']}ハロン: {runners}" if ja else f"Run-off, furlong {d['furlong']}: {runners}"
        return f"第{d['furlong']}ハロン: {runners}" if ja else f"Furlong {d['furlong']}: {runners}"
    if kind == "roll":
        return f"  {_die(d['gate'])} → {d['value']}"
    if kind == "fall":
        return f"  落馬: {' '.join(map(_die, d['gates']))}" if ja else f"  fell: {' '.join(map(_die, d['gates']))}"
    if kind == "furlong_rerun":
        return "  全員落馬: やり直し" if ja else "  everyone fell: the furlong is run again"
    if kind == "out":
        return f"  脱落: {' '.join(map(_die, d['gates']))}" if ja else f"  out: {' '.join(map(_die, d['gates']))}"
    if kind == "runoff_start":
        runners = " ".join(map(_die, d["runners"]))
        return f"2着決定戦: {runners}" if ja else f"Run-off for second place: {runners}"
    if kind == "runoff_end":
        return f"2着決定戦の勝者: {_die(d['gate'])}" if ja else f"Run-off won by {_die(d['gate'])}"
    if kind == "quinella_decided":
        return f"連複確定: {d['pair'][0]}-{d['pair'][1]}" if ja else f"Quinella decided: {d['pair'][0]}-{d['pair'][1]}"
    if kind == "race_result":
        return (f"1着 {_die(d['first'])}、2着 {_die(d['second'])}" if ja
                else f"First {_die(d['first'])}, second {_die(d['second'])}")
    if kind in ("win_paid", "quinella_paid"):
        paid = _seats_paid([(w["seat"], w["payout"]) for w in d["winners"]], lang, names) or ("的中なし" if ja else "no winners")
        return (f"{'単勝' if kind == 'win_paid' else '連複'} {d['pick']}({d['odds']:.1f}倍)配当: {paid}" if ja
                else f"{'Win' if kind == 'win_paid' else 'Quinella'} {d['pick']} at {d['odds']:.1f}: {paid}")
    if kind == "prizes":
        paid = _seats_paid([(p["owner"], p["amount"]) for p in d["prizes"]], lang, names)
        return f"馬主賞金: {paid}" if ja else f"Owners' prizes: {paid}"
    return None


#: A furlong's rolls are told in one line each furlong (`describe_events`).
RUN_KINDS = frozenset({"roll"})


def describe_events(kind: str, events: list[dict[str, Any]], lang: Lang, names: Sequence[str] = ()) -> str | None:
    """A furlong's rolls, smallest die first, in one line; everyone's sealed bids and everyone done betting,
    each as one line."""
    if kind == "roll":
        return "  " + "   ".join(f"{_die(e['data']['gate'])} → {e['data']['value']}" for e in events)
    if kind not in ("bid_sealed", "betting_done"):
        return None
    seats = [e["data"]["seat"] for e in events]
    if kind == "bid_sealed":
        return Text(f"{people(names, seats, lang, start=True)} have sealed a bid", f"{people(names, seats, lang)}が入札を封印した")(lang)
    if kind == "betting_done":
        return Text(f"{people(names, seats, lang, start=True)} are done betting", f"{people(names, seats, lang)}が投票を完了した")(lang)
    return None
