"""The generic contract, run against every registered game and a spread of seat counts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from partygames import games
from partygames.engine.actions import Action
from partygames.engine.conformance import ConformanceError, check_playout
from partygames.engine.game import Game
from partygames.engine.match import Event, Match


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


def _planted(game_id: str, plant: str) -> Game:
    """The game with a trusted step that diverges from `apply` in one way: it ignores the time it is given
    ("clock"), or forgets that the step changed the legal actions ("cache")."""
    game = games.get(game_id)
    base = game.match_class

    def apply_trusted(self: Match, seat: int, action: Action, now: int | None = None) -> list[Event]:
        if plant == "clock":
            return base.apply_trusted(self, seat, action, None)
        cached = dict(self._legal_cache)
        events = base.apply_trusted(self, seat, action, now)
        self._legal_cache.update(cached)
        return events

    planted = type(f"Planted{base.__name__}", (base,), {"apply_trusted": apply_trusted})
    return replace(game, match_class=planted)


@pytest.mark.parametrize("plant", ["clock", "cache"])
@pytest.mark.parametrize("game_id", games.ids())
def test_a_trusted_step_that_diverges_from_apply_is_caught(game_id: str, plant: str) -> None:
    """The conformance suite's trusted twin (played by `Match.apply_trusted`) is compared with the match (played by
    `apply`) at every step: a trusted step that drops the step's time or keeps stale legal actions fails it."""
    game = _planted(game_id, plant)
    conf = game.samples.conformance
    seats = conf.seat_counts(game.seat_counts)[0]
    with pytest.raises(ConformanceError, match="trusted"):
        check_playout(game, seats, 0, next(iter(conf.option_sets())) or None, deep_every=10_000)
