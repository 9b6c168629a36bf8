"""The research interfaces' speed beside the engine's, on one core: per game, raw engine actions/s (random
playouts as in engine_bench.py), PettingZoo AEC env steps/s (`last()`, a masked sample, `step()`: an
observation and a mask every step) and its share of the engine's, the same loop without observations
(`last(observe=False)`, the mask alone: what the stepping itself costs) and its share, the floor of any
masked environment over this engine and its share (the engine's playouts, each action also masked, sampled
and decoded as an agent's index: no observation, no clock, no environment), and OpenSpiel
steps/s of our games (random playouts through pyspiel, chance nodes included); then OpenSpiel's own
`python_kuhn_poker`, `python_liars_poker` and C++ `liars_dice` measured in the same run. CPU time of this
process. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/rl_bench.py [--seconds 3] [--game lucky-nine]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from engine_bench import step  # the same random step (run from this folder, as the docstring says)
from open_spiel.python.games import kuhn_poker, liars_poker  # noqa: F401 - registers the Python games

from partygames import games
from partygames.engine.actions import ActionSpec
from partygames.engine.game import Dynamics
from partygames.engine.samples import Setup
from partygames.rl import openspiel
from partygames.rl.pettingzoo import env


def _rate(seconds: float, run_one: Callable[[int], int]) -> float:
    """Steps per CPU second of `run_one(i)` (which plays one episode and returns its steps) over `seconds`."""
    steps, episodes = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds or episodes == 0:
        steps += run_one(episodes)
        episodes += 1
    return steps / (time.process_time() - start)


def engine_rate(game_id: str, seats: int, options: dict[str, object], seconds: float) -> float:
    game = games.get(game_id)
    real_time = game.dynamics == Dynamics.REAL_TIME
    rng = random.Random(0)

    def one(i: int) -> int:
        match = game.new(seats, options, seed=i)
        while not match.is_over:
            step(match, rng, real_time)
        return match.version

    return _rate(seconds, one)


def env_rate(game_id: str, seats: int, options: dict[str, object], seconds: float, observe: bool = True) -> float:
    """AEC env steps/s; without `observe`, each step masks the codec with the seat's legal actions instead of
    building its observation (the stepping alone)."""
    aec = env(game_id, seats, options, seed=0)
    codec = aec.table.encoder.codec
    rng = np.random.default_rng(0)

    def one(i: int) -> int:
        aec.reset()
        steps = 0
        for agent in aec.agent_iter():
            observation, _, terminated, _, _ = aec.last(observe)
            if terminated:
                aec.step(None)
                continue
            assert aec.match is not None
            mask = (observation["action_mask"] if observe
                    else codec.mask(aec.match.legal_actions(aec.possible_agents.index(agent))))
            legal = np.flatnonzero(mask)
            aec.step(int(legal[int(rng.integers(len(legal)))]))
            steps += 1
        return steps

    return _rate(seconds, one)


def floor_rate(game_id: str, seats: int, options: dict[str, object], seconds: float) -> float:
    """The engine's own playouts (engine_rate's), with what any masked environment must add to each action
    and cannot avoid: the mask of the seat's legal actions, a masked NumPy sample and its decode (the
    decoded action is not played, so the playouts stay the engine's). No observation, no clock, no
    PettingZoo: no environment over this engine can step faster than this."""
    game = games.get(game_id)
    codec = game.encoder(seats, game.options_class.parse(options)).codec
    real_time = game.dynamics == Dynamics.REAL_TIME
    rng, sampler = random.Random(0), np.random.default_rng(0)

    def mask_sample_decode(specs: list[ActionSpec]) -> object:
        legal = np.flatnonzero(codec.mask(specs))
        return codec.decode(int(legal[int(sampler.integers(len(legal)))]), specs)

    def one(i: int) -> int:
        match = game.new(seats, options, seed=i)
        while not match.is_over:
            step(match, rng, real_time, mask_sample_decode)
        return match.version

    return _rate(seconds, one)


def openspiel_rate(game: pyspiel.Game, seconds: float) -> float:
    rng = np.random.default_rng(0)

    def one(i: int) -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
        return steps

    return _rate(seconds, one)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(f"{'game':<20}{'seats':>6}{'engine actions/s':>18}{'env steps/s':>14}{'env/engine':>12}"
          f"{'no obs steps/s':>16}{'no obs/engine':>15}{'floor steps/s':>15}{'floor/engine':>14}"
          f"{'OpenSpiel steps/s':>19}")
    for game_id in args.game or games.ids():
        game = games.get(game_id)
        setup = game.samples.benchmark or Setup(min(game.seat_counts_for(None)))
        options = dict(setup.options)
        engine = engine_rate(game_id, setup.seats, options, args.seconds)
        stepped = env_rate(game_id, setup.seats, options, args.seconds)
        bare = env_rate(game_id, setup.seats, options, args.seconds, observe=False)
        floor = floor_rate(game_id, setup.seats, options, args.seconds)
        spiel = pyspiel.load_game(openspiel.short_name(game_id), {"players": setup.seats,
                                                                   "options": openspiel.encode_options(options)})
        print(f"{game_id:<20}{setup.seats:>6}{engine:>18,.0f}{stepped:>14,.0f}{stepped / engine:>12.0%}"
              f"{bare:>16,.0f}{bare / engine:>15.0%}{floor:>15,.0f}{floor / engine:>14.0%}{openspiel_rate(spiel, args.seconds):>19,.0f}")
    print("OpenSpiel's own games, random playouts (chance nodes included):")
    for name in ("python_kuhn_poker", "python_liars_poker", "liars_dice"):
        print(f"  {name:<20}{openspiel_rate(pyspiel.load_game(name), args.seconds):>14,.0f} steps/s")


if __name__ == "__main__":
    main()
