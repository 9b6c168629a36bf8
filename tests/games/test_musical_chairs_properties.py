"""Musical Chairs properties: random legal play in both tempos, from random seeds and options, never
crashes, conserves medals (each name still in the game: its full set; a name out: none), never seats a
player on the chair number they held at the end of the previous race, leaks no holding, transfer,
ballot or plan to a seat that may not know it, replays identically, and keeps ballots secret for ever."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from partygames.engine.actions import sample
from partygames.engine.session import Session
from partygames.games import get
from partygames.games.musical_chairs.rules import MusicalChairsMatch

GAME = get("musical-chairs")

options_strategy = st.fixed_dictionaries({
    "tempo": st.sampled_from(["real-time", "rounds"]),
    "players": st.integers(2, 5),
    "gallery": st.integers(0, 3),
    "island": st.sampled_from(["test", "drawn"]),
    "speed": st.sampled_from([5, 200, 1000]),
    "race_seconds": st.sampled_from([5, 30]),
    "first_break_seconds": st.just(5),
    "break_seconds": st.just(5),
    "gather_seconds": st.sampled_from([None, 3]),
    "vote_seconds": st.just(5),
    "remove_seconds": st.just(5),
    "gallery_on_island": st.booleans(),
    "vote_at_totem": st.booleans(),
    "medals": st.sampled_from([None, 3]),
})


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _play(seed: int, options: dict[str, Any], check: Any = None) -> Session:
    """Random legal actions by random seats, with time jumping to the next wake-up now and then (always
    when nobody is awaited); `check(match)` after every step."""
    seats = options["players"] + options["gallery"]
    session = Session.new(GAME, seats, options, seed)
    match = session.match
    rng = random.Random(seed)
    for _ in range(20_000):
        if match.is_over:
            break
        due = match.wake_at()
        awaited = match.to_act()
        if not awaited or (due is not None and rng.random() < 0.2):
            assert due is not None and due >= match.now
            session.wake(due)
        else:
            seat = rng.choice(awaited)
            at = match.now + rng.randrange(3) * 300
            session.act(seat, sample(match.legal_actions(seat), rng), at if due is None else min(at, due))
        if check is not None:
            check(match)
    assert match.is_over
    return session


def _medals_conserved(match: MusicalChairsMatch) -> None:
    count = match.options.medal_count
    alive = {str(p) for p in match.remaining()} | ({str(match.winner)} if match.winner is not None else set())
    totals: dict[str, int] = {}
    for held in match.medals:
        for name, n in held.items():
            assert n > 0
            totals[name] = totals.get(name, 0) + n
    if match.outcome == "nobody_sat":
        assert totals == {}
    else:
        assert totals == dict.fromkeys(sorted(alive), count)


@given(seed=st.integers(0, 2**32), options=options_strategy)
def test_random_play_ends_conserves_medals_and_never_seats_a_player_on_the_same_chair_twice(
        seed: int, options: dict[str, Any]) -> None:
    session = _play(seed, options, lambda m: _medals_conserved(m))
    match = session.match
    assert isinstance(match, MusicalChairsMatch)
    last: dict[str, int] = {}
    for entry in match.history:
        for player, chair in entry["seated"].items():
            assert last.get(player) != chair, (player, chair, match.history)
            last[player] = chair
    result = match.result()
    assert result is not None
    assert sum(s.score for s in result.seats) == (
        0 if match.winner is None else match.options.medal_count * 100_000_000)
    # Replaying the log gives the same match.
    assert Session.replay(GAME, session.log).match == match


@given(seed=st.integers(0, 2**32), options=options_strategy)
def test_no_view_depends_on_another_seat_s_medals_transfers_ballot_or_plan(seed: int, options: dict[str, Any]) -> None:
    rng = random.Random(seed)

    def check(match: MusicalChairsMatch) -> None:
        if rng.random() > 0.3 or match.is_over:
            return
        seats = list(range(match.seats))
        views = {s: _dump(match.view(s)) for s in [None, *seats]}
        # Medals that changed hands between two seats, unknown to anyone else: a transfer that did not happen.
        a, b = rng.sample(seats, 2)
        if match.medals[a]:
            other = match.clone()
            assert isinstance(other, MusicalChairsMatch)
            name = next(iter(other.medals[a]))
            other.medals[a][name] -= 1
            if not other.medals[a][name]:
                del other.medals[a][name]
            other.medals[b][name] = other.medals[b].get(name, 0) + 1
            other.transfers.append({"from": a, "to": b, "name": int(name), "count": 1, "at": match.now})
            for seat in [None, *seats]:
                if seat not in (a, b):
                    assert _dump(other.view(seat)) == views[seat], (a, b, seat)
        for owner in seats:
            changed = match.perturb_secrets(owner, random.Random(rng.random()))
            if changed is None:
                continue
            assert _dump(changed.to_json()) != _dump(match.to_json())
            for seat in [None, *seats]:
                if seat != owner:
                    assert _dump(changed.view(seat)) == views[seat], (owner, seat)

    _play(seed, {**options, "players": min(options["players"], 3), "gallery": min(options["gallery"], 2)},
          check)


@given(seed=st.integers(0, 2**32))
def test_ballots_transfers_and_shows_stay_secret_after_the_match(seed: int) -> None:
    options = {"tempo": "rounds", "players": 3, "gallery": 2, "island": "test", "first_break_seconds": 5,
               "break_seconds": 5, "vote_seconds": 5, "remove_seconds": 5}
    session = _play(seed, options)
    match = session.match
    for entry in session.log.entries:
        if entry.action is None or entry.seat is None:
            continue
        for viewer in [None, *range(match.seats)]:
            shown = match.shown_action(entry.seat, entry.action, viewer)
            if entry.action["type"] in ("give", "show_medals") and viewer != entry.seat:
                assert shown is None  # not even that the seat acted
            elif entry.action["type"] == "vote" and viewer != entry.seat:
                assert shown == {"type": "vote"}
            else:
                assert shown == entry.action


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32), options=options_strategy)
def test_kept_caches_agree_with_a_fresh_copy_and_a_changed_clone_leaves_the_match_alone(
        seed: int, options: dict[str, Any]) -> None:
    """The match keeps `to_act()`, the next item due and (rounds tempo) each seat's specs across steps
    that cannot change them: at every step they equal a clone's, which starts without caches; and a
    clone played on changes none of them in the original."""
    rng = random.Random(seed)

    def agree(match: MusicalChairsMatch) -> None:
        fresh = match.clone()
        seats = range(match.seats)
        kept = [match.legal_actions(s) for s in seats]
        assert match.to_act() == fresh.to_act() and match.wake_at() == fresh.wake_at()
        assert kept == [fresh.legal_actions(s) for s in seats]
        if fresh.to_act():  # the clone plays on; the match is untouched
            seat = rng.choice(fresh.to_act())
            fresh.apply(seat, sample(fresh.legal_actions(seat), rng))
            assert [match.legal_actions(s) for s in seats] == kept
            assert match.to_act() == match.clone().to_act()

    _play(seed, options, agree)
