"""The search bot's simulations per CPU second in each game (issue 32: how many more a faster rollout path
gives it): on the short tables of `mcts_bench.py` (the real-time games in their rounds tempo), `--matches` seeded matches a game with the search bot at
seat 0 on a budget of `--simulations` rollouts a decision (deterministic given its seed, so two checkouts
do exactly the same searches) and the heuristic bot at every other seat, played by `engine.session.play`.
The search's time is CPU time (`time.process_time`, its `clock`). Prints figures; asserts nothing. To
compare two checkouts, run it with each one's `src` first on `PYTHONPATH`, in turn.

    .venv/bin/python benchmarks/rollout_bench.py [--matches 3] [--simulations 64] [--game quiz]
"""

from __future__ import annotations

import argparse
import os
import time

from mcts_bench import TABLES as MCTS_TABLES  # the short tables of mcts_bench.py: (seats, options)

from partygames import games
from partygames.engine.search import Budget, SearchBot
from partygames.engine.session import play

# The real-time games in their rounds tempo: in real time nobody has a turn, so the search bot plays its
# policy without searching (`SearchBot._live`). Musical Chairs on the conformance suite's small island.
TABLES = {**MCTS_TABLES, "pandemic": (4, {"tempo": "rounds"}),
          "musical-chairs": (5, {"tempo": "rounds", "players": 3, "gallery": 2, "island": "test", "speed": 100,
                                 "race_seconds": 10, "first_break_seconds": 5, "break_seconds": 5,
                                 "vote_seconds": 5, "remove_seconds": 5})}


def bench_game(game_id: str, matches: int, simulations: int) -> tuple[int, float, int]:
    """(simulations, CPU seconds searching, searched decisions) over the game's matches."""
    game = games.get(game_id)
    seats, options = TABLES[game_id]
    table = game.table(seats, options)
    total, seconds, searched = 0, 0.0, 0
    for seed in range(matches):
        search = game.make_bot("search", 0, seed, table=table, budget=Budget(simulations=simulations))
        assert isinstance(search, SearchBot)
        search.clock = time.process_time
        others = [game.make_bot("heuristic", s, seed * 100 + s) for s in range(1, seats)]
        play(game, seats, [search, *others], options, seed=seed)
        total += search.stats.simulations
        seconds += search.stats.seconds
        searched += search.stats.searched
    return total, seconds, searched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--simulations", type=int, default=64)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(f"{'game':<20}{'seats':>6}{'searched':>10}{'simulations':>13}{'cpu s':>9}{'sims/s':>10}")
    for game_id in args.game or list(TABLES):
        total, seconds, searched = bench_game(game_id, args.matches, args.simulations)
        print(f"{game_id:<20}{TABLES[game_id][0]:>6}{searched:>10}{total:>13,}{seconds:>9.2f}"
              f"{total / seconds if seconds else 0:>10,.0f}")


if __name__ == "__main__":
    main()
