"""PettingZoo's own conformance tests (api_test, seed_test, parallel_api_test, parallel_seed_test,
render_test) on every registered game, and what the environments promise beyond them."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
    state_test,
)
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

from partygames import games
from partygames.engine.game import Game
from partygames.engine.session import Session
from partygames.rl.pettingzoo import PartyGamesEnv, PartyGamesParallelEnv, env, parallel_env

# Every game with an encoding; test_encoding.py requires every registered game to declare one.
ENCODED = [game.id for game in games.all_games() if game.encoding is not None]

# PettingZoo whitelists its own masked environments (chess_v6, connect_four_v3, …) by name for a dict
# observation {"observation", "action_mask"}; any other environment with one gets these two warnings.
DICT_OBSERVATION_WARNINGS = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
]


def _short(game: Game) -> tuple[int | None, dict[str, object]]:
    """The game's table for the research interfaces (`samples.rl`, else its golden one)."""
    setup = game.samples.research
    return (setup.seats, dict(setup.options)) if setup else (None, {})


def _aec(game_id: str, seed: int | None = None) -> PartyGamesEnv:
    seats, options = _short(games.get(game_id))
    return env(game_id, seats, options, seed=seed, render_mode="ansi")


def _parallel(game_id: str) -> PartyGamesParallelEnv:
    seats, options = _short(games.get(game_id))
    return parallel_env(game_id, seats, options, render_mode="ansi")


@pytest.mark.parametrize("game_id", ENCODED)
@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
def test_pettingzoo_api_test_and_seed_test_pass(game_id: str) -> None:
    api_test(_aec(game_id), num_cycles=200)
    seed_test(lambda: _aec(game_id), num_cycles=200)


@pytest.mark.parametrize("game_id", ENCODED)
def test_pettingzoo_parallel_api_test_and_parallel_seed_test_pass(game_id: str) -> None:
    parallel_api_test(_parallel(game_id), num_cycles=200)
    parallel_seed_test(lambda: _parallel(game_id), num_cycles=200)


@pytest.mark.parametrize("game_id", ENCODED)
def test_masked_random_play_is_the_engine_match_with_the_same_actions_a_second_apart(game_id: str) -> None:
    """The environment adds nothing to the match: the engine's own Session, given the decoded actions one
    second apart (time limits running out on the way, and time running on to the next wake-up while nobody
    is awaited, as in a quiz whose memorising time runs after every seat voted), ends in the same state; observations are the
    encoder's reading of that seat's view, and the rewards are 1 for exactly the result's winners."""
    aec = _aec(game_id, seed=11)
    aec.reset()
    game, table = aec.table.game, aec.table
    mirror = Session.new(game, table.seats, table.options, 11)
    rng = np.random.default_rng(5)
    rewards: dict[str, float] = {}
    for agent in aec.agent_iter():
        observation, reward, terminated, _, _ = aec.last()
        seat = aec.possible_agents.index(agent)
        assert np.array_equal(observation["observation"], table.encoder.observe(mirror.match.view(seat)))
        if terminated:
            rewards[agent] = reward
            aec.step(None)
            continue
        index = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        action = table.encoder.codec.decode(index, mirror.match.legal_actions(seat))
        assert action is not None
        at, before = mirror.match.now + 1000, mirror.match.version
        mirror.catch_up(at)
        if mirror.match.version == before:  # else a time limit ran out first and overtook the action
            mirror.act(seat, action, at)
        while not mirror.match.to_act() and not mirror.match.is_over:  # nobody awaited: time runs on
            mirror.wake_next()
        aec.step(index)
    assert aec.match is not None and aec.match == mirror.match
    result = mirror.match.result()
    assert result is not None
    assert rewards == {f"player_{s.seat}": float(s.is_winner) for s in result.seats}


def test_time_limits_run_out_between_steps_as_at_a_table() -> None:
    """Dice Derby with steps 200 s apart: the auction's 120 s limit runs out before the first step's bid
    (everyone passes), then each race's 90 s betting limit (everyone is done) at 210, 300, 390 and 480 s:
    the steps at 200, 400 and 600 s are each overtaken by the limits, and the match is over after three."""
    aec = env("dice-derby", 6, {"races": 4}, seed=1, tick_ms=200_000)
    aec.reset()
    steps = 0
    for _ in aec.agent_iter():
        observation, _, terminated, _, info = aec.last()
        if terminated:
            aec.step(None)
            continue
        aec.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 3
    assert info["result"]["termination"] == "all_races_run"
    for seat in info["result"]["seats"]:  # nobody bid nor bet: money is the start plus owners' prizes
        assert seat["holdings"]["price"] == 0
        assert seat["holdings"]["money"] == 10_000 + seat["holdings"]["prize"]


def test_an_index_the_mask_forbids_is_refused() -> None:
    aec = _aec("lucky-nine", seed=1)
    aec.reset()
    observation, *_ = aec.last()
    forbidden = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal now"):
        aec.step(forbidden)


def test_a_simultaneous_phase_is_one_parallel_step_and_a_missing_action_plays_the_time_limit_default() -> None:
    """Last Man Standing's fights: all four seats seal a card in one step; seat 3 sends nothing and plays
    its lowest card, the game's default when the clock runs out."""
    par = parallel_env("last-man-standing", 4)
    observations, _ = par.reset(seed=2)
    assert par.match is not None
    while par.match.to_act() != (0, 1, 2, 3):  # the draft: one seat at a time
        seat = par.match.to_act()[0]
        observations, *_ = par.step({f"player_{seat}": int(np.flatnonzero(observations[f"player_{seat}"]["action_mask"])[0])})
    lowest = par.match.hands[3][0]  # type: ignore[attr-defined]
    actions = {f"player_{s}": int(np.flatnonzero(observations[f"player_{s}"]["action_mask"])[-1]) for s in range(3)}
    par.step(actions)
    assert par.match.history[0]["plays"][3] == lowest  # type: ignore[attr-defined]
    assert len(par.match.history) == 1  # type: ignore[attr-defined]


@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
def test_pettingzoos_terminate_illegal_wrapper_ends_the_match_on_an_index_the_mask_forbids() -> None:
    """A learner that does not mask: PettingZoo's TerminateIllegalWrapper over our environment passes
    api_test, and an index the mask forbids ends the match with -1 to its agent, 0 to the others, where
    the bare environment refuses it with a ValueError and changes nothing."""
    api_test(TerminateIllegalWrapper(_aec("lucky-nine"), illegal_reward=-1), num_cycles=100)
    bare = _aec("lucky-nine", seed=2)
    bare.reset()
    agent = bare.agent_selection
    illegal = int(np.flatnonzero(bare.observe(agent)["action_mask"] == 0)[0])
    assert bare.match is not None
    version = bare.match.version
    with pytest.raises(ValueError, match="not legal"):
        bare.step(illegal)
    assert bare.match.version == version and bare.agent_selection == agent
    wrapped = TerminateIllegalWrapper(_aec("lucky-nine", seed=2), illegal_reward=-1)
    wrapped.reset()
    assert wrapped.agent_selection == agent
    wrapped.observe(agent)
    wrapped.step(illegal)  # PettingZoo logs "Illegal move made, game terminating with current player losing"
    assert all(wrapped.terminations.values())
    returns = {}
    for each in wrapped.agent_iter():  # every agent steps out, each reading its return on the way
        returns[each] = wrapped.last()[1]
        wrapped.step(None)
    assert returns == {a: (-1.0 if a == agent else 0.0) for a in wrapped.possible_agents}
    assert wrapped.agents == []


def test_ansi_render_is_the_terminal_view() -> None:
    aec = _aec("smuggling", seed=3)
    aec.reset()
    text = aec.render()
    assert isinstance(text, str) and "Small game 1/4" in text and "Accounts" in text


@pytest.mark.parametrize("game_id", ENCODED)
@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
def test_pettingzoo_render_test_passes_in_every_render_mode(game_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's render_test in "human" (prints the terminal's public view, returns None) and "ansi"
    (returns it as text)."""
    seats, options = _short(games.get(game_id))
    render_test(lambda render_mode: env(game_id, seats, options, seed=1, render_mode=render_mode),
                custom_tests={"ansi": lambda text: isinstance(text, str) and text.strip() != ""})
    assert capsys.readouterr().out.count("\n") >= 5, "human mode printed less than its five frames"


@pytest.mark.parametrize("game_id", ["quiz", "smuggling"])
@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
def test_information_state_environments_pass_the_api_tests_and_observe_the_information_state(game_id: str) -> None:
    """`information_state=True`: the observation is the encoding's information state (the Quiz's with the
    record the environment keeps of each seat; Smuggling's ledger), sized by `information_layout`."""
    seats, options = _short(games.get(game_id))
    api_test(env(game_id, seats, options, information_state=True), num_cycles=100)
    parallel_api_test(parallel_env(game_id, seats, options, information_state=True), num_cycles=100)
    aec = env(game_id, seats, options, seed=3, information_state=True)
    aec.reset()
    encoder = aec.table.encoder
    assert aec.observation_spaces["player_0"]["observation"].shape == (encoder.information_layout.size,)
    for _ in range(30):
        agent = aec.agent_selection
        if aec.terminations[agent]:
            break
        observed = aec.observe(agent)
        seat = aec.possible_agents.index(agent)
        view = aec._match().view(seat)
        assert np.array_equal(observed["observation"], encoder.recalled_state(view, aec.recalls.get(seat)))
        aec.step(int(np.flatnonzero(observed["action_mask"])[0]))
    if game_id == "quiz":  # memorising is over: the table is face down, and recalled
        parts = encoder.information_layout.split(aec.observe(aec.agent_selection)["observation"])
        assert aec._match().view(0)["phase"] != "memorise"
        assert parts["card_word"].sum() == 0 and parts["recall_word"].sum() >= 27


@pytest.mark.parametrize("game_id", ENCODED)
@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
def test_pettingzoo_state_test_passes_and_the_state_is_every_seat_s_observation(game_id: str) -> None:
    """PettingZoo's own state_test (it steps with unmasked samples, so the first illegal one ends the match
    through TerminateIllegalWrapper), then masked random play: at every step `state()` lies in `state_space`
    and is each seat's observation in seat order, in the AEC and the parallel environment."""
    state_test(TerminateIllegalWrapper(_aec(game_id), illegal_reward=-1), _parallel(game_id), num_cycles=10)
    aec, rng = _aec(game_id, seed=3), np.random.default_rng(3)
    aec.reset()
    steps = 0
    for agent in aec.agent_iter(max_iter=300):
        steps += 1
        state = aec.state()
        assert aec.state_space.contains(state)
        assert np.array_equal(state, np.concatenate([aec.observe(a)["observation"] for a in aec.possible_agents]))
        _, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(aec.observe(agent)["action_mask"]))))
    assert steps > 1
    parallel = _parallel(game_id)
    observations, _ = parallel.reset(seed=3)
    assert np.array_equal(parallel.state(), np.concatenate([observations[a]["observation"] for a in parallel.possible_agents]))
