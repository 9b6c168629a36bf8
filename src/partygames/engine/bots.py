"""Bots: they see only their seat's view and legal actions, and the events addressed to their seat."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from partygames.engine.actions import Action, ActionSpec, sample
from partygames.engine.match import Deadline, Event, Match
from partygames.engine.options import Options

if TYPE_CHECKING:
    from partygames.engine.game import Game


@dataclass(frozen=True)
class TableInfo:
    """What everyone at a table knows from the start: the game, the seat count, the options and the seats
    bots play. A bot that needs it (`Bot.needs_table`: the search bot, which keeps a `SeatRecord`) is
    given it by its host (`Game.make_bot(..., table=...)`); it is never the match."""

    game: Game
    seats: int
    options: Options
    bots: tuple[int, ...] = ()

    @classmethod
    def of(cls, game: Game, match: Match) -> TableInfo:
        """The table of a match its host holds (its public set-up only)."""
        return cls(game, match.seats, match.options, tuple(match.bot_seats))


class Observation:
    """What a bot is given when asked to act: its seat, its legal action specs, its view, the time
    (ms since the match began) and the deadline (the countdown a player is shown).

    The view and the deadline are built only when the bot reads them (a random bot never does, which
    keeps simulations fast).
    """

    def __init__(self, seat: int, legal: list[ActionSpec], view: Callable[[], dict[str, Any]], now: int = 0,
                 deadline: Callable[[], Deadline | None] | None = None) -> None:
        self.seat = seat
        self.legal = legal
        self.now = now
        self._make_view = view
        self._make_deadline = deadline

    @cached_property
    def view(self) -> dict[str, Any]:
        return self._make_view()

    @cached_property
    def deadline(self) -> Deadline | None:
        """When the running time limit ends (`Match.deadline()`); None: none is running (or the host
        that made this observation did not say)."""
        return None if self._make_deadline is None else self._make_deadline()


class Bot:
    """Base bot. Subclasses override `act` and, if they keep memory, `observe`."""

    name = "bot"
    needs_table: ClassVar[bool] = False
    """Whether the bot must be told its table (`TableInfo`) when it is made (`Game.make_bot`)."""

    def __init__(self, seat: int, seed: int = 0) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def observe(self, event: Event) -> None:
        """Told, in order, every event addressed to this bot's seat (public ones included)."""

    def act(self, obs: Observation) -> Action | None:
        """The bot's action, or None for "nothing now": it is asked again once the match changes (an
        action, or time passing to a wake-up)."""
        raise NotImplementedError


class RandomBot(Bot):
    """Picks a legal action uniformly: first the spec, then each parameter."""

    name = "random"

    def act(self, obs: Observation) -> Action:
        return sample(obs.legal, self.rng)
