"""Every registered game as a PettingZoo environment: `env(game_id, ...)` (AEC) and `parallel_env(game_id, ...)`.

Agents are `player_0` … `player_{seats-1}`. An observation is `{"observation": float32 vector,
"action_mask": int8 vector}` from the game's encoding (built from that seat's view only; with
`information_state=True`, the encoding's information state, for the Quiz with the record the environment
keeps of what each seat was shown, from the events it may see); the action space is `Discrete(len(codec))`. Seats in a simultaneous phase act in the AEC environment one after another, in
seat order, each seeing only its own view (so nobody sees a sealed choice before the phase ends). Each
step takes `tick_ms` of the match's time (default 1 s): a phase's time limit runs out after that many
steps and plays its defaults, as at a table (`rl/table.py`); when nobody is awaited (a real-time game
between arrivals) the match advances to its next wake-up. Rewards come at the end only, from the result (`reward="win"`: 1 to each
winner; `"score"`: the result's score). `reset(seed=s)` plays match seed s, and each later `reset()`
without a seed the next seed (s + 1, …). `state()` (in `state_space`) is every seat's observation in seat
order, for a centralised critic: what the seats know together, never what none of them knows.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from partygames.engine.actions import Action
from partygames.engine.encoding import BOUND, Recalls, hear, start_recalls
from partygames.engine.match import Match
from partygames.engine.options import Options
from partygames.rl.table import TICK_MS, Reward, Table

Lang = Literal["en", "ja"]
#: "human": `render()` prints the public view as the terminal shows it and returns None; "ansi": returns it.
RENDER_MODES = ("human", "ansi")


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class _Spaces:
    """The spaces of a table, one object per agent for the whole life of the environment."""

    def __init__(self, table: Table, information_state: bool = False) -> None:
        encoder = table.encoder
        size = encoder.information_layout.size if information_state else encoder.size
        moves = len(encoder.codec)
        self.agents = [agent_name(s) for s in range(table.seats)]
        self.observation = {a: spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (moves,), np.int8),
        }) for a in self.agents}
        self.action: dict[str, spaces.Discrete[np.int64]] = {a: spaces.Discrete(moves) for a in self.agents}
        self.state = spaces.Box(-BOUND, BOUND, (table.seats * size,), np.float32)


class PartyGamesEnv(AECEnv[str, dict[str, Any], int]):
    """One game as a PettingZoo AEC environment (see the module docstring)."""

    def __init__(self, table: Table, seed: int | None = None, render_mode: str | None = None,
                 lang: Lang = "en", information_state: bool = False) -> None:
        super().__init__()
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.table = table
        self.metadata = {"render_modes": list(RENDER_MODES), "name": f"partygames_{table.game.id.replace('-', '_')}",
                         "is_parallelizable": True}
        self.render_mode = render_mode
        self.lang = lang
        self.information_state = information_state
        self.recalls: Recalls = {}
        spaces_ = _Spaces(table, information_state)
        self.possible_agents = list(spaces_.agents)
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = spaces_.observation
        self.action_spaces = spaces_.action
        self.state_space = spaces_.state
        self._next_seed = 0 if seed is None else seed
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def state(self) -> npt.NDArray[np.float32]:
        """What the seats know together: every seat's observation, in seat order (for a centralised critic)."""
        return _state(self.table, self._match(), self.recalls, self.information_state)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match (`options` of PettingZoo's reset are not game options: those are fixed per env)."""
        if seed is not None:
            self._next_seed = seed
        self.match = self.table.new(self._next_seed)
        self._next_seed += 1
        self.recalls = _recalls(self.table, self.match, self.information_state)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.match.to_act()[0]]

    def _match(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() before step() or observe()")
        return self.match

    def observe(self, agent: str) -> dict[str, Any]:
        match = self._match()
        return _observation(self.table, match, self._seat_of[agent], self.recalls, self.information_state)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self._match()
        seat = self._seat_of[agent]
        specs = match.legal_actions(seat)
        chosen = None if action is None else self.table.encoder.codec.decode(int(action), specs)
        if chosen is None:
            raise ValueError(f"{agent}: action {action!r} is not legal now (sample with the action_mask)")
        self._cumulative_rewards[agent] = 0.0
        events = self.table.act(match, [(seat, chosen)])
        if self.recalls:
            hear(self.recalls, events)
        awaited = match.to_act()
        if awaited:  # the match settled with a seat awaited: not over (`Table.act`)
            self.agent_selection = self.possible_agents[awaited[0]]
            return
        result = match.result()
        if result is not None:
            returns = self.table.returns(result)
            for s, name in enumerate(self.possible_agents):
                self.rewards[name] = returns[s]
                self.terminations[name] = True
                self.infos[name] = {"result": result.to_json()}
            self._accumulate_rewards()
            # _was_dead_step walks the finished agents from here

    def render(self) -> str | None:
        return _render(self.table, self._match(), self.render_mode, self.lang)

    def close(self) -> None:
        self.match = None


class PartyGamesParallelEnv(ParallelEnv[str, dict[str, Any], int]):
    """One game as a PettingZoo parallel environment: at each step every awaited seat acts, in seat order.

    A seat awaited whose action is missing or not legal plays the game's time-limit default for it, as a
    player who lets the clock run out; actions of seats not awaited are ignored (their mask is empty).
    """

    def __init__(self, table: Table, seed: int | None = None, render_mode: str | None = None,
                 lang: Lang = "en", information_state: bool = False) -> None:
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.table = table
        self.metadata = {"render_modes": list(RENDER_MODES), "name": f"partygames_{table.game.id.replace('-', '_')}"}
        self.render_mode = render_mode
        self.lang = lang
        self.information_state = information_state
        self.recalls: Recalls = {}
        spaces_ = _Spaces(table, information_state)
        self.possible_agents = list(spaces_.agents)
        self.observation_spaces = spaces_.observation
        self.action_spaces = spaces_.action
        self.state_space = spaces_.state
        self.agents: list[str] = []
        self._next_seed = 0 if seed is None else seed
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def state(self) -> npt.NDArray[np.float32]:
        """What the seats know together: every seat's observation, in seat order (for a centralised critic)."""
        if self.match is None:
            raise RuntimeError("call reset() before state()")
        return _state(self.table, self.match, self.recalls, self.information_state)

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._next_seed = seed
        self.match = self.table.new(self._next_seed)
        self._next_seed += 1
        self.recalls = _recalls(self.table, self.match, self.information_state)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, Any]:
        assert self.match is not None
        return {agent: _observation(self.table, self.match, seat, self.recalls, self.information_state)
                for seat, agent in enumerate(self.possible_agents)}

    def step(self, actions: dict[str, int]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                     dict[str, bool], dict[str, dict[str, Any]]]:
        match = self.match
        if match is None or not self.agents:
            raise RuntimeError("call reset() before step(), and again once the match is over")
        codec = self.table.encoder.codec
        limit = match.time_limit()
        chosen: list[tuple[int, Action]] = []
        for seat in match.to_act():  # the seats awaited when the step began, in seat order
            index = actions.get(self.possible_agents[seat])
            action = None if index is None else codec.decode(int(index), match.legal_actions(seat))
            if action is None and limit is not None:
                action = limit.defaults.get(seat)
            if action is not None:
                chosen.append((seat, action))
        hear(self.recalls, self.table.act(match, chosen))  # an action an earlier one made illegal is dropped
        result = match.result()
        observations = self._observations()
        agents = self.agents
        if result is None:
            return (observations, dict.fromkeys(agents, 0.0), dict.fromkeys(agents, False),
                    dict.fromkeys(agents, False), {a: {} for a in agents})
        returns = self.table.returns(result)
        rewards = {a: returns[s] for s, a in enumerate(self.possible_agents)}
        infos = {a: {"result": result.to_json()} for a in agents}
        self.agents = []
        return observations, rewards, dict.fromkeys(agents, True), dict.fromkeys(agents, False), infos

    def render(self) -> str | None:
        return None if self.match is None else _render(self.table, self.match, self.render_mode, self.lang)

    def close(self) -> None:
        self.match = None


def env(game_id: str, seats: int | None = None, options: dict[str, Any] | Options | None = None,
        seed: int | None = None, render_mode: str | None = None, reward: Reward = "win",
        lang: Lang = "en", tick_ms: int = TICK_MS, information_state: bool = False) -> PartyGamesEnv:
    """The AEC environment of a registered game (seats: default the smallest the options allow; each
    step takes `tick_ms` of the match's time, so time limits run out as at a table; `information_state`:
    the observation is the encoding's information state, with the record the environment keeps of what
    each seat was shown where the game needs one)."""
    return PartyGamesEnv(Table.make(game_id, seats, options, reward, tick_ms), seed, render_mode, lang,
                         information_state)


def parallel_env(game_id: str, seats: int | None = None, options: dict[str, Any] | Options | None = None,
                 seed: int | None = None, render_mode: str | None = None, reward: Reward = "win",
                 lang: Lang = "en", tick_ms: int = TICK_MS, information_state: bool = False) -> PartyGamesParallelEnv:
    """The parallel environment of a registered game: every awaited seat acts at each step."""
    return PartyGamesParallelEnv(Table.make(game_id, seats, options, reward, tick_ms), seed, render_mode, lang,
                                 information_state)


def _recalls(table: Table, match: Match, information_state: bool) -> Recalls:
    """Each seat's record, kept only when the observation is the information state."""
    return start_recalls(table.encoder, match, range(table.seats)) if information_state else {}


def _vector(table: Table, match: Match, seat: int, recalls: Recalls, information_state: bool) -> npt.NDArray[np.float32]:
    """A seat's observation, from the state where the game builds it so (`Encoder.observe_match`), or its
    information state."""
    encoder = table.encoder
    if information_state:
        return encoder.recalled_state(match.view(seat), recalls.get(seat))
    return encoder.observe_match(match, seat)


def _observation(table: Table, match: Match, seat: int, recalls: Recalls, information_state: bool) -> dict[str, Any]:
    """A seat's observation (or information state) and action mask."""
    return {"observation": _vector(table, match, seat, recalls, information_state),
            "action_mask": table.encoder.codec.mask(match.legal_actions(seat))}


def _state(table: Table, match: Match, recalls: Recalls, information_state: bool) -> npt.NDArray[np.float32]:
    """`state()`: each seat's observation (or information state), concatenated in seat order. It holds what
    some seat knows, never what none does (a deck's order, who was infected at the start)."""
    return np.concatenate([_vector(table, match, seat, recalls, information_state) for seat in range(table.seats)])


def _render(table: Table, match: Match, mode: str | None, lang: Lang) -> str | None:
    """`render()` in `mode` (see RENDER_MODES; None renders nothing)."""
    if mode == "ansi":
        return table.render(match, lang)
    if mode == "human":
        table.show(match, lang)
    return None
