"""`partygames analyze lucky-nine`: the value of continuing, the optimal stop rule, the house edge."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from partygames.games.lucky_nine.analysis import solver
from partygames.games.lucky_nine.montecarlo import VARIANTS, house_edge
from partygames.games.lucky_nine.options import LuckyNineOptions

MAX_LIT = 8


def turn_tables(stakes: tuple[int, ...]) -> dict[str, Any]:
    """Continue values with an empty diamond chest and the diamond-chest thresholds, per stake and k."""
    cont: dict[str, dict[str, str]] = {}
    threshold: dict[str, dict[str, int | None]] = {}
    for stake in stakes:
        solve = solver(stake)
        # k = 0 with an empty diamond chest never occurs at a decision (special rule a refills).
        cont[str(stake)] = {str(k): str(solve.cont(k, 0)) for k in range(1, MAX_LIT + 1)}
        threshold[str(stake)] = {str(k): solve.threshold(k) for k in range(MAX_LIT + 1)}
    return {"continue_value_empty_diamond_chest": cont, "pass_value": "0",
            "continue_if_diamond_chest_at_least": threshold}


def myopic_continue(k: int, d: int, stake: int) -> bool:
    """The one-step rule: continue when the next press alone gains on average,
    k*s + D > 2*(8-k)*s, plus 2s more at stake when the diamond chest is empty."""
    gain = k * stake + d - 2 * (MAX_LIT - k) * stake
    return gain > (0 if d > 0 else 2 * stake)


def myopic_rule_is_optimal(stake: int, max_diamonds: int = 200) -> bool:
    """Whether the exact optimal decision equals the one-step rule for every k and D up to a bound."""
    solve = solver(stake)
    return all(solve.should_continue(k, d) == myopic_continue(k, d, stake)
               for k in range(MAX_LIT + 1) for d in range(max_diamonds + 1) if k or d)


def stop_rule_text(stakes: tuple[int, ...]) -> str:
    """The optimal stop rule in words, checked against the exact tables."""
    if all(myopic_rule_is_optimal(s) for s in stakes):
        return ("Optimal stop rule (exact, every stake): continue exactly when the next press alone gains on "
                "average, i.e. when k*s + D > 2*(8-k)*s with diamonds in the diamond chest (D > (16-3k)*s), "
                "and when k >= 7 with an empty diamond chest; otherwise pass (k: lit chests besides the diamond "
                "chest, D: diamonds in it, s: stake). Looking further ahead never changes the decision.")
    return "Optimal stop rule: continue exactly when the table above says so."


def _fmt(value: Fraction) -> str:
    text = f"{float(value):+.3f}"
    return text if value.denominator == 1 else f"{text} ({value})"


def analyze(
    games: Annotated[int, typer.Option(help="Monte Carlo games per variant and policy.")] = 2000,
    seats: Annotated[int, typer.Option(help="Players in the Monte Carlo games (2-20).")] = 6,
    seed: Annotated[int, typer.Option(help="First seed of the Monte Carlo games.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Value of continuing vs passing per lit chests and stake, the optimal stop rule, and the house
    edge by variant (default options: 5 rounds, stakes 1-2-4-6-9)."""
    console = Console()
    if not 2 <= seats <= 20 or games < 1:
        Console(stderr=True).print("[red]--seats must be 2-20 and --games at least 1.[/]")
        raise typer.Exit(code=1)
    stakes = LuckyNineOptions().stakes
    tables = turn_tables(stakes)
    edges: dict[str, dict[str, Any]] = {}
    with Progress(console=Console(stderr=True), transient=True, disable=as_json) as progress:
        task = progress.add_task("Monte Carlo", total=games * len(VARIANTS) * 2)
        for policy, drop in (("heuristic", True), ("never drop out", False)):
            edges[policy] = {name: house_edge(seats, opts, games, seed, drop,
                                              lambda: progress.advance(task)).to_json()
                             for name, opts in VARIANTS.items()}
    stop_rule = stop_rule_text(stakes)
    if as_json:
        console.print_json(json.dumps({"stakes": list(stakes), **tables, "stop_rule": stop_rule,
                                       "house_edge": {"seats": seats, "games": games, "by_policy": edges}}))
        return
    cont = Table(title="Expected gain of continuing (pressing again, then stopping optimally) vs passing (0), "
                       "diamond chest empty; exact")
    cont.add_column("lit chests k")
    for s in stakes:
        cont.add_column(f"stake {s}", justify="right")
    for k in range(1, MAX_LIT + 1):
        values = [solver(s).cont(k, 0) for s in stakes]
        cont.add_row(str(k), *[("[green]" if v > 0 else "") + _fmt(v) for v in values])
    console.print(cont)
    thr = Table(title="Optimal stop rule: continue when the diamond chest holds at least this many diamonds")
    thr.add_column("lit chests k")
    for s in stakes:
        thr.add_column(f"stake {s}", justify="right")
    for k in range(MAX_LIT + 1):
        thr.add_row(str(k), *[str(solver(s).threshold(k)) for s in stakes])
    console.print(thr)
    console.print(stop_rule)
    console.print("The turn model counts this turn's diamonds only; see `docs/rules/lucky-nine.md`.")
    for policy, rows in edges.items():
        table = Table(title=f"House edge by variant, Monte Carlo ({games} games of {seats} players, "
                            f"every seat on the {policy} policy; 95% intervals)")
        for col in ("variant", "house net / game", "paid on misses / game", "edge (net / paid)"):
            table.add_column(col, justify="right")
        for name, e in rows.items():
            lo, hi = e["house_net_ci95"]
            elo, ehi = e["edge_ci95"]
            table.add_row(name, f"{e['house_net_per_game']:+.2f} [{lo:+.2f}, {hi:+.2f}]",
                          f"{e['paid_on_misses_per_game']:.1f}",
                          f"{100 * e['edge']:+.2f}% [{100 * elo:+.2f}%, {100 * ehi:+.2f}%]")
        console.print(table)
    console.print("A whole game (all holdings, nine chests, turn order) is too large to solve exactly, so the "
                  "house edge is estimated; the turn values above are exact.")
