"""What the PettingZoo and OpenSpiel adapters share: a game at a table (seat count, options, encoder),
how a step moves the match and its clock, and the rewards a finished match gives.

Each step takes `tick_ms` of virtual time (default one second), as at a real table: a phase's time limit
runs out after about limit / tick steps and its defaults are played, which bounds every match (Dice
Derby's betting allows buying and cancelling tickets for ever until its limit ends it). With
`tick_ms=0` time never moves and no limit ever expires.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rich.console import Console

from partygames import games
from partygames.cli.terminal import render_result, render_view
from partygames.engine.actions import Action
from partygames.engine.encoding import Encoder
from partygames.engine.errors import IllegalAction
from partygames.engine.game import Game
from partygames.engine.match import Event, Match, Result
from partygames.engine.options import Options
from partygames.engine.session import wake_ups

TICK_MS = 1000
Reward = Literal["win", "score"]
"""`win`: 1 to every winner (ties share it), 0 to the rest; `score`: each seat's `SeatResult.score`."""


@dataclass(frozen=True)
class Table:
    """A game with a seat count and options, and its encoder for them."""

    game: Game
    seats: int
    options: Options
    encoder: Encoder
    reward: Reward = "win"
    tick_ms: int = TICK_MS

    @classmethod
    def make(cls, game_id: str, seats: int | None = None, options: dict[str, Any] | Options | None = None,
             reward: Reward = "win", tick_ms: int = TICK_MS) -> Table:
        """A table of `game_id`: `seats` defaults to the smallest count the options allow."""
        if reward not in ("win", "score"):
            raise ValueError(f"reward must be 'win' or 'score', not {reward!r}")
        if type(tick_ms) is not int or tick_ms < 0:
            raise ValueError(f"tick_ms must be a whole number of milliseconds >= 0, not {tick_ms!r}")
        game = games.get(game_id)
        parsed = game.options_class.parse(options)
        count = min(game.seat_counts_for(parsed)) if seats is None else seats
        game.new(count, parsed)  # refuses a seat count the options do not allow, with the reason
        return cls(game, count, parsed, game.encoder(count, parsed), reward, tick_ms)

    def new(self, seed: int) -> Match:
        return settle(self.game.new(self.seats, self.options, seed))

    def act(self, match: Match, actions: Sequence[tuple[int, Action]]) -> list[Event]:
        """One step: the clock moves on by `tick_ms`. When a time limit runs out by then, its defaults are
        played and the step's actions are dropped (chosen for a moment that has passed, as by a player
        too slow); else each `(seat, action)` still legal is applied at that moment, in order (a later
        seat's may have been made illegal by an earlier one). Then `settle`. Returns the step's events."""
        at = match.now + self.tick_ms
        version = match.version
        events: list[Event] = []
        catch_up(match, at, events)
        if match.version != version:
            settle(match, events)
            return events
        for seat, action in actions:
            try:
                events += match.apply(seat, action, at)  # refused with nothing changed if no longer legal
            except IllegalAction:
                continue
        settle(match, events)
        return events

    def returns(self, result: Result) -> list[float]:
        by_seat = sorted(result.seats, key=lambda s: s.seat)
        if self.reward == "score":
            return [float(s.score) for s in by_seat]
        return [1.0 if s.is_winner else 0.0 for s in by_seat]

    def render(self, match: Match, lang: Literal["en", "ja"] = "en") -> str:
        """The public view (and the result, once over) as the terminal shows it, in plain text."""
        text = io.StringIO()
        self.show(match, lang, Console(file=text, width=110, color_system=None, force_terminal=False))
        return text.getvalue()

    def show(self, match: Match, lang: Literal["en", "ja"] = "en", console: Console | None = None) -> None:
        """The public view (and the result, once over) printed as the terminal shows it (default: on
        standard output, in colour where it is a terminal)."""
        console = console or Console()
        console.print(render_view(self.game, match.view(None), lang))
        result = match.result()
        if result is not None:
            console.print(render_result(self.game, result.to_json(), lang))


def catch_up(match: Match, now: int, events: list[Event] | None = None) -> None:
    """Every wake-up due by `now`, each at its own time (their events added to `events`)."""
    for due in wake_ups(match, now):
        happened = match.advance(due)
        if events is not None:
            events += happened


def settle(match: Match, events: list[Event] | None = None) -> Match:
    """Lets time pass while nobody is awaited and the match is not over (a real-time game between
    arrivals): the environments never move time otherwise, so no time limit ever expires in them.
    The events of that time are added to `events`."""
    while not match.to_act() and not match.is_over:
        due = match.wake_at()
        if due is None:
            raise RuntimeError(f"{match.game_id}: nobody is awaited and nothing is due: the match is stalled")
        happened = match.advance(max(due, match.now))
        if events is not None:
            events += happened
    return match
