"""The PettingZoo environments' speed beside research peers, in one run on one core (issue 22).

Every environment is stepped by the loop an agent runs: PettingZoo AEC environments (ours and PettingZoo's
own classic `tictactoe_v3` and `leduc_holdem_v4`) by `last()`, a uniform sample among the indices the
action mask allows (NumPy), and `step()`; OpenSpiel's `rl_environment.Environment` on C++ `leduc_poker` by
its own loop (a uniform sample among the time step's legal actions, `step()`; it samples chance itself).
A figure is env steps per CPU second (agent actions: a finished agent's `step(None)` is not counted),
the best of `--repeat` runs of `--seconds` each, the runs of every environment taken in turn so that the
shared machine's drift falls on all of them alike. Each game plays its benchmark table
(`samples.benchmark`). Beside each game: its ratio to `tictactoe_v3` (the goal: at least 1) and to
OpenSpiel's `leduc_poker` (the moonshot), and "engine alone", the same steps through the environment's
table (`Table.act`, the clock's tick included) with the engine's own random choice among the legal
actions and no observation, mask or PettingZoo: what the engine costs an environment step, a ceiling no
work on the environment can pass. CPU time of this process. Prints figures; asserts nothing.

The peers need the `bench` extra (`pip install 'partygames[bench]'`: pygame, which PettingZoo's classic
games import to render, and RLCard for Leduc Hold'em); without it they are skipped with a message.

    .venv/bin/python benchmarks/rl_bench.py [--seconds 1] [--repeat 3] [--game lucky-nine]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from open_spiel.python import rl_environment

from partygames import games
from partygames.engine.actions import sample
from partygames.engine.samples import Setup
from partygames.rl.pettingzoo import env
from partygames.rl.table import Table

Run = Callable[[float], float]
"""Steps per CPU second over about the given seconds."""


def _rate(seconds: float, run_one: Callable[[], int]) -> float:
    """Steps per CPU second of `run_one()` (which plays one episode and returns its steps) over `seconds`."""
    steps, episodes = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds or episodes == 0:
        steps += run_one()
        episodes += 1
    return steps / (time.process_time() - start)


def aec_run(make: Callable[[], Any]) -> Run:
    """An AEC environment stepped by a masked random agent (the same loop for ours and PettingZoo's)."""
    aec = make()
    aec.reset(seed=0)
    rng = np.random.default_rng(0)

    def one() -> int:
        aec.reset()
        steps = 0
        for _ in aec.agent_iter():
            observation, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            aec.step(int(legal[int(rng.integers(len(legal)))]))
            steps += 1
        return steps

    return lambda seconds: _rate(seconds, one)


def openspiel_run(name: str) -> Run:
    """OpenSpiel's `rl_environment` on one of its games, stepped by a random agent among the legal actions."""
    environment = rl_environment.Environment(name, chance_event_sampler=rl_environment.ChanceEventSampler(seed=0))
    rng = np.random.default_rng(0)

    def one() -> int:
        time_step = environment.reset()
        steps = 0
        while not time_step.last():
            player = time_step.observations["current_player"]
            legal = time_step.observations["legal_actions"][player]
            time_step = environment.step([legal[int(rng.integers(len(legal)))]])
            steps += 1
        return steps

    return lambda seconds: _rate(seconds, one)


def engine_run(game_id: str, seats: int, options: dict[str, object]) -> Run:
    """The environment's steps without the environment: the table's `act` (clock included) of the first
    awaited seat's random legal action (the engine's own sampler), until the match ends."""
    table = Table.make(game_id, seats, options)
    rng = random.Random(0)
    seeds = iter(range(1 << 62))

    def one() -> int:
        match = table.new(next(seeds))
        steps = 0
        while not match.is_over:
            seat = match.to_act()[0]
            table.act(match, [(seat, sample(match.legal_actions(seat), rng))])
            steps += 1
        return steps

    return lambda seconds: _rate(seconds, one)


def peers() -> dict[str, Run]:
    """PettingZoo's classic tictactoe_v3 and leduc_holdem_v4 (skipped, with the reason, without the
    `bench` extra) and OpenSpiel's rl_environment on C++ leduc_poker."""
    runs: dict[str, Run] = {}
    try:
        from pettingzoo.classic import tictactoe_v3
        runs["PettingZoo tictactoe_v3"] = aec_run(tictactoe_v3.env)
    except ImportError as missing:
        print(f"skipped PettingZoo tictactoe_v3 ({missing}): pip install 'partygames[bench]'")
    try:
        from pettingzoo.classic import leduc_holdem_v4
        runs["PettingZoo leduc_holdem_v4 (RLCard)"] = aec_run(leduc_holdem_v4.env)
    except ImportError as missing:
        print(f"skipped PettingZoo leduc_holdem_v4 ({missing}): pip install 'partygames[bench]'")
    runs["OpenSpiel rl_environment leduc_poker"] = openspiel_run("leduc_poker")
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (the best is kept)")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    runs = peers()
    seats: dict[str, int] = {}
    engines: dict[str, Run] = {}
    for game_id in args.game or games.ids():
        game = games.get(game_id)
        setup = game.samples.benchmark or Setup(min(game.seat_counts_for(None)))
        options = dict(setup.options)
        seats[game_id] = setup.seats
        runs[game_id] = aec_run(lambda g=game_id, s=setup.seats, o=options: env(g, s, o, seed=0))  # type: ignore[misc]
        engines[game_id] = engine_run(game_id, setup.seats, options)
    best: dict[str, float] = {}
    alone: dict[str, float] = {}
    for _ in range(args.repeat):  # every environment in turn, so that drift falls on all alike
        for name, run in runs.items():
            best[name] = max(best.get(name, 0.0), run(args.seconds))
        for name, run in engines.items():
            alone[name] = max(alone.get(name, 0.0), run(args.seconds))
    tictactoe = best.get("PettingZoo tictactoe_v3")
    leduc = best["OpenSpiel rl_environment leduc_poker"]
    print(f"{'environment':<38}{'seats':>6}{'steps/s':>10}{'vs tictactoe':>14}{'vs OpenSpiel':>14}"
          f"{'engine alone':>14}{'vs tictactoe':>14}")
    for name, rate in best.items():
        ratio = "" if tictactoe is None else f"{rate / tictactoe:.2f}"
        line = f"{name:<38}{seats.get(name, ''):>6}{rate:>10,.0f}{ratio:>14}{rate / leduc:>14.2f}"
        if name in alone:
            engine_ratio = "" if tictactoe is None else f"{alone[name] / tictactoe:.2f}"
            line += f"{alone[name]:>14,.0f}{engine_ratio:>14}"
        print(line)
    if tictactoe is not None:
        verdict(tictactoe, {name: best[name] for name in seats if name in best})
    else:
        print("\ntarget, at least tictactoe_v3: not measured (it needs the bench extra)")


def verdict(tictactoe: float, ours: dict[str, float]) -> None:
    """Issue 22's target in words: which games' environments reach `tictactoe_v3`, which fall short and by
    how much (the factor their steps/s would need)."""
    met = [f"{name} {rate / tictactoe:.2f}x" for name, rate in ours.items() if rate >= tictactoe]
    short = [f"{name} {rate / tictactoe:.2f}x (needs {tictactoe / rate:.2f}x)" for name, rate in ours.items()
             if rate < tictactoe]
    print(f"\ntarget, at least tictactoe_v3: met by {', '.join(met) or 'none'}")
    if short:
        print(f"short: {', '.join(short)}. Why: an environment step is an engine step plus its observation "
              "and mask (the 'engine alone' column is the ceiling); per game, benchmarks/README.md.")


if __name__ == "__main__":
    main()
