"""The generic contract, run against every registered game and a spread of seat counts."""

from __future__ import annotations

import pytest

from partygames import games
from partygames.engine.conformance import check_playout


def _cases() -> list[tuple[str, int, int, dict[str, object]]]:
    cases: list[tuple[str, int, int, dict[str, object]]] = []
    for game in games.all_games():
        conf = game.samples.conformance
        for seats in conf.seat_counts(game.seat_counts):
            for seed in range(conf.seeds):
                cases.extend((game.id, seats, seed, options) for options in conf.option_sets())
    return cases


@pytest.mark.parametrize(("game_id", "seats", "seed", "options"), _cases())
def test_random_playout_keeps_the_contract(game_id: str, seats: int, seed: int, options: dict[str, object]) -> None:
    game = games.get(game_id)
    match = check_playout(game, seats, seed, options or None, deep_every=game.samples.conformance.deep_every)
    result = match.result()
    assert result is not None
    assert sorted(s.seat for s in result.seats) == list(range(seats))
    winners = set(result.winners)
    # Nobody may win (in the Pandemic Game everyone can end infected), but a winner never ranks below a loser.
    assert all(w.rank <= other.rank for w in result.seats if w.seat in winners
               for other in result.seats if other.seat not in winners)


def test_every_game_is_registered_with_both_titles() -> None:
    for game in games.all_games():
        assert game.title.en and game.title.ja and game.summary.en and game.summary.ja
        assert game.id in games.ids()
        assert "random" in game.bots and "heuristic" in game.bots
