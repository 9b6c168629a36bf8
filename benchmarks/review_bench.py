"""The review of a finished match (issue 32, `analysis/review.py`): how honest and how fast.

- Lucky Nine against the exact answer: `--matches` seeded matches of random and heuristic bots (3 seats,
  4 rounds, as `mcts_bench.TABLES`), every seat reviewed at `--simulations` per decision (default: the
  review's default budget); at each continue/pass decision the review's best move is compared with the exact
  optimal stop rule (`games/lucky_nine/analysis.py`, `partygames analyze lucky-nine`). Prints the agreement
  figure, and how many disagreements fall where the exact gain of continuing differs from passing by less
  than the review's 95% half-width of that difference (the acceptance test asks for all of them).
- Smuggling against the small game's equilibrium (`--game smuggling`): `--matches` seeded matches of
  random and equilibrium bots on the short table (team size 1, 4 small games), every seat reviewed; at each
  pack and declaration every candidate's exact value against the other side's equilibrium strategy
  (`games/smuggling/review.py`) beside the review's. Prints the best-move agreement, and for every pair of a
  move the equilibrium plays and one it never plays (exact values apart) how often the review judges the
  never-played one worse, and how many of the others fall within the review's 95% interval; the last small
  game (where the bots play for the win, not the equilibrium) is counted apart.
- Dice Derby against the exact odds (`--game dice-derby`): `--derby-matches` seeded matches of random and
  heuristic bots (6 seats, 4 races), seat 0 reviewed (a heuristic bot in even seeds, a random one in odd),
  on the default table (payout rate 1.0) and a generous one (1.5); at each betting decision the exact
  expected gain of every candidate (`games/dice_derby/review.py`) beside the review's expected final money.
- Time per review: for every game, one match of heuristic bots on its short table (`mcts_bench.TABLES`;
  the research table `Game.samples.rl` where that says None),
  seat 0 reviewed at the same budget; wall time (the machine is shared: compare runs of one machine).

Asserts nothing.

    .venv/bin/python benchmarks/review_bench.py [--matches 20] [--simulations 200] [--game lucky-nine]
        [--game smuggling] [--game dice-derby] [--derby-matches 6]
"""

from __future__ import annotations

import argparse
import itertools
import time
from typing import Any

from mcts_bench import TABLES

from partygames import games
from partygames.analysis.review import DEFAULT_SIMULATIONS, review
from partygames.engine.game import Game
from partygames.engine.log import MatchLog
from partygames.engine.search import Budget
from partygames.engine.session import Session, play
from partygames.games.dice_derby.review import RACE, OddsCheck, odds_checks
from partygames.games.lucky_nine.review import TURN, ExactCheck, exact_checks
from partygames.games.smuggling.review import SMALL_GAME, EquilibriumCheck, equilibrium_checks


def bot_match(game: Game, seats: int, other: str, options: dict[str, Any] | None, seed: int) -> MatchLog:
    """A seeded match of `seats` bots alternating between `other` and random, by seat and seed."""
    kinds = ["random" if (seed + s) % 2 else other for s in range(seats)]
    bots = [game.make_bot(kind, s, 1000 * seed + s) for s, kind in enumerate(kinds)]
    return play(game, seats, bots, options or {}, seed)[1]


def _lucky_report(title: str, checks: list[ExactCheck]) -> None:
    """Agreement with the exact stop rule, the decisions where special rule b may apply counted apart."""
    for label, part in (("", [c for c in checks if not c.short]),
                        (" (seat short of a miss's cost: special rule b, which the exact model ignores)",
                         [c for c in checks if c.short])):
        if not part and label:
            continue
        agree = sum(c.agrees for c in part)
        noisy = [c for c in part if not c.agrees]
        within = sum(c.within_noise for c in noisy)
        print(f"  {title}{label}: {agree}/{len(part)} continue/pass decisions agree with the exact stop rule "
              f"({agree / max(1, len(part)):.1%}); {within}/{len(noisy)} disagreements within the review's 95% "
              f"half-width; {sum(c.review_best == 'continue' for c in noisy)} of them the review continuing")
        for c in noisy:
            print(f"    step {c.step}: exact gain of continuing {c.exact_gain:+.2f}, review {c.review_gain:+.2f} "
                  f"± {c.half_width:.2f} ({'within' if c.within_noise else 'OUTSIDE'} the noise)")


def last_turn_steps(game: Game, log: MatchLog, seat: int) -> set[int]:
    """The log steps of the seat's moves in the last lap of the last round (Lucky Nine)."""
    session = Session(game, game.new(log.seats, log.options, log.seed, bots=log.bots))
    found = set()
    for step, entry in enumerate(log.entries):
        view = session.match.view(seat)
        if entry.seat == seat and view["round"] == view["rounds"] and view["lap"] == view["laps"]:
            found.add(step)
        session.replay_entry(entry)
    return found


def lucky_nine(matches: int, budget: Budget, last_matches: int) -> None:
    """(1) the turn measure (`lucky_nine.review.TURN`) at every continue/pass decision of `matches` matches;
    (2) the default whole-match review at the decisions of each seat's last turn (the last lap of the last
    round), over `last_matches` matches; (3) the default review at every decision of the first `matches`."""
    game = games.get("lucky-nine")
    seats, options = TABLES["lucky-nine"]
    turn: list[ExactCheck] = []
    whole: list[ExactCheck] = []
    started = time.perf_counter()
    for seed in range(matches):
        log = bot_match(game, seats, "heuristic", options, seed)
        for seat in range(seats):
            turn += exact_checks(game, log, review(game, log, seat, budget, thresholds=TURN))
    turn_seconds = (time.perf_counter() - started) / max(1, matches * seats)
    started = time.perf_counter()
    last: list[ExactCheck] = []
    for seed in range(matches):
        log = bot_match(game, seats, "heuristic", options, seed)
        for seat in range(seats):
            checks = exact_checks(game, log, review(game, log, seat, budget))
            last += [c for c in checks if c.last_turn]
            whole += checks
    whole_seconds = (time.perf_counter() - started) / max(1, matches * seats)
    for seed in range(matches, last_matches):  # more last turns: only those decisions are judged
        log = bot_match(game, seats, "heuristic", options, seed)
        for seat in range(seats):
            steps = last_turn_steps(game, log, seat)
            if steps:
                last += [c for c in exact_checks(game, log, review(game, log, seat, budget, steps=steps))
                         if c.last_turn]
    print(f"Lucky Nine, random and heuristic bots ({options}, {seats} seats), {budget} per decision, with the luck "
          f"correction:")
    _lucky_report(f"(1) one turn's diamonds (the exact model's measure), {matches} matches, "
                  f"{turn_seconds:.2f} s per seat's review", turn)
    _lucky_report(f"(2) final diamonds (the default review), decisions of a seat's last turn, "
                  f"{max(matches, last_matches)} matches", last)
    _lucky_report(f"(3) final diamonds (the default review), every decision, {matches} matches, "
                  f"{whole_seconds:.2f} s per seat's review", whole)


def smuggling(matches: int, budget: Budget) -> None:
    game = games.get("smuggling")
    seats, options = TABLES["smuggling"]
    for title, thresholds in (("the team's lead gained in the small game (SMALL_GAME, the equilibrium's measure)",
                               SMALL_GAME), ("the team's lead at the end (the default review)", None)):
        checks: list[EquilibriumCheck] = []
        started, reviews = time.perf_counter(), 0
        for seed in range(matches):
            log = bot_match(game, seats, "equilibrium", options, seed)
            for seat in range(seats):
                checks += equilibrium_checks(game, log, review(game, log, seat, budget, thresholds=thresholds))
                reviews += 1
        print(f"\nSmuggling, {matches} matches of random and equilibrium bots ({options}), {budget} per decision, "
              f"judged by {title}, {(time.perf_counter() - started) / max(1, reviews):.2f} s per seat's review:")
        _smuggling_report(checks)


def _smuggling_report(checks: list[EquilibriumCheck]) -> None:
    for last in (False, True):
        part = [c for c in checks if c.last == last]
        agree = sum(c.agrees for c in part)
        noisy = [c for c in part if not c.agrees]
        pairs = [p for c in part for p in c.pairs()]
        ordered = sum(p[2] for p in pairs)
        within = sum(p[3] for p in pairs if not p[2])
        clear = sum(p[2] and not p[3] for p in pairs)
        print(f"  {'the last small game' if last else 'small games before the last'}: {agree}/{len(part)} "
              f"packs and declarations agree with the equilibrium's best ({agree / max(1, len(part)):.1%}), "
              f"{sum(c.within_noise for c in noisy)}/{len(noisy)} disagreements within the review's 95% "
              f"half-width; {ordered}/{len(pairs)} pairs (played by the equilibrium, never played) judged in "
              f"the equilibrium's order ({ordered / max(1, len(pairs)):.1%}; {clear} of them beyond the noise), "
              f"{within}/{len(pairs) - ordered} of the others within the noise")
        for role in ("smuggler", "inspector"):
            mine = [c for c in part if c.role == role]
            print(f"    {role}: {sum(c.agrees for c in mine)}/{len(mine)} agree")
        for c in noisy:
            if not c.within_noise:
                best, exact = c.candidates[c.best], c.candidates[c.exact_best]
                print(f"    step {c.step} ({c.role}): review's best {best.action} (exact {best.exact / 1e6:+.1f}M), "
                      f"exact best {exact.action} ({exact.exact / 1e6:+.1f}M): OUTSIDE the noise")


def dice_derby(matches: int, budget: Budget) -> None:
    game = games.get("dice-derby")
    seats, _ = TABLES["dice-derby"]
    for rate, (title, thresholds) in itertools.product(
            (1.0, 1.5), (("final money (the default review)", None), ("the money gained by the race (RACE)", RACE))):
        checks: list[OddsCheck] = []
        started = time.perf_counter()
        for seed in range(matches):
            log = bot_match(game, seats, "heuristic", {"races": 4, "payout_rate": rate}, seed)
            checks += odds_checks(game, log, review(game, log, 0, budget, thresholds=thresholds))
        agree = sum(c.agrees for c in checks)
        alone = sum(c.agrees_alone for c in checks)
        noisy = [c for c in checks if not c.agrees]
        within = sum(c.within_noise for c in noisy)
        gaps = sorted(c.gap for c in noisy)
        print(f"\nDice Derby, payout rate {rate}, {matches} matches of random and heuristic bots (6 seats, 4 races), "
              f"seat 0 reviewed by {title}, {budget} per decision, "
              f"{(time.perf_counter() - started) / max(1, matches):.1f} s "
              f"per review: {agree}/{len(checks)} betting decisions agree with the exact best "
              f"({agree / max(1, len(checks)):.1%}; with the exact gain of the candidate alone, without the bets the "
              f"policy adds after it: {alone}, {alone / max(1, len(checks)):.1%}); {within}/{len(noisy)} "
              f"disagreements within the review's 95% "
              f"half-width; exact gaps of the disagreements: median {gaps[len(gaps) // 2] if gaps else 0:.0f}, "
              f"largest {gaps[-1] if gaps else 0:.0f} yen")
        for c in noisy:
            if not c.within_noise:
                print(f"    step {c.step} race {c.race}: review's best {c.actions[c.best]} (exact "
                      f"{float(c.exact[c.best]):+.0f}), exact best {c.actions[c.exact_best]} "
                      f"({float(c.exact[c.exact_best]):+.0f}), review's half-width {c.half_width:.0f}: OUTSIDE")


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
    parser.add_argument("--derby-matches", type=int, default=6)
    parser.add_argument("--last-matches", type=int, default=60,
                        help="Lucky Nine matches whose last turns are checked against the default review")
    parser.add_argument("--game", action="append", choices=list(TABLES))
    args = parser.parse_args()
    budget = Budget(simulations=args.simulations)
    if args.game is None or "lucky-nine" in args.game:
        lucky_nine(args.matches, budget, args.last_matches)
    if args.game is None or "smuggling" in args.game:
        smuggling(args.matches, budget)
    if args.game is None or "dice-derby" in args.game:
        dice_derby(args.derby_matches, budget)
    timings(args.game or list(TABLES), budget)


if __name__ == "__main__":
    main()
