"""Terminal rendering of a seat's Lucky Nine view, and its events as lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text as RichText

from partygames.cli.layout import Fit
from partygames.engine.names import agree, name_of, subject_of
from partygames.engine.text import Lang, Text
from partygames.games.lucky_nine.labels import CHEST_NAMES, LABELS

_L = {
    "round": Text("Round", "ラウンド"), "stake": Text("stake", "賭け金"), "turn": Text("turn", "手番"),
    "chest": Text("Chest", "チェスト"), "diamonds": Text("Diamonds", "ダイヤ"), "lamp": Text("Lamp", "ランプ"),
    "seat": Text("Who", "参加者"), "status": Text("Status", "状態"), "prizes": Text("Prizes", "賞品"),
    "house": Text("House ledger", "主催者の収支"), "last": Text("Last draw", "直前の出目"),
    "this_turn": Text("This turn", "この手番"), "you": Text("you", "あなた"), "lap": Text("lap", "周"),
    "to_act": Text("To act", "手番"),
}


def _chest(name: str, lang: Lang) -> str:
    text = CHEST_NAMES.get(name)
    return text(lang) if text else name


def render(view: dict[str, Any], lang: Lang = "en", names: Sequence[str] = ()) -> Group:
    """The round and stake, the chests with their lamps beside the players."""
    def t(key: str) -> str:
        return _L[key](lang)

    over = view["phase"] == "over"
    head = f"{t('round')} {view['round']}/{view['rounds']}"
    if not over:  # at the end no stake, lap or turn is running
        head += f" · {t('stake')} {view['stake']} · {t('lap')} {view['lap']}/{view['laps']} · {t('turn')} {view['turn_number']}"
    head += f" · {LABELS.phases[view['phase']](lang)}"
    chests = Table()
    for col in ("chest", "diamonds", "lamp"):
        chests.add_column(t(col), no_wrap=True)
    lit = set(view["lit"])
    for name, count in view["chests"].items():
        extra = ""
        if name == "diamond" and any(view["prizes"].values()):
            extra = " + " + _prizes(view["prizes"])
        chests.add_row(_chest(name, lang), f"{count}{extra}", "●" if name in lit else "○")
    players = Table()
    for col in ("seat", "diamonds", "status", "prizes"):
        players.add_column(t(col), no_wrap=True)
    for p in view["players"]:
        turn = " ▶" if p["seat"] == view["turn_seat"] else ""
        prizes = _prizes(p["prizes"])
        players.add_row(f"{subject_of(names, p['seat'], lang)}{turn}", str(p["diamonds"]),
                        _status(p["status"], over, lang), prizes)
    lines = [f"{t('house')}: {view['house']:+d}"]
    if view["last_draw"]:
        lines.append(f"{t('last')}: {_chest(view['last_draw'], lang)}")
    if view["turn_draws"]:
        lines.append(f"{t('this_turn')}: " + " → ".join(_chest(c, lang) for c in view["turn_draws"]))
    beside = Table.grid(padding=(0, 2))
    beside.add_row(chests, Group(players, RichText("\n".join(lines))))
    # The players below the chests where the terminal is too narrow for both whole.
    side = Fit(beside, Group(chests, players, RichText("\n".join(lines))))
    return Group(RichText(head, style="bold"), side)


#: A player who never dropped out, once the game is over: not "playing" any more.
TO_THE_END = Text("stayed to the end", "最後まで参加")


def _status(status: str, over: bool, lang: Lang) -> str:
    return TO_THE_END(lang) if over and status == "active" else LABELS.values[status](lang)


def _diamonds(count: int) -> str:
    return "1 diamond" if count == 1 else f"{count} diamonds"


def _prizes(prizes: dict[str, int]) -> str:
    return ", ".join(f"{name}×{count}" for name, count in prizes.items() if count)


def value_text(key: str, value: Any, lang: Lang, names: Sequence[str] = ()) -> str | None:
    """Prizes read as "elytra×1" (their names are the host's, from the options)."""
    if key in ("prizes", "prizes_left") and isinstance(value, dict):
        return _prizes(value) or ("なし" if lang == "ja" else "none")
    if key == "status" and value == "active":  # a result's status: the game is over
        return TO_THE_END(lang)
    return None


#: A decision keeps its keys from turn to turn and lap to lap (`cli/terminal.py`): 1 goes on (continue,
#: stay), 2 stops (pass, drop out).
ACTION_KEYS = {"continue": "1", "pass": "2", "stay": "1", "drop_out": "2"}


def confirm(action: dict[str, Any], view: dict[str, Any], lang: Lang, names: Sequence[str] = ()) -> str | None:
    """Dropping out asks first: it lasts until the end of the game."""
    if action["type"] != "drop_out":
        return None
    return Text("Drop out until the end of the game? You will play no more turns.",
                "ゲーム終了までドロップアウトしますか? 以後、手番は回ってきません。")(lang)


def describe_event(event: dict[str, Any], lang: Lang, names: Sequence[str] = (),
                   view: Mapping[str, Any] | None = None) -> str | None:
    """One line per event, in the player's language, naming the seats by `names` (by number where there is
    none): "Bot Aoi draws wood: hit", "You pass"."""
    ja = lang == "ja"
    d = event["data"]
    kind = event["type"]
    who = (name_of(names, d["seat"], lang) if ja else subject_of(names, d["seat"], lang)) if "seat" in d else ""

    def verb(other: str, you: str) -> str:
        return agree(who, other, you)

    if kind == "draw":
        chest = _chest(d["chest"], lang)
        if ja:
            return f"{who}: 出目は{chest}({'あたり' if d['hit'] else 'ハズレ'})"
        return f"{who} {verb('draws', 'draw')} {chest}: {'hit' if d['hit'] else 'miss'}"
    if kind in ("take", "sweep_bonus"):
        what = _chest(d["kind"], lang) if d["kind"] == "diamond" else d["kind"]
        if d["chest"] != "diamond":
            src = _chest(d["chest"], lang)
            return f"{who}: {src}から{d['count']}個獲得" if ja else f"{who} {verb('takes', 'take')} {d['count']} from {src}"
        bonus = ("(総取りボーナス)" if ja else " (sweep bonus)") if kind == "sweep_bonus" else ""
        return (f"{who}: {what}×{d['count']} 獲得{bonus}" if ja
                else f"{who} {verb('takes', 'take')} {what} x{d['count']}{bonus}")
    if kind == "pay":
        paid = ("、" if ja else ", ").join(f"{_chest(c, lang)} {n}" for c, n in d["paid"].items())
        return f"{who}: 投入 {paid}(本来 {d['owed']})" if ja else f"{who} {verb('pays', 'pay')} {paid} (owed {d['owed']})"
    if kind == "chain_bonus":
        return (f"{who}: チェーンボーナス {d['diamonds']}" if ja
                else f"{who} {verb('gets', 'get')} a chain bonus: {_diamonds(d['diamonds'])}")
    if kind == "refill":
        return f"主催者が補充: 各{d['diamonds']}" if ja else f"The house refills four chests with {d['diamonds']} each"
    if kind == "round_start":
        top_up = ("、" if ja else ", ").join(f"{_chest(c, lang)} +{n}" for c, n in d["top_up"].items() if n)
        if ja:
            return f"ラウンド{d['round']} 開始(賭け金 {d['stake']})" + (f"。補充: {top_up}" if top_up else "")
        return f"Round {d['round']} begins (stake {d['stake']})" + (f"; the house tops up {top_up}" if top_up else "")
    if kind == "disqualified":
        return f"{who}: 失格" if ja else f"{who} {verb('is', 'are')} disqualified"
    if kind == "drop_out":
        return f"{who}: ドロップアウト" if ja else f"{who} {verb('drops', 'drop')} out"
    if kind == "pass":
        return f"{who}: パス" if ja else f"{who} {verb('passes', 'pass')}"
    if kind == "game_over":
        return f"ゲーム終了。主催者が{d['house_collects']}個回収" if ja else \
            f"Game over: the house collects {_diamonds(d['house_collects'])}"
    return None
