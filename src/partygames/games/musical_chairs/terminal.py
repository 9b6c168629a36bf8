"""Terminal rendering of Musical Chairs: a text map of the island, the chairs, the people and one's
medals (pure functions of a view)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table

from partygames.cli.layout import Fit
from partygames.cli.narration import people
from partygames.engine import Text
from partygames.engine.names import agree, name_of, subject_of
from partygames.engine.text import Lang
from partygames.games.musical_chairs.island import position
from partygames.games.musical_chairs.labels import LABELS

MAP_COLUMNS, MAP_ROWS = 48, 16
#: Result details whose values are seats.
SEAT_KEYS = frozenset({"winner", "players"})
LEGEND = Text("@ you   p player   g gallery   T totem pole   1, 2… chairs (* taken)   . land   ~ sea",
              "@ あなた   p プレイヤー   g ガヤ   T トーテムポール   1, 2… イス(* 着席済み)   . 陸   ~ 海")


def _grid(view: dict[str, Any]) -> str:
    """The island as characters: `~` sea, `.` land, `T` the totem, chair numbers (`*` lit), people as
    `@` (you), `p` (players) and `g` (ガヤ)."""
    island = view["island"]
    width, height = island["width"], island["height"]
    cx, cy, rx, ry = island["totem"][0], island["totem"][1], island["rx"], island["ry"]
    rows = []
    for r in range(MAP_ROWS):
        y = (r + 0.5) * height / MAP_ROWS
        row = []
        for c in range(MAP_COLUMNS):
            x = (c + 0.5) * width / MAP_COLUMNS
            row.append("." if ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1 else "~")
        rows.append(row)

    def put(point: list[int] | tuple[int, int], text: str) -> None:
        c = min(MAP_COLUMNS - 1, int(point[0] * MAP_COLUMNS / width))
        r = min(MAP_ROWS - 1, int(point[1] * MAP_ROWS / height))
        for i, ch in enumerate(text):
            if c + i < MAP_COLUMNS:
                rows[r][c + i] = ch

    put(island["totem"], "T")
    for person in view["people"]:
        if person["motion"] is not None:
            put(position(person["motion"], view["now"]), "p" if person["role"] == "player" else "g")
    for chair in view["chairs"]:
        if not chair["removed"]:
            put(chair["at"], f"{chair['number']}{'*' if chair['occupant'] is not None else ''}")
    if view["seat"] is not None and view["people"][view["seat"]]["motion"] is not None:
        put(position(view["people"][view["seat"]]["motion"], view["now"]), "@")
    return "\n".join("".join(row) for row in rows)


def _chairs(view: dict[str, Any], lang: Lang, names: Sequence[str]) -> Table:
    table = Table(title=Text("Chairs", "イス")(lang))
    for header in (Text("No.", "番号"), Text("Seated", "着席"), Text("Held by", "押さえ"), Text("For", "指名"),
                   Text("Waiting", "待機")):
        table.add_column(header(lang), no_wrap=True)
    mine = view["people"][view["seat"]]["last_chair"] if view["seat"] is not None else None
    for chair in view["chairs"]:
        if chair["removed"]:
            continue
        lamp = "-" if chair["occupant"] is None else f"● {_who(names, chair['occupant'], lang)}"
        number = f"{chair['number']}" + (Text(" (not for you)", "(あなたは不可)")(lang) if chair["number"] == mine else "")
        table.add_row(number, lamp, _who(names, chair["holder"], lang), _who(names, chair["for"], lang),
                      ", ".join(_who(names, s, lang) for s in chair["waiting"]))
    return table


def _who(names: Sequence[str], seat: int | None, lang: Lang) -> str:
    return "-" if seat is None else subject_of(names, seat, lang)


def _people(view: dict[str, Any], lang: Lang, names: Sequence[str]) -> Group:
    """A row per player (and per player who went out); the ガヤ who never played, in a line of names."""
    table = Table(title=Text("Players", "プレイヤー")(lang))
    for header in (Text("Who", "参加者"), Text("Role", "役割"), Text("Heading for", "目的地"), Text("Totem", "タッチ"),
                   Text("Seat taken", "着席"), Text("Last chair", "前回のイス")):
        # A name whole; a role's words wrap where the width runs out.
        table.add_column(header(lang), no_wrap=header.en == "Who", overflow="fold")
    gallery: list[int] = []
    for seat, person in enumerate(view["people"]):
        if person["role"] != "player" and person["out"] is None:
            gallery.append(seat)
            continue
        role = Text("player", "プレイヤー")(lang) if person["role"] == "player" else Text("gallery", "ガヤ")(lang)
        if person["out"] is not None:
            role += Text(f" (out in period {person['out']})", f"(第{person['out']}ピリオドで敗退)")(lang)
        target = person["target"] or {}
        heading = {"chair": f"{Text('chair', 'イス')(lang)} {target.get('chair')}",
                   "totem": Text("totem", "トーテム")(lang), "point": Text("a spot on the island", "島の地点")(lang)}.get(
            target.get("kind", ""), "-")
        table.add_row(subject_of(names, seat, lang), role, heading, "✓" if person["touched"] else "",
                      _chair(person["chair"]), _chair(person["last_chair"]))
    parts: list[RenderableType] = [table]
    if gallery:
        # Those in the table who went out are in the gallery too: this line counts the gallery from the start.
        parts.append(Text(f"Gallery from the start ({len(gallery)}): ", f"最初からのガヤ({len(gallery)}人): ")(lang)
                     + people(names, gallery, lang, spelled=8 if lang == "en" else 6))
    return Group(*parts)


def _chair(chair: int | None) -> str:
    return "-" if chair is None else str(chair)


def _medals(medals: dict[str, int], lang: Lang, names: Sequence[str]) -> str:
    """A wallet by the names on the medals: "you × 3, Bot Aoi × 1" ("" when empty)."""
    return ("、" if lang == "ja" else ", ").join(f"{name_of(names, int(name), lang)} × {n}" for name, n in medals.items())


def _shown(view: dict[str, Any], lang: Lang, names: Sequence[str]) -> list[str]:
    """A line per seat that showed you its medals, from its latest showing (medals change hands), newest
    first."""
    latest = {shown["from"]: shown for shown in view["shown_to_me"]}
    lines = []
    for seat, shown in reversed(latest.items()):
        medals = _medals(shown["medals"], lang, names)
        who = subject_of(names, seat, lang)
        lines.append(Text(f"{who} showed you: {medals or 'no medals'}",
                          f"{who}が見せたメダル: {medals or 'なし'}")(lang))
    return lines


def _gather_hint(view: dict[str, Any], lang: Lang) -> str:
    """What the gathering is for: the parent vote opens when it ends (near the totem, with `vote_at_totem`)."""
    if view["vote_at_totem"]:
        reach = view["totem_reach"]
        return Text(f"Seating is settled. The parent vote opens when the time is up: only a ballot cast within "
                    f"{reach} m of the totem pole counts.",
                    f"着座確定。時間になると親決め投票が始まります。トーテムポールから{reach}m以内で投じた票だけが"
                    f"有効です。")(lang)
    return Text("Seating is settled. The parent vote opens when the time is up.",
                "着座確定。時間になると親決め投票が始まります。")(lang)


def render(view: dict[str, Any], lang: Lang = "en", names: Sequence[str] = ()) -> RenderableType:
    """The phase and its countdown, the map beside the chairs, the players, the last tally and your medals."""
    head = (f"{Text('Period', 'ピリオド')(lang)} {view['period']} — {LABELS.phases[view['phase']](lang)}"
            f"{Text(' (re-run)', '(やり直し)')(lang) if view['rerun'] else ''}")
    if view["phase_ends"] is not None:
        seconds = max(0, view["phase_ends"] - view["now"]) / 1000
        head += Text(f"   Time left: {seconds:.1f} s", f"   残り時間: {seconds:.1f}秒")(lang)
    if view["parent"] is not None:
        head += f"   {Text('Parent', '親')(lang)}: {subject_of(names, view['parent'], lang)}"
    lines = [head]
    if view["phase"] == "gather":
        lines.append(_gather_hint(view, lang))
    if view["candidates"] and view["phase"] in ("vote", "runoff"):
        joiner = "、" if lang == "ja" else ", "
        lines.append(f"{Text('Candidates', '候補')(lang)}: {joiner.join(name_of(names, s, lang) for s in view['candidates'])}")
    if view["history"]:
        entry = view["history"][-1]
        tally = entry.get("runoff") or entry.get("vote")
        if tally:
            votes = ("、" if lang == "ja" else ", ").join(f"{name_of(names, int(seat), lang)} {n}"
                                                        for seat, n in tally["votes"].items())
            lines.append(f"{Text('Last tally', '直近の開票')(lang)}: {votes}; "
                         f"{Text('abstained', '棄権')(lang)} {tally['abstained']}")
        removed = [e["removed"] for e in view["history"] if e.get("removed")]
        if removed:
            lines.append(f"{Text('Removed chairs', '除外されたイス')(lang)}: {', '.join(map(str, removed))}")
    if view["my_medals"] is not None:
        lines.append(f"{Text('Your medals (by the name on them)', 'あなたのメダル(名前別)')(lang)}: "
                     f"{_medals(view['my_medals'], lang, names) or '-'}")
    lines += _shown(view, lang, names)
    if view["my_plan"]:
        lines.append(f"{Text('Your chair plan', 'あなたのイスの希望順')(lang)}: {' → '.join(map(str, view['my_plan']))}")
    beside = Table.grid(padding=(0, 3))
    beside.add_column(width=MAP_COLUMNS, no_wrap=True)
    beside.add_column()
    beside.add_row(_grid(view), _chairs(view, lang, names))
    # The chairs' table below the map where the terminal is too narrow for both whole.
    island = Fit(beside, Group(_grid(view), _chairs(view, lang, names)))
    title = Text("Musical Chairs", "イス取りゲーム")(lang)
    return Panel(Group("\n".join(lines), island, LEGEND(lang), _people(view, lang, names)), title=title)


#: The moves keep their keys from race to race (`cli/terminal.py`): what the phase asks of the seat is 1 (its
#: chair plan, a hold, its ballot, the chair to remove, or nothing to plan), a ガヤ's stop 2, a gift 3 and
#: showing one's medals 4, whether or not one holds medals to give.
ACTION_KEYS = {"plan": "1", "hold": "1", "vote": "1", "remove_chair": "1", "pass": "1", "stop": "2", "give": "3",
               "show_medals": "4"}


def choice_text(param: str, value: Any, view: dict[str, Any], lang: Lang, names: Sequence[str] = (),
                action: str = "") -> str | None:
    """A chair as "chair 3", a person by name, a blank ballot as such."""
    if param in ("chair", "chairs") and isinstance(value, int):
        return Text(f"chair {value}", f"イス{value}")(lang)
    if param in ("to", "player", "candidate", "name"):
        if value == "blank":
            return Text("a blank vote", "白票")(lang)
        if isinstance(value, int):
            return name_of(names, value, lang)
    return None


def param_note(action: str, param: str, lang: Lang) -> str | None:
    """The chair plan runs the whole race: what it does with the chairs on it, and with those left off."""
    if action != "plan" or param != "chairs":
        return None
    return Text("The whole race follows this plan: you run to the totem pole, then to the first chair of the plan "
                "still open to you, and on to the next when someone beats you there. A chair left off the plan "
                "is never tried: once every chair on it is taken, you stay standing. List every chair you would "
                "take, best first.",
                "イス取りはこの希望順のとおりに進みます。トーテムポールにタッチした後、希望順のうちまだ座れる最初のイスへ走り、"
                "先を越されたら次のイスへ向かいます。希望順に入れなかったイスには向かいません。希望順のイスがすべて埋まると、"
                "あなたは座れずに終わります。座ってよいイスはすべて、よい順に入れてください。")(lang)


def choice_key(param: str, value: Any, view: dict[str, Any], action: str = "") -> str | None:
    """A chair is typed as its number (as on the map and in the table); a person by their seat's number
    from 1, the same in every menu and every round however many are still candidates or players; a blank
    ballot as 0."""
    if param in ("chair", "chairs") and isinstance(value, int):
        return str(value)
    if param in ("to", "player", "candidate", "name"):
        if value == "blank":
            return "0"
        if isinstance(value, int):
            return str(value + 1)
    return None


def menu_order(param: str, values: list[Any]) -> list[Any] | None:
    """The names on the medals in seat order, as their keys run."""
    if param == "name" and all(isinstance(v, int) for v in values):
        return sorted(values)
    return None


def action_label(action: str, lang: Lang) -> str | None:
    """The rounds tempo's "pass" (nothing to plan), which the label catalog lacks."""
    return Text("Nothing to plan: wait", "作戦なし(待つ)")(lang) if action == "pass" else None


def param_label(action: str, param: str, lang: Lang) -> str | None:
    """People are chosen by name, not by seat."""
    words = {"to": Text("To", "相手"), "player": Text("Player", "プレイヤー"), "candidate": Text("Parent", "親"),
             "name": Text("Medals bearing the name of", "メダルの名前")}.get(param)
    return None if words is None else words(lang)


_EVENTS: dict[str, Text] = {
    # A seat named in the data ({seat}, {from}, {to}, {name}) reads as its name ("Bot Aoi", "you"), opening an
    # English sentence capitalised ({Seat}, {From}: "You", "Seat 3") and as a possessive in {seat_poss},
    # {Seat_poss} and {name_poss} ("your", "Bot Aoi's"); the English verb agrees with the sentence's subject
    # (the seat, else the giver) through {s}, {es}, {is}, {has} and {their} ("You sit", "Bot Aoi sits").
    "race_started": Text("GO! Touch the totem pole, then find a chair.", "スタート! トーテムポールにタッチしてからイスへ。"),
    "seated": Text("{Seat} sit{s} on chair {chair}.", "{seat}がイス{chair}に座りました。"),
    "released": Text("{Seat_poss} chair {chair} is free again.", "{seat}のイス{chair}が空きました。"),
    "out": Text("{Seat} {is} out and join{s} the gallery.", "{seat}は敗退し、ガヤになりました。"),
    "parent": Text("{Seat} {is} the parent.", "{seat}が親に決まりました。"),
    "chair_removed": Text("Chair {chair} leaves the game.", "イス{chair}が除外されました。"),
    "medals_given": Text("{From} give{s} {to} {count} medal(s) with {name_poss} name.",
                         "{from}が{to}に{name}の名前のメダルを{count}枚渡しました。"),
    "medals_shown": Text("{From} show{s} {to} {their} medals.", "{from}が{to}にメダルを見せました。"),
    "medals_void": Text("The medals with {name_poss} name are void.", "{name}の名前のメダルは無効になりました。"),
    "touched": Text("{Seat} touch{es} the totem pole.", "{seat}がトーテムポールにタッチ。"),
    # Each runner's course and arrival are left out: the terminal tells a race by who touched and who sat.
    "course": Text("", ""),
    "arrived": Text("", ""),
    "stood": Text("{Seat} stand{s} up from chair {chair}.", "{seat}がイス{chair}から離れました。"),
    "held": Text("{Seat} hold{s} chair {chair}.", "{seat}がイス{chair}を押さえました。"),
    "hold_ended": Text("{Seat} stop{s} holding chair {chair}.", "{seat}がイス{chair}を押さえるのをやめました。"),
    "planned": Text("{Seat} {has} made a plan.", "{seat}が作戦を決めました。"),
    "break": Text("A break: talk, medals and free movement.", "休憩: 会話・メダル・自由移動。"),
    "race_ended": Text("The race is over.", "レース終了。"),
    "gather": Text("Seating is settled: the parent vote follows the gathering.",
                   "着座確定: 集合時間の後に親決め投票です。"),
    "vote_opened": Text("The parent vote is open.", "親決め投票が始まりました。"),
    "ballot_cast": Text("{Seat} {has} voted.", "{seat}が投票しました。"),
    "tally": Text("The votes are counted.", "開票されました。"),
    "game_over": Text("The game is over.", "ゲーム終了。"),
}

_NAMED = ("seat", "from", "to", "name")
"""The keys of an event's data that hold a seat."""


def describe_event(event: dict[str, Any], lang: Lang = "en", names: Sequence[str] = (),
                   view: Mapping[str, Any] | None = None) -> str | None:
    """One line for the events a player follows, naming the seats by `names` (by number where there is none):
    "Bot Aoi sits on chair 2.", "ボット アオイがイス2に座りました。"; None for the others (shown as their type and
    data)."""
    text = _EVENTS.get(event["type"])
    if text is None:
        return None
    data = event["data"]
    fields = dict(data)
    for key in _NAMED:
        seat = data.get(key)
        if isinstance(seat, int) and not isinstance(seat, bool):
            name, subject = name_of(names, seat, lang), subject_of(names, seat, lang)
            fields[key], fields[key.capitalize()] = name, subject
            fields[f"{key}_poss"] = agree(name, f"{name}'s", "your")
            fields[f"{key.capitalize()}_poss"] = agree(name, f"{subject}'s", "Your")
    doer = str(fields.get("seat", fields.get("from", "")))
    fields |= {"s": agree(doer, "s", ""), "es": agree(doer, "es", ""), "is": agree(doer, "is", "are"),
               "has": agree(doer, "has", "have"), "their": agree(doer, "their", "your")}
    return text(lang).format(**fields)


def describe_events(kind: str, events: list[dict[str, Any]], lang: Lang, names: Sequence[str] = ()) -> str | None:
    """A race in a few lines (who touched the totem pole, in order; who sat where), and everyone's plans and
    ballots, each kind as one line."""
    if kind not in ("touched", "seated", "planned", "ballot_cast"):
        return "" if kind in ("course", "arrived") else None
    seats = [e["data"]["seat"] for e in events]
    if kind == "touched":
        listed = people(names, seats, lang, spelled=len(seats))
        return Text(f"Touched the totem pole: {listed}.", f"トーテムポールにタッチ: {listed}。")(lang)
    if kind == "seated":
        sat = [(name_of(names, e["data"]["seat"], lang), e["data"]["chair"]) for e in events]
        return Text("Seated: " + ", ".join(f"{who} (chair {chair})" for who, chair in sat) + ".",
                    "着席: " + "、".join(f"{who}(イス{chair})" for who, chair in sat) + "。")(lang)
    if kind == "planned":
        return Text(f"{people(names, seats, lang, start=True)} have made their plans.", f"{people(names, seats, lang)}が作戦を決めました。")(lang)
    if kind == "ballot_cast":
        return Text(f"{people(names, seats, lang, start=True)} have voted.", f"{people(names, seats, lang)}が投票しました。")(lang)
    return None
