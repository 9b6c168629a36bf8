"""A game's declaration: identity, titles, seat counts, options, the Match class and its bots."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from partygames.engine.bots import Bot, RandomBot
from partygames.engine.match import Match
from partygames.engine.options import Options
from partygames.engine.text import Text

COMMON_BOT_TITLES = {
    "random": Text("random", "ランダム"),
    "heuristic": Text("heuristic", "ヒューリスティック"),
    "equilibrium": Text("equilibrium", "均衡戦略"),
}


@dataclass(frozen=True)
class Game:
    """Everything the platform needs to know about one game. Each game package exports one as `GAME`."""

    id: str
    title: Text
    seed_file: str
    match_class: type[Match]
    summary: Text
    bots: Mapping[str, type[Bot]] = field(default_factory=lambda: {"random": RandomBot})
    # Turn on where a game moves with time (e.g. runners in Musical Chairs): the host then calls
    # `match.tick(now)` this many times a second. None for games that move only on actions.
    tick_rate: float | None = None
    extras: Mapping[str, Any] = field(default_factory=dict)

    @property
    def options_class(self) -> type[Options]:
        return self.match_class.options_class

    @property
    def seat_counts(self) -> Sequence[int]:
        return self.match_class.seat_counts

    def seat_counts_for(self, options: Options | dict[str, Any] | None) -> Sequence[int]:
        return self.match_class.allowed_seat_counts(self.options_class.parse(options))

    def new(self, seats: int, options: Options | dict[str, Any] | None = None, seed: int | str = 0,
            script: Mapping[str, Sequence[Any]] | None = None) -> Match:
        """A new match; raises InvalidOptions for options or a seat count the game refuses.

        `script` queues chance outcomes by label before the set-up draws (see `Chance.script`)."""
        return self.match_class(seats, options, seed, script)

    def from_json(self, data: Mapping[str, Any]) -> Match:
        return self.match_class.from_json(data)

    def make_bot(self, kind: str, seat: int, seed: int = 0) -> Bot:
        if kind not in self.bots:
            raise KeyError(f"{self.id} has no bot {kind!r} (bots: {', '.join(self.bots)})")
        return self.bots[kind](seat, seed)

    def bot_title(self, kind: str) -> Text:
        """A bot kind's name in both languages (the bot class's `title`, else a common name)."""
        bot = self.bots.get(kind)
        title = getattr(bot, "title", None)
        if isinstance(title, Text):
            return title
        return COMMON_BOT_TITLES.get(kind, Text(kind, kind))

    def info(self) -> dict[str, Any]:
        """A JSON description for lobbies and `partygames games`."""
        return {
            "id": self.id,
            "title": self.title.to_json(),
            "summary": self.summary.to_json(),
            "seat_counts": list(self.seat_counts),
            "options": self.options_class.describe(),
            "bots": list(self.bots),
            "bot_titles": {kind: self.bot_title(kind).to_json() for kind in self.bots},
            "tick_rate": self.tick_rate,
        }
