"""Time in the engine: integer milliseconds since the match began, given to `apply` and `advance`; the
session loop that drives it; match logs that carry it; and what a seat may know of others' actions."""

from __future__ import annotations

import pytest

from partygames import games
from partygames.engine import IllegalAction, MatchLog, Session, replay
from partygames.engine.actions import Action
from partygames.engine.bots import Bot, Observation
from tests.toy_game import GAME as TOY
from tests.toy_game import ToyMatch


def test_a_time_limit_runs_from_its_phase_start_and_its_defaults_fall_due_at_its_end() -> None:
    match = TOY.new(3)
    assert match.wake_at() == 30_000 and match.deadline() is not None
    match.apply(0, {"type": "bid", "amount": 4}, now=12_000)
    assert match.wake_at() == 30_000  # the same phase keeps its clock
    assert match.advance(29_999) == [] and match.to_act() == (1, 2)  # not yet due: nothing happens
    events = match.advance(30_000)
    # Seats 1 and 2 ran out of time (said, for everyone) and get the default bid of 0, one at a time; the
    # reveal follows.
    assert [(e.type, e.data, e.to) for e in events] == [
        ("timed_out", {"seat": 1}, None), ("bid_sealed", {"seat": 1}, None),
        ("timed_out", {"seat": 2}, None), ("bid_sealed", {"seat": 2}, None), ("revealed", {"bids": [4, 0, 0]}, None)]
    assert match.is_over and match.wake_at() is None and match.deadline() is None


def test_time_runs_forward_only_and_a_refused_action_leaves_the_clock_as_it_was() -> None:
    match = TOY.new(2)
    match.apply(0, {"type": "bid", "amount": 1}, now=5_000)
    with pytest.raises(ValueError, match="forward"):
        match.apply(1, {"type": "bid", "amount": 1}, now=4_999)
    with pytest.raises(IllegalAction):
        match.apply(1, {"type": "bid", "amount": 99}, now=8_000)
    assert match.now == 5_000 and match.to_act() == (1,)


def test_an_action_that_arrives_after_the_limit_comes_second() -> None:
    session = Session.new(TOY, 2)
    session.act(0, {"type": "bid", "amount": 3}, 1_000)
    session.catch_up(31_000)  # what a host does first: the limit ran out at 30 s
    assert session.match.is_over and session.match.view(None)["bids"] == [3, 0]
    with pytest.raises(IllegalAction, match="over"):
        session.act(1, {"type": "bid", "amount": 9}, 31_000)
    assert [e.to_json() for e in session.log.entries] == [[1_000, 0, {"type": "bid", "amount": 3}], [30_000, None, None]]


class PatientBot(Bot):
    """Says "nothing now" until the match time reaches `after`, then bids its seat number."""

    after = 10_000

    def act(self, obs: Observation) -> Action | None:
        return {"type": "bid", "amount": obs.seat} if obs.now >= self.after else None


def test_bots_may_wait_and_the_virtual_clock_jumps_to_the_next_wake_up() -> None:
    session = Session.new(TOY, 2, bots={0: PatientBot(0, 0), 1: PatientBot(1, 0)})
    session.run_bots()
    # Neither bot acts at time 0, so the clock jumps to the 30 s limit and the defaults end the match.
    assert session.match.is_over and session.match.view(None)["bids"] == [0, 0]
    assert [e.to_json() for e in session.log.entries] == [[30_000, None, None]]


def test_a_log_with_times_replays_exactly_and_old_or_unknown_formats_are_handled() -> None:
    session = Session.new(TOY, 3, seed=5)
    session.act(2, {"type": "bid", "amount": 7}, 2_500)
    session.catch_up(60_000)
    session.log.final_state = session.match.to_json()
    saved = MatchLog.from_json(session.log.to_json())
    again = replay(TOY, saved)
    assert again == session.match and saved.reproduces(again) and again.now == 30_000
    old = MatchLog.from_json({"format": 1, "game": "toy", "seats": 2, "options": {}, "seed": 1,
                              "actions": [[0, {"type": "bid", "amount": 2}], [1, {"type": "bid", "amount": 5}]]})
    assert replay(TOY, old).view(None)["bids"] == [2, 5]
    with pytest.raises(ValueError, match="format 7"):
        MatchLog.from_json({"format": 7, "game": "toy"})


class SealedToyMatch(ToyMatch):
    SECRET_FOREVER = frozenset({"bid"})


def test_shown_action_gives_the_actor_all_others_the_type_until_the_end_and_forever_secrets_never() -> None:
    bid = {"type": "bid", "amount": 6}
    for cls, after_end in ((ToyMatch, bid), (SealedToyMatch, {"type": "bid"})):
        match = cls(2, None, 0)
        match.apply(0, bid)
        assert match.shown_action(0, bid, 0) == bid
        assert match.shown_action(0, bid, 1) == match.shown_action(0, bid, None) == {"type": "bid"}
        match.apply(1, {"type": "bid", "amount": 1})
        assert match.shown_action(0, bid, 1) == match.shown_action(0, bid, None) == after_end


class PrivateToyMatch(ToyMatch):
    UNSEEN_FOREVER = frozenset({"bid"})


def test_an_unseen_action_is_shown_to_nobody_but_its_actor_not_even_its_type_and_never() -> None:
    bid = {"type": "bid", "amount": 6}
    match = PrivateToyMatch(2, None, 0)
    match.apply(0, bid)
    assert match.shown_action(0, bid, 0) == bid
    assert match.shown_action(0, bid, 1) is None and match.shown_action(0, bid, None) is None
    match.apply(1, {"type": "bid", "amount": 1})
    assert match.is_over and match.shown_action(0, bid, 1) is None and match.shown_action(0, bid, 0) == bid


def test_a_lucky_nine_table_whose_players_all_walk_away_still_finishes() -> None:
    lucky_nine = games.get("lucky-nine")
    session = Session.new(lucky_nine, 3, seed=2)
    assert session.match.wake_at() == 60_000  # first_press_seconds: the first player's first press is due at 60 s
    session.catch_up(10**12)
    assert session.match.is_over
    # Every step was a wake-up applying a default (press; pass after a hit; stay; a claim of the kind
    # worth most), each at its phase's start plus its limit.
    assert all(e.seat is None for e in session.log.entries) and session.log.entries[0].at == 60_000
