"""OpenSpiel's own checks on every registered game (random_sim_test with serialisation), and its
uniform_random and MCTS bots through evaluate_bots."""

from __future__ import annotations

import json
import math
import pickle
from collections.abc import Callable

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from partygames import games
from partygames.rl import openspiel
from partygames.rl.bots import DeterminizedMCTSBot, EngineBot, UCTSearch, determinize
from partygames.rl.compare import compare, equal_think_time, load
from partygames.rl.openspiel import PartyGamesGame, PartyGamesState

# Every game with an encoding; test_encoding.py requires every registered game to declare one.
ENCODED = [game.id for game in games.all_games() if game.encoding is not None]

# Dice Derby's random playouts are long (random bettors take ~100 actions a race): one simulation.
SIMS = {"dice-derby": 1}


@pytest.mark.parametrize("game_id", ENCODED)
def test_openspiel_random_sim_test_passes_with_serialisation(game_id: str) -> None:
    game = pyspiel.load_game(openspiel.short_name(game_id))
    pyspiel.random_sim_test(game, num_sims=SIMS.get(game_id, 3), serialize=True, verbose=False)


def test_every_game_with_an_encoding_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {openspiel.short_name(g.id) for g in games.all_games() if g.encoding is not None} <= names


def test_a_game_string_round_trips_with_options_holding_json() -> None:
    game = pyspiel.load_game("partygames_smuggling", {"players": 4, "options": json.dumps({"team_size": 2,
                                                                                            "small_games": 3})})
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again.num_players() == 4
    assert pickle.loads(pickle.dumps(game)).num_players() == 4


def test_chance_nodes_are_the_engines_draws_with_their_probabilities() -> None:
    """Last Man Standing's set-up: the shuffle's first step picks one of 52 cards, each 1/52; the
    dealt hands then follow from the chosen outcomes exactly as the engine's Fisher-Yates shuffle."""
    game = pyspiel.load_game("partygames_last_man_standing", {"players": 4})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52 and all(p == pytest.approx(1 / 52) for _, p in outcomes)
    steps = 0
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])  # always j = 0: swap with the first card
        steps += 1
    assert steps == 51 + 1  # 51 shuffle steps, then the start player among 4
    assert isinstance(state, PartyGamesState) and state.match is not None
    assert state.match.start_player == 0  # type: ignore[attr-defined]
    assert state.current_player() == 0


def test_tensors_are_the_encoding_of_the_players_view_and_the_information_state_holds_the_ledger() -> None:
    game = pyspiel.load_game("partygames_smuggling", {"players": 2, "options": '{"team_size": 1, "small_games": 3}'})
    assert isinstance(game, PartyGamesGame)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])  # North smuggles first
    assert isinstance(state, PartyGamesState) and state.match is not None
    encoder = game.table.encoder
    state.apply_action(encoder.codec.encode({"type": "pack", "amount": 100_000_000}, state.match.legal_actions(0)))
    state.apply_action(encoder.codec.encode({"type": "pass"}, state.match.legal_actions(1)))
    for player in range(2):
        view = state.match.view(player)
        assert np.array_equal(np.asarray(state.observation_tensor(player), np.float32), encoder.observe(view))
        info = np.asarray(state.information_state_tensor(player), np.float32)
        assert np.array_equal(info, encoder.information_state(view))
        assert np.array_equal(info[:encoder.size], encoder.observe(view))
        first = encoder.information_layout.split(info)["ledger"][:10].tolist()
        # played, my team smuggled, I smuggled, I inspected, trunk 1億, no doubt, outcome "passed"
        assert first == [1.0, float(player == 0), float(player == 0), float(player == 1), 1.0, 0.0, 1.0, 0.0, 0.0, 0.0]


def test_a_determinisation_keeps_the_players_view() -> None:
    import random

    game = pyspiel.load_game("partygames_last_man_standing", {"players": 4})
    state = game.new_initial_state()
    while state.is_chance_node() or state.current_player() != 0 or state.move_number() < 70:
        legal = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(legal[len(legal) // 2])
    assert isinstance(state, PartyGamesState) and state.match is not None
    det = determinize(state.match, 0, random.Random(1))
    assert det.view(0) == state.match.view(0)
    assert det.to_json() != state.match.to_json()


@pytest.mark.parametrize("game_id", ENCODED)
def test_uniform_random_and_mcts_play_through_evaluate_bots(game_id: str) -> None:
    """A small MCTS (a few short rollouts: Dice Derby's random bettors would take seconds a rollout) in
    seat 0, OpenSpiel's uniform random bots elsewhere, on the game's research table (samples.rl)."""
    game = pyspiel.load_game(openspiel.short_name(game_id))
    assert isinstance(game, PartyGamesGame)
    seats = game.num_players()
    bots = [DeterminizedMCTSBot(game, 0, simulations=4, determinizations=2, seed=1, rollout_length=30),
            *(pyspiel.make_uniform_random_bot(p, p) for p in range(1, seats))]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    assert len(returns) == seats and sum(returns) >= 1  # someone wins; winners get 1
    assert bots[0].decisions > 0


def test_a_games_own_bot_plays_through_the_codec() -> None:
    game = pyspiel.load_game("partygames_dice_derby", {"players": 6, "options": '{"races": 4}'})
    assert isinstance(game, PartyGamesGame)
    table = game.table
    bots = [EngineBot(game, p, table.game.make_bot("heuristic", p, p)) for p in range(6)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sorted(returns)[-1] == 1.0


def test_heuristic_against_openspiel_mcts_at_equal_think_time(report_figures: Callable[[str], None]) -> None:
    """Every game, on its research table, one match per seat for MCTS: its budget per decision is the
    heuristic's own mean think time, measured first, and it still runs a simulation at every decision
    it searches. Printed with 95% intervals (figures, not a verdict: the benchmark runs more games)."""
    results = [equal_think_time(game_id, load(game_id).num_players(), warm_up=1, rollout_length=30)
               for game_id in ENCODED]
    report_figures("\n".join(result.line() for result in results))
    assert [result.game_id for result in results] == ENCODED and len(ENCODED) == len(games.all_games())
    for result in results:
        assert result.budget_ms is not None and result.budget_ms == result.bot_alone_ms and result.budget_ms > 0
        assert result.mcts_choices > 0 and result.fewest_simulations >= 1
        assert result.simulations >= result.mcts_choices
        assert result.mcts_wins + result.bot_wins >= 1  # someone won


def test_a_search_past_its_deadline_still_tries_one_move_and_every_simulation_tries_one() -> None:
    """The root counts as visited without a rollout, so each simulation visits one of its moves: a
    search whose deadline has passed runs one simulation and can choose; ten simulations, ten visits."""
    game = load("lucky-nine")
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:  # to a decision with a choice
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    rng = np.random.RandomState(0)
    search = UCTSearch(game, 2.0, 1, mcts.RandomRolloutEvaluator(1, rng), solve=False, random_state=rng)
    root, done = search.search(state, deadline=-math.inf)
    assert done == 1 and len(root.children) >= 2
    assert sorted(child.explore_count for child in root.children)[-2:] == [0, 1]
    root, done = search.search(state, simulations=10)
    assert done == 10 and sum(child.explore_count for child in root.children) == 10 and root.explore_count == 11


def test_mcts_runs_exactly_its_simulations_without_a_budget() -> None:
    """Without a think time every searched decision runs `simulations` simulations, shared evenly over
    the determinisations; forced moves are not searched."""
    result = compare("smuggling", 2, 2, {"team_size": 1, "small_games": 2}, simulations=6, determinizations=3)
    assert result.budget_ms is None and result.mcts_choices > 0
    assert result.simulations == 6 * result.mcts_choices and result.fewest_simulations == 6


def test_the_quiz_information_state_tensor_recalls_the_table_and_survives_clone_and_serialize() -> None:
    """After memorising no face-down word is in the observation, and all 30 are in the information state
    (each seat's record, fed the events it may see as the state steps); a clone and a deserialized state
    carry the records, and playing a clone on leaves the original's untouched."""
    game = pyspiel.load_game("partygames_quiz", {"players": 3})
    assert isinstance(game, PartyGamesGame)
    encoder, rng = game.table.encoder, np.random.RandomState(7)
    state = game.new_initial_state()
    assert isinstance(state, PartyGamesState)
    while state.is_chance_node() or getattr(state.match, "phase", None) in ("memorise", "select", "open"):
        legal = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(int(rng.choice(legal)))
    assert state.match is not None
    tensors = [np.asarray(state.information_state_tensor(p), np.float32) for p in range(3)]
    for player, tensor in enumerate(tensors):
        view = state.match.view(player)
        assert np.array_equal(tensor, encoder.recalled_state(view, state.recall(player)))
        parts = encoder.information_layout.split(tensor)
        assert parts["card_word"].sum() == 0 and parts["recall_word"].sum() == 30  # answering: all face down
        assert '"recall"' in state.information_state_string(player)
    clone = state.clone()
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    for copy in (clone, again):
        for player in range(3):
            assert np.array_equal(np.asarray(copy.information_state_tensor(player), np.float32), tensors[player])
    while not clone.is_terminal():
        legal = [a for a, _ in clone.chance_outcomes()] if clone.is_chance_node() else clone.legal_actions()
        clone.apply_action(int(rng.choice(legal)))
    assert np.array_equal(np.asarray(state.information_state_tensor(0), np.float32), tensors[0])


def test_musical_chairs_on_the_drawn_island_places_its_chairs_through_chance_nodes() -> None:
    """The drawn island is 240 m across: a chair's x is one of 241 whole metres, each 1/241 (its largest
    draw, within the bound declared to OpenSpiel); the set-up then plays on to the first move."""
    game = pyspiel.load_game("partygames_musical_chairs", {"players": 5, "options": json.dumps({"players": 4, "gallery": 1, "tempo": "rounds"})})
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 241 and all(p == pytest.approx(1 / 241) for _, p in outcomes)
    assert max(o for o, _ in outcomes) < game.max_chance_outcomes()
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probabilities)))
    assert not state.is_terminal() and state.legal_actions()
