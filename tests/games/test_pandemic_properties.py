"""Pandemic Game properties over random legal play, in both tempos: no crash; watches change only as the
seed says (only the seats an action involves, by the contact and switch rules); nothing hidden leaks into
another seat's view; the exact odds agree with the true state; replay is identical."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from partygames.engine import Session
from partygames.engine.actions import sample
from partygames.engine.encoding import ActionCodec
from partygames.engine.session import replay
from partygames.games import get
from partygames.games.pandemic.encoding import _long_action
from partygames.games.pandemic.odds import Worlds, from_view
from partygames.games.pandemic.rules import PandemicMatch, pair_key
from partygames.games.pandemic.watch import Watch, contact, press

GAME = get("pandemic")

options_strategy = st.fixed_dictionaries({
    "infected": st.integers(1, 3),
    "rooms": st.integers(0, 3),
    "read_seconds": st.sampled_from([1, 5, 15]),
    "stay_seconds": st.sampled_from([2, 20, 60]),
    "offer_seconds": st.sampled_from([1, 5, 15]),
    "busy_seconds": st.sampled_from([0, 5]),
    "public_contacts": st.booleans(),
    "public_presses": st.booleans(),
    "cut_ties": st.sampled_from(["lot", "all"]),
    "tempo": st.sampled_from(["real-time", "rounds"]),
    "step_seconds": st.sampled_from([5, 20, 60]),
    "qualifiers": st.integers(1, 6),
    "periods": st.integers(1, 3),
    "break_seconds": st.sampled_from([5, 30]),
    "announce_counts": st.booleans(),
    "vaccine_threshold": st.one_of(st.none(), st.integers(1, 3)),
})


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _play(seats: int, options: dict[str, Any], seed: int, on_step: Any = None, max_steps: int = 400) -> Session:
    """Random legal play (time moving 0-3 s between actions) until the end or `max_steps`, then time up."""
    session = Session.new(GAME, seats, {**options, "minutes": 5}, seed)
    match = session.match
    rng = random.Random(seed)
    for _ in range(max_steps):
        if match.is_over:
            break
        due = match.wake_at()
        assert due is not None
        at = match.now + rng.randrange(4) * 1000
        if at >= due or not match.to_act() or rng.random() < 0.1:
            session.wake(due)
            continue
        seat = rng.choice(match.to_act())
        action = sample(match.legal_actions(seat), rng)
        before = match.clone()
        session.act(seat, action, at)
        if on_step is not None:
            on_step(before, match, seat, action)
    while not match.is_over:
        session.wake_next()
    return session


def _check_watches(before: PandemicMatch, after: PandemicMatch) -> None:
    """Every watch that changed did so by one contact or one press, as `watch.py` says."""
    new_entries = after.log[len(before.log):]
    expected = [Watch(i, v) for i, v in zip(before.infected, before.vaccines, strict=True)]
    paired = dict(before.paired)
    for entry in new_entries:
        if entry["kind"] == "contact":
            a, b = entry["a"], entry["b"]
            outcome = contact(expected[a], expected[b], paired.get(pair_key(a, b), False))
            expected[a], expected[b] = outcome.first, outcome.second
            if outcome.gained:
                paired[pair_key(a, b)] = True
        else:
            expected[entry["seat"]] = press(expected[entry["seat"]])
    assert [Watch(i, v) for i, v in zip(after.infected, after.vaccines, strict=True)] == expected
    assert after.paired == paired
    assert all(v >= 0 for v in after.vaccines)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(4, 9), options=options_strategy)
def test_watches_change_only_by_contacts_and_presses(seed: int, seats: int, options: dict[str, Any]) -> None:
    def check(before: PandemicMatch, after: PandemicMatch, seat: int, action: dict[str, Any]) -> None:
        _check_watches(before, after)

    session = _play(seats, options, seed, check)
    match = session.match
    assert isinstance(match, PandemicMatch)
    result = match.result()
    assert result is not None
    passed = set(result.winners)
    assert all(not match.infected[s] for s in passed)
    healthy = [s for s in range(seats) if not match.infected[s]]
    if options["vaccine_threshold"] is not None:
        assert passed == {s for s in healthy if match.vaccines[s] >= options["vaccine_threshold"]}
    elif options["cut_ties"] == "lot":
        assert len(passed) == min(options["qualifiers"], len(healthy))
    assert replay(GAME, session.log) == match


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(4, 8), options=options_strategy)
def test_no_view_depends_on_a_secret(seed: int, seats: int, options: dict[str, Any]) -> None:
    rng = random.Random(seed)

    def check(before: PandemicMatch, after: PandemicMatch, seat: int, action: dict[str, Any]) -> None:
        views = {s: _dump(after.view(s)) for s in [None, *range(seats)]}
        for owner in [None, *range(seats)]:
            other = after.perturb_secrets(owner, random.Random(rng.random()))
            if other is None:
                continue
            assert _dump(other.to_json()) != _dump(after.to_json())
            for viewer in [None, *range(seats)]:
                if viewer != owner or owner is None:
                    assert _dump(other.view(viewer)) == views[viewer], (owner, viewer)

    _play(seats, options, seed, check, max_steps=60)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(4, 10), infected=st.integers(1, 3),
       tempo=st.sampled_from(["real-time", "rounds"]))
def test_the_odds_are_exact_and_computed_from_the_public_view_alone(seed: int, seats: int, infected: int,
                                                                    tempo: str) -> None:
    options = {"infected": infected, "tempo": tempo, "step_seconds": 20, "periods": 2, "break_seconds": 5}
    match = _play(seats, options, seed, max_steps=150).match
    assert isinstance(match, PandemicMatch)
    public = match.view(None)
    worlds = from_view(public)
    assert worlds.odds(None) == public["odds"]
    # The world of the true initial set is the true state, watch for watch.
    initial = Worlds(seats, infected)
    index = next(i for i in range(len(initial)) if [s for s in range(seats) if initial.infected[i, s]]
                 == match.initial_infected)
    assert worlds.infected[index].tolist() == match.infected
    assert worlds.vaccines[index].tolist() == match.vaccines
    for seat in range(seats):
        own = match.view(seat)["my_odds"]
        assert own == from_view(match.view(seat)).odds(seat)
        assert own["worlds"] >= 1  # the true world always agrees with the seat's own readings


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(4, 9), options=options_strategy)
def test_kept_caches_agree_with_a_fresh_copy_and_a_changed_clone_leaves_the_match_alone(
        seed: int, seats: int, options: dict[str, Any]) -> None:
    """The match keeps `to_act()`, the time limit and (rounds tempo) the intents' shared parts across
    steps: at every step they equal a clone's, which starts without caches; and a clone played on
    changes none of them in the original."""
    rng = random.Random(seed)

    def agree(before: PandemicMatch, match: PandemicMatch, seat: int, action: Any) -> None:
        fresh = match.clone()
        everyone = range(match.seats)
        kept = [match.legal_actions(s) for s in everyone]
        assert match.to_act() == fresh.to_act() and match.time_limit() == fresh.time_limit()
        assert kept == [fresh.legal_actions(s) for s in everyone]
        if fresh.to_act():  # the clone plays on; the match is untouched
            other = rng.choice(fresh.to_act())
            fresh.apply(other, sample(fresh.legal_actions(other), rng))
            assert [match.legal_actions(s) for s in everyone] == kept
            assert match.time_limit() == match.clone().time_limit()

    _play(seats, options, seed, agree, max_steps=150)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(4, 12))
def test_the_rounds_codec_s_straight_reading_equals_the_generic_one(seed: int, seats: int) -> None:
    """The rounds codec reads its one intent spec straight (masks, decodes) and the observation is built
    from the state with memos: along a random match, every mask and decode equals the generic codec's and
    every observation the view's encoding, for every seat."""
    options = {"tempo": "rounds", "minutes": 2, "rooms": 2, "read_seconds": 5, "stay_seconds": 20}
    encoder = GAME.encoder(seats, GAME.options_class.parse(options))
    codec = encoder.codec
    match = GAME.new(seats, options, seed)
    rng = random.Random(seed)
    while not match.is_over:
        awaited = match.to_act()
        if not awaited:
            due = match.wake_at()
            assert due is not None
            match.advance(due)
            continue
        for seat in range(seats):
            assert (encoder.observe_match(match, seat) == encoder.observe(match.view(seat))).all()
            specs = match.legal_actions(seat)
            if specs:
                assert (codec.mask(specs) == ActionCodec.mask(codec, specs)).all()
                for index in range(len(codec)):
                    assert codec.decode(index, specs) == _long_action(ActionCodec.decode(codec, index, specs), specs)
        seat = rng.choice(awaited)
        match.apply(seat, sample(match.legal_actions(seat), rng))
