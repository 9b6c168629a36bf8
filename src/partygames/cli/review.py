"""`partygames review`: a finished match's decisions of one seat judged by the search bot
(`analysis/review.py`, docs/review.md), as a table, a PNG graph or JSON."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from partygames import games
from partygames.analysis.review import DEFAULT_SIMULATIONS, Review, ReviewError, review
from partygames.cli.bilingual import LangOption, interval, plot_saved, progress, titled_table
from partygames.cli.play import load_log
from partygames.cli.terminal import action_text
from partygames.engine.errors import EngineError
from partygames.engine.game import Game
from partygames.engine.log import MatchLog
from partygames.engine.names import seat_names
from partygames.engine.search import Budget
from partygames.engine.session import Session
from partygames.engine.text import Lang, Text

out = Console()
err = Console(stderr=True)

MARK_TEXT = {"best": Text("best", "最善"), "good": Text("good", "好手"), "inaccuracy": Text("inaccuracy", "不正確"),
             "mistake": Text("mistake", "悪手"), "blunder": Text("blunder", "大悪手")}
_NOT_MARKED = Text("within noise", "誤差の範囲")
_REVIEWING = Text("Reviewing", "検討中")
_TITLE = Text("Review of seat {seat} ({game}, {budget} per decision; {measure})",
              "席 {seat} の検討({game}、1判断あたり {budget}、{measure})")
_MEASURES = {"win": Text("win chance", "勝率"), "score": Text("expected final score", "最終得点の期待値"),
             "search": Text("the search bot's value", "探索ボットの評価値"),
             "lead": Text("expected lead of the seat's team", "自チームのリード(差額)の期待値")}
_HEADS = (Text("step", "手"), Text("played", "指した手"), Text("best", "最善手"), Text("loss (95%)", "損失(95%)"),
          Text("win chance played / best", "勝率 指した手 / 最善手"), Text("mark", "評価"))
_NOTHING = Text("Seat {seat} had no decision with a real choice in this match.",
                "席 {seat} には、この対戦で選択肢のある判断がありませんでした。")
_BAD_BUDGET = Text("Give --simulations or --think-ms, not both.", "--simulations と --think-ms はどちらか一方だけを指定してください。")


def _fail(message: Text, lang: Lang) -> None:
    err.print(f"[red]{escape(message(lang))}[/]")
    raise typer.Exit(code=1)


def review_command(
    path: Annotated[Path, typer.Argument(help="A finished match's log (play --save, simulate --save, or a server "
                                              "log download).\n\n終わった対戦のログ(play --save、simulate --save、"
                                              "サーバーからダウンロードしたログ)。")],
    seat: Annotated[int, typer.Option(help="The seat to review.\n\n検討する席。")],
    simulations: Annotated[int | None, typer.Option(
        min=2, help=f"Simulations per decision (deterministic; default {DEFAULT_SIMULATIONS}).\n\n"
                    f"1判断のシミュレーション数(再現可能、既定 {DEFAULT_SIMULATIONS})。")] = None,
    think_ms: Annotated[float | None, typer.Option(
        min=1, help="Think time per decision in ms instead (not reproducible).\n\n"
                    "代わりに1判断あたりの思考時間(ミリ秒、再現はしない)。")] = None,
    plot: Annotated[Path | None, typer.Option(help="Save the win-chance graph as a PNG here.\n\n"
                                                   "勝率のグラフを PNG でここに保存。")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.\n\n検討結果を JSON で出力。")] = False,
    lang: LangOption = "en",
) -> None:
    """Review a finished match: each decision of a seat judged by the Strong bot from what that seat knew. 終わった対戦を検討する: 席の各判断を、その席が知っていたことだけから強いボットが評価。"""
    if simulations is not None and think_ms is not None:
        _fail(_BAD_BUDGET, lang)
    budget = Budget(ms=think_ms) if think_ms is not None else Budget(simulations=simulations or DEFAULT_SIMULATIONS)
    try:
        log = load_log(path)
        game = games.get(log.game)
        with progress(_REVIEWING, len(log.entries), lang) as advance:
            done = [0]

            def step(replayed: int, _total: int) -> None:
                while done[0] < replayed:
                    done[0] += 1
                    advance()

            result = review(game, log, seat, budget, progress=step)
    except (ReviewError, EngineError) as error:
        _fail(Text(error.en, error.ja), lang)
        raise
    if as_json:
        out.print_json(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        _print_table(game, log, result, lang)
    if plot is not None:
        save_plot(result, plot)
        (err if as_json else out).print(plot_saved(plot, lang), soft_wrap=True)


def _public_views(game: Game, log: MatchLog, steps: set[int]) -> dict[int, dict[str, Any]]:
    """The public table before each of `steps` (the view `replay` words an action by)."""
    session = Session(game, game.new(log.seats, log.options, log.seed, bots=log.bots))
    views: dict[int, dict[str, Any]] = {}
    for number, entry in enumerate(log.entries):
        if number in steps:
            views[number] = session.match.view(None)
        session.replay_entry(entry)
    return views


def _print_table(game: Game, log: MatchLog, result: Review, lang: Lang) -> None:
    names = seat_names(log.seats, log.bots, lang, people={s: html.unescape(n) for s, n in enumerate(log.names)})
    if not result.decisions:
        out.print(_NOTHING(lang).format(seat=result.seat))
        return
    views = _public_views(game, log, {d.step for d in result.decisions})
    measure = result.thresholds.measure
    budget = result.budget
    budget_ja = f"{budget.ms:g} ミリ秒" if budget.ms is not None else f"{budget.simulations} 回のシミュレーション"
    table = titled_table(Text(_TITLE.en.format(seat=result.seat, game=game.title.en, budget=budget,
                                               measure=_MEASURES[measure].en),
                              _TITLE.ja.format(seat=result.seat, game=game.title.ja, budget=budget_ja,
                                               measure=_MEASURES[measure].ja)), lang)
    for head in _HEADS:
        table.add_column(head(lang))
    for d in result.decisions:
        view = views[d.step]
        played, best = d.candidates[d.played], d.candidates[d.best]
        low, high = d.loss_interval
        dash = '〜' if lang == 'ja' else '-'
        if measure == "win":
            loss = interval(low, high, lang)
        elif measure == "lead":  # yen: whole, with thousands separators
            loss = f"{d.loss:,.0f} ({low:,.0f}{dash}{high:,.0f})"
        else:
            loss = f"{d.loss:.2f} ({low:.2f}{dash}{high:.2f})"
        mark = _NOT_MARKED(lang) if d.mark is None else MARK_TEXT[d.mark](lang)
        table.add_row(str(d.step + 1), escape(action_text(game, d.played_action, lang, view, names)),
                      escape(action_text(game, d.best_action, lang, view, names)), loss,
                      f"{played.win:.0%} / {best.win:.0%}", mark)
    out.print(table)


def save_plot(result: Review, path: Path) -> Path:
    """Saves the seat's win chance at each of its decisions (the move played, and the best candidate's)
    as a PNG, labelled in English like the other plots."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(figsize=(9, 4))
    steps = [d.step + 1 for d in result.decisions]
    axes.plot(steps, [d.candidates[d.played].win for d in result.decisions], marker="o", label="move played")
    axes.plot(steps, [d.candidates[d.best].win for d in result.decisions], linestyle="--", label="best candidate")
    for d in result.decisions:
        if d.mark in ("inaccuracy", "mistake", "blunder"):
            axes.annotate(d.mark, (d.step + 1, d.candidates[d.played].win), fontsize="small",
                          textcoords="offset points", xytext=(0, -12), ha="center")
    axes.set_ylim(0, 1)
    axes.set_xlim(0, max(result.steps, 1))
    axes.set_xlabel("match step")
    axes.set_ylabel("win chance (as the seat could know it)")
    axes.set_title(f"Review of seat {result.seat} ({result.game}, {result.budget} per decision)")
    axes.legend(fontsize="small")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
