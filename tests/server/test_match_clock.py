"""The room's match clock on its own (no server): scaled time, reveals that hold it and stack, bots that
wait for them, and a rebuilt clock that lands where the live one was."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from partygames.engine.match import Deadline
from partygames.server.match_clock import RoomClock


def test_match_time_is_the_scaled_wall_time_since_the_start() -> None:
    clock = RoomClock(started_at=1000.0, deadline_scale=0.5)
    assert clock.now(1000.0) == 0
    assert clock.now(1002.0) == 4000  # 2 s of wall time at half scale are 4 s of match time
    assert clock.wall(4000) == 1002.0
    assert clock.now(999.0, not_before=0) == 0  # never before the start


def test_a_reveal_holds_the_clock_and_the_next_one_queues_after_it() -> None:
    clock = RoomClock(started_at=1000.0, deadline_scale=0.5, reveal_scale=1.0, bot_delay=0.8)
    clock.step(1002.0, reveal_ms=1500)  # a 1.5 s reveal from 1002.0
    assert (clock.reveal_end, clock.reveal_held) == (1003.5, 1.5)
    assert clock.now(1003.0) == clock.now(1003.5) == 4000  # standing still while it plays
    assert clock.now(1004.0) == 5000  # then running again
    clock.step(1002.5, reveal_ms=1000)  # another step during the first reveal: its reveal follows it
    assert (clock.reveal_end, clock.reveal_held) == (1004.5, 2.5)
    assert clock.now(1004.5) == 4000
    assert clock.reveal_remaining(1003.0) == 1.5
    assert clock.bots_at() == 1004.5  # not 1002.5 + 0.8: bots wait for the reveal
    clock.step(1006.0, reveal_ms=0)
    assert clock.bots_at() == pytest.approx(1006.8) and clock.reveal_held == 2.5


def test_reveal_scale_stretches_reveals_and_zero_turns_pacing_off() -> None:
    slow = RoomClock(started_at=0.0, reveal_scale=2.0)
    slow.step(1.0, reveal_ms=700)
    assert slow.reveal_held == pytest.approx(1.4) and slow.reveal_end == pytest.approx(2.4)
    unpaced = RoomClock(started_at=0.0, reveal_scale=0.0, bot_delay=0.8)
    unpaced.step(1.0, reveal_ms=700)
    assert (unpaced.reveal_end, unpaced.reveal_held) == (0.0, 0.0)
    assert unpaced.reveal_remaining(0.5) is None and unpaced.now(3.0) == 3000 and unpaced.bots_at() == 1.8


def test_the_clock_never_runs_behind_the_match() -> None:
    clock = RoomClock(started_at=1000.0)
    assert clock.now(1001.0, not_before=5000) == 5000  # the match already stands at 5 s


def test_a_deadline_is_told_on_the_wall_clock() -> None:
    clock = RoomClock(started_at=1000.0, deadline_scale=0.05)
    clock.step(1000.0, reveal_ms=1000)  # the limit below starts after this 1 s reveal
    shown = clock.deadline_json(Deadline("bidding", ends_at=30_000, seconds=30.0), 1002.0)
    assert shown["phase"] == "bidding"
    assert shown["seconds"] == pytest.approx(1.5) and shown["ends_at"] == pytest.approx(1002.5)
    assert shown["remaining"] == pytest.approx(0.5)
    assert clock.deadline_json(Deadline("bidding", 30_000, 30.0), 1009.0)["remaining"] == 0.0


steps = st.lists(st.tuples(st.floats(0.0, 5.0), st.integers(0, 3000)), max_size=12)


@given(steps, st.sampled_from([0.05, 0.5, 1.0, 3.0]), st.floats(0.0, 10.0))
def test_wall_is_the_inverse_of_now_and_time_never_goes_back(plan: list[tuple[float, int]], scale: float,
                                                              later: float) -> None:
    clock = RoomClock(started_at=100.0, deadline_scale=scale)
    wall, match_now = 100.0, 0
    for gap, reveal_ms in plan:
        wall += gap
        now = clock.now(wall, match_now)
        assert now >= match_now
        match_now = now
        clock.step(wall, reveal_ms)
    after = max(wall, clock.reveal_end) + later
    now = clock.now(after, match_now)
    assert now >= match_now
    assert clock.wall(now) == pytest.approx(after, abs=scale / 1000)  # within the ms rounding
    assert clock.now(clock.wall(now)) == now


@given(steps, st.sampled_from([0.05, 1.0]), st.sampled_from([0.0, 1.0, 2.0]))
def test_a_clock_rebuilt_from_the_log_lands_where_the_live_one_was(plan: list[tuple[float, int]], scale: float,
                                                                    reveal_scale: float) -> None:
    live = RoomClock(started_at=100.0, deadline_scale=scale, reveal_scale=reveal_scale)
    rebuilt = RoomClock(started_at=100.0, deadline_scale=scale, reveal_scale=reveal_scale)
    wall, match_now = 100.0, 0
    for gap, reveal_ms in plan:
        wall += gap
        match_now = live.now(wall, match_now)  # the step is logged at this match time
        live.step(wall, reveal_ms)
        rebuilt.replay_step(match_now, reveal_ms)
    assert rebuilt.reveal_held == pytest.approx(live.reveal_held)
    for after in (wall, wall + 0.3, wall + 7.0):  # during the last reveals and after them
        assert abs(rebuilt.now(after, match_now) - live.now(after, match_now)) <= 1  # ms rounding of logged times


def test_what_falls_due_next_is_the_wake_up_or_the_bots_turn_whichever_comes_first() -> None:
    clock = RoomClock(started_at=1000.0, deadline_scale=0.5, bot_delay=0.8)
    clock.step(1001.0, reveal_ms=0)
    assert clock.next_due(None, [], live=False) is None  # nothing until someone acts
    assert clock.next_due(30_000, [], live=False) == 1015.0  # 30 s of match time at half scale
    assert clock.next_due(30_000, [2], live=False) == 1001.8
    assert clock.next_due(1_000, [2], live=False) == 1000.5  # a wake-up before the bots' turn
    assert clock.next_due(None, [2], live=False) == 1001.8


def test_in_live_play_each_bot_waits_its_pace_after_its_own_action() -> None:
    clock = RoomClock(started_at=1000.0, bot_delay=0.8, bot_pace=3.0)
    clock.step(1001.0, reveal_ms=0, bot=2)  # bot 2 acts at 1001.0
    clock.step(1002.0, reveal_ms=0)  # a person acts at 1002.0: every bot may answer 0.8 s later...
    assert clock.bot_ready_at(3, live=True) == 1002.8
    assert clock.bot_ready_at(2, live=True) == 1004.0  # ...but bot 2 only 3 s after its own action
    assert clock.bot_ready_at(2, live=False) == 1002.8  # turn-based play: the delay alone
    assert clock.next_due(None, [2], live=True) == 1004.0
    assert clock.next_due(None, [2, 3], live=True) == 1002.8  # the first bot ready
    assert clock.next_due(2_500, [2], live=True) == 1002.5  # a wake-up comes first
