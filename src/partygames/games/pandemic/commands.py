"""`partygames analyze pandemic`: the exact posterior over a saved match, and the pass rates of strategies."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from partygames.engine.errors import EngineError
from partygames.engine.log import MatchLog
from partygames.games.pandemic.analysis import STRATEGIES, pass_rates, plot, posterior


def _percent(value: Fraction | None) -> str:
    return "-" if value is None else f"{100 * float(value):.0f}%"


def analyze(
    log: Annotated[Path | None, typer.Option(help="A saved match (play/simulate --save): show its posterior.")]
    = None,
    seat: Annotated[int | None, typer.Option(help="With --log: also this seat's own posterior (its readings).")]
    = None,
    matches: Annotated[int, typer.Option(help="Simulated matches for the strategies' pass rates (0: none).",
                                         min=0)] = 200,
    seats: Annotated[int, typer.Option(help="Seats per simulated match.", min=4, max=24)] = 12,
    seed: Annotated[int, typer.Option(help="Seed of the first simulated match.")] = 0,
    plot_path: Annotated[Path | None, typer.Option("--plot", help="Save a PNG of the pass rates here.")]
    = Path("pandemic-strategies.png"),
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not save the plot.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Exact infection odds over a saved match, and how often each strategy qualifies.

    The odds enumerate every initial set of infected seats and carry it through the public contacts and
    presses (exact when both are public); a seat's own odds also keep only the sets its readings allow.
    Strategies (rounds tempo, sharing tables): heuristic, cautious (never a risk above 2%), greedy
    (vaccines at any risk, no rooms), checker (reads its watch every 30 s), random.
    """
    from partygames.games import get

    game = get("pandemic")
    console = Console()
    data: dict[str, object] = {}
    if log is not None:
        try:
            saved = MatchLog.from_json(json.loads(log.read_text(encoding="utf-8")))
            moments = posterior(game, saved, seat)
        except (OSError, ValueError, KeyError, TypeError, EngineError) as error:
            console.print(f"[red]{error}[/]")
            raise typer.Exit(code=1) from None
        data["posterior"] = [m.to_json() for m in moments]
        if not as_json:
            table = Table(title=f"Infection odds after each public event ({saved.seats} seats)")
            table.add_column("time")
            table.add_column("event")
            for s in range(saved.seats):
                table.add_column(f"{s}", justify="right")
            for moment in moments:
                entry = moment.entry
                what = "start" if entry is None and moment.t == 0 else "end" if entry is None else (
                    f"{entry['a']}-{entry['b']}" if entry["kind"] == "contact" else f"press {entry['seat']}")
                table.add_row(f"{moment.t / 1000:.0f}s", what, *map(_percent, moment.public))
                if moment.own is not None:
                    table.add_row("", f"seat {seat}'s own", *map(_percent, moment.own))
            console.print(table)
    if matches:
        rates = pass_rates(game, matches, seats, STRATEGIES, seed)
        data["strategies"] = [r.to_json() for r in rates]
        title = f"Pandemic Game: qualified share per strategy ({matches} matches, {seats} seats)"
        if plot_path is not None and not no_plot:
            plot(rates, plot_path, title)
            data["plot"] = str(plot_path)
        if not as_json:
            table = Table(title=title)
            for header in ("strategy", "qualified", "95% interval"):
                table.add_column(header)
            for rate in rates:
                low, high = rate.interval()
                table.add_row(rate.kind, f"{rate.share:.1%}", f"{low:.1%}-{high:.1%}")
            console.print(table)
            if "plot" in data:
                console.print(f"Plot saved to {plot_path}")
    if as_json:
        typer.echo(json.dumps(data, indent=2))
