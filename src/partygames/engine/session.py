"""A match with its log and its bots: the one loop that every host drives.

A server room, terminal play, simulations, golden playthroughs, the conformance suite and every replay
go through `Session`: `act` (a seat's action at a time), `wake` (time passing), `run_bots` (bots on a
virtual clock) and `Session.replay` (a log, entry by entry). Each step is logged as an `Entry` and its
events are told to the bots whose seat may see them.
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from partygames.engine.actions import Action, sample
from partygames.engine.bots import Bot, Observation
from partygames.engine.errors import IllegalAction
from partygames.engine.game import Game
from partygames.engine.log import Entry, MatchLog
from partygames.engine.match import Event, Match
from partygames.engine.options import Options

OnEntry = Callable[[Entry, list[Event]], None]

log = logging.getLogger(__name__)


def bot_seed(match_seed: object, seat: int) -> int:
    """A seat's bot seed derived from the match seed, so that a rebuilt host builds the same bot."""
    digest = hashlib.sha256(f"{match_seed!r}:bot:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def wake_ups(match: Match, now: int) -> Iterator[int]:
    """The moments, in order, at which `match` must be advanced to catch up with `now`: each wake-up due
    by then, at its own time (never before the match's). The caller advances the match to each before
    asking for the next; a game whose `wake_at()` does not move on after that is a bug, raised here."""
    due = match.wake_at()
    if due is None or due > now:  # the usual answer (hosts ask before every action), without a generator
        return iter(())
    return _wake_ups_from(match, now, due)


def _wake_ups_from(match: Match, now: int, first: int) -> Iterator[int]:
    due: int | None = first
    while due is not None and due <= now and not match.is_over:
        yield max(due, match.now)
        following = match.wake_at()
        if following is not None and following <= due:
            raise RuntimeError(f"{match.game_id}: wake_at() did not move on after advance({due})")
        due = following


class Session:
    """A match, its log and the bots of some seats.

    `on_entry(entry, events)` is called after every logged step (a host stores and announces it there).
    With `forgive_bots`, a bot that crashes or proposes an illegal action plays a random legal action
    instead, so that a bot bug never stalls a room; without it (simulations, tests) the error is raised.
    """

    def __init__(self, game: Game, match: Match, bots: Mapping[int, Bot] | None = None, *,
                 on_entry: OnEntry | None = None, forgive_bots: bool = False) -> None:
        self.game = game
        self.match = match
        self.bots = dict(bots or {})
        self.log = MatchLog(game.id, match.seats, match.options.to_json(), match.seed, bots=list(match.bot_seats))
        self.on_entry = on_entry
        self.forgive_bots = forgive_bots
        # The bot seats whose bot stands in for an absent person: it takes only `Match.stand_in_actions`.
        self.standins: set[int] = set()
        # A bot seat -> the match version at which it last answered "nothing now": not asked again
        # until something changes.
        self._waiting: dict[int, int] = {}

    @classmethod
    def new(cls, game: Game, seats: int, options: Options | dict[str, Any] | None = None, seed: int | str = 0,
            bots: Mapping[int, Bot] | None = None, **kwargs: Any) -> Session:
        return cls(game, game.new(seats, options, seed, bots=tuple(bots or ())), bots, **kwargs)

    # -- steps ---------------------------------------------------------------------------------------
    def act(self, seat: int, action: Action, now: int | None = None) -> list[Event]:
        """A seat's action at `now` (ms since the match began; None: the current time). Raises
        IllegalAction with nothing changed or logged."""
        at = self.match.now if now is None else now
        events = self.match.apply(seat, action, at)
        self._logged(Entry(at, seat, action), events)
        return events

    def wake(self, now: int) -> list[Event]:
        """Time passing to `now`: what falls due by then happens (`Match.advance`)."""
        events = self.match.advance(now)
        self._logged(Entry(now, None, None), events)
        return events

    def wake_next(self, until: int | None = None) -> bool:
        """Wakes at the match's next wake-up (never before its current time) if one is due, by `until`
        when given; returns whether it woke."""
        due = self.match.wake_at()
        if due is None or (until is not None and due > until):
            return False
        self.wake(max(due, self.match.now))
        return True

    def catch_up(self, now: int) -> list[Event]:
        """Wakes at every wake-up due by `now`, each at its own time (a host calls this before an
        action whose arrival raced a deadline: the deadline came first)."""
        events: list[Event] = []
        for due in wake_ups(self.match, now):
            events += self.wake(due)
        return events

    def replay_entry(self, entry: Entry) -> list[Event]:
        """Applies one logged entry as it was."""
        if entry.seat is None:
            return self.wake(entry.at)
        assert entry.action is not None
        return self.act(entry.seat, entry.action, entry.at)

    def _logged(self, entry: Entry, events: list[Event]) -> None:
        self.log.entries.append(entry)
        for event in events:
            for seat, bot in self.bots.items():
                if event.is_visible_to(seat):
                    bot.observe(event)
        if self.on_entry is not None:
            self.on_entry(entry, events)

    # -- bots ----------------------------------------------------------------------------------------
    def bots_to_ask(self) -> list[int]:
        """Awaited bot seats that have not said "nothing now" since the match last changed."""
        version = self.match.version
        return [s for s in self.match.to_act() if s in self.bots and self._waiting.get(s) != version]

    def bot_turn(self, seat: int, now: int | None = None) -> Action | None:
        """Asks the seat's bot and plays what it chooses at `now`; returns the action played, or None
        when the bot has nothing to do now. A stand-in (`standins`) is offered, and may play, only the
        seat's `Match.stand_in_actions`: with none, it waits."""
        match = self.match
        standin = seat in self.standins
        specs = match.stand_in_actions(seat) if standin else match.legal_actions(seat)
        if standin and not specs:
            self._waiting[seat] = match.version
            return None
        observation = Observation(seat, specs, partial(match.view, seat),
                                  match.now if now is None else now, match.deadline)
        try:
            action = self.bots[seat].act(observation)
        except Exception:
            if not self.forgive_bots:
                raise
            log.exception("the %s bot of seat %d failed; playing a random legal action", self.game.id, seat)
            action = self._fallback(seat)
        if action is None:
            self._waiting[seat] = match.version
            return None
        if standin and action.get("type") in match.PERSONAL:
            # (a bot that read its choices from the view, not the specs): never the person's own choice
            log.warning("the %s stand-in of seat %d proposed %r, its person's own choice; playing another",
                        self.game.id, seat, action.get("type"))
            action = self._fallback(seat)
        try:
            self.act(seat, action, now)
        except IllegalAction:
            if not self.forgive_bots:
                raise
            log.warning("the %s bot of seat %d proposed an illegal %r; playing a random legal action",
                        self.game.id, seat, action)
            action = self._fallback(seat)
            self.act(seat, action, now)
        return action

    def _fallback(self, seat: int) -> Action:
        specs = self.match.stand_in_actions(seat) if seat in self.standins else self.match.legal_actions(seat)
        return sample(specs, random.Random(bot_seed(self.match.seed, seat) + self.match.version))

    def run_bots(self, until: int | None = None, max_entries: int = 1_000_000) -> None:
        """Runs the bots on a virtual clock: a bot acts as soon as it is asked, and when no bot has
        anything to do, the clock jumps to the next wake-up. Stops when the match is over, when
        nothing is left but waiting for a seat without a bot, or before the clock would pass `until`."""
        match = self.match
        while not match.is_over:
            seats = self.bots_to_ask()
            if seats:
                for seat in seats:
                    if seat in match.to_act() and self._waiting.get(seat) != match.version:
                        self.bot_turn(seat)
                if len(self.log.entries) >= max_entries:
                    raise RuntimeError(f"{self.game.id}: no end after {max_entries} steps")
                continue
            if not self.wake_next(until):
                return

    # -- replay --------------------------------------------------------------------------------------
    @classmethod
    def replay(cls, game: Game, log: MatchLog, bots: Mapping[int, Bot] | None = None, *,
               on_entry: OnEntry | None = None) -> Session:
        """Rebuilds a match from its log, entry by entry (bots, if given, observe as they did);
        raises IllegalAction if an entry no longer applies."""
        session = cls(game, game.new(log.seats, log.options, log.seed, bots=log.bots), bots, on_entry=on_entry)
        for entry in log.entries:
            session.replay_entry(entry)
        return session


def play(game: Game, seats: int, bots: Sequence[Bot], options: Options | dict[str, Any] | None = None,
         seed: int | str = 0, max_entries: int = 1_000_000) -> tuple[Match, MatchLog]:
    """Plays a whole match with one bot per seat on a virtual clock; returns the match and its log."""
    session = Session.new(game, seats, options, seed, dict(enumerate(bots)))
    session.run_bots(max_entries=max_entries)
    if not session.match.is_over:
        raise RuntimeError(f"{game.id}: the bots stopped before the end (no wake-up is due)")
    session.log.final_state = session.match.to_json()
    return session.match, session.log


def replay(game: Game, log: MatchLog) -> Match:
    """The match rebuilt from its log."""
    return Session.replay(game, log).match
