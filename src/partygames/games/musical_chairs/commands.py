"""`partygames analyze musical-chairs`: win rates by starting spot and by bribery budget, with a plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from partygames.games.musical_chairs.analysis import plot, win_rates


def analyze(
    matches: Annotated[int, typer.Option(help="Simulated matches (rounds tempo, heuristic bots).", min=1)] = 200,
    players: Annotated[int, typer.Option(help="Players.", min=2, max=24)] = 6,
    gallery: Annotated[int, typer.Option(help="ガヤ (gallery).", min=0, max=30)] = 18,
    budgets: Annotated[str, typer.Option(help="Bribery budgets compared, comma-separated.")] = "0,1,2,4",
    seed: Annotated[int, typer.Option(help="Seed of the first match.")] = 0,
    plot_path: Annotated[Path | None, typer.Option("--plot", help="Save a PNG plot here.")]
    = Path("musical-chairs-win-rates.png"),
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not save the plot.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Simulate matches of heuristic bots and report who wins: by how near the totem a player starts,
    and by how many of its own medals it gives to ガヤ each break."""
    try:
        budget_list = [int(b) for b in budgets.split(",") if b.strip()]
    except ValueError:
        Console(stderr=True).print("--budgets takes whole numbers separated by commas, e.g. 0,1,2,4")
        raise typer.Exit(code=1) from None
    spots, by_budget = win_rates(matches, {"players": players, "gallery": gallery}, budget_list, seed)
    path = None if no_plot else plot_path
    if path is not None:
        plot(spots, by_budget, path)
    if as_json:
        typer.echo(json.dumps({"matches": matches, "by_start": [r.to_json() for r in spots],
                               "by_budget": [r.to_json() for r in by_budget],
                               "plot": None if path is None else str(path)}, indent=2))
        return
    console = Console()
    for title, rates in (("Win rate by starting spot (1: nearest the totem)", spots),
                         ("Win rate by bribery budget (own medals to ガヤ per break)", by_budget)):
        table = Table(title=title)
        for column in ("group", "wins", "played", "win rate", "95% interval"):
            table.add_column(column, justify="right")
        for rate in rates:
            low, high = rate.to_json()["ci95"]
            table.add_row(str(rate.group), str(rate.wins), str(rate.played), f"{rate.rate:.1%}",
                          f"{low:.1%}-{high:.1%}")
        console.print(table)
    if path is not None:
        console.print(f"Plot saved to {path}")
