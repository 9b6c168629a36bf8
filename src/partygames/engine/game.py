"""A game's declaration: identity, titles, the Match class and its bots, and every part it plugs into the
platform (labels, terminal view, CLI commands, web renderer, chat channels, sample set-ups)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from partygames.engine.bots import Bot, RandomBot
from partygames.engine.encoding import Encoder, EncoderFactory
from partygames.engine.labels import Labels
from partygames.engine.match import Match
from partygames.engine.options import Options
from partygames.engine.samples import Samples
from partygames.engine.text import Lang, Text

if TYPE_CHECKING:
    from rich.console import RenderableType

COMMON_BOT_TITLES = {
    "random": Text("random", "ランダム"),
    "heuristic": Text("heuristic", "ヒューリスティック"),
    "equilibrium": Text("equilibrium", "均衡戦略"),
}

Command = Literal["analyze", "odds"]
"""The `partygames` command group a game's analysis command is mounted in (`partygames odds <id>`)."""
ChannelHook = Callable[[int, Options], Mapping[str, Sequence[int]]]
MatchChannelHook = Callable[[Match], Mapping[str, Mapping[str, Any]]]


class Dynamics(StrEnum):
    """How a game moves."""

    TURN_BASED = "turn-based"
    """On seats' actions, and when a phase's time limit passes."""
    REAL_TIME = "real-time"
    """With time itself as well: things arrive and lapse while seats act (runners in Musical Chairs)."""


class TerminalView(Protocol):
    """How the terminal shows a game; a game's `terminal` module is one."""

    def render(self, view: dict[str, Any], lang: Lang) -> RenderableType:
        """A picture of one seat's view, or the public one."""
        ...

    def describe_event(self, event: dict[str, Any], lang: Lang) -> str | None:
        """One line for an event (as `Event.to_json()`); None: the host shows its type and data."""
        ...


@dataclass(frozen=True)
class ChatRules:
    """The chat channels a game opens besides `public` (the server's `chat.py` runs them).

    `fixed(seats, options)` gives `{channel: [seats]}` for the whole room (teams, pairs), always open.
    `during_match(match)` gives `{channel: {"members": [seats], "open": bool}}` from the match's current
    state, asked again whenever the match moves (a room two players share during one phase).
    """

    fixed: ChannelHook | None = None
    during_match: MatchChannelHook | None = None


@dataclass(frozen=True, kw_only=True)
class Game:
    """Everything the platform needs to know about one game. Each game package exports one as `GAME`."""

    id: str
    title: Text
    summary: Text
    match_class: type[Match]
    bots: Mapping[str, type[Bot]] = field(default_factory=lambda: {"random": RandomBot})
    dynamics: Dynamics = Dynamics.TURN_BASED
    labels: Labels = field(default_factory=Labels)
    terminal: TerminalView | None = None
    """The terminal renderer; None: the generic one (the view's fields as a table)."""
    commands: Mapping[Command, Callable[..., None]] = field(default_factory=dict)
    """Typer commands mounted as `partygames <group> <id>`; their docstring is their help."""
    web: Path | None = None
    """The folder served at `/games/<id>/`: its `view.js` is the browser renderer (web/README.md)."""
    chat: ChatRules = field(default_factory=ChatRules)
    samples: Samples = field(default_factory=Samples)
    encoding: EncoderFactory | None = None
    """`(seats, options) -> Encoder`: observation vectors and the action codec for learning agents
    (`engine/encoding.py`, `partygames.rl`); a real-time game encodes its `rounds` tempo."""

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

    def encoder(self, seats: int, options: Options | dict[str, Any] | None = None) -> Encoder:
        """The game's encoding for this table; raises ValueError when the game declares none."""
        if self.encoding is None:
            raise ValueError(f"{self.id} declares no encoding (Game.encoding): see docs/engine.md, Encodings")
        return self.encoding(seats, self.options_class.parse(options))

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
        """A JSON description for lobbies, the web client's labels and `partygames games`."""
        return {
            "id": self.id,
            "title": self.title.to_json(),
            "summary": self.summary.to_json(),
            "seat_counts": list(self.seat_counts),
            "options": self.options_class.describe(),
            "bots": list(self.bots),
            "bot_titles": {kind: self.bot_title(kind).to_json() for kind in self.bots},
            "dynamics": self.dynamics.value,
            "labels": self.labels.to_json(),
        }
