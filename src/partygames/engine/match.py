"""The state machine every game implements: `Match`, plus its value objects.

A game subclasses `Match` and fills in the underscore hooks. The base class does the bookkeeping
that must be the same everywhere: turn checks, checking an action against the legal specs before the
game sees it, the version counter, JSON serialisation and the common parts of every view.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from partygames.engine.actions import Action, ActionSpec, find_spec
from partygames.engine.chance import Chance
from partygames.engine.errors import IllegalAction, InvalidOptions
from partygames.engine.options import Options


class Event(NamedTuple):
    """Something that happened. `to` is None for a public event, else the seats that may see it.

    An immutable named tuple rather than a frozen dataclass: games make many events per action, and
    a named tuple is built twice as fast."""

    type: str
    data: dict[str, Any]
    to: tuple[int, ...] | None = None

    def is_visible_to(self, seat: int | None) -> bool:
        """Whether a seat (None: a spectator) may see this event."""
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data, "to": None if self.to is None else list(self.to)}


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's outcome. `rank` 1 is best; tied seats share a rank."""

    seat: int
    rank: int
    is_winner: bool
    score: float
    holdings: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "rank": self.rank, "is_winner": self.is_winner, "score": self.score,
                "holdings": self.holdings}


@dataclass(frozen=True, slots=True)
class Result:
    """The structured outcome of a finished match."""

    seats: tuple[SeatResult, ...]
    termination: str
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats if s.is_winner)

    def to_json(self) -> dict[str, Any]:
        return {"seats": [s.to_json() for s in self.seats], "termination": self.termination,
                "winners": list(self.winners), "detail": self.detail}

    @staticmethod
    def ranked(scores: Sequence[float], termination: str, holdings: Sequence[dict[str, Any]] | None = None,
               detail: dict[str, Any] | None = None) -> Result:
        """A result ranking seats by score, higher first; ties share a rank and all top seats win."""
        best = max(scores)
        seats = tuple(
            SeatResult(seat=i, rank=1 + sum(1 for t in scores if t > s), is_winner=s == best, score=s,
                       holdings=holdings[i] if holdings else {})
            for i, s in enumerate(scores)
        )
        return Result(seats, termination, detail or {})


@dataclass(frozen=True, slots=True)
class TimeLimit:
    """A time limit on the current phase. When it passes, `defaults` (seat -> action) are applied for
    every seat still awaited. `phase` names the phase instance (e.g. "vote:3"), so that a new phase
    can be told from the same one: the limit runs from the moment that name last changed."""

    phase: str
    seconds: float
    defaults: dict[int, Action]

    def to_json(self) -> dict[str, Any]:
        return {"phase": self.phase, "seconds": self.seconds,
                "defaults": {str(k): v for k, v in self.defaults.items()}}


class Match(ABC):
    """A match of one game: the full state, hidden parts included. Only the host holds it.

    Subclasses set `game_id` and `options_class`, store their state in JSON-ready attributes (dicts
    with str keys, lists, ints, str, bool, None) and implement the underscore hooks. Attributes whose
    name starts with an underscore are caches: not serialised, so they must be rebuilt when missing.
    """

    game_id: ClassVar[str]
    options_class: ClassVar[type[Options]]
    seat_counts: ClassVar[Sequence[int]]
    # Attributes of the base class, kept apart from the game's own state in JSON.
    _BASE_ATTRS: ClassVar[frozenset[str]] = frozenset({"seats", "options", "seed", "chance", "version"})

    seats: int
    options: Options
    seed: int | str
    chance: Chance
    version: int

    def __init__(self, seats: int, options: Options | dict[str, Any] | None = None, seed: int | str = 0,
                 script: Mapping[str, Sequence[Any]] | None = None) -> None:
        self.options = self.options_class.parse(options)
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise InvalidOptions("The seat count must be a whole number.", "席数は整数で指定してください。")
        allowed = self.allowed_seat_counts(self.options)
        if seats not in allowed:
            raise InvalidOptions(
                f"{self.game_id} takes {_describe_counts(allowed)} seats with these options, not {seats}.",
                f"{self.game_id} の席数はこのオプションでは {_describe_counts(allowed)} です({seats} は不可)。",
            )
        self.seats = seats
        self.seed = seed
        self.chance = Chance(seed)
        for label, outcomes in (script or {}).items():
            self.chance.script(label, *outcomes)  # so that tests can fix the deal made in _setup
        self.version = 0
        self._legal_cache: dict[int, list[ActionSpec]] = {}
        self._setup()

    # -- hooks for games ---------------------------------------------------------------------------
    @classmethod
    def allowed_seat_counts(cls, options: Options) -> Sequence[int]:
        """Seat counts allowed with these options (default: the class's `seat_counts`)."""
        return cls.seat_counts

    @abstractmethod
    def _setup(self) -> None:
        """Deals, shuffles and sets the first phase, drawing only from `self.chance`."""

    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Returns the seats whose action is awaited now (several in a simultaneous phase)."""

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[ActionSpec]:
        """The specs of the actions `seat` may take now; called only for seats in `to_act()`."""

    @abstractmethod
    def _apply(self, seat: int, action: Action, spec: ActionSpec) -> list[Event]:
        """Applies an action already checked against `spec`. May still raise IllegalAction for a rule
        the specs cannot express, but only before changing anything."""

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may know now, JSON-ready."""

    @abstractmethod
    def result(self) -> Result | None:
        """The outcome once the match is over, else None."""

    def time_limit(self) -> TimeLimit | None:
        """The current phase's time limit, if it has one."""
        return None

    def tick(self, now: float) -> list[Event]:
        """Time passing, for games that declare `Game.tick_rate`: the host calls this that many times a
        second with `now`, the seconds since the match started, and logs each call like an action so
        that replay stays exact. Games that move only on actions never receive it."""
        raise NotImplementedError(f"{self.game_id} does not move with time (its Game has no tick_rate)")

    def perturb_secrets(self, owner: int | None, rng: random.Random) -> Match | None:
        """A copy in which what only `owner` knows (None: what nobody knows, like undrawn cards) is
        changed to another value it could have had, all else equal; None when there is nothing hidden.
        The conformance suite uses it to prove that no other seat's view depends on those secrets."""
        return None

    # -- the public contract --------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return not self.to_act()

    def legal_actions(self, seat: int) -> list[ActionSpec]:
        """The specs of the actions `seat` may take now ([] when it is not awaited)."""
        cached = self._legal_cache.get(seat)
        if cached is None:
            cached = self._legal_actions(seat) if seat in self.to_act() else []
            self._legal_cache[seat] = cached
        return cached

    def apply(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """Applies one seat's action and returns the events. Raises IllegalAction, with the state
        untouched, for anything not legal now."""
        specs = self._legal_cache.get(seat) if type(seat) is int else None
        if not specs:  # a non-empty cached entry means the seat is awaited; else do the full checks
            to_act = self.to_act()
            if not to_act:
                raise IllegalAction("The match is over.", "このマッチは終了しています。", code="action/match_over")
            if type(seat) is not int or not 0 <= seat < self.seats:
                raise IllegalAction("No such seat.", "その席はありません。", code="action/no_such_seat")
            if seat not in to_act:
                raise IllegalAction("It is not your turn.", "あなたの手番ではありません。",
                                    code="action/not_your_turn")
            specs = self.legal_actions(seat)
        spec = find_spec(specs, action)
        events = self._apply(seat, dict(action), spec)
        self.version += 1
        self._legal_cache.clear()
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything `seat` may know now (None: the public view), JSON-ready."""
        if seat is not None and not 0 <= seat < self.seats:
            raise IllegalAction("No such seat.", "その席はありません。", code="action/no_such_seat")
        to_act = self.to_act()
        view: dict[str, Any] = {
            "game": self.game_id,
            "seat": seat,
            "seats": self.seats,
            "version": self.version,
            "to_act": list(to_act),
            "is_over": not to_act,
            "legal_actions": self.legal_actions(seat) if seat is not None else [],
        }
        result = self.result()
        view["result"] = result.to_json() if result is not None else None
        view.update(self._view(seat))
        return view

    # -- serialisation ----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The full state (secrets included: for storage by the host only)."""
        # Attributes named with a leading underscore are caches derived from the state, never stored.
        state = {k: v for k, v in vars(self).items() if k not in self._BASE_ATTRS and not k.startswith("_")}
        return {
            "game": self.game_id,
            "seats": self.seats,
            "options": self.options.to_json(),
            "seed": self.seed,
            "version": self.version,
            "chance": self.chance.to_json(),
            # A JSON round trip is both the deep copy and a check that the state is JSON-ready (and
            # about three times faster than copy.deepcopy here).
            "state": json.loads(json.dumps(state)),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Match:
        match = cls.__new__(cls)
        match.options = cls.options_class.parse(data["options"])
        match.seats = int(data["seats"])
        match.seed = data["seed"]
        match.version = int(data["version"])
        match.chance = Chance.from_json(data["chance"])
        match._legal_cache = {}
        for key, value in json.loads(json.dumps(data["state"])).items():
            setattr(match, key, value)
        return match

    def clone(self) -> Match:
        """An independent deep copy."""
        return type(self).from_json(self.to_json())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return json.dumps(self.to_json(), sort_keys=True) == json.dumps(other.to_json(), sort_keys=True)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seats={self.seats} version={self.version} to_act={list(self.to_act())}>"


def _describe_counts(counts: Iterable[int]) -> str:
    values = sorted(set(counts))
    if len(values) > 1 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ", ".join(map(str, values))
