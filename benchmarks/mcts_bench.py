"""Each game's heuristic bot against OpenSpiel's MCTS over determinisations, through OpenSpiel's
evaluate_bots, in two rows per game: at equal think time (the heuristic's mean think time per decision,
measured first on the same table with the heuristic at every seat, is MCTS's budget per decision) and at
a larger budget for MCTS (`--think-ms`; the heuristic cannot search, so it takes what it needs). MCTS
searches until its budget is spent, at least one simulation a decision. Prints win rates per seat with
95% Wilson intervals and a Markdown table; asserts nothing.

    .venv/bin/python benchmarks/mcts_bench.py [--games 40] [--think-ms 50] [--game smuggling]

All seven games, 40 games a row: about 5 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from partygames.analysis.stats import wilson_interval
from partygames.rl.compare import Comparison, compare, equal_think_time

# Short tables, so that a comparison takes minutes: (seats, options; None: the game's research table,
# samples.research, where the real-time games play in rounds). Dice Derby's random bettors buy and cancel
# tickets until the betting time runs out, a step a second: 20 s a race, not 90 (rollouts run to the end).
TABLES: dict[str, tuple[int, dict[str, Any] | None]] = {
    "smuggling": (2, {"team_size": 1, "small_games": 4}),
    "lucky-nine": (3, {"rounds": 4}),
    "last-man-standing": (4, {}),
    "dice-derby": (6, {"races": 4, "betting_seconds": 20, "bidding_seconds": 30}),
    "quiz": (2, None),
    "pandemic": (4, None),
    "musical-chairs": (4, None),
}


def row(label: str, result: Comparison) -> str:
    def rate(wins: float, games: int) -> str:
        low, high = wilson_interval(round(wins), games)
        return f"{wins / games:.3f} [{low:.3f}, {high:.3f}]"

    budget = "-" if result.budget_ms is None else f"{result.budget_ms:.2f}"
    return (f"| {result.game_id} | {label} | {rate(result.mcts_wins, result.games)} | {budget} | "
            f"{result.mcts_think_ms:.2f} | {result.simulations / max(1, result.mcts_choices):.1f} | "
            f"{rate(result.bot_wins, result.games * (result.seats - 1))} | {result.bot_think_ms:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--think-ms", type=float, default=50.0)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    rows = []
    for game_id in args.game or list(TABLES):
        seats, options = TABLES[game_id]
        for label in ("equal", f"{args.think_ms:g} ms"):
            started = time.perf_counter()
            if label == "equal":
                result = equal_think_time(game_id, args.games, seats, options)
            else:
                result = compare(game_id, args.games, seats, options, seconds=args.think_ms / 1000,
                                 determinizations=1)
            print(f"{result.line()} [{time.perf_counter() - started:.0f} s]", flush=True)
            rows.append(row(label, result))
    print("\n| game | MCTS think time | MCTS win rate | budget ms | ms/decision | simulations/decision "
          "| heuristic win rate | ms/decision |\n|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
