"""The review of a finished match (issue 32, `analysis/review.py`): how honest and how fast.

- Lucky Nine against the exact answer: `--matches` seeded matches of random and heuristic bots (3 seats,
  4 rounds, as `mcts_bench.TABLES`), every seat reviewed at `--simulations` per decision (default: the
  review's default budget); at each continue/pass decision the review's best move is compared with the exact
  optimal stop rule (`games/lucky_nine/analysis.py`, `partygames analyze lucky-nine`). Prints the agreement
  figure, and how many disagreements fall where the exact gain of continuing differs from passing by less
  than the review's 95% half-width of that difference (the acceptance test asks for all of them).
- Time per review: for every game, one match of heuristic bots on its short table (`mcts_bench.TABLES`;
  the research table `Game.samples.rl` where that says None),
  seat 0 reviewed at the same budget; wall time (the machine is shared: compare runs of one machine).

Asserts nothing.

    .venv/bin/python benchmarks/review_bench.py [--matches 20] [--simulations 200] [--game lucky-nine]
"""

from __future__ import annotations

import argparse
import time

from mcts_bench import TABLES

from partygames import games
from partygames.analysis.review import DEFAULT_SIMULATIONS, review
from partygames.engine.search import Budget
from partygames.engine.session import play
from partygames.games.lucky_nine.review import ExactCheck, exact_checks


def lucky_nine(matches: int, budget: Budget) -> None:
    game = games.get("lucky-nine")
    seats, options = TABLES["lucky-nine"]
    checks: list[ExactCheck] = []
    started, reviews = time.perf_counter(), 0
    for seed in range(matches):
        kinds = ["random" if (seed + s) % 2 else "heuristic" for s in range(seats)]
        bots = [game.make_bot(kind, s, 1000 * seed + s) for s, kind in enumerate(kinds)]
        log = play(game, seats, bots, options or {}, seed)[1]
        for seat in range(seats):
            checks += exact_checks(game, log, review(game, log, seat, budget))
            reviews += 1
    agree = sum(c.agrees for c in checks)
    noisy = [c for c in checks if not c.agrees]
    within = sum(c.within_noise for c in noisy)
    print(f"Lucky Nine, {matches} matches of random and heuristic bots, {budget} per decision: "
          f"{agree}/{len(checks)} continue/pass decisions agree with the exact stop rule "
          f"({agree / max(1, len(checks)):.1%}); {within}/{len(noisy)} disagreements within the review's "
          f"95% half-width; {(time.perf_counter() - started) / max(1, reviews):.2f} s per seat's review")
    for c in noisy:
        print(f"    step {c.step}: exact gain of continuing {c.exact_gain:+.2f}, review {c.review_gain:+.2f} "
              f"± {c.half_width:.2f} ({'within' if c.within_noise else 'OUTSIDE'} the noise)")


def timings(game_ids: list[str], budget: Budget) -> None:
    print(f"\n| game | seats | log entries | decisions reviewed | s per review ({budget} per decision) |")
    print("|---|---|---|---|---|")
    for game_id in game_ids:
        game = games.get(game_id)
        seats, options = TABLES[game_id]
        if options is None and game.samples.rl is not None:  # None: the game's research table
            seats, options = game.samples.rl.seats, dict(game.samples.rl.options)
        bots = [game.make_bot("heuristic", s, s) for s in range(seats)]
        log = play(game, seats, bots, options or {}, 1)[1]
        started = time.perf_counter()
        result = review(game, log, 0, budget)
        print(f"| {game_id} | {seats} | {len(log.entries)} | {len(result.decisions)} | "
              f"{time.perf_counter() - started:.1f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS)
    parser.add_argument("--game", action="append", choices=list(TABLES))
    args = parser.parse_args()
    budget = Budget(simulations=args.simulations)
    if args.game is None or "lucky-nine" in args.game:
        lucky_nine(args.matches, budget)
    timings(args.game or list(TABLES), budget)


if __name__ == "__main__":
    main()
