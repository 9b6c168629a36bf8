"""Terminal rendering of a seat's view of the Smuggling Game (pure functions of the view)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table

from partygames.cli.layout import Fit
from partygames.cli.narration import people
from partygames.engine import Text
from partygames.engine.names import acts, agree, name_of, subject_of
from partygames.engine.text import Lang
from partygames.games.smuggling.labels import LABELS

_TEAM = {team: LABELS.values[team] for team in ("north", "south")}
_OUTCOME = {"passed": Text("passed", "パス(密輸成功)"), "caught": Text("caught", "摘発"),
            "empty_doubted": Text("empty trunk doubted", "空のケースにダウト"),
            "under_doubted": Text("doubt too low", "ダウト額不足")}


def _yen(amount: int | None) -> str:
    return "-" if amount is None else f"{amount:,}"


def _role(view: dict[str, Any], seat: int, lang: Lang) -> str:
    if seat == view["smuggler"]:
        return Text("smuggler", "密輸人")(lang)
    if seat == view["inspector"]:
        return Text("inspector", "検査官")(lang)
    return ""


def _accounts(view: dict[str, Any], lang: Lang, names: Sequence[str]) -> RenderableType:
    """Both teams side by side (North's seats are the even ones), a row per pair of team members; one team
    above the other where the terminal is too narrow to show every name and amount whole."""
    teams = {team: [s for s in range(len(view["accounts"])) if (s % 2 == 0) == (team == "north")]
             for team in ("north", "south")}
    title = Text("Accounts", "口座")(lang)
    return Fit(_accounts_table(view, lang, names, teams, title),
               Group(*(_accounts_table(view, lang, names, {team: members}, title if team == "north" else None)
                       for team, members in teams.items())))


def _accounts_table(view: dict[str, Any], lang: Lang, names: Sequence[str], teams: dict[str, list[int]],
                    title: str | None) -> Table:
    table = Table(title=title)
    for team in teams:
        for header in (_TEAM[team], Text("Third country", "第3国口座"), Text("Opponent country", "相手国口座")):
            table.add_column(header(lang), justify="left" if header is _TEAM[team] else "right", no_wrap=True)
    for row in range(max(len(members) for members in teams.values())):
        cells: list[str] = []
        for members in teams.values():
            if row < len(members):
                seat = members[row]
                account = view["accounts"][seat]
                role = _role(view, seat, lang)
                who = subject_of(names, seat, lang) + (Text(f" ({role})", f"({role})")(lang) if role else "")
                cells += [who, _yen(account["third"]), _yen(account["opp"])]
            else:
                cells += [""] * 3
        table.add_row(*cells)
    return table


def _ledger(view: dict[str, Any], lang: Lang, names: Sequence[str], last: int = 6) -> Table:
    table = Table(title=Text("Ledger (latest small games)", "記録(最近の小ゲーム)")(lang))
    for header in (Text("#", "#"), Text("Smuggler", "密輸人"), Text("Inspector", "検査官"), Text("Trunk", "ケース"),
                   Text("Declaration", "宣言"), Text("Outcome", "結果")):
        # Names and amounts whole; the outcome's words wrap where the width runs out.
        table.add_column(header(lang), no_wrap=header.en != "Outcome", overflow="fold")
    for entry in view["ledger"][-last:]:
        declaration = Text("pass", "パス")(lang) if entry["doubt"] is None else \
            f"{Text('doubt', 'ダウト')(lang)} {_yen(entry['doubt'])}"
        table.add_row(str(entry["small_game"]), subject_of(names, entry["smuggler"], lang),
                      subject_of(names, entry["inspector"], lang), _yen(entry["trunk"]), declaration,
                      _OUTCOME[entry["outcome"]](lang))
    return table


def render(view: dict[str, Any], lang: Lang = "en", names: Sequence[str] = ()) -> RenderableType:
    """A panel with the phase, both teams' totals, every account and the latest ledger entries."""
    totals = view["team_totals"]
    lines = [
        f"{Text('Small game', '小ゲーム')(lang)} {view['small_game']}/{view['small_games']} — "
        f"{LABELS.phases[view['phase']](lang)}   "
        f"{_TEAM['north'](lang)}: {_yen(totals['north'])}   {_TEAM['south'](lang)}: {_yen(totals['south'])}",
    ]
    teams = []
    if view["smuggling_team"] is not None:
        teams.append(f"{Text('Smuggling team', '密輸側')(lang)}: {_TEAM[view['smuggling_team']](lang)}")
    if view["my_team"] is not None:
        teams.append(f"{Text('Your team', 'あなたのチーム')(lang)}: {_TEAM[view['my_team']](lang)}")
    if teams:
        lines.append("   ".join(teams))
    if view["trunk"] is not None:
        lines.append(f"{Text('Your trunk holds', 'あなたのケースの中身')(lang)}: {_yen(view['trunk'])}")
    if view["my_vote"] is not None:
        lines.append(f"{Text('Your vote', 'あなたの投票')(lang)}: {name_of(names, view['my_vote'], lang)}")
    result = view["result"]
    if result is not None:
        winner = result["detail"]["winning_team"]
        lines.append(Text("Draw", "引き分け")(lang) if winner is None else
                     f"{Text('Winner', '勝者')(lang)}: {_TEAM[winner](lang)}")
        if view["seat"] is not None:
            mine = result["seats"][view["seat"]]["holdings"]
            lines.append(f"{Text('Your prize after repaying the loan', '借金返済後のあなたの賞金')(lang)}: "
                         f"{_yen(mine['net'])}")
    title = Text("The Smuggling Game", "密輸ゲーム")(lang)
    parts: list[RenderableType] = ["\n".join(lines), _accounts(view, lang, names)]
    if view["ledger"]:
        parts.append(_ledger(view, lang, names))
    return Panel(Group(*parts), title=title)


def value_text(key: str, value: Any, lang: Lang, names: Sequence[str] = ()) -> str | None:
    """A drawn match says why nobody won: both teams' totals are equal, so both are ranked first."""
    if key == "winning_team" and value is None:
        return Text("none: equal totals, both teams rank first", "なし: 合計が同額で両チームとも1位")(lang)
    return None


def _team(team: str, lang: Lang) -> str:
    return _TEAM[team](lang)


def _totals(totals: dict[str, int], lang: Lang) -> str:
    return "   ".join(f"{_team(team, lang)} {_yen(amount)}" for team, amount in totals.items())


#: An inspector's decision keeps its keys from round to round (`cli/terminal.py`): 1 pass, 2 doubt.
ACTION_KEYS = {"pass": "1", "doubt": "2"}


def choice_text(param: str, value: Any, view: dict[str, Any], lang: Lang, names: Sequence[str] = (),
                action: str = "") -> str | None:
    """A candidate teammate by name ("you", "Bot Aoi")."""
    if param != "candidate" or not isinstance(value, int):
        return None
    return name_of(names, value, lang)


def param_label(action: str, param: str, lang: Lang) -> str | None:
    """A teammate is chosen by name, not by seat."""
    return Text("Teammate", "チームメンバー")(lang) if param == "candidate" else None


def describe_event(event: dict[str, Any], lang: Lang = "en", names: Sequence[str] = (),
                   view: Mapping[str, Any] | None = None) -> str | None:
    """One sentence per event: the vote, the representatives, the packing and each small game's settlement,
    naming the seats by `names` (by number where there is none)."""
    ja = lang == "ja"
    kind, d = event["type"], event["data"]

    def who(seat: int) -> str:
        return name_of(names, seat, lang)

    if kind == "vote_opened":
        return (f"小ゲーム {d['small_game']}: 代表者投票(密輸側は{_team(d['smuggling_team'], lang)})" if ja
                else f"Small game {d['small_game']}: team vote ({_team(d['smuggling_team'], lang)} smuggles)")
    if kind == "vote_cast":
        return f"{who(d['seat'])}が投票した" if ja else f"{acts(names, d['seat'], lang, 'has', 'have')} voted"
    if kind == "representatives":
        smuggler, inspector = who(d["smuggler"]), who(d["inspector"])
        return (f"小ゲーム {d['small_game']}: 密輸人は{smuggler}、検査官は{inspector}" if ja
                else f"Small game {d['small_game']}: {smuggler} {agree(smuggler, 'smuggles', 'smuggle')}, "
                     f"{inspector} {agree(inspector, 'inspects', 'inspect')}")
    if kind == "trunk_packed":
        smuggler = who(d["smuggler"])
        return (f"{smuggler}がアタッシュケースを詰めた" if ja
                else f"{acts(names, d['smuggler'], lang, 'has', 'have')} packed the trunk")
    if kind == "trunk_contents":
        return f"あなたのケースの中身: {_yen(d['amount'])} 円" if ja else f"Your trunk holds {_yen(d['amount'])} yen"
    if kind == "settled":
        if d["doubt"] is None:
            said = "検査官はパス" if ja else "The inspector passes"
        else:
            said = f"検査官はダウト {_yen(d['doubt'])} 円" if ja else f"The inspector doubts {_yen(d['doubt'])} yen"
        trunk = f"ケースの中身 {_yen(d['trunk'])} 円" if ja else f"the trunk held {_yen(d['trunk'])} yen"
        line = f"{said}、{trunk}: {_OUTCOME[d['outcome']](lang)}。" if ja else \
            f"{said}; {trunk}: {_OUTCOME[d['outcome']](lang)}."
        return f"{line} {_totals(d['totals'], lang)}"
    if kind == "match_over":
        return f"全小ゲーム終了: {_totals(d['totals'], lang)}" if ja else f"All small games played: {_totals(d['totals'], lang)}"
    return None


def describe_events(kind: str, events: list[dict[str, Any]], lang: Lang, names: Sequence[str] = ()) -> str | None:
    """Everyone's team vote as one line."""
    if kind == "vote_cast":
        seats = [e["data"]["seat"] for e in events]
        return Text(f"{people(names, seats, lang, start=True)} have voted", f"{people(names, seats, lang)}が投票した")(lang)
    return None
