"""The Liar Game final as a series: a Musical Chairs match follows a Pandemic match in the same room, the
qualifiers becoming the players and everyone else ガヤ (docs/rules/musical-chairs.md)."""

from __future__ import annotations

import pytest

from partygames import games
from partygames.engine import InvalidOptions, play
from partygames.games.musical_chairs.options import MusicalChairsOptions

PANDEMIC = {"tempo": "rounds", "step_seconds": 30, "minutes": 5, "qualifiers": 3}


def test_the_pandemic_qualifiers_become_the_players_and_everyone_else_the_gallery() -> None:
    pandemic, chairs = games.get("pandemic"), games.get("musical-chairs")
    seats = 8
    bots = [pandemic.make_bot("heuristic", s, seed=s) for s in range(seats)]
    for seed in range(20):
        match, _ = play(pandemic, seats, bots, PANDEMIC, seed=seed)
        result = match.result()
        assert result is not None
        qualifiers = sorted(s.seat for s in result.seats if s.is_winner)
        if len(qualifiers) >= 2:
            break
    else:
        pytest.fail("no Pandemic match with two qualifiers in 20 seeds")
    options = chairs.options_after(pandemic, result, match.options, seats)
    assert isinstance(options, MusicalChairsOptions)
    assert options.players_list == qualifiers
    assert (options.players, options.gallery) == (len(qualifiers), seats - len(qualifiers))
    chairs.new(seats, options, seed=1)  # the same people, seat for seat


def test_a_final_needs_two_qualifiers() -> None:
    pandemic, chairs = games.get("pandemic"), games.get("musical-chairs")
    bots = [pandemic.make_bot("random", s, seed=s) for s in range(4)]
    match, _ = play(pandemic, 4, bots, {**PANDEMIC, "qualifiers": 1}, seed=3)
    result = match.result()
    assert result is not None and len(result.winners) <= 1
    with pytest.raises(InvalidOptions):
        chairs.options_after(pandemic, result, match.options, 4)
    # A game that does not declare it follows another plays its default options, fitted to the seats.
    assert pandemic.options_after(chairs, result, match.options, 4) == pandemic.options_for(4, None)
