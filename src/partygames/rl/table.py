"""What the PettingZoo and OpenSpiel adapters share: a game at a table (seat count, options, encoder),
how a match moves when nobody is awaited, and the rewards a finished match gives."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Literal

from rich.console import Console

from partygames import games
from partygames.cli.terminal import render_result, render_view
from partygames.engine.encoding import Encoder
from partygames.engine.game import Game
from partygames.engine.match import Match, Result
from partygames.engine.options import Options

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

    @classmethod
    def make(cls, game_id: str, seats: int | None = None, options: dict[str, Any] | Options | None = None,
             reward: Reward = "win") -> Table:
        """A table of `game_id`: `seats` defaults to the smallest count the options allow."""
        if reward not in ("win", "score"):
            raise ValueError(f"reward must be 'win' or 'score', not {reward!r}")
        game = games.get(game_id)
        parsed = game.options_class.parse(options)
        count = min(game.seat_counts_for(parsed)) if seats is None else seats
        game.new(count, parsed)  # refuses a seat count the options do not allow, with the reason
        return cls(game, count, parsed, game.encoder(count, parsed), reward)

    def new(self, seed: int) -> Match:
        return settle(self.game.new(self.seats, self.options, seed))

    def returns(self, result: Result) -> list[float]:
        by_seat = sorted(result.seats, key=lambda s: s.seat)
        if self.reward == "score":
            return [float(s.score) for s in by_seat]
        return [1.0 if s.is_winner else 0.0 for s in by_seat]

    def render(self, match: Match, lang: Literal["en", "ja"] = "en") -> str:
        """The public view (and the result, once over) as the terminal shows it, in plain text."""
        text = io.StringIO()
        console = Console(file=text, width=110, color_system=None, force_terminal=False)
        console.print(render_view(self.game, match.view(None), lang))
        result = match.result()
        if result is not None:
            console.print(render_result(self.game, result.to_json(), lang))
        return text.getvalue()


def settle(match: Match) -> Match:
    """Lets time pass while nobody is awaited and the match is not over (a real-time game between
    arrivals): the environments never move time otherwise, so no time limit ever expires in them."""
    while not match.to_act() and not match.is_over:
        due = match.wake_at()
        if due is None:
            raise RuntimeError(f"{match.game_id}: nobody is awaited and nothing is due: the match is stalled")
        match.advance(max(due, match.now))
    return match
