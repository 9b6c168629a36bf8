"""Terminal rendering of a seat's view of the Pandemic Game (pure functions of the view): the time left,
every seat with where it is and the public odds (and this seat's own belief), open offers, the public
contact log and this seat's last reading."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table

from partygames.cli.layout import Fit
from partygames.engine import Text
from partygames.engine.names import acts, agree, name_of, subject_of
from partygames.engine.text import Lang


def clock(ms: int) -> str:
    seconds = max(0, ms) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def _share(odds: dict[str, Any] | None, seat: int) -> str:
    if odds is None or not odds["worlds"]:
        return "-"
    return f"{100 * odds['infected'][seat] / odds['worlds']:.0f}%"


def _status(infected: bool, lang: Lang) -> str:
    return (Text("infected", "感染") if infected else Text("healthy", "正常"))(lang)


#: Above this many seats the seats' table is shown in two halves side by side, to keep within a screen.
FOLD_SEATS = 12
#: Result details whose values are seats.
SEAT_KEYS = frozenset({"passed", "cut_lot", "initial_infected"})


def _seats(view: dict[str, Any], lang: Lang, names: Sequence[str]) -> RenderableType:
    """Every seat: in two halves side by side at a big table where the terminal is wide enough, else one."""
    seats = list(range(view["seats"]))
    if len(seats) <= FOLD_SEATS:
        return _seats_table(view, lang, names, [seats])
    halves = [seats[: (len(seats) + 1) // 2], seats[(len(seats) + 1) // 2:]]
    return Fit(_seats_table(view, lang, names, halves), _seats_table(view, lang, names, [seats]))


def _seats_table(view: dict[str, Any], lang: Lang, names: Sequence[str], halves: list[list[int]]) -> Table:
    me = view["seat"]
    table = Table(title=Text("Seats", "参加者")(lang))
    over = view["phase"] == "over"
    headers = [Text("Who", "参加者"), Text("Where", "場所"), Text("Contacts", "接触")]
    if over:  # the watches are read out: they replace the odds
        headers += [Text("Watch (status / vaccines)", "腕時計(状態 / ワクチン)"), Text("Qualified", "予選突破")]
    else:
        headers.append(Text("Public odds", "公開確率"))
        if me is not None:
            headers.append(Text("Your odds", "推定確率"))
    for _ in halves:
        for header in headers:
            # A name and the figures whole. Two halves side by side keep within 120 columns: the headers
            # wrap between their words, and so does where one is ("queue 5 (busy)").
            first = header is headers[0]
            cap = max(6, *(cell_len(w) for w in header(lang).split())) if header.en != "Where" else 10
            table.add_column(header(lang), no_wrap=first, max_width=None if first or len(halves) == 1 else cap)
    rooms = {v["seat"]: v for v in view["inside"]}
    contacts = [0] * view["seats"]
    for entry in view["log"]:
        if entry["kind"] == "contact":
            contacts[entry["a"]] += 1
            contacts[entry["b"]] += 1

    def row(seat: int) -> list[str]:
        if seat in rooms:
            where = Text(f"room {rooms[seat]['room']}", f"個室{rooms[seat]['room']}")(lang)
        elif seat in view["queue"]:
            where = Text(f"queue {view['queue'].index(seat) + 1}", f"順番待ち{view['queue'].index(seat) + 1}")(lang)
        else:
            where = Text("hall", "ホール")(lang)
        if view["busy_until"][seat] > view["time"]:
            where += Text(" (busy)", "(接触不可)")(lang)
        cells = [subject_of(names, seat, lang), where, str(contacts[seat])]
        if over:
            watch = view["watches"][seat]
            cells += [f"{_status(watch['infected'], lang)} / {watch['vaccines']}", "★" if seat in view["passed"] else ""]
        else:
            cells.append(_share(view["odds"], seat))
            if me is not None:
                cells.append(_share(view["my_odds"], seat))
        return cells

    for index in range(len(halves[0])):
        cells: list[str] = []
        for half in halves:
            cells += row(half[index]) if index < len(half) else [""] * len(headers)
        table.add_row(*cells)
    return table


def _log(view: dict[str, Any], lang: Lang, names: Sequence[str], last: int = 8) -> Table:
    table = Table(title=Text("Latest contacts and presses", "最近の接触とスイッチ")(lang))
    table.add_column(Text("Time", "時刻")(lang))
    table.add_column(Text("What", "内容")(lang))
    for entry in view["log"][-last:]:
        if entry["kind"] == "contact":
            a, b = subject_of(names, entry["a"], lang), name_of(names, entry["b"], lang)
            what = Text(f"{a} touched {b}", f"{a}と{b}が接触")(lang)
        else:
            who = subject_of(names, entry["seat"], lang)
            what = Text(f"{who} pressed the switch", f"{who}がスイッチを押した")(lang)
        table.add_row(clock(entry["t"]), what)
    return table


def render(view: dict[str, Any], lang: Lang = "en", names: Sequence[str] = ()) -> RenderableType:
    """A panel with the time left, your watch as last read, offers, every seat and the latest log."""
    lines = [f"{Text('Time left', '残り時間')(lang)}: {clock(view['ends_at'] - view['time'])}"
             f"  ({Text('qualifiers', '予選突破')(lang)}: {view['qualifiers']})"]
    if view["tempo"] == "rounds" and view["phase"] != "over":  # over: the last round has been played
        lines[0] += Text(f"   Round {view['step'] + 1} ({view['step_seconds']} s)",
                         f"   ラウンド {view['step'] + 1}({view['step_seconds']}秒)")(lang)
    if view["periods"] > 1:
        lines.append(f"{Text('Period', 'ピリオド')(lang)} {view['period'] + 1}/{view['periods']}"
                     + (f" — {Text('break until', '休憩、再開')(lang)} {clock(view['period_ends_at'])}"
                        if view["phase"] == "break" else ""))
    for note in view["announcements"]:
        lines.append(Text(f"After period {note['period'] + 1}: {note['healthy']} healthy, {note['infected']} infected",
                          f"ピリオド{note['period'] + 1}終了時: 正常{note['healthy']}人、感染{note['infected']}人")(lang))
    if view["vaccine_threshold"] is not None:
        lines.append(Text(f"Healthy with at least {view['vaccine_threshold']} vaccines qualify",
                          f"ワクチン{view['vaccine_threshold']}本以上の正常者が予選突破")(lang))
    if view["odds"] is None:
        lines.append(Text("No exact odds: some contacts or presses are private.",
                          "一部の接触やスイッチが非公開のため、正確な確率は出せません。")(lang))
    if view["seat"] is not None:
        readings = view["readings"]
        if readings:
            last = readings[-1]
            age = clock(view["time"] - last["t"])
            lines.append(f"{Text('Your watch', 'あなたの腕時計')(lang)}: {_status(last['infected'], lang)}, "
                         f"{Text('vaccines', 'ワクチン')(lang)} {last['vaccines']} "
                         f"({Text(f'read {age} ago', f'{age} 前に確認')(lang)})")
        else:
            lines.append(Text("You have not read your watch yet.", "まだ腕時計を確認していません。")(lang))
        if view["my_offer"] is not None:
            to = name_of(names, view["my_offer"]["to"], lang)
            lines.append(Text(f"Your offer to {to} is open.", f"{to}への接触の申し出が有効です。")(lang))
        for offer in view["offers_to_me"]:
            by = subject_of(names, offer["from"], lang)
            lines.append(Text(f"{by} offers you contact.", f"{by}から接触の申し出があります。")(lang))
    title = Text("The Pandemic Game", "感染ゲーム")(lang)
    if view["odds"] is not None and view["phase"] != "over":
        lines.append(Text("Odds: the chance that each is infected, from what everyone knows (public) and with your "
                          "watch's readings too (yours).",
                          "確率: 各参加者が感染している確率。公開情報から求めたもの(公開確率)と、あなたの腕時計の確認結果も"
                          "加えたもの(推定確率)。")(lang))
    parts: list[RenderableType] = ["\n".join(lines), _seats(view, lang, names)]
    if view["log"]:
        parts.append(_log(view, lang, names, last=8 if view["seats"] <= FOLD_SEATS else 5))
    return Panel(Group(*parts), title=title)


_MOVES = {
    "wait": Text("Wait", "待つ"), "press": Text("Press the switch", "スイッチを押す"),
    "visit": Text("Go to a private room", "個室に行く"), "leave": Text("Leave the room or its queue", "個室(または順番待ち)を出る"),
    "withdraw": Text("Withdraw your offer", "申し出を取り下げる"),
}
#: The order of a round's moves in the menu: staying put first, then answers to offers, then new offers.
_ORDER = ("wait", "press", "visit", "leave", "withdraw", "accept", "decline", "offer")


def _offerer(offer: str) -> int:
    """The seat that made an offer, from its id ("3@25000": seat 3, at 25 s)."""
    return int(offer.split("@", 1)[0])


def choice_text(param: str, value: Any, view: dict[str, Any], lang: Lang, names: Sequence[str] = (),
                action: str = "") -> str | None:
    """A round's move in words ("Offer contact to Bot Aoi", "Accept Bot Ben's offer"), a seat by its name, an
    offer by who made it."""
    if param == "target" and isinstance(value, int):
        return name_of(names, value, lang)
    if param == "offer" and isinstance(value, str):
        by = name_of(names, _offerer(value), lang)
        return Text(f"{by}'s offer" if by.lower() != "you" else "your offer", f"{by}の申し出")(lang)
    if param != "intent" or not isinstance(value, str):
        return None
    kind, _, arg = value.partition(":")
    if kind in _MOVES:
        return _MOVES[kind](lang)
    if kind == "offer":
        to = name_of(names, int(arg), lang)
        return Text(f"Offer contact to {to}", f"{to}に接触を申し出る")(lang)
    if kind in ("accept", "decline"):
        by = name_of(names, _offerer(arg), lang)
        if kind == "accept":
            return Text(f"Accept {by}'s offer of contact", f"{by}からの接触を受ける")(lang)
        return Text(f"Decline {by}'s offer of contact", f"{by}からの接触を断る")(lang)
    return None


#: A round's moves keep their keys from round to round: the moves of one's own by number, a move towards a
#: person by a letter and the person's row in the seats' table ("o2": offer contact to the second row).
_KEYS = {"wait": "1", "press": "2", "visit": "3", "leave": "4", "withdraw": "5"}
_LETTERS = {"offer": "o", "accept": "a", "decline": "d"}


def choice_key(param: str, value: Any, view: dict[str, Any], action: str = "") -> str | None:
    """A round's move by a key that means the same in every round: 1 wait, 2 press, 3 go to a room, 4 leave
    it, 5 withdraw one's offer; o, a or d and a person's row for an offer to them, or accepting or declining
    theirs."""
    if param != "intent" or not isinstance(value, str):
        return None
    kind, _, arg = value.partition(":")
    if kind in _KEYS:
        return _KEYS[kind]
    if kind == "offer":
        return f"o{int(arg) + 1}"
    if kind in _LETTERS:
        return f"{_LETTERS[kind]}{_offerer(arg) + 1}"
    return None


#: A standing plan the terminal offers beside a round's moves: wait, round after round, until something
#: happens to you (`plan_action`); its key is a word's letter, unlike every move's.
PLANS = {"w": Text("Wait, round after round, until something happens to you", "自分に何か起きるまで毎ラウンド待つ"),
         "i": Text("Wait, round after round, letting offers to you lapse, until anything else happens to you",
                   "自分への申し出は失効させ、それ以外の何かが自分に起きるまで毎ラウンド待つ")}
#: What a standing plan does not stop for and does not tell when it ends: each round's order of moves.
PLAN_QUIET = frozenset({"step_order", "intent_submitted"})


def _about_me(view: Mapping[str, Any], offers: bool = True) -> tuple[Any, ...]:
    """What a seat's view says that concerns the seat itself: offers to it (unless not `offers`) and its
    own, where it is, its readings, its contacts and presses, the phase and period."""
    me = view["seat"]
    where = next((v["room"] for v in view["inside"] if v["seat"] == me), "queue" if me in view["queue"] else "hall")
    mine = [e for e in view["log"] if me in (e.get("a"), e.get("b"), e.get("seat"))]
    offer = view["my_offer"]
    return (view["phase"], view["period"], where, len(view["readings"]), len(mine),
            [o["from"] for o in view["offers_to_me"]] if offers else None, None if offer is None else offer["to"])


def plan_action(plan: str, start: Mapping[str, Any], view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The move a standing plan makes this round, or None once something happened to the seat since the plan
    began (an offer to it, unless the plan lets them lapse; its own offer answered or lapsed, a contact, a
    reading, a room, a new period)."""
    offers = plan == "w"
    if plan not in PLANS or view["phase"] != "play" or _about_me(view, offers) != _about_me(start, offers):
        return None
    return {"type": "intend", "intent": "wait"}


def param_label(action: str, param: str, lang: Lang) -> str | None:
    """A round's move is chosen from a menu of words, not typed as the rules' shorthand."""
    if param == "intent":
        return Text("This round's move", "このラウンドの行動")(lang)
    if param == "offer":
        return Text("Offer", "申し出")(lang)
    return None


def menu_order(param: str, values: list[Any]) -> list[Any] | None:
    """A round's moves in a fixed order (staying put, answers to offers, new offers), whatever the rules list."""
    if param != "intent":
        return None
    return sorted(values, key=lambda v: _ORDER.index(v.partition(":")[0]) if v.partition(":")[0] in _ORDER else 99)


#: Why an offer lapsed, so that one made and gone within a round (before anyone could answer) reads as what
#: happened.
_LAPSED = {"expired": Text(": nobody answered in time", "(時間内に返答なし)"),
           "withdrawn": Text(": withdrawn", "(取り下げ)"),
           "other_contact": Text(": another offer or contact came first", "(別の申し出か接触が先に成立)"),
           "room": Text(": one of them went to a private room", "(どちらかが個室へ)"),
           "break": Text(": the break began", "(休憩に入ったため)")}


def describe_event(event: dict[str, Any], lang: Lang = "en", names: Sequence[str] = (),
                   view: Mapping[str, Any] | None = None) -> str | None:
    """One line for the events a player reads as they happen, naming the seats by `names` (by number where
    there is none): "Bot Aoi offers contact to you", "ボット アオイがあなたに接触を申し出た"."""
    data, kind = event["data"], event["type"]

    def who(seat: int) -> str:
        return name_of(names, seat, lang)

    def subject(seat: int) -> str:
        return subject_of(names, seat, lang)

    def whose(seat: int, start: bool = False) -> str:
        """A seat's possessive: "your", "Bot Aoi's", "seat 3's" ("Your", "Seat 3's" opening a sentence)."""
        name = subject(seat) if start else who(seat)
        return agree(name, f"{name}'s", "Your" if start else "your")

    def seat_list(seats: list[int], joiner: str) -> str:
        return joiner.join(map(who, seats))

    def qualify() -> Text:
        passed = data["passed"]
        if not passed:
            return Text("Time up: nobody qualifies", "時間切れ: 予選突破者なし")
        verb = "qualify" if len(passed) > 1 else agree(who(passed[0]), "qualifies", "qualify")
        return Text(f"Time up: {seat_list(passed, ', ')} {verb}", f"時間切れ: 予選突破は{seat_list(passed, '、')}")

    texts = {
        "offered": lambda: Text(
            f"{acts(names, data['from'], lang, 'offers', 'offer')} contact to {who(data['to'])}",
            f"{who(data['from'])}が{who(data['to'])}に接触を申し出た"),
        "offer_lapsed": lambda: Text(f"{whose(data['from'], start=True)} offer to {who(data['to'])} lapsed"
                                     f"{_LAPSED.get(data.get('reason', ''), Text('', '')).en}",
                                     f"{who(data['from'])}から{who(data['to'])}への申し出が失効"
                                     f"{_LAPSED.get(data.get('reason', ''), Text('', '')).ja}"),
        "declined": lambda: Text(f"{subject(data['to'])} declined {whose(data['from'])} offer",
                                 f"{who(data['to'])}が{who(data['from'])}の申し出を断った"),
        "contact": lambda: Text(f"{clock(data['t'])} {who(data['a'])} touched {who(data['b'])}",
                                f"{clock(data['t'])} {who(data['a'])}と{who(data['b'])}が接触"),
        "pressed": lambda: Text(f"{clock(data['t'])} {who(data['seat'])} pressed the switch",
                                f"{clock(data['t'])} {who(data['seat'])}がスイッチを押した"),
        "entered": lambda: Text(f"{subject(data['seat'])} entered room {data['room']}",
                                f"{who(data['seat'])}が個室{data['room']}に入った"),
        "queued": lambda: Text(f"{acts(names, data['seat'], lang, 'waits', 'wait')} for a room",
                               f"{who(data['seat'])}が個室の順番待ち"),
        "left": lambda: Text(f"{subject(data['seat'])} left room {data['room']}",
                             f"{who(data['seat'])}が個室{data['room']}を出た"),
        "left_queue": lambda: Text(f"{subject(data['seat'])} left the queue",
                                   f"{who(data['seat'])}が順番待ちをやめた"),
        "watch_read": lambda: Text(
            f"Your watch: {'infected' if data['infected'] else 'healthy'}, {data['vaccines']} vaccines",
            f"あなたの腕時計: {'感染' if data['infected'] else '正常'}、ワクチン{data['vaccines']}本"),
        "intent_void": lambda: Text(f"Your move ({choice_text('intent', data['intent'], {}, 'en', names)}) could "
                                    "no longer be made",
                                    f"あなたの行動({choice_text('intent', data['intent'], {}, 'ja', names)})は"
                                    "実行できなくなりました"),
        # In the terminal every seat chooses its move at once, each round: who has chosen is not news.
        "intent_submitted": lambda: Text("", ""),
        "step_order": lambda: Text(f"Round {data['step'] + 1}: moves in the order {seat_list(data['order'], ' → ')}",
                                   f"ラウンド{data['step'] + 1}: 行動順 {seat_list(data['order'], ' → ')}"),
        "period_over": lambda: Text(
            f"Period {data['period'] + 1} is over" + (f": {data['healthy']} healthy, {data['infected']} infected"
                                                      if "healthy" in data else ""),
            f"ピリオド{data['period'] + 1}終了" + (f": 正常{data['healthy']}人、感染{data['infected']}人"
                                                if "healthy" in data else "")),
        "period_started": lambda: Text(f"Period {data['period'] + 1} begins", f"ピリオド{data['period'] + 1}開始"),
        "time_up": qualify,
    }
    make = texts.get(kind)
    return None if make is None else make()(lang)


def describe_events(kind: str, events: list[dict[str, Any]], lang: Lang, names: Sequence[str] = ()) -> str | None:
    """Everyone's sealed move of a round as one line."""
    return "" if kind == "intent_submitted" else None
