"""Engine speed per game, on one core: random playouts (games/s, actions/s), view() calls/s and the
JSON round trip. Times are CPU time of this process (steady on a shared machine). Prints figures;
asserts nothing.

    .venv/bin/python benchmarks/engine_bench.py [--seconds 3] [--game lucky-nine]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable

from partygames import games
from partygames.engine.actions import ActionSpec, sample
from partygames.engine.game import Dynamics
from partygames.engine.match import Match
from partygames.engine.samples import Setup


def step(match: Match, rng: random.Random, real_time: bool,
         also: Callable[[list[ActionSpec]], object] | None = None) -> None:
    """One random step: an awaited seat acts, or time moves on (to the next wake-up when nobody is
    awaited; one second now and then in a real-time game, which awaits every seat at every moment).
    `also` is called with the acting seat's legal actions, to time extra work on the same playouts."""
    awaited = match.to_act()
    if not awaited or (real_time and rng.random() < 0.1):
        due = match.wake_at()
        assert due is not None, "nobody is awaited and nothing is due"
        match.advance(due if not awaited else min(due, match.now + 1000))
    else:
        seat = awaited[rng.randrange(len(awaited))]
        specs = match.legal_actions(seat)
        if also is not None:
            also(specs)
        match.apply(seat, sample(specs, rng), match.now)


def bench_game(game_id: str, seconds: float) -> dict[str, float]:
    game = games.get(game_id)
    setup = game.samples.benchmark or Setup(min(game.seat_counts_for(None)))
    options = dict(setup.options) or None
    seats = setup.seats
    real_time = game.dynamics == Dynamics.REAL_TIME
    rng = random.Random(0)
    played = actions = 0
    start = time.process_time()
    deadline = start + seconds
    last = None
    while time.process_time() < deadline:
        match = game.new(seats, options, seed=played)
        while not match.is_over:
            step(match, rng, real_time)
        actions += match.version
        played += 1
        last = match
    elapsed = time.process_time() - start
    assert last is not None
    # view() calls on a mid-game state
    mid = game.new(seats, options, seed=1)
    for _ in range(max(1, last.version // 2)):
        if mid.is_over:
            break
        step(mid, rng, real_time)
    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds / 3:
        for seat in range(seats):
            mid.view(seat)
        n += seats
    views_per_s = n / (time.process_time() - t0)
    k, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds / 3:
        game.from_json(json.loads(json.dumps(mid.to_json())))
        k += 1
    roundtrip_ms = 1000 * (time.process_time() - t0) / k
    return {"seats": seats, "games_per_s": played / elapsed, "actions_per_s": actions / elapsed,
            "views_per_s": views_per_s, "json_roundtrip_ms": roundtrip_ms}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(f"{'game':<20}{'seats':>6}{'games/s':>12}{'actions/s':>14}{'views/s':>12}{'json rt ms':>12}")
    for game_id in args.game or games.ids():
        r = bench_game(game_id, args.seconds)
        print(f"{game_id:<20}{r['seats']:>6}{r['games_per_s']:>12.1f}{r['actions_per_s']:>14,.0f}"
              f"{r['views_per_s']:>12,.0f}{r['json_roundtrip_ms']:>12.3f}")


if __name__ == "__main__":
    main()
