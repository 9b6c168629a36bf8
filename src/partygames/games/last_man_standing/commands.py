"""`partygames analyze last-man-standing`: the exact first fight, the strategies' win rates, the value of
a card and of buying one, with a plot."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from partygames.analysis.files import output_path
from partygames.cli.bilingual import LangOption, interval, plot_saved, titled_table
from partygames.cli.prose import Phrases
from partygames.engine.text import Lang, Text
from partygames.games.last_man_standing.analysis import (
    FirstFight,
    Interval,
    OpeningCheck,
    Report,
    Study,
    average,
    first_fights,
    plot,
    rank_name,
    simulate,
)
from partygames.games.last_man_standing.strategies import strategy_title

_TOO_MANY_PAIRS = Text("--pairs cannot exceed --table: each pair replays one of the table's matches.",
                       "--pairs は --table 以下にしてください。各組は --table の試合の1つをもう一度行います。")
_HEADLINE = Text("Last Man Standing at {seats} seats (the seed's rules: $50 each, payments for hires set aside); "
                 "seed {seed}.",
                 "ラストマンスタンディング、{seats}人(元ルール: 各自$50、雇用の支払いは横に分けておく)。シード {seed}。")
_EXACT_TASK = Text("Exact first fight", "最初の戦いを厳密に計算")
_MATCHES_TASK = Text("Matches", "試合")

_FIGHT_TITLE = Text("Round 1: my fighter against the others' cards drawn at random (exact; random bots: {checks} "
                    "matches, 95%)",
                    "ラウンド1: 他の人のカードが無作為のときの自分の闘士(厳密値。実測はランダムボットの{checks}試合、95%)")
_FIGHT_HEADS = (Text("my card", "カード"), Text("survives", "生存率"), Text("random bots", "実測"),
                Text("kills", "殺す確率"), Text("bounty", "期待報酬"), Text("random bots", "実測"))
_ANY = Text("any", "全体")
_FIGHT_NOTE = Text(
    "Exact: every way the others' cards can fall, each fought by the rules' own resolution; the random bots' "
    "round 1 draws the cards the same way, so their figures check it. It is what a player who knows nothing of "
    "the others' hands can expect; one who watched the market knows more.",
    "厳密値: 他の人のカードのあらゆる出方を、ルールと同じ解決で戦わせた値です。ランダムボットのラウンド1も同じように"
    "カードが出るので、その結果で検算できます。他の人の手札を何も知らない人が見込める値で、市場を見ていた人はもっと多くを知っています。")

_STRATEGY_TITLE = Text("Strategies sharing tables ({matches} matches, each strategy in every seat in turn)",
                       "戦略の比較(同じ卓で{matches}試合、各戦略が順に全席を回る)")
_STRATEGY_HEADS = (Text("strategy", "戦略"), Text("seats", "席数"), Text("win rate", "勝率"),
                   Text("95% interval", "95%信頼区間"), Text("mean chips", "平均チップ"))
_STRATEGY_NOTE = Text(
    "A fair share is {fair}; equal top chips share the win (each is a winner). Every strategy but random hires "
    "the free card unless it says otherwise, and keeper, buys 10-Q and heuristic play the heuristic's sampled "
    "best card.",
    "公平な勝率は{fair}です。チップが同数で最多なら全員が勝者です。ランダム以外の戦略は、特に書いていなければ無料のカードを雇い、"
    "生き残り重視・10〜Qを雇う・ヒューリスティックは、ヒューリスティックと同じくサンプリングで最善のカードを出します。")

_CARD_TITLE = Text("Value of a card at a table of heuristic players ({matches} matches, 95%)",
                   "ヒューリスティックの卓でのカードの価値({matches}試合、95%)")
_CARD_HEADS = (Text("rank", "ランク"), Text("cards held", "保有枚数"),
               Text("chips over the table's average", "卓の平均を上回るチップ"), Text("win rate", "勝率"),
               Text("95% interval", "95%信頼区間"))
_CARD_NOTE = Text(
    "Every hand is dealt at random (these players hire the free card), so a seat holding a card of a rank is a "
    "seat given that card at the start: the figures compare it with the table ({win} of seats win).",
    "このプレイヤーは無料のカードを雇うので、手札はすべて無作為に配られたものです。あるランクのカードを持つ席は、"
    "最初からそのカードを与えられた席と同じなので、卓全体(勝率{win})と比べられます。")

_HIRE_TITLE = Text("Buying 10-Q instead of hiring the free card ({pairs} pairs per price, same deals and bot seeds)",
                   "無料のカードの代わりに10〜Qを買う({pairs}組ずつ、同じ配札とボットのシード)")
_HIRE_HEADS = (Text("pays up to", "支払いの上限"), Text("matches changed", "変化した試合"),
               Text("chips gained", "増えたチップ"), Text("win rate gained (points)", "勝率の増分(ポイント)"))
_HIRE_NOTE = Text(
    "One seat (each seat in turn) buys the cheapest 10, J or Q in the market up to the price; the rest of the "
    "table plays the heuristic, and the same match with that seat hiring the free card is the baseline.",
    "一席(順に全席)が、上限以下で最も安い10・J・Qを市場から買います。他の席はヒューリスティックで、"
    "同じ試合をその席が無料のカードを雇って行ったものと比べます。")


def _filled(text: Text, **values: object) -> Text:
    """`text` with its {fields} filled in, in both languages."""
    return Text(text.en.format(**values), text.ja.format(**values))


def _bounds(low: float, high: float, lang: Lang, digits: int = 2, sign: str = "+") -> str:
    """A 95% interval of values: "[+0.40, +2.00]", "+0.40〜+2.00"."""
    low_text, high_text = f"{low:{sign}.{digits}f}", f"{high:{sign}.{digits}f}"
    return f"{low_text}〜{high_text}" if lang == "ja" else f"[{low_text}, {high_text}]"


def _span(row: Interval, lang: Lang, digits: int = 2, sign: str = "+") -> str:
    """An estimate and its 95% interval: "+1.20 [+0.40, +2.00]", "+1.20(+0.40〜+2.00)"."""
    value = f"{row[0]:{sign}.{digits}f}"
    bounds = _bounds(row[1], row[2], lang, digits, sign)
    return f"{value}({bounds})" if lang == "ja" else f"{value} {bounds}"


def _fraction(value: Fraction, digits: int = 3) -> str:
    return f"{float(value):.{digits}f}"


def _fight_table(exact: list[FirstFight], checks: list[OpeningCheck], study: Study, lang: Lang) -> Table:
    table = titled_table(_filled(_FIGHT_TITLE, checks=study.checks), lang)
    for head in _FIGHT_HEADS:
        table.add_column(Phrases(head(lang), lang), justify="right", no_wrap=True)
    simulated = {c.rank: c for c in checks}
    for row in [*exact, average(exact)]:
        check = simulated.get(row.rank)
        name = rank_name(row.rank) if row.rank else _ANY(lang)
        survival = interval(*check.survival[1:], lang) if check and check.fighters else "-"
        bounty = _span(check.bounty, lang, sign="") if check and check.fighters else "-"
        table.add_row(name, _fraction(row.survives), survival, _fraction(row.kills), f"{float(row.bounty):.3f}", bounty)
    return table


def _strategy_table(report: Report, lang: Lang) -> Table:
    table = titled_table(_filled(_STRATEGY_TITLE, matches=report.study.strategies), lang)
    table.add_column(Phrases(_STRATEGY_HEADS[0](lang), lang))
    for head in _STRATEGY_HEADS[1:]:
        table.add_column(Phrases(head(lang), lang), justify="right", no_wrap=True)
    for rate in report.strategies:
        win, low, high = rate.win_rate
        table.add_row(strategy_title(rate.strategy)(lang), str(rate.seats), f"{win:.1%}", interval(low, high, lang),
                      _span(rate.chips, lang, sign=""))
    return table


def _card_table(report: Report, lang: Lang) -> Table:
    table = titled_table(_filled(_CARD_TITLE, matches=report.study.table), lang)
    for head in _CARD_HEADS:
        table.add_column(Phrases(head(lang), lang), justify="right", no_wrap=True)
    for card in report.cards:
        win, low, high = card.win_rate
        table.add_row(rank_name(card.rank), str(card.cards), _span(card.chips, lang), f"{win:.1%}",
                      interval(low, high, lang))
    return table


def _hire_table(report: Report, lang: Lang) -> Table:
    table = titled_table(_filled(_HIRE_TITLE, pairs=report.study.pairs), lang)
    for head in _HIRE_HEADS:
        table.add_column(Phrases(head(lang), lang), justify="right", no_wrap=True)
    for hire in report.hires:
        points: Interval = (100 * hire.win[0], 100 * hire.win[1], 100 * hire.win[2])
        table.add_row(f"${hire.cap}", f"{hire.changed}/{hire.pairs}", _span(hire.chips, lang),
                      _span(points, lang, digits=1))
    return table


def analyze(
    seats: Annotated[int, typer.Option(help="Players at every table (4-8).\n\n各卓の人数(4〜8)。", min=4, max=8)] = 4,
    checks: Annotated[int, typer.Option(
        help="Matches of random bots checking the exact first fight (0: none).\n\n"
             "最初の戦いの厳密値を検算するランダムボットの試合数(0: なし)。", min=0)] = 2000,
    matches: Annotated[int, typer.Option(
        help="Matches between the strategies (0: none).\n\n戦略同士の試合数(0: なし)。", min=0)] = 240,
    table: Annotated[int, typer.Option(
        help="Matches of heuristic players for the value of each card (0: none).\n\n"
             "カードの価値を求めるヒューリスティック同士の試合数(0: なし)。", min=0)] = 200,
    pairs: Annotated[int, typer.Option(
        help="Per price: table matches played again with one seat buying 10-Q (at most --table; 0: none).\n\n"
             "価格ごとに、 1席が10〜Qを買ってもう一度行う --table の試合数(--table 以下、 0: なし)。", min=0)] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first match.\n\n最初の試合のシード。")] = 0,
    workers: Annotated[int, typer.Option(
        help="Worker processes on this machine (same results as one).\n\nこのマシンのワーカープロセス数(結果は1つの時と同じ)。",
        min=1, max=1024)] = 1,
    plot_path: Annotated[Path | None, typer.Option("--plot", help=(
        "Save a PNG plot here, in English (default: last-man-standing-analysis.png in your user data folder; "
        "the path is printed).\n\nPNGのグラフ(英語表記) をここに保存(既定: ユーザーデータフォルダの "
        "last-man-standing-analysis.png。保存先を表示します)。"))] = None,
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not save the plot.\n\nグラフを保存しない。")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.\n\n数値をJSONで出力。")] = False,
    lang: LangOption = "en",
) -> None:
    """Exact first fight, strategies, and what a card is worth. 最初の戦いの厳密値、戦略、カードの価値。

    The exact odds of round 1 for each card against random cards (checked by simulation), the win rates of the game's bots and of named strategy variants, the value of each card rank at a table of heuristic players, and what buying a 10, J or Q instead of the free card gains, on the same deals.

    各カードのラウンド1の厳密な確率(無作為なカードが相手、シミュレーションで検算)、ゲームのボットと名前付きの戦略の勝率、ヒューリスティックの卓での各ランクのカードの価値、無料のカードの代わりに10・J・Qを買うと同じ配札でどれだけ得をするかを求めます。
    """
    if pairs > table:
        Console(stderr=True).print(Phrases(_TOO_MANY_PAIRS(lang), lang), style="red")
        raise typer.Exit(code=1)
    study = Study(seats=seats, checks=checks, strategies=matches, table=table, pairs=pairs, seed=seed)
    path = None if no_plot else plot_path or output_path("last-man-standing-analysis.png")
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True, disable=as_json) as progress:
        exact_task = progress.add_task(_EXACT_TASK(lang), total=1.0)
        exact = first_fights(seats, progress=lambda share: progress.update(exact_task, completed=share))
        matches_task = progress.add_task(_MATCHES_TASK(lang), total=study.total)
        report = simulate(study, workers, lambda done: progress.update(matches_task, completed=done))
    if path is not None:
        plot(report, exact, path, {r.strategy: strategy_title(r.strategy).en for r in report.strategies})
    if as_json:
        # The JSON stays in English whatever --lang says: it is for programs.
        data: dict[str, Any] = {"first_fight_exact": [f.to_json() for f in exact],
                                "first_fight_exact_any": average(exact).to_json() | {"rank": "any"},
                                **report.to_json(), "plot": None if path is None else str(path)}
        typer.echo(json.dumps(data, indent=2))
        return
    console = Console()
    console.print(Phrases(_HEADLINE(lang).format(seats=seats, seed=seed), lang))
    console.print(_fight_table(exact, report.checks, study, lang))
    console.print(Phrases(_FIGHT_NOTE(lang), lang))
    if report.strategies:
        console.print(_strategy_table(report, lang))
        console.print(Phrases(_STRATEGY_NOTE(lang).format(fair=f"{1 / seats:.1%}"), lang))
    if report.cards:
        console.print(_card_table(report, lang))
        console.print(Phrases(_CARD_NOTE(lang).format(win=f"{report.table_win_rate or 0:.1%}"), lang))
    if report.hires:
        console.print(_hire_table(report, lang))
        console.print(Phrases(_HIRE_NOTE(lang), lang))
    if path is not None:
        console.print(plot_saved(path, lang), soft_wrap=True)  # one line: a path to copy
