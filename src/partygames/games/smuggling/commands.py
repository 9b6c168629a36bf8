"""`partygames analyze smuggling`: the equilibrium of one small game (mounted by the lead's CLI)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from partygames.cli.bilingual import LangOption, plain, plot_saved, plot_target, working
from partygames.engine.text import Text
from partygames.games.smuggling.analysis import DEFAULT_GRID, TOLERANCE, doubt_limit, plot, solve
from partygames.games.smuggling.settlement import OPP_START, trunk_cap

_OK = Text("ok", "合格")
_FAILED = Text("FAILED", "不合格")
_SIDES = (("smuggler", Text("Smuggler", "密輸人"), Text("trunk (yen)", "ケースの中身(円)")),
          ("inspector", Text("Inspector", "検査官"), Text("doubt (yen)", "ダウト額(円)")))
_TOP = Text("{side}: top support points", "{side}: 確率の高い金額")
_PROBABILITY = Text("probability", "確率")
_PASS = Text("pass", "パス")


def analyze(
    grid: Annotated[int, typer.Option(
        help="Grid step in yen for both amounts.\n\nケースの中身とダウト額の格子の刻み(円)。", min=1)] = DEFAULT_GRID,
    inspector_balance: Annotated[int | None, typer.Option(
        help="The inspector's third-country balance in yen (doubts are capped at twice it).\n\n"
             "検査官の第3国口座の残高(円)。ダウトはその2倍まで。", min=0)] = None,
    smuggler_balance: Annotated[int, typer.Option(
        help="The smuggler's opponent-country balance in yen (the trunk cap is 100,000,000 or this).\n\n"
             "密輸人の相手国口座の残高(円)。アタッシュケースの上限は 100,000,000円とこの残高の少ない方。",
        min=0)] = OPP_START,
    top: Annotated[int, typer.Option(
        help="How many support points to list per side.\n\n各側で表示する金額の数(確率の高い順)。", min=1)] = 10,
    plot_path: Annotated[Path | None, typer.Option("--plot", help=(
        "Save a PNG plot of both strategies here (default: smuggling-equilibrium.png in your user data "
        "folder; the path is printed).\n\n両者の戦略の PNGグラフをここに保存(既定: ユーザーデータフォルダの "
        "smuggling-equilibrium.png。保存先を表示します)。"))] = None,
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not save the plot.\n\nグラフを保存しない。")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the solution as JSON.\n\n解をJSONで出力。")] = False,
    lang: LangOption = "en",
) -> None:
    """The equilibrium of one small game. 小ゲーム1回の均衡。

    Solves one small game as a zero-sum game by linear programming on a grid.
    The payoff is the change in the difference of the teams' third-country totals (smuggler's side):
    pass T; caught -T; empty trunk doubted +X; doubt below the trunk T + X.

    小ゲーム1回をゼロ和ゲームとして、金額の格子上で線形計画法により解きます。
    利得は両チームの第3国口座の合計の差の変化(密輸側から見て):
    パス T、摘発 -T、空のケースにダウト +X、ダウト額不足 T + X。
    """
    console = Console()
    plot_path = plot_target(plot_path, no_plot, "smuggling-equilibrium.png")
    stake = trunk_cap(smuggler_balance)
    with working(Text("Solving the small game by linear programming", "線形計画法で小ゲームを解いています"), lang):
        solution = solve(stake, doubt_limit(inspector_balance), grid)
    ok = solution.exploitability <= TOLERANCE * max(stake, 1)
    if plot_path is not None:
        plot(solution, plot_path)
    if as_json:
        data = solution.to_json(top) | {"grid": grid, "inspector_balance": inspector_balance,
                                        "smuggler_balance": smuggler_balance, "checked": ok,
                                        "plot": None if plot_path is None else str(plot_path)}
        typer.echo(json.dumps(data, indent=2))
    else:
        strategies = f"{len(solution.trunks)} x {len(solution.doubts)}"
        console.print(Text(f"Trunk cap {stake:,} yen; grid {grid:,} yen ({strategies} pure strategies)",
                           f"アタッシュケースの上限 {stake:,} 円、格子 {grid:,} 円(純粋戦略 {strategies})")(lang))
        if inspector_balance is not None:
            console.print(Text(f"Inspector's third-country balance {inspector_balance:,} yen: "
                               f"doubts up to {2 * inspector_balance:,} yen",
                               f"検査官の第3国口座 {inspector_balance:,} 円: "
                               f"ダウトは {2 * inspector_balance:,} 円まで")(lang))
        value, share = f"[bold]{solution.value:,.0f}[/]", f"{solution.value / max(stake, 1):.6f}"
        console.print(Text(f"Value (smuggling team's expected gain in the difference): {value} yen = {share} of the stake",
                           f"ゲームの値(密輸側が得る差の期待値): {value} 円 = 上限の {share} 倍")(lang))
        status = f"[green]{_OK(lang)}[/]" if ok else f"[red]{_FAILED(lang)}[/]"
        exploit, limit = plain(solution.exploitability), plain(TOLERANCE, 1)
        console.print(Text(f"Exploitability {exploit} yen (limit: {limit} of the stake): {status}",
                           f"搾取可能性 {exploit} 円(許容: 上限の {limit} 倍): {status}")(lang))
        for side, label, head in _SIDES:
            table = Table(title=_TOP(lang).format(side=label(lang)))
            table.add_column(head(lang), justify="right")
            table.add_column(_PROBABILITY(lang), justify="right")
            for amount, prob in solution.top(side, top):
                name = _PASS(lang) if side == "inspector" and amount == 0 else f"{amount:,}"
                table.add_row(name, f"{prob:.6f}")
            console.print(table)
        if plot_path is not None:
            console.print(plot_saved(plot_path, lang), soft_wrap=True)  # one line: a path to copy
    if not ok:
        raise typer.Exit(code=1)
