"""What one seat was told over a match, and whole matches drawn to agree with it (determinisation).

A search over an imperfect-information game (information-set MCTS, determinised search) needs matches
its seat cannot tell from the one it is in. It may read only what the seat was told, never the match:
a `SeatRecord` holds that (its last view, the match time and deadline it was shown, its own actions,
and, for a game whose views do not carry everything the seat once saw, a game-specific memory fed the
events it may see). A game's `Determiniser` (declared as `Game.determiniser`) reads the record once and
then draws matches from it (`sample(rng)`): real matches of the game, with the same options, seats, bot
seats, version and clock, in which the seat's view is exactly the recorded one, and every hidden thing
(other seats' hands and sealed choices, undrawn cards, infections, face-down words) is drawn as the game
documents (docs/engine.md, Determinisation; each game's rules page). The chance source of a sample is
seeded from `rng` alone, so a search never learns the real match's future draws.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from partygames.engine.actions import Action
from partygames.engine.chance import Chance
from partygames.engine.match import Deadline, Event, Match, MatchClock
from partygames.engine.options import Options

if TYPE_CHECKING:
    from partygames.engine.game import Game


class Memory(Protocol):
    """A game's digest of what a seat was shown, for what its views do not carry (the Quiz: the words
    it saw on cards now face down). Fed every view the record sees and every event the seat may see;
    plain data, so that it copies and pickles. `engine.encoding.Recall` is one."""

    def see(self, view: Mapping[str, Any]) -> None: ...

    def hear(self, event: Event) -> None: ...


class SeatRecord:
    """What one seat was told: the table (game, seats, options, bot seats: known to everyone at it), its
    latest view with the match time and deadline it was shown with, its own actions, and the game's
    `memory` of the events it may see (None for a game whose views carry all a seat has seen).

    Whoever steps the match feeds it: a bot from its `observe` (`hear`) and `act` (`see` the observation's
    view, time and deadline; `acted` for the action it returns), a research adapter from the views and
    visible events it hands out. Nothing here reads the match; `from_match` is a convenience for hosts
    that hold one (tests, the OpenSpiel adapter), and it too reads only the seat's view and deadline.
    """

    def __init__(self, game: Game, seats: int, options: Options | Mapping[str, Any] | None, seat: int,
                 bots: Collection[int] = ()) -> None:
        if game.determiniser is None:
            raise ValueError(f"{game.id} declares no determiniser (Game.determiniser)")
        if not 0 <= seat < seats:
            raise ValueError(f"seat {seat} is not one of the {seats} seats")
        self.game = game
        self.seats = seats
        self.options = game.options_class.parse(dict(options) if isinstance(options, Mapping) else options)
        self.seat = seat
        self.bots = tuple(sorted(set(bots)))
        self.view: dict[str, Any] | None = None
        self.now = 0
        self.deadline: Deadline | None = None
        self.actions: list[tuple[int, Action]] = []
        self.memory: Memory | None = game.determiniser.memory(seat)

    @classmethod
    def from_match(cls, game: Game, match: Match, seat: int, memory: Memory | None = None) -> SeatRecord:
        """The record of `seat` at a match its host holds: its view, time and deadline now, and `memory`
        (copied), the game's memory fed so far (None: a new one that remembers only this view)."""
        record = cls(game, match.seats, match.options, seat, match.bot_seats)
        view, now, deadline = match.view(seat), match.now, match.deadline()
        if memory is None:
            record.see(view, now, deadline)
        else:
            record.memory = copy.deepcopy(memory)
            record._show(view, now, deadline)
        return record

    def see(self, view: Mapping[str, Any], now: int, deadline: Deadline | None) -> None:
        """The seat's view at match time `now`, with the deadline it was shown (`Match.deadline()`, None:
        no time limit is running). The view is copied (views share lists with the match)."""
        copied = self._show(view, now, deadline)
        if self.memory is not None:
            self.memory.see(copied)

    def _show(self, view: Mapping[str, Any], now: int, deadline: Deadline | None) -> dict[str, Any]:
        if view.get("seat") != self.seat:
            raise ValueError(f"a view of seat {view.get('seat')!r} given to the record of seat {self.seat}")
        copied: dict[str, Any] = json.loads(json.dumps(view))
        self.view, self.now, self.deadline = copied, now, deadline
        return copied

    def hear(self, event: Event) -> None:
        """An event the seat may see (`Event.is_visible_to`), in order."""
        if not event.is_visible_to(self.seat):
            raise ValueError(f"seat {self.seat} may not see the event {event.type!r}")
        if self.memory is not None:
            self.memory.hear(event)

    def acted(self, action: Action, now: int) -> None:
        """An action the seat took at match time `now`."""
        self.actions.append((now, dict(action)))

    def copy(self) -> SeatRecord:
        """An independent copy (the game is shared)."""
        other = copy.copy(self)
        other.view = copy.deepcopy(self.view)
        other.actions = list(self.actions)
        other.memory = copy.deepcopy(self.memory)
        return other


class Determiniser(ABC):
    """Draws matches a seat cannot tell from the one it is in, from its `SeatRecord` alone.

    Built once per record as it is now (it reads the record and prepares what every sample shares), then
    `sample(rng)` as often as a search needs. Build a new one after the record learns more."""

    def __init__(self, record: SeatRecord) -> None:
        view = record.view
        if view is None:
            raise ValueError("the record has not seen a view yet: see the seat's view first")
        if view["is_over"]:
            raise ValueError("the match is over: nothing is hidden any more")
        self.record = record
        self.view: dict[str, Any] = view
        self.seat = record.seat

    @classmethod
    def memory(cls, seat: int) -> Memory | None:
        """The memory a record of `seat` keeps for this game (None: the views carry all it needs)."""
        return None

    @abstractmethod
    def sample(self, rng: random.Random) -> Match:
        """A match drawn from the record (see the game's rules page, Determinisation)."""

    def assemble(self, state: dict[str, Any], rng: random.Random,
                 complete: Callable[[Match], None] | None = None) -> Match:
        """A match of the record's table holding the game state `state` (its attributes, used as they
        are: give each sample its own), with the recorded version and clock and a chance source seeded
        from `rng`. `complete(match)` may then draw what is easier drawn on the match itself (through the
        game's own rules). The clock's time-limited phase is the match's own; it runs from when the
        recorded deadline says (spent when the record shows none)."""
        record = self.record
        cls = record.game.match_class
        match = cls.__new__(cls)
        seed = rng.getrandbits(64)
        match.options = record.options
        match.seats = record.seats
        match.seed = seed
        match.bot_seats = record.bots
        match.version = self.view["version"]
        match.chance = Chance(seed)
        match.clock = MatchClock(now=record.now)
        match._legal_cache = {}
        match.__dict__.update(state)
        if complete is not None:
            complete(match)
            match._legal_cache.clear()
        set_clock(match, record.deadline)
        return match


def set_clock(match: Match, deadline: Deadline | None) -> None:
    """Sets the base class's clock of a drawn match (its `now` already set): its current time limit runs
    out at the `deadline` the seat was shown; none shown means the limit's defaults were applied."""
    clock = match.clock
    clock.unchecked = False
    limit = match.time_limit()
    clock.phase = None if limit is None else limit.phase
    clock.since, clock.spent = clock.now, False
    if limit is not None:
        if deadline is None:
            clock.spent = True
        else:
            clock.since = deadline.ends_at - round(limit.seconds * 1000)


class Template:
    """JSON-ready data that every sample copies: pickled once, unpickled per sample (several times faster
    than a JSON round trip or `copy.deepcopy`)."""

    __slots__ = ("_blob",)

    def __init__(self, data: Any) -> None:
        self._blob = pickle.dumps(data, pickle.HIGHEST_PROTOCOL)

    def copy(self) -> Any:
        return pickle.loads(self._blob)

