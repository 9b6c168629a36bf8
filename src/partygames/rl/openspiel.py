"""Every registered game as an OpenSpiel Python game: `pyspiel.load_game("partygames_lucky_nine")`.

Importing this module registers each game that declares an encoding (`register_all`). Parameters:
`players` (default: the game's `samples.rl` table, else its golden one, else its smallest seat count)
and `options`, the game options as a JSON string. The game type: sequential dynamics, with a
simultaneous phase played in seat order and each seat's choice hidden until the phase ends (what the
engine does; OpenSpiel's MCTS needs sequential games); explicit stochastic chance, every die, choice and
shuffle step a chance node with `chance_outcomes()` (`rl/tape.py`); imperfect information; terminal
rewards, 1 to each winner (ties share it) and 0 to the rest. Actions are the encoding's codec indices;
observation and information state tensors are the encoding's vectors of the player's view (the
information state with the player's record, for a game that keeps one: the Quiz), their strings the
view's JSON (and the record's). Each move takes `tick_ms` (a parameter, default 1000) of the match's time, so
time limits run out as at a table (`rl/table.py`). `resample_from_infostate` draws a state the player cannot
tell from the real one through the game's determiniser (`engine/knowledge.py`), so that OpenSpiel's
information-set MCTS plays every game.
"""

from __future__ import annotations

import base64
import copy
import json
import pickle
import random
from typing import Any

import numpy as np
import pyspiel

from partygames import games
from partygames.engine.actions import Action
from partygames.engine.encoding import Recall, Recalls, hear, start_recalls
from partygames.engine.game import Game
from partygames.engine.knowledge import Determiniser, Memory, SeatRecord
from partygames.engine.match import Event, Match
from partygames.rl.table import TICK_MS, Table, settle
from partygames.rl.tape import NeedChance, TapeChance

PREFIX = "partygames_"
#: Bounds OpenSpiel needs up front: the most outcomes of one draw (the largest any game makes is a point
#: on Musical Chairs' drawn island, one of its 241 metres across; the tape raises past the bound), and the
#: longest match in actions and chance outcomes (far above what any game reaches).
MAX_CHANCE_OUTCOMES = 256
MAX_GAME_LENGTH = 100_000
_SETUP = -1  # the pending "seat" while the match's own set-up draws its chance
# The determinisers of the states resampled lately, by (state id, player), with the match and version they
# were built at (kept out of the states, which OpenSpiel deep-copies at every clone).
_DETERMINISERS: dict[tuple[int, int], tuple[Match, int, Determiniser]] = {}
_CACHED_DETERMINISERS = 16


def short_name(game_id: str) -> str:
    return PREFIX + game_id.replace("-", "_")


def _default_table(game: Game) -> tuple[int, dict[str, Any]]:
    setup = game.samples.research
    if setup is not None:
        return setup.seats, dict(setup.options)
    return min(game.seat_counts_for(None)), {}


def encode_options(options: dict[str, Any]) -> str:
    """Options as a game-string parameter: base64url of their JSON (a game string cannot hold the
    commas, parentheses and equals signs of JSON)."""
    return base64.urlsafe_b64encode(json.dumps(options, separators=(",", ":")).encode()).decode().rstrip("=")


def decode_options(text: str) -> dict[str, Any]:
    """The `options` parameter: JSON (as a user writes it) or `encode_options`' form (from a game string)."""
    if text.lstrip().startswith("{"):
        options = json.loads(text)
    else:
        options = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    if not isinstance(options, dict):
        raise ValueError(f"options must be a JSON object, not {text!r}")
    return options


def game_type(game: Game) -> pyspiel.GameType:
    seats, options = _default_table(game)
    return pyspiel.GameType(
        short_name=short_name(game.id),
        long_name=f"partygames {game.title.en}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(game.seat_counts),
        min_num_players=min(game.seat_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": seats, "options": encode_options(options), "tick_ms": TICK_MS},
    )


class PartyGamesGame(pyspiel.Game):
    """One partygames game at one table, as OpenSpiel sees it."""

    def __init__(self, game: Game, params: dict[str, Any] | None = None) -> None:
        defaults_seats, default_options = _default_table(game)
        params = dict(params or {})
        seats = int(params.get("players", defaults_seats))
        options = decode_options(params.get("options", json.dumps(default_options)))
        tick_ms = int(params.get("tick_ms", TICK_MS))
        self.table = Table.make(game.id, seats, options, tick_ms=tick_ms)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.table.encoder.codec),
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=seats,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type(game), info, {"players": seats, "options": encode_options(options),
                                                 "tick_ms": tick_ms})

    def new_initial_state(self) -> PartyGamesState:
        return PartyGamesState(self)

    def state_from_match(self, match: Match) -> PartyGamesState:
        """A state at a copy of `match` (no history: for searches over a determinised match)."""
        return PartyGamesState(self, settle(pickle.loads(pickle.dumps(match, pickle.HIGHEST_PROTOCOL))))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params!r}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = iig_obs_type is None or iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        return Observer(self.table, perfect_recall, private)


class PartyGamesState(pyspiel.State):
    """A match, plus the step waiting for chance outcomes: the seat and action (or the set-up), and the
    outcomes chosen so far; for a game whose information state needs a record its views do not carry
    (`Encoder.recall`: the Quiz), each seat's record and the public one, fed the events each may see as
    the state steps; for a game whose determiniser keeps a memory (`Determiniser.memory`), each seat's,
    fed likewise; and the events of the last step completed (`steps` counts them), for bots that are told
    their seat's events (`rl.bots.EngineBot`). Only these are kept (they are what clone and serialize
    copy)."""

    def __init__(self, game: PartyGamesGame, match: Match | None = None) -> None:
        super().__init__(game)
        self._seats = game.table.seats
        self._match: Match | None = match
        self._pending: tuple[int, Action] | None = None if match is not None else (_SETUP, {})
        self._tape: list[int] = []
        self._outcomes: list[tuple[int, float]] = []
        self._before: bytes | None = None  # the match before the pending step, pickled
        self._recalls: Recalls = {}
        self._memories: dict[int, Memory] = {}
        self._resamples = 0  # mixed into each resample's seed (OpenSpiel's sampler starts afresh each call)
        self._steps = 0
        self._events: list[Event] = []
        if match is None:
            self._attempt()
        else:
            self._start_recalls(match)

    def _table(self) -> Table:
        game = self.get_game()
        assert isinstance(game, PartyGamesGame)
        return game.table

    # -- chance ------------------------------------------------------------------------------------
    def _attempt(self) -> None:
        """Runs the pending step with the outcomes chosen so far: done, or stopped at the next chance node
        (the match then restored to before the step, as pickled when the step began)."""
        assert self._pending is not None
        table = self._table()
        seat, action = self._pending
        chance = TapeChance(self._tape, MAX_CHANCE_OUTCOMES)
        try:
            events: list[Event] = []
            if seat == _SETUP:
                trial = table.game.match_class(table.seats, table.options, 0, chance=chance)
            else:
                if self._before is None:  # the step's first try: on the match itself (most draw nothing)
                    assert self._match is not None
                    self._before = pickle.dumps(self._match, pickle.HIGHEST_PROTOCOL)
                    trial = self._match
                else:
                    trial = pickle.loads(self._before)
                trial.chance = chance
                events = table.act(trial, [(seat, action)])
            settle(trial, events)
        except NeedChance as need:
            self._outcomes = need.outcomes
            if self._before is not None:
                self._match = pickle.loads(self._before)
            return
        self._match, self._pending, self._tape, self._outcomes, self._before = trial, None, [], [], None
        self._steps += 1
        self._events = events
        if seat == _SETUP:
            self._start_recalls(trial)  # its first view shows what the set-up's events did
        else:
            hear(self._recalls, events)
            for seat, memory in self._memories.items():
                for event in events:
                    if event.is_visible_to(seat):
                        memory.hear(event)

    def _start_recalls(self, match: Match) -> None:
        """Each seat's record and the public one, from what their views show now (the match's first
        view; for `state_from_match`, whose history is not known, the view of the copied match)."""
        table = self._table()
        self._recalls = start_recalls(table.encoder, match, (*range(self._seats), None))
        self._memories = {}
        determiniser = table.game.determiniser
        if determiniser is not None:
            for seat in range(self._seats):
                memory = determiniser.memory(seat)
                if memory is not None:
                    memory.see(match.view(seat))
                    self._memories[seat] = memory

    def recall(self, player: int | None) -> Recall | None:
        """The record kept of what `player` (None: the public) was shown, for a game that keeps one."""
        return self._recalls.get(player)

    # -- determinisation ---------------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PartyGamesState:
        """A state `player_id` cannot tell from this one (the same information state), drawn by the game's
        determiniser from what the player was told: its view, deadline and the memory kept for it, never
        this match (docs/engine.md, Determinisation). Its match has a chance source of its own; the
        player's records (and the public one) are copied, the other seats' begin from their views of
        the drawn match. `probability_sampler()` (OpenSpiel's, a uniform float) seeds the draw, mixed
        with a count of this state's resamples: OpenSpiel's ISMCTS makes a new sampler, which starts at
        the same number, for every call. Only at a decision node or the end (not during chance)."""
        match = self._match
        if self._pending is not None or match is None:
            raise ValueError("a state can be resampled only at a decision node, not while chance is drawn")
        determiniser = self._determiniser(match, int(player_id))
        self._resamples += 1
        drawn = determiniser.sample(random.Random(f"{probability_sampler()!r} {self._resamples}"))
        state = PartyGamesState(self.get_game(), drawn)
        for viewer in (player_id, None):
            if viewer in self._recalls:
                state._recalls[viewer] = copy.deepcopy(self._recalls[viewer])
        if player_id in self._memories:
            state._memories[player_id] = copy.deepcopy(self._memories[player_id])
        return state

    def _determiniser(self, match: Match, player: int) -> Determiniser:
        """The player's determiniser at this match (built once per match and version: ISMCTS resamples
        the same root state at every simulation)."""
        key = (id(self), player)
        cached = _DETERMINISERS.get(key)
        if cached is not None and cached[0] is match and cached[1] == match.version:
            return cached[2]
        table = self._table()
        record = SeatRecord.from_match(table.game, match, player, self._memories.get(player))
        determiniser = table.game.determiniser
        if determiniser is None:
            raise ValueError(f"{table.game.id} declares no determiniser")
        built = determiniser(record)
        if len(_DETERMINISERS) >= _CACHED_DETERMINISERS:
            del _DETERMINISERS[next(iter(_DETERMINISERS))]
        _DETERMINISERS[key] = (match, match.version, built)
        return built

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._pending is not None
        return list(self._outcomes)

    # -- the OpenSpiel contract ---------------------------------------------------------------------
    def current_player(self) -> int:
        if self._pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert self._match is not None
        if self._match.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._match.to_act()[0]

    def _legal_actions(self, player: int) -> list[int]:
        assert self._match is not None and player >= 0
        codec = self._table().encoder.codec
        return [int(i) for i in np.flatnonzero(codec.mask(self._match.legal_actions(player)))]

    def _apply_action(self, action: int) -> None:
        if self._pending is not None:
            self._tape = [*self._tape, int(action)]
        else:
            assert self._match is not None
            seat = self._match.to_act()[0]
            chosen = self._table().encoder.codec.decode(int(action), self._match.legal_actions(seat))
            if chosen is None:
                raise ValueError(f"action {action} is not legal for player {seat}")
            self._pending, self._tape = (seat, chosen), []
        self._attempt()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{action}"
        return self._table().encoder.codec.moves[action].label()

    def is_terminal(self) -> bool:
        return self._pending is None and self._match is not None and self._match.is_over

    def returns(self) -> list[float]:
        match = self._match
        result = None if self._pending is not None or match is None else match.result()
        if result is None:
            return [0.0] * self._seats
        return self._table().returns(result)

    def view(self, player: int | None) -> dict[str, Any]:
        """The player's view of the match now (before the pending step while chance is being drawn)."""
        assert self._match is not None or self._pending is not None
        if self._match is None:  # during the set-up's chance nodes nothing is dealt yet
            return {"seat": player, "setup": True}
        return self._match.view(player)

    @property
    def match(self) -> Match | None:
        return self._match

    @property
    def steps(self) -> int:
        """The steps (a move with its chance outcomes; the set-up) completed since the state was made."""
        return self._steps

    @property
    def last_events(self) -> list[Event]:
        """The events of the last step completed (every seat's: deliver each only where it is visible)."""
        return self._events

    def __str__(self) -> str:
        if self._match is None:
            return "set-up"
        return json.dumps(self._match.view(None), sort_keys=True, ensure_ascii=False)


class Observer:
    """OpenSpiel's Python observer over the encoding: the information state (perfect recall) or the
    observation of the player's view; without private information, of the public view."""

    def __init__(self, table: Table, perfect_recall: bool, private: bool) -> None:
        self.table = table
        self.perfect_recall = perfect_recall
        self.private = private
        layout = table.encoder.information_layout if perfect_recall else table.encoder.layout
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = layout.split(self.tensor)

    def _view(self, state: PartyGamesState, player: int) -> dict[str, Any] | None:
        if state.match is None:
            return None
        return state.view(player if self.private else None)

    def set_from(self, state: PartyGamesState, player: int) -> None:
        view = self._view(state, player)
        if view is None:
            self.tensor.fill(0.0)
            return
        encoder = self.table.encoder
        if self.perfect_recall:
            self.tensor[:] = encoder.recalled_state(view, state.recall(view["seat"]))
        else:
            self.tensor[:] = encoder.observe(view)

    def string_from(self, state: PartyGamesState, player: int) -> str:
        view = self._view(state, player)
        if view is None:
            return f"p{player} set-up"
        if not self.perfect_recall:
            view = {k: v for k, v in view.items() if k != "version"}
        else:
            recall = state.recall(view["seat"])
            if recall is not None:
                view = {**view, "recall": recall.to_json()}
        return json.dumps(view, sort_keys=True, ensure_ascii=False)


def game_class(game: Game) -> type[PartyGamesGame]:
    """A `PartyGamesGame` subclass for one game: OpenSpiel registers a class, called with the params."""

    def __init__(self: PartyGamesGame, params: dict[str, Any] | None = None) -> None:
        PartyGamesGame.__init__(self, game, params)

    name = "".join(part.capitalize() for part in game.id.split("-")) + "Game"
    cls = type(name, (PartyGamesGame,), {"__init__": __init__, "__module__": __name__, "__qualname__": name})
    globals()[name] = cls  # found by name, so that a game pickles (Ray, multiprocessing)
    return cls


def register_all() -> list[str]:
    """Registers every game that declares an encoding (once); returns their OpenSpiel short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for game in games.all_games():
        if game.encoding is None:
            continue
        name = short_name(game.id)
        cls = game_class(game)
        if name not in registered:
            pyspiel.register_game(game_type(game), cls)
        names.append(name)
    return names


register_all()
