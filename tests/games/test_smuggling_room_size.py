"""Smuggling rooms: the team size follows the seats a room is created with, and the all-¥0 tie a
newcomer met (two idle humans among bots) is what the rules give."""

from __future__ import annotations

from functools import partial

from partygames.engine import Observation
from partygames.games import get

GAME = get("smuggling")


def test_the_team_size_follows_the_seat_count_unless_given() -> None:
    assert GAME.room_seat_counts({}) == [2, 4, 6, 8, 10, 12, 14, 16, 18]
    four = GAME.options_for(4, {"small_games": 3})
    assert four.to_json()["team_size"] == 2 and four.to_json()["small_games"] == 3
    outline = four.outline(4)
    assert outline is not None and outline.en == "Two teams of 2 players · 3 small games"
    assert outline.ja == "2人ずつの2チーム · 小ゲーム3回"
    assert GAME.room_seat_counts({"team_size": 3}) == [6]
    assert GAME.options_for(4, {"team_size": 3}).to_json()["team_size"] == 3  # given: kept (and refused at 4)
    assert GAME.options_class.describe()["follows_seats"] == ["team_size"]


def test_idle_humans_among_heuristic_bots_end_all_square_at_net_zero() -> None:
    # Seats 0 and 1 never act (their time limits apply the defaults: pack ¥0, pass, vote by rotation).
    # The bots vote for the teammate with the most money, the lowest seat on a tie, so the idle humans
    # represent their teams every time, nothing moves, and the tie ranks all 18 first.
    match = GAME.new(*GAME.preset_table("original"), seed=3)  # the room of the report: 18 seats, 50 small games
    bots = {s: GAME.make_bot("heuristic", s, s) for s in range(2, 18)}
    while not match.is_over:
        acting = match.to_act()
        idle = [s for s in acting if s < 2]
        if idle:
            limit = match.time_limit()
            assert limit is not None
            match.apply(idle[0], limit.defaults[idle[0]])
        else:
            seat = acting[0]
            observation = Observation(seat, match.legal_actions(seat), partial(match.view, seat))
            action = bots[seat].act(observation)
            assert action is not None
            match.apply(seat, action)
    result = match.result()
    assert result is not None
    assert {s.score for s in result.seats} == {0.0} and {s.rank for s in result.seats} == {1}
    assert result.detail["team_totals"]["north"] == result.detail["team_totals"]["south"]
    assert result.detail["winning_team"] is None and result.detail["difference"] == 0
