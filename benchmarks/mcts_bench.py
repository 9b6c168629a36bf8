"""Each game's heuristic bot against OpenSpiel's MCTS over determinisations, at a think time per decision
(MCTS searches until it is spent; the heuristic needs far less and is measured), through OpenSpiel's
evaluate_bots. Prints win rates per seat with 95% intervals; asserts nothing.

    .venv/bin/python benchmarks/mcts_bench.py [--games 40] [--think-ms 50] [--game smuggling]
"""

from __future__ import annotations

import argparse
from typing import Any

from partygames.rl.compare import compare

# Short tables, so that a comparison takes minutes: (seats, options, rollout cut-off). Dice Derby's
# random bettors take seconds to finish a rollout: its rollouts stop after 60 moves (worth 0 then).
TABLES: dict[str, tuple[int, dict[str, Any], int | None]] = {
    "smuggling": (2, {"team_size": 1, "small_games": 4}, None),
    "lucky-nine": (3, {"rounds": 4}, None),
    "last-man-standing": (4, {}, None),
    "dice-derby": (6, {"races": 4}, 60),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--think-ms", type=float, default=50.0)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    for game_id in args.game or list(TABLES):
        seats, options, cut = TABLES[game_id]
        result = compare(game_id, args.games, seats, options, seconds=args.think_ms / 1000, determinizations=1,
                         simulations=8, rollout_length=cut)
        print(result.line(), flush=True)


if __name__ == "__main__":
    main()
