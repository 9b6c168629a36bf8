"""`partygames odds dice-derby`: exact win and quinella probabilities and the fair odds."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from partygames.cli.bilingual import LangOption, plot_saved, plot_target
from partygames.cli.prose import Phrases
from partygames.engine.text import Lang, Text
from partygames.games.dice_derby import analysis
from partygames.games.dice_derby.horses import GATES, PAIRS, die_name, faces

_NOT_A_NUMBER = Text("{text} is not a number or fraction like 0.05 or 1/20",
                     "{text} は 0.05 や 1/20 のような数・分数ではありません")
_OUT_OF_RANGE = Text("the fall probability must be at least 0 and below 1",
                     "落馬確率は0以上1未満にしてください")
_WIN_TITLE = Text("Win (fall probability {fall})", "単勝(落馬確率 {fall})")
_WIN_HEADS = (Text("Gate", "枠"), Text("Die", "ダイス"), Text("Probability", "確率"), Text("Decimal", "小数"),
              Text("Fair odds", "公正オッズ"))
_QUINELLA_TITLE = Text("Quinella (first and second, either order)", "連複(1着と2着、順不同)")
_QUINELLA_HEADS = (Text("Pair", "枠番の組"), Text("Probability", "確率"), Text("Decimal", "小数"),
                   Text("Fair odds", "公正オッズ"))
_ELAPSED = Text("Computed exactly in {ms} ms.", "{ms} ms で厳密に計算しました。")


def odds_report(fall: Fraction) -> dict[str, Any]:
    """Exact probabilities (as 'p/q' strings and floats) and fair odds (1/p) for 6 horses and 15 pairs."""
    win = analysis.win_probabilities(fall)
    pairs = analysis.quinella_probabilities(fall)
    return {
        "fall_probability": str(fall),
        "win": [{"gate": g, "die": die_name(g), "probability": str(win[g]), "decimal": float(win[g]),
                 "fair_odds": float(1 / win[g])} for g in GATES],
        "quinella": [{"pair": p, "probability": str(pairs[p]), "decimal": float(pairs[p]),
                      "fair_odds": float(1 / pairs[p])} for p in PAIRS],
    }


def _die(gate: int, lang: Lang) -> str:
    """'d4' in English, '4面体' in Japanese (the rules' words for the dice)."""
    return f"{faces(gate)}面体" if lang == "ja" else die_name(gate)


def _parse_fall(text: str | None, lang: Lang = "en") -> Fraction:
    if text is None:
        return Fraction(0)
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise typer.BadParameter(_NOT_A_NUMBER(lang).format(text=repr(text)), param_hint="'--fall'") from None
    if not 0 <= value < 1:
        raise typer.BadParameter(_OUT_OF_RANGE(lang), param_hint="'--fall'")
    return value


Fall = Annotated[str | None, typer.Option(
    "--fall", help="Per-die fall probability (0.05 or 1/20); default: the fall rule off. "
                   "ダイス1個が1回振るごとに落馬する確率(0.05 や 1/20)。既定: 落馬ルールなし。")]
AsJson = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON. 機械可読なJSONで出力。")]
NoPlot = Annotated[bool, typer.Option("--no-plot", help="Do not save the plot. グラフを保存しない。")]


def odds(
    fall: Fall = None,
    plot_path: Annotated[Path | None, typer.Option("--plot", help=(
        "Also save a PNG plot (in English) of the odds here. オッズのグラフ(PNG、英語表記) もここに保存。"))] = None,
    as_json: AsJson = False,
    lang: LangOption = "en",
) -> None:
    """Exact win and quinella probabilities, with fair odds. 単勝と連複の正確な確率と公正オッズ。

    Every probability as an exact fraction and as a decimal; fair odds are 1 / probability, with no cut for the house.

    確率を厳密な分数と小数で示します。公正オッズは確率の逆数で、胴元の取り分を含みません。
    """
    _report(fall, plot_path, as_json, lang)


def analyze(
    fall: Fall = None,
    plot_path: Annotated[Path | None, typer.Option("--plot", help=(
        "Save a PNG plot (in English) of the odds here (default: dice-derby-odds.png in your user data folder; "
        "the path is printed).\n\nオッズのグラフ(PNG、英語表記)の保存先(既定: ユーザーデータフォルダの "
        "dice-derby-odds.png。保存先を表示します)。"))] = None,
    no_plot: NoPlot = False,
    as_json: AsJson = False,
    lang: LangOption = "en",
) -> None:
    """Exact win and quinella probabilities, with fair odds and a plot. 単勝と連複の正確な確率と公正オッズ、グラフ。

    The odds of `partygames odds dice-derby`, with their plot saved. Every probability as an exact fraction and as a decimal; fair odds are 1 / probability, with no cut for the house.

    `partygames odds dice-derby` のオッズとそのグラフ。確率を厳密な分数と小数で示します。公正オッズは確率の逆数で、胴元の取り分を含みません。
    """
    _report(fall, plot_target(plot_path, no_plot, "dice-derby-odds.png"), as_json, lang)


def _report(fall: str | None, path: Path | None, as_json: bool, lang: Lang) -> None:
    """The odds as tables (or JSON), and their plot where `path` says."""
    started = time.perf_counter()
    fraction = _parse_fall(fall, lang)
    report = odds_report(fraction)
    elapsed_ms = 1000 * (time.perf_counter() - started)
    report["elapsed_ms"] = round(elapsed_ms, 3)
    if path is not None:
        analysis.plot(analysis.win_probabilities(fraction), analysis.quinella_probabilities(fraction), fraction, path)
        report["plot"] = str(path)
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2))
        return
    console = Console()
    wins = Table(title=_WIN_TITLE(lang).format(fall=report["fall_probability"]))
    # An exact fraction is folded onto more lines rather than cut, however narrow the terminal.
    for head in _WIN_HEADS:
        wins.add_column(head(lang), justify="right", overflow="fold")
    for row in report["win"]:
        wins.add_row(str(row["gate"]), _die(row["gate"], lang), row["probability"], f"{row['decimal']:.6f}",
                     f"{row['fair_odds']:.2f}")
    pairs = Table(title=_QUINELLA_TITLE(lang))
    for head in _QUINELLA_HEADS:
        pairs.add_column(head(lang), justify="right", overflow="fold")
    for row in report["quinella"]:
        pairs.add_row(row["pair"], row["probability"], f"{row['decimal']:.6f}", f"{row['fair_odds']:.2f}")
    console.print(wins)
    console.print(pairs)
    console.print(Phrases(_ELAPSED(lang).format(ms=f"{elapsed_ms:.1f}"), lang))
    if path is not None:
        console.print(plot_saved(path, lang), soft_wrap=True)
