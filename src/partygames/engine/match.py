"""The state machine every game implements: `Match`, plus its value objects.

A game subclasses `Match` and fills in the underscore hooks. The base class does the bookkeeping
that must be the same everywhere: turn checks, checking an action against the legal specs before the
game sees it, the version counter, JSON serialisation and the common parts of every view.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from bisect import bisect_right
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, NamedTuple, Self

from partygames.engine.actions import Action, ActionSpec, find_spec
from partygames.engine.chance import Chance
from partygames.engine.copying import Shape, copy_json, copy_rows
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


class SeatResult(NamedTuple):
    """One seat's outcome. `rank` 1 is best; tied seats share a rank, and every game ranks a seat 1 + the
    number of seats that did strictly better (standard competition ranking: 1, 2, 2, 4). `holdings` is
    read-only.

    A named tuple, like `Event`: every simulated match ends by building one per seat, and a named tuple
    is built several times faster than a frozen dataclass."""

    seat: int
    rank: int
    is_winner: bool
    score: float
    holdings: dict[str, Any] = {}  # noqa: RUF012 - read-only, like the rest of the tuple

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
        ordered = sorted(scores)
        best = ordered[-1]
        # rank = 1 + how many scores are strictly higher (bisect: this runs at the end of every simulated match)
        seats = tuple(
            SeatResult(seat=i, rank=1 + len(ordered) - bisect_right(ordered, s), is_winner=s == best, score=s,
                       holdings=holdings[i] if holdings else {})
            for i, s in enumerate(scores)
        )
        return Result(seats, termination, detail or {})


def audience(events: Iterable[Event], actor: int | None = None) -> frozenset[int] | None:
    """The seats that may see any of `events`, with the step's `actor`; None when one of them is public
    (the witnesses of a private step: `Match.step_witnesses`)."""
    seen: set[int] = set() if actor is None else {actor}
    for event in events:
        if event.to is None:
            return None
        seen.update(event.to)
    return frozenset(seen)


TIMED_OUT = "timed_out"
"""The event of a seat the match waited for running out of time (every game's: `Match._time_out`); its
default action follows."""

COMMON_VIEW_KEYS = frozenset({"game", "seat", "seats", "version", "to_act", "turns", "is_over", "legal_actions", "result"})
"""The keys every view holds (`Match.view`); the rest are the game's own (`Match._view`)."""

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


@dataclass(frozen=True, slots=True)
class Deadline:
    """When the current phase's time limit runs out, for a client's countdown: `ends_at` is in
    milliseconds since the match began, `seconds` the limit's length."""

    phase: str
    ends_at: int
    seconds: float  # the limit's length

    def to_json(self) -> dict[str, Any]:
        return {"phase": self.phase, "ends_at": self.ends_at, "seconds": self.seconds}


@dataclass(slots=True)
class MatchClock:
    """The base class's time: the latest `now` given (ms since the match began) and the time-limited
    phase with the moment it began. `unchecked`: a step happened at `now` since the phase was last
    looked at (looked at lazily, so that a simulation where time never moves never pays for it);
    `spent`: the phase's limit has passed and its defaults were applied."""

    now: int = 0
    phase: str | None = None
    since: int = 0
    unchecked: bool = True
    spent: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"now": self.now, "phase": self.phase, "since": self.since, "spent": self.spent}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> MatchClock:
        if data is None:  # a state stored before time entered the engine
            return cls()
        return cls(int(data["now"]), data["phase"], int(data["since"]), False, bool(data["spent"]))


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
    _BASE_ATTRS: ClassVar[frozenset[str]] = frozenset(
        {"seats", "options", "seed", "chance", "version", "clock", "bot_seats"})
    # Action types whose parameters no other seat ever learns, not even after the match (a secret ballot).
    SECRET_FOREVER: ClassVar[frozenset[str]] = frozenset()
    # Action types no other seat ever learns were taken, not even the type or by whom (a private gift: its
    # events tell whom it concerns).
    UNSEEN_FOREVER: ClassVar[frozenset[str]] = frozenset()
    # View fields that only say when the view was made (a real-time game's current time), like `version`:
    # a host need not tell a seat of a step after which nothing else in its view changed.
    VIEW_CLOCK_KEYS: ClassVar[frozenset[str]] = frozenset()
    # Action types only a seat's person may choose: irreversible choices of their own (giving something away,
    # dropping out, a deal with another seat). A bot standing in for an absent person never takes them
    # (`stand_in_actions`); each game's rules page says which of its actions these are and why.
    PERSONAL: ClassVar[frozenset[str]] = frozenset()
    # What `clone()` may rely on about some state attributes' shapes (default: any JSON-ready value, copied
    # at every depth). The conformance suite checks every declaration at every step of its playouts.
    CLONE_SHAPES: ClassVar[Mapping[str, Shape]] = {}

    seats: int
    options: Options
    seed: int | str
    chance: Chance
    version: int
    clock: MatchClock
    bot_seats: tuple[int, ...]
    """The seats a bot plays, fixed when the match is made: a rule may depend on who is human ("when
    all human seats have voted, the time is extended"). Nothing else may differ for a bot."""

    def __init__(self, seats: int, options: Options | dict[str, Any] | None = None, seed: int | str = 0,
                 script: Mapping[str, Sequence[Any]] | None = None, bots: Collection[int] = (), *,
                 chance: Chance | None = None) -> None:
        """`bots`: the seats bots play (`bot_seats`); `chance` replaces the match's random source (default
        `Chance(seed)`): the OpenSpiel adapter passes one whose every draw is an explicit chance node."""
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
        if any(type(b) is not int or not 0 <= b < seats for b in bots):
            raise InvalidOptions("A bot seat must be one of the match's seats.", "ボットの席は参加席から指定してください。")
        self.bot_seats = tuple(sorted(set(bots)))
        self.seed = seed
        self.chance = Chance(seed) if chance is None else chance
        for label, outcomes in (script or {}).items():
            self.chance.script(label, *outcomes)  # so that tests can fix the deal made in _setup
        self.version = 0
        self.clock = MatchClock()
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

    def turns(self) -> tuple[int, ...]:
        """The awaited seats the match waits for: each one's action (or its time limit's default) is a turn
        that moves the match on. Any other seat in `to_act()` may act but nothing waits for it: an optional
        action (the Quiz's gifts of markers), or real-time play, where every seat may act at any moment
        and nobody has a turn (`turns()` is then empty). Default: every awaited seat."""
        return self.to_act()

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[ActionSpec]:
        """The specs of the actions `seat` may take now; called only for seats in `to_act()`."""

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Applies an action already checked against the legal specs. May still raise IllegalAction for
        a rule the specs cannot express, but only before changing anything."""

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may know now, JSON-ready."""

    @abstractmethod
    def result(self) -> Result | None:
        """The outcome once the match is over, else None."""

    def _ended(self) -> bool:
        """Whether `result()` is not None, answered without building the result (it is asked after every
        step that leaves nobody awaited). Default: builds it. A game overrides it with the test its
        `result()` starts with; the conformance suite checks that the two agree at every step."""
        return self.result() is not None

    def time_limit(self) -> TimeLimit | None:
        """The current phase's time limit, if it has one. Turn-based games declare time only through
        this: the base class derives `wake_at` and `advance` from it. Real-time games override those."""
        return None

    def perturb_secrets(self, owner: int | None, rng: random.Random) -> Match | None:
        """A copy in which what only `owner` knows (None: what nobody knows, like undrawn cards) is
        changed to another value it could have had, all else equal; None when there is nothing hidden.
        The conformance suite uses it to prove that no other seat's view depends on those secrets."""
        return None

    # -- the public contract --------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """Whether the match has a result. A match that awaits a seat is never over, so that cheaper test
        comes first; a real-time match that awaits nobody for a moment is not over either."""
        return not self.to_act() and self._ended()

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats people play (every seat but `bot_seats`)."""
        return tuple(s for s in range(self.seats) if s not in self.bot_seats)

    @property
    def now(self) -> int:
        """The latest time the match was given: milliseconds since it began."""
        return self.clock.now

    def legal_actions(self, seat: int) -> list[ActionSpec]:
        """The specs of the actions `seat` may take now ([] when it is not awaited)."""
        cached = self._legal_cache.get(seat)
        if cached is None:  # `_legal_now` written out: asked at every step
            cached = self._legal_cache[seat] = self._legal_actions(seat) if seat in self.to_act() else []
        return cached

    def _legal_now(self, seat: int, to_act: Collection[int]) -> list[ActionSpec]:
        """`legal_actions(seat)` given the awaited seats at hand (a real-time game's are many), cached."""
        cached = self._legal_cache.get(seat)
        if cached is None:
            cached = self._legal_cache[seat] = self._legal_actions(seat) if seat in to_act else []
        return cached

    def apply(self, seat: int, action: Mapping[str, Any], now: int | None = None) -> list[Event]:
        """Applies one seat's action at time `now` (milliseconds since the match began; None: the time
        of the previous step) and returns the events. Raises IllegalAction, with the state untouched,
        for anything not legal now. Time never runs backwards: an earlier `now` is a ValueError."""
        specs = self._legal_cache.get(seat) if type(seat) is int else None
        if not specs:  # a non-empty cached entry means the seat is awaited; else do the full checks
            to_act = self.to_act()
            if not to_act:
                raise IllegalAction("The match is over." if self.is_over else "Nobody may act now.",
                                    "このマッチは終了しています。" if self.is_over else "今は誰も操作できません。",
                                    code="action/match_over" if self.is_over else "action/not_your_turn")
            if type(seat) is not int or not 0 <= seat < self.seats:
                raise IllegalAction("No such seat.", "その席はありません。", code="action/no_such_seat")
            if seat not in to_act:
                raise IllegalAction("It is not your turn.", "あなたの手番ではありません。",
                                    code="action/not_your_turn")
            specs = self.legal_actions(seat)
        find_spec(specs, action)
        clock = self.clock
        if now is None or now == clock.now:
            events = self._apply(seat, dict(action))
        else:
            before = clock.now, clock.phase, clock.since, clock.unchecked, clock.spent
            self._move_clock(now)
            try:
                events = self._apply(seat, dict(action))
            except IllegalAction:
                # refused: the state is as it was, its clock included
                clock.now, clock.phase, clock.since, clock.unchecked, clock.spent = before
                raise
        self.version += 1
        clock.unchecked = True  # the phase may have changed at this moment
        self._legal_cache.clear()
        return events

    def apply_trusted(self, seat: int, action: Action, now: int | None = None) -> list[Event]:
        """`apply` for an action the engine itself drew from `legal_actions(seat)` (search rollouts, random
        playouts, benchmarks): the same state and events, without the checks that
        cannot fail for such an action. Skipped: whether anyone is awaited, the seat's range and turn,
        `find_spec`, a game's own refusals in `apply` (the Quiz's gift of nothing, outside its specs), the
        copy of the action (the match may keep it: pass one nobody changes afterwards; `sample` and
        `enumerate_actions` make new ones) and, when time moves, the snapshot of the clock that a refusal
        restores. Safe only when `action` is allowed by `legal_actions(seat)` at `now`: at the match's time
        (`now` None or `match.now`), or later but not after `wake_at()`, since a real-time game first
        carries out what fell due before the action, after which it may no longer be legal. Anything else
        (a person's action, a bot's own choice not checked against the specs) goes through `apply`. The
        conformance suite plays every game's playouts through both and compares states and events."""
        clock = self.clock
        if now is not None and now != clock.now:
            self._move_clock(now)
        events = self._apply(seat, action)
        self.version += 1
        clock.unchecked = True  # the phase may have changed at this moment
        self._legal_cache.clear()
        return events

    def wake_at(self) -> int | None:
        """When `advance` must run even if nobody acts (a phase's time limit; in real-time games also an
        offer lapsing or an arrival), in milliseconds since the match began; None: not until someone acts.
        A real-time game that overrides it includes `time_limit_due()`."""
        return self.time_limit_due()

    def stand_in_actions(self, seat: int) -> list[ActionSpec]:
        """The legal actions a bot standing in for `seat`'s absent person may take: every legal action but
        the `PERSONAL` ones ([]: it waits, and the seat's time limit, if any, plays its default)."""
        return [s for s in self.legal_actions(seat) if s["type"] not in self.PERSONAL]

    def time_limit_due(self) -> int | None:
        """When the current phase's time limit runs out (None: no limit, or its defaults are applied)."""
        running = self._running_limit()
        return None if running is None else running[1]

    def advance(self, now: int) -> list[Event]:
        """Time passing until `now`: what is due by then happens (for a turn-based game, the time limit's
        defaults for every seat still awaited). Hosts log each call like an action, so replay is exact."""
        self._move_clock(now)
        due = self.time_limit_due()
        events: list[Event] = []
        if due is not None and due <= now:
            events = self._time_out()
        self.version += 1
        self._legal_cache.clear()
        return events

    def deadline(self) -> Deadline | None:
        """The current phase's time limit as a moment, for clients to count down to (None: no limit, or
        its defaults are applied)."""
        running = self._running_limit()
        if running is None:
            return None
        limit, ends_at = running
        return Deadline(limit.phase, ends_at, limit.seconds)

    def shown_action(self, actor: int, action: Action, viewer: int | None) -> Action | None:
        """What `viewer` (None: a spectator) may know of `actor`'s action: all of it for the actor; nothing
        (None: not even that `actor` acted) if its type is in UNSEEN_FOREVER; once the match is over, all
        of it unless its type is in SECRET_FOREVER; before that, its type only. Replays and logs show
        other seats' actions only through this (the events say what is public)."""
        if viewer == actor:
            return action
        kind = action.get("type")
        if kind in self.UNSEEN_FOREVER:
            return None
        if self.is_over and kind not in self.SECRET_FOREVER:
            return action
        return {"type": kind}

    def step_witnesses(self, actor: int | None, action: Action | None,
                       events: Sequence[Event]) -> frozenset[int] | None:
        """Who may learn that the step just taken happened at all (called right after it, with its actor,
        None for time passing, its action and its events): None, everyone, spectators included; else
        those seats only. A host never tells anyone else of the step, not even by counting it (the
        server numbers each connection's versions by the steps it witnessed: docs/server.md).

        The default: a step whose action type is in UNSEEN_FOREVER is witnessed by its actor and the
        seats its events are addressed to (a public event makes it public); every other step is public.
        A game whose steps are private in other ways overrides it (the Pandemic Game's contacts when
        they are not public). The conformance suite holds the claim to account: no other seat's view
        (its clock keys aside), nor the public view, nor the time limit changes, and no event reaches
        them."""
        if actor is None or action is None or action.get("type") not in self.UNSEEN_FOREVER:
            return None
        return audience(events, actor)

    # -- time, for the base class ----------------------------------------------------------------
    def _move_clock(self, now: int) -> None:
        clock = self.clock
        if type(now) is not int or now < clock.now:
            raise ValueError(f"time runs forward only: {now!r} after {clock.now}")
        if clock.unchecked:
            self._check_phase()  # a phase that began at the previous step began at its time
        clock.now = now

    def _check_phase(self) -> TimeLimit | None:
        """Notes when the time-limited phase changed: its limit runs from the step that changed it.
        Returns the current limit."""
        clock = self.clock
        clock.unchecked = False
        limit = self.time_limit()
        phase = None if limit is None else limit.phase
        if phase != clock.phase:
            clock.phase, clock.since, clock.spent = phase, clock.now, False
        return limit

    def _running_limit(self) -> tuple[TimeLimit, int] | None:
        """The current time limit and the moment it runs out, unless its defaults are applied (one call
        of `time_limit()`: hosts ask for this after every step)."""
        clock = self.clock
        limit = self._check_phase() if clock.unchecked else None
        if clock.spent or clock.phase is None:
            return None
        if limit is None:
            limit = self.time_limit()
        return None if limit is None else (limit, clock.since + round(limit.seconds * 1000))

    def _time_out(self) -> list[Event]:
        """Applies the time limit's defaults, one seat at a time, while the same phase lasts. A seat the match
        waited for (`turns`) is said to have run out of time first (`TIMED_OUT`, public: everyone saw the
        wait), so that people learn why a move was made for it."""
        limit = self.time_limit()
        assert limit is not None
        events: list[Event] = []
        waited = set(self.turns())
        for seat in list(self.to_act()):
            current = self.time_limit()
            if current is None or current.phase != limit.phase:
                break
            if seat in self.to_act() and seat in current.defaults:
                default = current.defaults[seat]
                find_spec(self.legal_actions(seat), default)  # a refused default is a bug of the game
                if seat in waited:
                    events.append(Event(TIMED_OUT, {"seat": seat}))
                events += self._apply(seat, dict(default))
                self._legal_cache.clear()
                self.clock.unchecked = True
        self._check_phase()
        if self.clock.phase == limit.phase:
            self.clock.spent = True  # a seat without a default keeps the phase open; nothing more is due
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything `seat` may know now (None: the public view), JSON-ready: `COMMON_VIEW_KEYS`, then
        the game's own."""
        if seat is not None and not 0 <= seat < self.seats:
            raise IllegalAction("No such seat.", "その席はありません。", code="action/no_such_seat")
        result = self.result()
        to_act = self.to_act()
        view: dict[str, Any] = {
            "game": self.game_id,
            "seat": seat,
            "seats": self.seats,
            "version": self.version,
            "to_act": list(to_act),
            "turns": list(self.turns()),
            "is_over": result is not None,
            "legal_actions": self._legal_now(seat, to_act) if seat is not None else [],
            "result": result.to_json() if result is not None else None,
        }
        view.update(self._view(seat))
        return view

    # -- serialisation ----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The full state (secrets included: for storage by the host only)."""
        return self._state_json(copy=True)

    def _state_json(self, copy: bool) -> dict[str, Any]:
        """`to_json`, whose game state is a deep copy only with `copy` (else it shares the state's lists)."""
        # Attributes named with a leading underscore are caches derived from the state, never stored.
        state = {k: v for k, v in vars(self).items() if k not in self._BASE_ATTRS and not k.startswith("_")}
        if self.clock.unchecked:
            self._check_phase()  # stored in one canonical form, whenever it is taken
        return {
            "game": self.game_id,
            "seats": self.seats,
            "options": self.options.to_json(),
            "seed": self.seed,
            "bots": list(self.bot_seats),
            "version": self.version,
            "chance": self.chance.to_json(),
            "clock": self.clock.to_json(),
            # A JSON round trip is both the deep copy and a check that the state is JSON-ready (and
            # about three times faster than copy.deepcopy here).
            "state": json.loads(json.dumps(state)) if copy else state,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Match:
        match = cls.__new__(cls)
        match.options = cls.options_class.parse(data["options"])
        match.seats = int(data["seats"])
        match.seed = data["seed"]
        match.bot_seats = tuple(data.get("bots", ()))  # absent in states stored before seat kinds
        match.version = int(data["version"])
        match.chance = Chance.from_json(data["chance"])
        match.clock = MatchClock.from_json(data.get("clock"))
        match._legal_cache = {}
        for key, value in json.loads(json.dumps(data["state"])).items():
            setattr(match, key, value)
        return match

    def clone(self) -> Self:
        """An independent deep copy, equal to this match (`==`), without JSON: every list and dict of the
        state is copied (`engine.copying`; a game's `CLONE_SHAPES` say where less work will do), atoms
        and the frozen options are shared, the random source and the clock are copied. Caches (attributes
        named with a leading underscore) are left out, to be rebuilt on first use, as after `from_json`."""
        cls = type(self)
        other = cls.__new__(cls)
        into = other.__dict__
        copiers = _copiers(cls)
        for key, value in self.__dict__.items():
            kind = type(value)
            if kind is list or kind is dict:
                if key[0] != "_":
                    into[key] = copiers.get(key, copy_json)(value)
            elif key[0] == "_":
                continue
            elif key == "chance":
                into[key] = value.copy()
            elif key == "clock":
                into[key] = MatchClock(value.now, value.phase, value.since, value.unchecked, value.spent)
            else:
                into[key] = value  # an atom, the frozen options, the tuple of bot seats
        other._legal_cache = {}
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return json.dumps(self.to_json(), sort_keys=True) == json.dumps(other.to_json(), sort_keys=True)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} seats={self.seats} version={self.version} now={self.clock.now} "
                f"to_act={list(self.to_act())}>")


_COPY_BY_SHAPE: dict[Shape, Callable[[Any], Any]] = {Shape.ROWS: copy_rows, Shape.SHARED: lambda value: value}


@cache
def _copiers(cls: type[Match]) -> dict[str, Callable[[Any], Any]]:
    """How `clone()` copies each attribute a class's `CLONE_SHAPES` names (any other: `copy_json`)."""
    return {key: _copy_shallow if shape in (Shape.FLAT, Shape.LOG) else _COPY_BY_SHAPE[shape]
            for key, shape in cls.CLONE_SHAPES.items()}


def _copy_shallow(value: Any) -> Any:
    return value.copy()  # a list's or a dict's


def _describe_counts(counts: Iterable[int]) -> str:
    values = sorted(set(counts))
    if len(values) > 1 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ", ".join(map(str, values))
