"""`partygames analyze smuggling`: the equilibrium of one small game (mounted by the lead's CLI)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from partygames.analysis.files import output_path
from partygames.games.smuggling.analysis import DEFAULT_GRID, TOLERANCE, doubt_limit, plot, solve
from partygames.games.smuggling.settlement import OPP_START, trunk_cap


def analyze(
    grid: Annotated[int, typer.Option(help="Grid step in yen for both amounts.", min=1)] = DEFAULT_GRID,
    inspector_balance: Annotated[int | None, typer.Option(
        help="The inspector's third-country balance in yen (doubts are capped at twice it).", min=0)] = None,
    smuggler_balance: Annotated[int, typer.Option(
        help="The smuggler's opponent-country balance in yen (the trunk cap is 100,000,000 or this).",
        min=0)] = OPP_START,
    top: Annotated[int, typer.Option(help="How many support points to list per side.", min=1)] = 10,
    plot_path: Annotated[Path | None, typer.Option("--plot", help=(
        "Save a PNG plot of both strategies here (default: smuggling-equilibrium.png in your user data "
        "folder; the path is printed)."))] = None,
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not save the plot.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the solution as JSON.")] = False,
) -> None:
    """Solve one small game as a zero-sum game by linear programming on a grid.

    The payoff is the change in the difference of the teams' third-country totals (smuggler's side):
    pass T; caught -T; empty trunk doubted +X; doubt below the trunk T + X.
    """
    console = Console()
    if no_plot:
        plot_path = None
    elif plot_path is None:
        plot_path = output_path("smuggling-equilibrium.png")
    stake = trunk_cap(smuggler_balance)
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
        console.print(f"Trunk cap {stake:,} yen; grid {grid:,} yen "
                      f"({len(solution.trunks)} x {len(solution.doubts)} pure strategies)")
        if inspector_balance is not None:
            console.print(f"Inspector's third-country balance {inspector_balance:,} yen: "
                          f"doubts up to {2 * inspector_balance:,} yen")
        console.print(f"Value (smuggling team's expected gain in the difference): [bold]{solution.value:,.0f}[/] yen "
                      f"= {solution.value / max(stake, 1):.6f} of the stake")
        status = "[green]ok[/]" if ok else "[red]FAILED[/]"
        console.print(f"Exploitability {solution.exploitability:.3g} yen (limit {TOLERANCE:g} of the stake): {status}")
        for side, label, head in (("smuggler", "Smuggler", "trunk (yen)"), ("inspector", "Inspector", "doubt (yen)")):
            table = Table(title=f"{label}: top support points")
            table.add_column(head, justify="right")
            table.add_column("probability", justify="right")
            for amount, prob in solution.top(side, top):
                name = "pass" if side == "inspector" and amount == 0 else f"{amount:,}"
                table.add_row(name, f"{prob:.6f}")
            console.print(table)
        if plot_path is not None:
            console.print(f"Plot saved to {plot_path}", soft_wrap=True)  # one line: a path to copy
    if not ok:
        raise typer.Exit(code=1)
