"""`partygames analyze quiz`: win rate against recall probability, and the worth of a peek."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from partygames.games.quiz.analysis import RECALLS, peek_worth, plot, win_rates


def _recalls(text: str) -> tuple[float, ...]:
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        raise typer.BadParameter("give probabilities separated by commas, e.g. 0.1,0.5,0.9") from None
    if not values or any(not 0 <= v <= 1 for v in values) or len(set(values)) != len(values):
        raise typer.BadParameter("each recall must be a distinct probability from 0 to 1")
    return values


def analyze(
    games: Annotated[int, typer.Option(help="Seeded matches to play.", min=1)] = 500,
    seats: Annotated[int, typer.Option(help="Seats per table (2-5).", min=2, max=5)] = 4,
    recalls: Annotated[str, typer.Option(help="Recall probabilities of the bots, comma-separated.")]
    = ",".join(map(str, RECALLS)),
    seed: Annotated[int, typer.Option(help="Seed of the first match.")] = 0,
    plot_path: Annotated[Path | None, typer.Option("--plot", help="Save a PNG plot here.")] = Path("quiz-recall.png"),
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not save the plot.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Win rate against the probability of recalling a card (bots of different memory in one table),
    and the exact price and worth of a peek for k peekers."""
    console = Console()
    levels = _recalls(recalls)
    rows = win_rates(levels, games, seats, seed)
    worth = peek_worth()
    if no_plot:
        plot_path = None
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
    table = Table(title=f"Win rate against recall ({games} matches of {seats} seats)")
    for head in ("recall", "seats", "win rate", "95% interval", "score markers"):
        table.add_column(head, justify="right")
    for r in rows:
        table.add_row(f"{r.recall:.2f}", str(r.seats), f"{r.win_rate:.3f}", f"[{r.win_low:.3f}, {r.win_high:.3f}]",
                      f"{r.mean_score:.2f}")
    console.print(table)
    peeks = Table(title="A peek at another row's card costs k markers with k peekers; its worth (uniform selection)")
    for head in ("question", "P(row asked later)", "P(row is Q8's)", "score markers it can win", "pays for k <="):
        peeks.add_column(head, justify="right")
    for w in worth:
        if w.peekers == 1:
            paying = [x.peekers for x in worth if x.question == w.question and x.pays_in_score_markers]
            peeks.add_row(str(w.question), f"{w.later} ({float(w.later):.3f})", f"{w.final} ({float(w.final):.3f})",
                          f"{w.markers} ({float(w.markers):.3f})", str(max(paying)) if paying else "none")
    console.print(peeks)
    console.print("Paid in secret money a peek costs no points; its worth is chiefly the chance that the card's "
                  "row is question 8's, where one more word can win 1億万.")
    if plot_path is not None:
        console.print(f"Plot saved to {plot_path}")
