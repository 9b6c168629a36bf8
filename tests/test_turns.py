"""`Match.turns()`: which awaited seats the match waits for, as each game declares it (docs/engine.md).

A client says "Your turn" only to a seat in `turns`; another awaited seat may act but nothing waits for
it (the Quiz's gifts of markers), and in real-time play nobody has a turn at all."""

from __future__ import annotations

import random
from typing import Any

import pytest

from partygames.engine import Match
from partygames.engine.actions import sample
from partygames.games import get
from partygames.games.quiz.rules import QuizMatch

QUIZ_SCRIPT: dict[str, list[Any]] = {"white_positions": [list(range(16))], "deal": [list(range(30))],
                                     "first_parent": [0]}


def golden_match(game_id: str, seed: int = 1, **options: Any) -> Match:
    """A new match of the game's golden set-up (a small table), with `options` changed."""
    game = get(game_id)
    setup = game.samples.golden
    assert setup is not None
    return game.new(setup.seats, {**setup.options, **options}, seed)


@pytest.mark.parametrize("game_id", ["lucky-nine", "dice-derby", "smuggling", "last-man-standing"])
def test_in_a_turn_based_game_every_awaited_seat_has_its_turn(game_id: str) -> None:
    match = golden_match(game_id, seed=3)
    rng = random.Random(3)
    awaited_steps = 0
    while not match.is_over:
        to_act = match.to_act()
        assert match.turns() == to_act and match.view(None)["turns"] == list(to_act)
        if to_act:
            awaited_steps += 1
            seat = rng.choice(to_act)
            match.apply(seat, sample(match.legal_actions(seat), rng))
        else:
            due = match.wake_at()
            assert due is not None
            match.advance(due)
    assert awaited_steps > 0


def test_quiz_a_bystander_may_give_markers_but_it_is_not_its_turn() -> None:
    match = get("quiz").new(3, {}, 1, script=QUIZ_SCRIPT)
    assert isinstance(match, QuizMatch)
    assert match.turns() == match.to_act() == (0, 1, 2)  # memorising: every seat's vote is awaited
    match.held[1] = {"score": 1, "money": 0}
    match.held[2] = {"score": 0, "money": 1}
    for seat in range(3):
        match.apply(seat, {"type": "ready"}, 1000)
    assert match.phase == "select" and match.turn == 1  # the parent's left places first
    turn, bystander = 1, 2
    assert match.to_act() == (turn, bystander)
    assert match.turns() == (turn,)
    assert {s["type"] for s in match.legal_actions(bystander)} == {"give", "wait"}
    for viewer in (None, 0, 1, 2):
        assert match.view(viewer)["turns"] == [turn]


@pytest.mark.parametrize("game_id", ["pandemic", "musical-chairs"])
def test_real_time_play_awaits_every_seat_and_gives_nobody_a_turn(game_id: str) -> None:
    match = golden_match(game_id, tempo="real-time")
    assert match.to_act() == tuple(range(match.seats))
    assert match.turns() == ()
    assert match.view(0)["turns"] == [] and match.view(None)["turns"] == []


@pytest.mark.parametrize("game_id", ["pandemic", "musical-chairs"])
def test_in_rounds_each_step_waits_for_every_awaited_seats_intent(game_id: str) -> None:
    match = golden_match(game_id, tempo="rounds")
    while not match.to_act():
        due = match.wake_at()
        assert due is not None
        match.advance(due)
    assert match.turns() == match.to_act() != ()
