"""Determinisation speed per game, on one core (CPU time of this process): for mid-game states of seeded
random matches (a quarter, half and three quarters of the way), every seat's record as a host feeds it
(the first view, the events the seat may see, the view now): the time to build the seat's determiniser
(read the record once), the time of one sample, and one sample's random playout to the end for scale
(what a search's rollout costs after it); then OpenSpiel's `resample_from_infostate` on the research
table (`samples.research`), a whole resampled state (the player's determiniser built once per state, as
ISMCTS resamples one root again and again). Tables: `samples.benchmark` (else the golden one). Prints
figures; asserts nothing.

    .venv/bin/python benchmarks/determinise_bench.py [--samples 200] [--game quiz]
"""

from __future__ import annotations

import argparse
import os
import random
import time

import numpy as np
import pyspiel

from partygames import games
from partygames.engine.actions import sample
from partygames.engine.determinisation import play_random
from partygames.engine.game import Game
from partygames.engine.knowledge import SeatRecord
from partygames.engine.match import Match
from partygames.engine.samples import Setup
from partygames.engine.session import Session
from partygames.rl import openspiel


def _records(game: Game, setup: Setup, seed: int) -> list[SeatRecord]:
    """Every seat's record at a quarter, half and three quarters of a seeded random match."""
    options = dict(setup.options) or None
    log = play_random(game, setup.seats, seed, options).log
    marks = {len(log.entries) * k // 4 for k in (1, 2, 3)}
    session = Session(game, game.new(setup.seats, options, log.seed))
    match = session.match
    records = [SeatRecord(game, setup.seats, options, s) for s in range(setup.seats)]
    for record in records:
        record.see(match.view(record.seat), match.now, match.deadline())
    taken: list[SeatRecord] = []
    for step, entry in enumerate(log.entries):
        if step in marks and not match.is_over:
            for record in records:
                record.see(match.view(record.seat), match.now, match.deadline())
                taken.append(record.copy())
        for event in session.replay_entry(entry):
            for record in records:
                if event.is_visible_to(record.seat):
                    record.hear(event)
    return taken


def _playout(match: Match, rng: random.Random) -> int:
    steps = 0
    while not match.is_over and steps < 5000:
        to_act = match.to_act()
        due = match.wake_at()
        if due is not None and (not to_act or rng.random() < 0.1):
            match.advance(max(due, match.now))
        else:
            seat = to_act[rng.randrange(len(to_act))]
            match.apply_trusted(seat, sample(match.legal_actions(seat), rng))
        steps += 1
    return steps


def bench_game(game: Game, samples: int) -> dict[str, float]:
    setup = game.samples.benchmark or game.samples.golden or Setup(min(game.seat_counts_for(None)))
    records = _records(game, setup, 1)
    assert game.determiniser is not None and records
    rng = random.Random(0)
    build = draw = play = 0.0
    drawn = played = 0
    for record in records:
        start = time.process_time()
        determiniser = game.determiniser(record)
        build += time.process_time() - start
        start = time.process_time()
        matches = [determiniser.sample(rng) for _ in range(samples)]
        draw += time.process_time() - start
        drawn += samples
        start = time.process_time()
        played += _playout(matches[0], rng)
        play += time.process_time() - start
    return {"seats": setup.seats, "states": len(records), "build_ms": 1000 * build / len(records),
            "sample_ms": 1000 * draw / drawn, "playout_ms": 1000 * play / len(records),
            "playout_steps": played / len(records), "resample_ms": _resample_ms(game, samples)}


def _resample_ms(game: Game, samples: int) -> float:
    """OpenSpiel's resample_from_infostate at decision nodes of a random playout, per resampled state."""
    spiel = pyspiel.load_game(openspiel.short_name(game.id))
    rng = np.random.RandomState(1)
    state = spiel.new_initial_state()
    spent, count, moves = 0.0, 0, 0
    while not state.is_terminal() and count < 3 * samples:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        moves += 1
        if moves % 5 == 0:
            sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
            start = time.process_time()
            for _ in range(samples // 10):
                state.resample_from_infostate(state.current_player(), sampler)
            spent += time.process_time() - start
            count += samples // 10
        state.apply_action(int(rng.choice(state.legal_actions())))
    return 1000 * spent / max(1, count)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=200, help="samples per record")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(f"{'game':<20}{'seats':>6}{'states':>8}{'build ms':>10}{'sample ms':>11}{'samples/s':>11}"
          f"{'playout ms':>12}{'(steps)':>9}{'resample ms':>13}")
    for game_id in args.game or games.ids():
        r = bench_game(games.get(game_id), args.samples)
        print(f"{game_id:<20}{r['seats']:>6}{r['states']:>8}{r['build_ms']:>10.2f}{r['sample_ms']:>11.3f}"
              f"{1000 / r['sample_ms']:>11,.0f}{r['playout_ms']:>12.1f}{r['playout_steps']:>9.0f}"
              f"{r['resample_ms']:>13.2f}")


if __name__ == "__main__":
    main()
