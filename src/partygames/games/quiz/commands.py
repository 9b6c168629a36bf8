"""`partygames analyze quiz`: win rate against recall probability, and the worth of a peek."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from partygames.cli.bilingual import LangOption, plot_saved, plot_target, progress
from partygames.cli.prose import Phrases
from partygames.engine.text import Lang, Text
from partygames.games.quiz.analysis import RECALLS, peek_worth, plot, win_rates

_NOT_NUMBERS = Text("give probabilities separated by commas, e.g. 0.1,0.5,0.9",
                    "確率をカンマ区切りで指定してください(例: 0.1,0.5,0.9)")
_NOT_PROBABILITIES = Text("each recall must be a distinct probability from 0 to 1",
                          "記憶の確率はそれぞれ0から1までの、互いに異なる値にしてください")
_TOO_FEW = Text("--games: {games} matches leave a recall level without a seat; {recalls} levels need at least "
                "{needed} matches at this table.",
                "--games: {games} 試合では座らない記憶の確率が出ます。{recalls} 段階ならこの人数で {needed} 試合以上必要です。")
_RECALL_HEADS = (Text("recall", "記憶の確率"), Text("seats", "席数"), Text("win rate", "勝率"),
                 Text("95% interval", "95%信頼区間"), Text("score markers", "得点マーカー(平均)"))
_PEEK_TITLE = Text("A peek at another row's card costs k markers with k peekers; its worth (uniform selection)",
                   "他の列のカードを覗き見る価値(覗き見がk人なら1枚マーカーk個、出題は一様とする)")
_PEEK_HEADS = (Text("question", "何問目"), Text("P(row asked later)", "P(その列が後で出題される)"),
               Text("P(row is Q8's)", "P(第8問の列)"), Text("score markers it can win", "得られる得点マーカー"),
               Text("pays for k <=", "元が取れるkの上限"))
_NONE = Text("none", "なし")
_SECRET_MONEY_NOTE = Text(
    "Paid in secret money a peek costs no points; its worth is chiefly the chance that the card's row is "
    "question 8's, where one more word can win 1億万.",
    "裏金マーカーで払えば、覗き見で得点は減りません。その価値は主に、カードの列が第8問で出題される確率にあります。"
    "第8問では、あと1語答えられれば1億万点を獲得できます。")


def _bad_recalls(message: Text, lang: Lang) -> typer.Exit:
    """Prints the error in the chosen language (Click's own "Invalid value" frame is English only)."""
    Console(stderr=True).print(f"[red]--recalls: {message(lang)}[/]", soft_wrap=True)
    return typer.Exit(code=1)


def _recalls(text: str, lang: Lang = "en") -> tuple[float, ...]:
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        raise _bad_recalls(_NOT_NUMBERS, lang) from None
    if not values or any(not 0 <= v <= 1 for v in values) or len(set(values)) != len(values):
        raise _bad_recalls(_NOT_PROBABILITIES, lang)
    return values


def analyze(
    games: Annotated[int, typer.Option(help="Matches to simulate (match i has seed --seed + i). シミュレーションの試合数(試合 i のシードは --seed + i)。", min=1)] = 500,
    seats: Annotated[int, typer.Option(help="Seats per table (2-5). 1卓の席数(2〜5)。", min=2, max=5)] = 4,
    recalls: Annotated[str, typer.Option(
        help="Recall probabilities of the bots, comma-separated. ボットがカードを思い出す確率(カンマ区切り)。")]
    = ",".join(map(str, RECALLS)),
    seed: Annotated[int, typer.Option(help="Seed of the first match. 最初の試合のシード。")] = 0,
    plot_path: Annotated[Path | None, typer.Option("--plot", help=(
        "Save the PNG plot here (default: quiz-recall.png in your user data folder; the path is printed).\n\n"
        "PNGのグラフの保存先(既定: ユーザーデータフォルダの quiz-recall.png。保存先を表示します)。"))] = None,
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not save the plot. グラフを保存しない。")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON. 数値をJSONで出力。")] = False,
    lang: LangOption = "en",
) -> None:
    """Win rate against recall, and the worth of a peek. 記憶の確率と勝率、覗き見の価値。

    Bots of different memory play in one table; the exact price and worth of a peek for k peekers.

    記憶力の異なるボットが同じ卓で対戦します。
    覗き見する人がk人のときの、覗き見の代金と価値を正確に求めます。
    """
    console = Console()
    levels = _recalls(recalls, lang)
    if games + seats - 1 < len(levels):  # match i seats recalls i .. i + seats - 1 (cyclically)
        needed = len(levels) - seats + 1
        Console(stderr=True).print(f"[red]{_TOO_FEW(lang).format(games=games, needed=needed, recalls=len(levels))}[/]",
                                   soft_wrap=True)
        raise typer.Exit(code=1)
    with progress(Text("Simulated matches", "シミュレーション"), games, lang) as advance:
        rows = win_rates(levels, games, seats, seed, advance)
    worth = peek_worth()
    plot_path = plot_target(plot_path, no_plot, "quiz-recall.png")
    if plot_path is not None:
        plot(rows, plot_path)
    if as_json:
        typer.echo(json.dumps({
            "games": games, "seats": seats,
            "recall": [{"recall": r.recall, "seats": r.seats, "wins": r.wins, "win_rate": r.win_rate,
                        "win_interval": [r.win_low, r.win_high], "mean_score_markers": r.mean_score}
                       for r in rows],
            "peek": [{"question": w.question, "peekers": w.peekers, "cost": w.cost, "later": str(w.later),
                      "final": str(w.final), "markers": str(w.markers)} for w in worth],
            "plot": None if plot_path is None else str(plot_path)}, indent=2))
        return
    title = Text(f"Win rate against recall ({games} matches of {seats} seats)",
                 f"記憶の確率と勝率({seats} 席の卓で {games} 試合)")
    table = Table(title=title(lang))
    for head in _RECALL_HEADS:
        table.add_column(Phrases(head(lang), lang), justify="right")
    for r in rows:
        table.add_row(f"{r.recall:.2f}", str(r.seats), f"{r.win_rate:.3f}", f"[{r.win_low:.3f}, {r.win_high:.3f}]",
                      f"{r.mean_score:.2f}")
    console.print(table)
    peeks = Table(title=_PEEK_TITLE(lang))
    for head in _PEEK_HEADS:
        peeks.add_column(Phrases(head(lang), lang), justify="right")
    for w in worth:
        if w.peekers == 1:
            paying = [x.peekers for x in worth if x.question == w.question and x.pays_in_score_markers]
            peeks.add_row(str(w.question), f"{w.later} ({float(w.later):.3f})", f"{w.final} ({float(w.final):.3f})",
                          f"{w.markers} ({float(w.markers):.3f})", str(max(paying)) if paying else _NONE(lang))
    console.print(peeks)
    console.print(Phrases(_SECRET_MONEY_NOTE(lang), lang))
    if plot_path is not None:
        console.print(plot_saved(plot_path, lang), soft_wrap=True)
