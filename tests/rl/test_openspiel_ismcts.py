"""`resample_from_infostate` on every game (docs/rl.md): a state the player cannot tell from the real one,
drawn by the game's determiniser, so that OpenSpiel's own information-set MCTS (`ISMCTSBot`) plays every
game through `evaluate_bots`."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from partygames import games
from partygames.rl import openspiel
from partygames.rl.openspiel import PartyGamesGame, PartyGamesState

ENCODED = [game.id for game in games.all_games() if game.encoding is not None]


class CountingISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot, counting the states it resampled; it keeps nothing between decisions, so
    `evaluate_bots`' restart and inform calls have nothing to do."""

    resamples = 0

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player: int, action: int) -> None:
        pass

    def resample_from_infostate(self, state: Any) -> Any:
        self.resamples += 1
        return super().resample_from_infostate(state)


@pytest.mark.parametrize("game_id", ENCODED)
def test_a_resampled_state_has_the_players_information_state(game_id: str) -> None:
    game = pyspiel.load_game(openspiel.short_name(game_id))
    rng = np.random.RandomState(7)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 6:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        if rng.random() < 0.3:
            sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
            drawn = [state.resample_from_infostate(player, sampler) for _ in range(2)]
            for other in drawn:
                assert isinstance(other, PartyGamesState) and other.match is not None and state.match is not None
                assert other.information_state_string(player) == state.information_state_string(player)
                assert other.current_player() == player and other.legal_actions() == state.legal_actions()
                assert other.match.chance.state != state.match.chance.state
                assert game.deserialize_state(other.serialize()).information_state_string(player) == \
                    state.information_state_string(player)
            assert drawn[0].match is not None and drawn[1].match is not None
            checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 0


@pytest.mark.parametrize("game_id", ENCODED)
def test_openspiels_ismcts_plays_every_game(game_id: str) -> None:
    """ISMCTS (two simulations a decision, rollouts cut at 10 moves) in seat 0 and OpenSpiel's uniform
    random bots elsewhere play a whole match on the research table (`samples.research`); every move is
    legal (an illegal index raises), and ISMCTS searched from resampled states (it asserts that each
    has the player's information state)."""
    game = pyspiel.load_game(openspiel.short_name(game_id))
    assert isinstance(game, PartyGamesGame)
    setup = game.table.game.samples.research
    assert setup is not None and game.num_players() == setup.seats
    rng = np.random.RandomState(5)
    searcher = CountingISMCTS(game, mcts.RandomRolloutEvaluator(1, rng, 10), 2.0, 2, random_state=rng)
    bots = [searcher, *(pyspiel.make_uniform_random_bot(p, p) for p in range(1, setup.seats))]
    returns = evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == setup.seats and all(r in (0.0, 1.0) for r in returns)
    assert searcher.resamples > 0


def test_a_timed_ismcts_without_time_left_still_searches_twice_and_answers() -> None:
    """A think time spent before the search starts (a simulation longer than the budget, as in the Quiz at
    50 ms) still gives a move: OpenSpiel's first simulation only expands the root, and a root never
    visited has no policy (`get_final_policy` asserts), so the timed bot always runs two."""
    from partygames.rl.bots import TimedISMCTSBot

    game = pyspiel.load_game(openspiel.short_name("quiz"))
    assert isinstance(game, PartyGamesGame)
    ticks = iter(range(10**9))
    bot = TimedISMCTSBot(game, 0, seconds=0.5, clock=lambda: float(next(ticks)))  # each reading a second later
    state = game.new_initial_state()
    while not state.is_terminal() and (state.is_chance_node() or state.current_player() != 0
                                       or len(state.legal_actions(0)) < 2):
        if state.is_chance_node():
            action, _ = state.chance_outcomes()[0]
        else:
            action = state.legal_actions(state.current_player())[0]
        state.apply_action(action)
    assert not state.is_terminal()
    assert bot.step(state) in state.legal_actions(0)
    assert bot.fewest == 2
