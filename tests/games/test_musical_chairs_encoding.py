"""Musical Chairs' observation read from the state (`MusicalChairsEncoder.observe_match`) equals its view's
encoding for every seat at every step of random playouts on the tables the conformance suite does not play
(it plays real time on the test island): the benchmark table (24 seats, rounds tempo, the drawn island),
rounds with a gallery that holds chairs, and real time on the drawn island with the gallery off it; and
another seat's secrets (`perturb_secrets`) never change it."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from partygames.engine.actions import sample
from partygames.engine.session import Session
from partygames.games import get
from partygames.games.musical_chairs.encoding import MusicalChairsEncoder
from partygames.games.musical_chairs.rules import MusicalChairsMatch

GAME = get("musical-chairs")
BENCHMARK = GAME.samples.benchmark
assert BENCHMARK is not None
SHORT = {"first_break_seconds": 5, "break_seconds": 5, "vote_seconds": 5, "remove_seconds": 5}

TABLES: list[tuple[int, dict[str, Any]]] = [
    (BENCHMARK.seats, dict(BENCHMARK.options)),
    (7, {"tempo": "rounds", "players": 4, "gallery": 3, "island": "drawn", "speed": 200, **SHORT}),
    (6, {"tempo": "real-time", "players": 4, "gallery": 2, "island": "drawn", "speed": 200, "race_seconds": 30,
         "gallery_on_island": False, "vote_at_totem": True, **SHORT}),
]


def _check(match: MusicalChairsMatch, encoder: MusicalChairsEncoder, rng: random.Random, secrets: bool) -> None:
    seats = range(match.seats)
    observed = [encoder.observe_match(match, seat) for seat in seats]
    for seat in seats:
        assert np.array_equal(observed[seat], encoder.observe(match.view(seat))), (match.version, seat)
    if not secrets:
        return
    for owner in seats:
        other = match.perturb_secrets(owner, random.Random(rng.random()))
        if other is not None:
            for seat in seats:
                if seat != owner:
                    assert np.array_equal(encoder.observe_match(other, seat), observed[seat]), (owner, seat)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(("seats", "options"), TABLES)
def test_the_observation_from_the_match_equals_the_view_s_at_every_step(seats: int, options: dict[str, Any],
                                                                          seed: int) -> None:
    session = Session.new(GAME, seats, options, seed)
    match = session.match
    encoder = GAME.encoder(seats, options)
    assert isinstance(match, MusicalChairsMatch)
    assert isinstance(encoder, MusicalChairsEncoder) and encoder.observes_match
    rng = random.Random(seed)
    secrets = seats <= 8  # every owner's secrets against every seat: quadratic, left out at 24 seats
    phases: set[str] = set()
    while True:
        _check(match, encoder, rng, secrets)
        phases.add(match.phase)
        if match.is_over:
            break
        due = match.wake_at()
        awaited = match.to_act()
        if not awaited or (due is not None and rng.random() < 0.2):
            assert due is not None
            session.wake(due)
        else:
            seat = rng.choice(awaited)
            at = match.now + rng.randrange(3) * 300
            session.act(seat, sample(match.legal_actions(seat), rng), at if due is None else min(at, due))
        assert match.version < 20_000
    assert {"break", "race", "over"} <= phases
