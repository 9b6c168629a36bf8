"""Dice Derby properties: random legal play from random seeds, seat counts and options never crashes,
conserves money (players + house, loans included), keeps money non-negative without loans, gives
each die one owner and each owner one die, and never lets a seat's sealed bid or tickets show in
another seat's view."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from partygames.engine.actions import sample
from partygames.games import get
from partygames.games.dice_derby.rules import DiceDerbyMatch

GAME = get("dice-derby")

options_strategy = st.fixed_dictionaries({
    "races": st.sampled_from([4, 5, 6]),
    "starting_money": st.sampled_from([1_000, 2_500, 10_000]),
    "win_limit": st.integers(1, 6),
    "quinella_limit": st.integers(1, 15),
    "payout_rate": st.sampled_from([0.5, 0.8, 1.0, 1.25]),
    "loser_boost": st.booleans(),
    "fall_rule": st.booleans(),
    "fall_probability": st.sampled_from([0.05, 0.3, 0.5]),
    "loans": st.booleans(),
    "loan_limit": st.integers(1, 3),
    "prize_first": st.sampled_from([0, 2_000]),
    "prize_second": st.sampled_from([0, 1_000]),
})


@given(seed=st.integers(0, 2**32), seats=st.integers(6, 30), options=options_strategy,
       done_bias=st.floats(0.0, 0.9))
def test_random_play_conserves_money_and_keeps_one_die_per_owner(
        seed: int, seats: int, options: dict[str, Any], done_bias: float) -> None:
    match = GAME.new(seats, options, seed)
    assert isinstance(match, DiceDerbyMatch)
    rng = random.Random(seed)
    total = seats * options["starting_money"]
    steps = 0
    while not match.is_over:
        seat = match.to_act()[rng.randrange(len(match.to_act()))]
        specs = match.legal_actions(seat)
        if rng.random() < done_bias and any(s["type"] == "done" for s in specs):
            action: dict[str, Any] = {"type": "done"}
        else:
            action = sample(specs, rng)
        match.apply(seat, action)
        steps += 1
        # The conservation law: loans and repayments are transfers with the house, like everything else.
        assert sum(match.money) + match.house == total
        assert all(m % 100 == 0 for m in match.money)
        assert min(match.money) >= 0 or match.is_over
        if match.phase == "betting":
            assert all(match.available(s) >= 0 for s in range(seats))
            assert None not in match.owners and len(set(match.owners)) == 6  # one die per owner
        assert steps < 20_000
    result = match.result()
    assert result is not None
    assert [s.score for s in result.seats] == [float(m) for m in match.money]
    assert all(d == 0 for d in match.debt)
    if not options["loans"]:
        assert min(match.money) >= 0
    assert len(match.history) == options["races"]
    assert sum(match.prize) == options["races"] * (options["prize_first"] + options["prize_second"])


@given(seed=st.integers(0, 2**32), seats=st.integers(6, 9), steps=st.integers(0, 80),
       loans=st.booleans())
def test_no_seat_sees_another_seats_sealed_bid_or_tickets(seed: int, seats: int, steps: int, loans: bool) -> None:
    match = GAME.new(seats, {"loans": loans, "races": 4}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.is_over:
            break
        seat = match.to_act()[rng.randrange(len(match.to_act()))]
        match.apply(seat, sample(match.legal_actions(seat), rng))
    views = {s: json.dumps(match.view(s), sort_keys=True) for s in [None, *range(seats)]}
    for owner in range(seats):
        other = match.perturb_secrets(owner, random.Random(seed + owner))
        if other is None:
            continue
        for s in [None, *range(seats)]:
            if s != owner:
                assert json.dumps(other.view(s), sort_keys=True) == views[s], (owner, s)
    # Everybody sees the same public picture.
    public = [{k: v for k, v in json.loads(v).items() if k not in ("seat", "legal_actions", "me")}
              for v in views.values()]
    assert all(p == public[0] for p in public)


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32), seats=st.integers(6, 7), options=options_strategy, split=st.integers(0, 60))
def test_observations_and_masks_kept_between_steps_match_the_view_and_never_follow_a_clone(
        seed: int, seats: int, options: dict[str, Any], split: int) -> None:
    """The encoder remembers a match's public parts per phase and race, and works masks out directly: every
    seat's observation equals the encoding of its view and its mask the generic codec's, along random play
    of two matches observed in turn (in the same phase and race, with other owners and money); a clone
    played on leaves the original's observations as they were."""
    from partygames.engine.encoding import ActionCodec

    encoder = GAME.encoder(seats, GAME.options_class.parse(options))
    generic = ActionCodec(encoder.codec.moves)
    rng = random.Random(seed)
    matches = [GAME.new(seats, options, seed=seed), GAME.new(seats, options, seed=seed + 1)]
    for step in range(300):
        for match in matches:
            if match.is_over:
                continue
            for seat in range(seats):
                assert (encoder.observe_match(match, seat) == encoder.observe(match.view(seat))).all()
                specs = match.legal_actions(seat)
                assert (encoder.codec.mask(specs) == generic.mask(specs)).all()
            if step == split:
                before = [encoder.observe_match(match, s) for s in range(seats)]
                clone = match.clone()
                while not clone.is_over:
                    mover = clone.to_act()[0]
                    clone.apply(mover, sample(clone.legal_actions(mover), rng))
                    encoder.observe_match(clone, mover)
                assert all((encoder.observe_match(match, s) == before[s]).all() for s in range(seats))
            awaited = match.to_act()
            seat = awaited[int(rng.random() * len(awaited))]
            match.apply(seat, sample(match.legal_actions(seat), rng))
