"""Lucky Nine's determinisation: nothing is hidden but the dropper's future, so every sample is the real
match itself (state and clock), with a chance source of its own (docs/rules/lucky-nine.md)."""

from __future__ import annotations

import random

from partygames.engine.determinisation import play_random
from partygames.engine.knowledge import SeatRecord
from partygames.engine.session import Session
from partygames.games import get

GAME = get("lucky-nine")
OPTIONS = {"rounds": 4, "special_prizes": [{"name": "elytra", "name_ja": "エリトラ"}], "sweep_bonus": True,
           "chain_bonus": True, "no_repeat": True}


def test_every_sample_is_the_real_match_with_other_future_draws() -> None:
    log = play_random(GAME, 3, 5, OPTIONS).log
    session = Session(GAME, GAME.new(3, OPTIONS, log.seed))
    match = session.match
    for step, entry in enumerate(log.entries):
        for seat in range(3):
            drawn = GAME.determinise(SeatRecord.from_match(GAME, match, seat), random.Random(step))
            assert drawn._state_json(copy=False)["state"] == match._state_json(copy=False)["state"]
            assert drawn.clock.to_json() == match.clock.to_json()
            assert drawn.chance.state != match.chance.state
        session.replay_entry(entry)
        if match.is_over:
            break
    assert match.is_over
