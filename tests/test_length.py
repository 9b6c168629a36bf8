"""The lobby's length estimates, worked out from each game's options: a decision counts half its time
limit, a fixed duration all of it (`engine/length.py`)."""

from __future__ import annotations

from typing import Any

import pytest

from partygames import games
from partygames.engine.length import DECISION_SHARE, decisions, whole_minutes


def _estimate(game_id: str, seats: int, options: dict[str, Any] | None = None) -> tuple[float, int]:
    fitted = games.get(game_id).options_for(seats, options or {})
    seconds = fitted.estimated_seconds(seats)
    assert seconds is not None
    return seconds, whole_minutes(seconds)


def test_a_decision_counts_half_its_limit_and_minutes_round_half_up() -> None:
    assert DECISION_SHARE == 0.5 and decisions(3, 60) == 90
    assert [whole_minutes(s) for s in (0, 29, 89, 90, 1170, 19_500)] == [1, 1, 1, 2, 20, 325]


@pytest.mark.parametrize(("game_id", "seats", "options", "seconds", "minutes"), [
    # The auction (120 s) once, then 5 races of betting (90 s): (120 + 5 x 90) / 2.
    ("dice-derby", 6, {}, 285, 5),
    ("dice-derby", 6, {"races": 4, "betting_seconds": 300}, 660, 11),
    # 4 seats hire 4 fighters each (16 hires of 60 s), then 5 rounds (60 s): (16 + 5) x 60 / 2.
    ("last-man-standing", 4, {}, 630, 11),
    ("last-man-standing", 8, {"play_seconds": 20}, (32 * 60 + 5 * 20) / 2, 17),
    # 5 rounds of 2 laps of 2 seats = 20 turns, each press 30 + decide 60 + drop-out 30 s: 20 x 120 / 2.
    ("lucky-nine", 2, {}, 1200, 20),
    # 7 seats: one lap a round; 4 rounds x 7 turns x 120 s / 2.
    ("lucky-nine", 7, {"rounds": 4}, 1680, 28),
    # 50 small games x (vote 120 + packing 60 + inspection 600) / 2.
    ("smuggling", 18, {}, 19_500, 325),
    # By rotation there is no vote: 10 x (60 + 600) / 2.
    ("smuggling", 4, {"small_games": 10, "representatives": "rotation"}, 3_300, 55),
    # Real time: the 8-minute game clock. With 2 periods, one 60 s break besides.
    ("pandemic", 4, {}, 480, 8),
    ("pandemic", 4, {"periods": 2, "minutes": 10}, 660, 11),
    # Rounds: 8 min of game time in 5 s steps = 96 intents of 60 s, halved.
    ("pandemic", 4, {"tempo": "rounds"}, 2_880, 48),
    # Memorising 120 s, then 8 questions x (2 seats x (select 30 + peek 30) + answer 90 + 3 x parent 30) / 2.
    ("quiz", 2, {}, 120 + 8 * (120 + 90 + 90) / 2, 22),
    ("quiz", 5, {"memorise_seconds": 300}, 300 + 8 * (300 + 90 + 90) / 2, 37),
    # 6 players, 7 chairs: 6 periods; breaks 120 + 5 x 45 in full, then 6 x (race 60 + vote 45 + remove 30) / 2.
    ("musical-chairs", 24, {}, 345 + 6 * 135 / 2, 13),
    # The seed's 10-minute races.
    ("musical-chairs", 24, {"players": 6, "gallery": 18, "race_seconds": 600}, 345 + 6 * 675 / 2, 40),
])
def test_every_game_estimates_its_length_from_its_options(game_id: str, seats: int, options: dict[str, Any],
                                                          seconds: float, minutes: int) -> None:
    assert _estimate(game_id, seats, options) == (seconds, minutes)


def test_every_game_declares_an_estimate() -> None:
    for game in games.all_games():
        seats = min(game.seat_counts_for(None))
        assert game.options_for(seats, {}).estimated_seconds(seats), game.id
