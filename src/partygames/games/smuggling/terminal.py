"""Terminal rendering of a seat's view of the Smuggling Game (pure functions of the view)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table

from partygames.engine import Text
from partygames.engine.text import Lang
from partygames.games.smuggling.labels import LABELS

_TEAM = {"north": Text("North", "北の国"), "south": Text("South", "南の国")}
_OUTCOME = {"passed": Text("passed", "パス(密輸成功)"), "caught": Text("caught", "摘発"),
            "empty_doubted": Text("empty trunk doubted", "空のケースにダウト"),
            "under_doubted": Text("doubt too low", "ダウト額不足")}


def _yen(amount: int | None) -> str:
    return "-" if amount is None else f"{amount:,}"


def _accounts(view: dict[str, Any], lang: Lang) -> Table:
    table = Table(title=Text("Accounts", "口座")(lang))
    for header in (Text("Seat", "席"), Text("Team", "チーム"), Text("Third country", "第3国口座"),
                   Text("Opponent country", "相手国口座"), Text("Role", "役割")):
        table.add_column(header(lang), justify="right" if header.en != "Team" else "left")
    for seat, account in enumerate(view["accounts"]):
        team = "north" if seat % 2 == 0 else "south"
        role = ""
        if seat == view["smuggler"]:
            role = Text("smuggler", "密輸人")(lang)
        elif seat == view["inspector"]:
            role = Text("inspector", "検査官")(lang)
        me = " *" if seat == view["seat"] else ""
        table.add_row(f"{seat}{me}", _TEAM[team](lang), _yen(account["third"]), _yen(account["opp"]), role)
    return table


def _ledger(view: dict[str, Any], lang: Lang, last: int = 8) -> Table:
    table = Table(title=Text("Ledger (latest small games)", "記録(最近の小ゲーム)")(lang))
    for header in (Text("#", "#"), Text("Smuggler", "密輸人"), Text("Inspector", "検査官"), Text("Trunk", "ケース"),
                   Text("Declaration", "宣言"), Text("Outcome", "結果")):
        table.add_column(header(lang))
    for entry in view["ledger"][-last:]:
        declaration = Text("pass", "パス")(lang) if entry["doubt"] is None else \
            f"{Text('doubt', 'ダウト')(lang)} {_yen(entry['doubt'])}"
        table.add_row(str(entry["small_game"]), str(entry["smuggler"]), str(entry["inspector"]),
                      _yen(entry["trunk"]), declaration, _OUTCOME[entry["outcome"]](lang))
    return table


def render(view: dict[str, Any], lang: Lang = "en") -> RenderableType:
    """A panel with the phase, both teams' totals, every account and the latest ledger entries."""
    totals = view["team_totals"]
    lines = [
        f"{Text('Small game', '小ゲーム')(lang)} {view['small_game']}/{view['small_games']} — "
        f"{LABELS.phases[view['phase']](lang)}",
        f"{_TEAM['north'](lang)}: {_yen(totals['north'])}   {_TEAM['south'](lang)}: {_yen(totals['south'])}",
    ]
    if view["smuggling_team"] is not None:
        lines.append(f"{Text('Smuggling team', '密輸側')(lang)}: {_TEAM[view['smuggling_team']](lang)}")
    if view["my_team"] is not None:
        lines.append(f"{Text('Your team', 'あなたのチーム')(lang)}: {_TEAM[view['my_team']](lang)}")
    if view["trunk"] is not None:
        lines.append(f"{Text('Your trunk holds', 'あなたのケースの中身')(lang)}: {_yen(view['trunk'])}")
    if view["my_vote"] is not None:
        lines.append(f"{Text('Your vote', 'あなたの投票')(lang)}: {view['my_vote']}")
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
    return Panel(Group("\n".join(lines), _accounts(view, lang), _ledger(view, lang)), title=title)


def describe_event(event: dict[str, Any], lang: Lang = "en") -> str | None:
    """No game-specific lines yet: None lets the host show each event's type and data."""
    return None
