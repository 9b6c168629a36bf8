"""Lucky Nine properties: random legal play from random seeds, seat counts and options never crashes,
conserves diamonds and prizes, keeps every lit chest at the stake, and shows every seat the same
public picture, which never depends on the random state (the future dropper results)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from partygames.engine.actions import sample
from partygames.games import get
from partygames.games.lucky_nine.rules import NON_DIAMOND, LuckyNineMatch

GAME = get("lucky-nine")
DISTINCTIVE = 7_391_846_205_113  # a seed whose digits cannot appear in a view by chance

options_strategy = st.fixed_dictionaries({
    "rounds": st.sampled_from([4, 5, 6]),
    "start_diamonds": st.integers(1, 80),
    "triple_diamond": st.booleans(),
    "sweep_bonus": st.booleans(),
    "no_repeat": st.booleans(),
    "chain_bonus": st.booleans(),
    "special_prizes": st.lists(st.builds(lambda n, c: {"name": n, "count": c},
                                         st.sampled_from(["elytra", "trident", "totem"]), st.integers(1, 3)),
                               max_size=2, unique_by=lambda p: p["name"]),
})


def _public(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("seat", "legal_actions")}


@given(seed=st.integers(0, 2**32), seats=st.integers(2, 20), options=options_strategy,
       stay_bias=st.floats(0.0, 1.0))
def test_random_play_conserves_diamonds_and_prizes_and_keeps_lit_chests_at_the_stake(
        seed: int, seats: int, options: dict[str, Any], stay_bias: float) -> None:
    match = GAME.new(seats, options, seed)
    assert isinstance(match, LuckyNineMatch)
    rng = random.Random(seed)
    total = seats * options["start_diamonds"]
    prizes = {p["name"]: p["count"] for p in options["special_prizes"]}
    steps = 0
    while not match.is_over:
        seat = match.to_act()[0]
        specs = match.legal_actions(seat)
        # Bias towards staying in so that games reach later rounds, top-ups and special rules.
        types = [s["type"] for s in specs]
        if "stay" in types and rng.random() < stay_bias:
            action: dict[str, Any] = {"type": "stay"}
        else:
            action = sample(specs, rng)
        match.apply(seat, action)
        steps += 1
        assert match.total_diamonds() == total
        for name, count in prizes.items():
            assert match.prizes[name] + sum(c.get(name, 0) for c in match.claimed) == count
        assert min(match.holdings) >= 0 and min(match.chests.values()) >= 0
        if not match.is_over:
            lit = [match.chests[c] for c in NON_DIAMOND if match.chests[c]]
            assert all(v == match.stake for v in lit), (match.stake, match.chests)
            assert match.status[match.turn_seat] == "active"
        assert steps < 10_000
    result = match.result()
    assert result is not None and sum(match.chests.values()) == 0
    assert match.house == -sum(h - options["start_diamonds"] for h in match.holdings)


@given(seed=st.integers(0, 2**32), seats=st.integers(2, 8), steps=st.integers(0, 60))
def test_every_seat_sees_the_public_picture_and_nothing_of_the_random_state(seed: int, seats: int, steps: int) -> None:
    match = GAME.new(seats, {"no_repeat": True}, DISTINCTIVE + seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.is_over:
            break
        seat = match.to_act()[0]
        events = match.apply(seat, sample(match.legal_actions(seat), rng))
        assert all(e.to is None for e in events)  # nothing is private in Lucky Nine
    public = match.view(None)
    for seat in range(seats):
        assert _public(match.view(seat)) == _public(public)
    other = match.perturb_secrets(None, random.Random(seed + 1))
    assert other is not None and other.chance.state != match.chance.state
    assert [other.view(s) for s in range(seats)] == [match.view(s) for s in range(seats)]
    text = json.dumps([match.view(s) for s in [None, *range(seats)]])
    assert str(match.chance.state) not in text and str(DISTINCTIVE + seed) not in text
