"""`partygames analyze pandemic`: the exact posterior over a saved match, and the pass rates of strategies."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console, Group, RenderableType
from rich.table import Table

from partygames.cli.bilingual import LangOption, interval, plot_saved, plot_target, progress, titled_table
from partygames.cli.layout import Fit
from partygames.cli.play import load_log
from partygames.cli.prose import Phrases
from partygames.engine.errors import EngineError
from partygames.engine.game import Game
from partygames.engine.text import Lang, Text
from partygames.games.pandemic.analysis import (
    STRATEGIES,
    Moment,
    Rate,
    Undetermined,
    pass_rates,
    plot,
    posterior,
)


def _percent(value: Fraction | None) -> str:
    return "-" if value is None else f"{100 * float(value):.0f}%"


def _fail(console: Console, message: Text, lang: Lang) -> NoReturn:
    console.print(Phrases(message(lang), lang), style="red")
    raise typer.Exit(code=1)


def _event(entry: dict[str, Any] | None, t: int, lang: Lang) -> str:
    """A moment's event, in a few words: the start, the end, a contact "0-1" or a seat's press."""
    if entry is None:
        return (Text("start", "開始") if t == 0 else Text("end", "終了"))(lang)
    if entry["kind"] == "contact":
        return f"{entry['a']}-{entry['b']}"
    return Text(f"press {entry['seat']}", f"席{entry['seat']}がスイッチ")(lang)


def _posterior_table(moments: list[Moment], seats: int, seat: int | None, lang: Lang) -> RenderableType:
    """A row per moment: the public odds of every seat (and under it, `seat`'s own odds); on a terminal too
    narrow for every seat's column, two tables of half the seats each, so that no figure is cut."""
    half = (seats + 1) // 2
    return Fit(_odds_table(moments, seats, seat, lang, range(seats)),
               Group(_odds_table(moments, seats, seat, lang, range(half)),
                     _odds_table(moments, seats, seat, lang, range(half, seats))))


def _odds_table(moments: list[Moment], seats: int, seat: int | None, lang: Lang, shown: range) -> Table:
    table = titled_table(Text(f"Infection odds after each public event ({seats} seats)",
                         f"公開ログの出来事ごとの感染確率({seats}席)"), lang)
    table.add_column(Text("time", "時刻")(lang), no_wrap=True)
    table.add_column(Text("event", "出来事")(lang))
    for s in shown:
        table.add_column(f"{s}", justify="right", no_wrap=True)
    for moment in moments:
        seconds = f"{moment.t / 1000:.0f}"
        table.add_row(Text(f"{seconds}s", f"{seconds}秒")(lang), _event(moment.entry, moment.t, lang),
                      *(_percent(moment.public[s]) for s in shown))
        if moment.own is not None:
            table.add_row("", Text(f"seat {seat}'s own", f"席{seat}の推定")(lang), *(_percent(moment.own[s]) for s in shown))
    return table


def _rates_title(game: Game, matches: int, seats: int) -> Text:
    return Text(f"Pandemic Game: qualified share per strategy ({matches} matches, {seats} seats)",
                f"{game.title.ja}: 戦略ごとの予選突破率({matches}試合、{seats}席)")


def _rates_table(game: Game, rates: list[Rate], matches: int, seats: int, lang: Lang) -> Table:
    """A row per strategy: the share of its seats that qualified, with the 95% interval."""
    table = titled_table(_rates_title(game, matches, seats), lang)
    for header in (Text("strategy", "戦略"), Text("qualified", "予選突破率"), Text("95% interval", "95%信頼区間")):
        table.add_column(header(lang))
    for rate in rates:
        low, high = rate.interval()
        table.add_row(game.bot_title(rate.kind)(lang), f"{rate.share:.1%}", interval(low, high, lang))
    return table


def analyze(
    log: Annotated[Path | None, typer.Option(help="A saved match (play/simulate --save): show its posterior. "
                                                  "保存した対戦ログ(play/simulate --save): その感染確率の推移を表示。")]
    = None,
    seat: Annotated[int | None, typer.Option(help="With --log: also this seat's own posterior (its readings). "
                                                  "--log と併用: この席自身の推定(腕時計の確認結果を反映) も表示。")]
    = None,
    matches: Annotated[int, typer.Option(help="Simulated matches for the strategies' pass rates (0: none). "
                                              "戦略ごとの予選突破率を求める試合数(0: なし)。",
                                         min=0)] = 200,
    seats: Annotated[int, typer.Option(help="Seats per simulated match. シミュレーション1試合の席数。",
                                       min=4, max=24)] = 12,
    seed: Annotated[int, typer.Option(help="Seed of the first simulated match. 最初の試合のシード。")] = 0,
    plot_path: Annotated[Path | None, typer.Option("--plot", help=(
        "Save a PNG of the pass rates (in English) here (default: pandemic-strategies.png in your user data "
        "folder; the path is printed).\n\n予選突破率のグラフ(PNG、英語表記)の保存先(既定: ユーザーデータ"
        "フォルダの pandemic-strategies.png。保存先を表示します)。"))] = None,
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not save the plot. グラフを保存しない。")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON. 数値をJSONで出力。")] = False,
    lang: LangOption = "en",
) -> None:
    """Infection odds over a saved match, and each strategy's pass rate. 保存した対戦の感染確率と、戦略ごとの予選突破率。

    The odds enumerate every initial set of infected seats and carry it through the public contacts and presses (exact when both are public); a seat's own odds also keep only the sets its readings allow. Strategies (rounds tempo, sharing tables): heuristic, cautious (never a risk above 2%), greedy (vaccines at any risk, no rooms), checker (reads its watch every 30 s), random.

    確率は、初期感染者のあらゆる組み合わせを公開された接触とスイッチに沿って追ったものです(両方が公開なら正確)。席自身の推定では、その席の腕時計の確認結果と合う組み合わせだけを残します。戦略(ラウンド制、同じ卓で対戦): ヒューリスティック、慎重派(2%を超える危険は冒さない)、強欲派(危険を問わずワクチンを狙い、個室に行かない)、確認派(30秒ごとに腕時計を確認)、ランダム。
    """
    from partygames.games import get

    game = get("pandemic")
    console = Console()
    data: dict[str, object] = {}
    if log is not None:
        try:
            saved = load_log(log)
        except EngineError as error:
            _fail(console, Text(error.en, error.ja), lang)
        if saved.game != game.id:
            _fail(console, Text(f"{log} is a match of {saved.game}, not of the Pandemic Game.",
                                f"{log} は感染ゲームではなく {saved.game} の対戦ログです。"), lang)
        try:
            moments = posterior(game, saved, seat)
        except EngineError as error:
            _fail(console, Text(error.en, error.ja), lang)
        except Undetermined as error:
            _fail(console, error.text, lang)
        except (KeyError, TypeError) as error:  # an entry without a field the replay reads, or of another shape
            _fail(console, Text(f"Cannot replay match log {log}: {error!r}",
                                f"対戦ログ {log} を再現できません: 記録の形式が正しくありません。"), lang)
        data["posterior"] = [m.to_json() for m in moments]
        if not as_json:
            console.print(_posterior_table(moments, saved.seats, seat, lang))
    if matches:
        with progress(Text("Simulated matches", "シミュレーション"), matches, lang) as advance:
            rates = pass_rates(game, matches, seats, STRATEGIES, seed, progress=advance)
        data["strategies"] = [r.to_json() for r in rates]
        plot_path = plot_target(plot_path, no_plot, "pandemic-strategies.png")
        if plot_path is not None:
            # The plot stays in English: matplotlib's default fonts have no Japanese glyphs.
            plot(rates, plot_path, _rates_title(game, matches, seats).en)
            data["plot"] = str(plot_path)
        if not as_json:
            console.print(_rates_table(game, rates, matches, seats, lang))
            if "plot" in data and plot_path is not None:
                console.print(plot_saved(plot_path, lang), soft_wrap=True)
    elif plot_path is not None and not no_plot:  # a plot asked for with nothing to draw: say so (not on stdout: --json)
        Console(stderr=True).print(Text(
            f"No plot written to {plot_path}: the plot shows the strategies' pass rates, and --matches 0 plays no "
            "match (give --matches N for them).",
            f"{plot_path} にグラフは保存していません。グラフは戦略ごとの予選突破率を示すもので、--matches 0 では"
            "試合を行いません(--matches N を指定してください)。")(lang), soft_wrap=True)
    if as_json:
        typer.echo(json.dumps(data, indent=2))
