"""`partygames analyze musical-chairs`: win rates by starting spot and by bribery budget, with a plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from partygames.cli.bilingual import LangOption, interval, plot_saved, plot_target, progress, titled_table
from partygames.cli.prose import Phrases
from partygames.engine.text import Lang, Text
from partygames.games.musical_chairs.analysis import Rate, plot, win_rates

BAD_BUDGETS = Text("--budgets takes whole numbers separated by commas, e.g. 0,1,2,4.",
                   "--budgets には0以上の整数をカンマ区切りで指定します(例: 0,1,2,4)。")

SIMULATING = Text("Simulated matches", "シミュレーション")
WINS, PLAYED, RATE, INTERVAL = (Text("wins", "勝利数"), Text("played", "試合数"), Text("win rate", "勝率"),
                                Text("95% interval", "95%信頼区間"))
TABLES = (
    (Text("Win rate by starting spot (1: nearest the totem)", "スタート地点別の勝率(1: トーテムポールに最も近い)"),
     Text("group", "順位")),
    (Text("Win rate by bribery budget (own medals to ガヤ per break)",
          "買収の予算別の勝率(休憩ごとにガヤへ渡す自分のメダルの枚数)"),
     Text("group", "枚数")),
)


def _table(title: Text, group: Text, rates: list[Rate], lang: Lang) -> Table:
    """One group per row: wins, matches played, the win rate and its 95% interval."""
    table = titled_table(title, lang)
    for column in (group, WINS, PLAYED, RATE, INTERVAL):
        table.add_column(column(lang), justify="right")
    for rate in rates:
        low, high = rate.to_json()["ci95"]
        table.add_row(str(rate.group), str(rate.wins), str(rate.played), f"{rate.rate:.1%}",
                      interval(low, high, lang))
    return table


def analyze(
    matches: Annotated[int, typer.Option(help="Simulated matches (rounds tempo, heuristic bots). "
                                              "シミュレートする試合数(ラウンド制、ボット: ヒューリスティック)。",
                                         min=1)] = 200,
    players: Annotated[int, typer.Option(help="Players. プレイヤー数。", min=2, max=24)] = 6,
    gallery: Annotated[int, typer.Option(help="ガヤ(gallery). ガヤの人数。", min=0, max=30)] = 18,
    budgets: Annotated[str, typer.Option(help="Bribery budgets compared, comma-separated. "
                                              "比べる買収の予算(カンマ区切り)。")] = "0,1,2,4",
    seed: Annotated[int, typer.Option(help="Seed of the first match. 最初の試合のシード。")] = 0,
    plot_path: Annotated[Path | None, typer.Option("--plot", help=(
        "Save the PNG plot (in English) here (default: musical-chairs-win-rates.png in your user data folder; "
        "the path is printed).\n\nグラフ(PNG、英語表記)の保存先(既定: ユーザーデータフォルダの "
        "musical-chairs-win-rates.png。保存先を表示します)。"))] = None,
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not save the plot. グラフを保存しない。")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON. 数値をJSONで出力。")] = False,
    lang: LangOption = "en",
) -> None:
    """Win rates by starting spot and by bribery budget. スタート地点別・買収の予算別の勝率。

    Simulates matches of heuristic bots and reports who wins: by how near the totem a player starts, and by how many of its own medals it gives to ガヤ each break.

    ヒューリスティックのボット同士の対戦をシミュレートし、トーテムポールにどれだけ近い地点から始めたか、休憩ごとに自分のメダルを何枚ガヤに渡したかで勝率を比べます。
    """
    try:
        budget_list = [int(b) for b in budgets.split(",") if b.strip()]
    except ValueError:
        budget_list = []
    if not budget_list or min(budget_list) < 0:
        Console(stderr=True).print(Phrases(BAD_BUDGETS(lang), lang))
        raise typer.Exit(code=1)
    with progress(SIMULATING, matches, lang) as advance:
        spots, by_budget = win_rates(matches, {"players": players, "gallery": gallery}, budget_list, seed, advance)
    path = plot_target(plot_path, no_plot, "musical-chairs-win-rates.png")
    if path is not None:
        plot(spots, by_budget, path)
    if as_json:
        typer.echo(json.dumps({"matches": matches, "by_start": [r.to_json() for r in spots],
                               "by_budget": [r.to_json() for r in by_budget],
                               "plot": None if path is None else str(path)}, indent=2))
        return
    console = Console()
    for (title, group), rates in zip(TABLES, (spots, by_budget), strict=True):
        console.print(_table(title, group, rates, lang))
    if path is not None:
        console.print(plot_saved(path, lang), soft_wrap=True)
