"""`partygames odds dice-derby`: exact win and quinella probabilities and the fair odds."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from partygames.games.dice_derby import analysis
from partygames.games.dice_derby.horses import GATES, PAIRS, die_name


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


def _parse_fall(text: str | None) -> Fraction:
    if text is None:
        return Fraction(0)
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise typer.BadParameter(f"{text!r} is not a number or fraction like 0.05 or 1/20") from None
    if not 0 <= value < 1:
        raise typer.BadParameter("the fall probability must be at least 0 and below 1")
    return value


def odds(
    fall: Annotated[str | None, typer.Option("--fall", help="Per-die fall probability (0.05 or 1/20); "
                                             "default: the fall rule off.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Exact win and quinella probabilities of Dice Derby, as fractions and decimals, with fair odds."""
    started = time.perf_counter()
    report = odds_report(_parse_fall(fall))
    elapsed_ms = 1000 * (time.perf_counter() - started)
    report["elapsed_ms"] = round(elapsed_ms, 3)
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2))
        return
    console = Console()
    wins = Table(title=f"Win (fall probability {report['fall_probability']})")
    # An exact fraction is folded onto more lines rather than cut, however narrow the terminal.
    for column in ("Gate", "Die", "Probability", "Decimal", "Fair odds"):
        wins.add_column(column, justify="right", overflow="fold")
    for row in report["win"]:
        wins.add_row(str(row["gate"]), row["die"], row["probability"], f"{row['decimal']:.6f}",
                     f"{row['fair_odds']:.2f}")
    pairs = Table(title="Quinella (first and second, either order)")
    for column in ("Pair", "Probability", "Decimal", "Fair odds"):
        pairs.add_column(column, justify="right", overflow="fold")
    for row in report["quinella"]:
        pairs.add_row(row["pair"], row["probability"], f"{row['decimal']:.6f}", f"{row['fair_odds']:.2f}")
    console.print(wins)
    console.print(pairs)
    console.print(f"Computed exactly in {elapsed_ms:.1f} ms.")
