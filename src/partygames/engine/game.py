"""A game's declaration: identity, titles, the Match class and its bots, and every part it plugs into the
platform (labels, terminal view, CLI commands, web renderer, chat channels, reveal durations, sample
set-ups)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from partygames.engine.bots import Bot, RandomBot, TableInfo
from partygames.engine.errors import InvalidOptions
from partygames.engine.labels import Labels
from partygames.engine.match import Match, Result
from partygames.engine.options import Options
from partygames.engine.reveals import Reveals
from partygames.engine.samples import Samples
from partygames.engine.text import Lang, Text

if TYPE_CHECKING:
    import random

    from rich.console import RenderableType

    # Only named here: a game's own package imports its encoder, so the engine alone (a host serving other
    # games, a replay) does not load NumPy.
    from partygames.engine.encoding import Encoder, EncoderFactory
    from partygames.engine.knowledge import Determiniser, SeatRecord
    from partygames.engine.search import Budget
    from partygames.engine.tournament import YenRule

COMMON_BOT_TITLES = {
    "random": Text("random", "ランダム"),
    "heuristic": Text("heuristic", "ヒューリスティック"),
    "equilibrium": Text("equilibrium", "均衡戦略"),
    "search": Text("Strong", "強い"),
}

COMMON_VIEW_LABELS = {"phase": Text("Phase", "フェーズ"), "seat": Text("Seat", "席")}
"""Names of view keys most games share, for the generic board when a game's catalog has none."""

Command = Literal["analyze", "odds"]
"""The `partygames` command group a game's analysis command is mounted in (`partygames odds <id>`)."""
ChannelHook = Callable[[int, Options], Mapping[str, Sequence[int]]]
Handover = Callable[["Result", Options, int], Mapping[str, Any]]
"""How a match of this game follows one of another game in the same room (a series): from the previous
match's result, its options and the seat count, this game's options (the same people keep their seats)."""
MatchChannelHook = Callable[[Match], Mapping[str, Mapping[str, Any]]]


class Dynamics(StrEnum):
    """How a game moves."""

    TURN_BASED = "turn-based"
    """On seats' actions, and when a phase's time limit passes."""
    REAL_TIME = "real-time"
    """With time itself as well: things arrive and lapse while seats act (runners in Musical Chairs)."""


@dataclass(frozen=True)
class Preset:
    """A named table the lobby offers besides the defaults (the original's full tournament): the seat count
    and the options it sets; every other option keeps its default, and the options that follow the seat
    count (`Options.SEAT_FIELDS`) follow `seats`."""

    title: Text
    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)
    note: Text | None = None
    """One line on what it is ("two teams of 9, 50 small games, 10-minute inspections")."""

    def to_json(self, preset_id: str) -> dict[str, Any]:
        return {"id": preset_id, "title": self.title.to_json(), "seats": self.seats, "options": dict(self.options),
                "note": self.note.to_json() if self.note else None}


class TerminalView(Protocol):
    """How the terminal shows a game; a game's `terminal` module is one."""

    def render(self, view: dict[str, Any], lang: Lang, names: Sequence[str] = ()) -> RenderableType:
        """A picture of one seat's view, or the public one, naming the seats by `names` (as `describe_event`)."""
        ...

    def describe_event(self, event: dict[str, Any], lang: Lang, names: Sequence[str] = (),
                       view: Mapping[str, Any] | None = None) -> str | None:
        """One line for an event (as `Event.to_json()`); None: the host shows its type and data; "": not
        told. `names`: each seat's name as the reader knows it (`engine/names.py`); a seat without one is
        told by number. `view`: the reader's view when it is told, for what the event gives by number
        (a word of a deck)."""
        ...


@dataclass(frozen=True)
class ChatRules:
    """The chat channels a game opens besides `public` (the server's `chat.py` runs them).

    `fixed(seats, options)` gives `{channel: [seats]}` for the whole room (teams, pairs), always open.
    `during_match(match)` gives `{channel: {"members": [seats], "open": bool}}` from the match's current
    state, asked again whenever the match moves (a room two players share during one phase).
    `direct`: private messages between any two seats (channel `dm:<i>:<j>`, i < j), where negotiation is
    the game.
    """

    fixed: ChannelHook | None = None
    during_match: MatchChannelHook | None = None
    direct: bool = False


@dataclass(frozen=True, kw_only=True)
class Game:
    """Everything the platform needs to know about one game. Each game package exports one as `GAME`."""

    id: str
    title: Text
    summary: Text
    match_class: type[Match]
    summary_for: Callable[[Options, int], Text] | None = None
    """The summary of a table with these options and seats, where it gives figures that follow them (Musical
    Chairs' medals per player); None: `summary` for every table."""
    blurb: Text | None = None
    """What the game is, in one line of each language, for the lobby's game card ("Two teams smuggle cash past
    each other's inspectors")."""
    bots: Mapping[str, type[Bot]] = field(default_factory=lambda: {"random": RandomBot})
    default_seats: int | None = None
    """The seat count a new table starts from in the lobby and the terminal when none is given (a table a
    group of friends fills, or the seed's where a small one spoils the game: the Pandemic Game's 12); None,
    or not allowed with the options: the smallest allowed."""
    presets: Mapping[str, Preset] = field(default_factory=dict)
    """`{id: Preset}`: named tables the lobby offers besides the default one (`"original"`: the original's
    full form, where the defaults are shorter, e.g. Smuggling's 50 small games of two teams of 9)."""
    dynamics: Dynamics = Dynamics.TURN_BASED
    labels: Labels = field(default_factory=Labels)
    terminal: TerminalView | None = None
    """The terminal renderer; None: the generic one (the view's fields as a table)."""
    face_up: Callable[[Mapping[str, Any]], Set[Hashable]] | None = None
    """(A memory game) what a view shows that the seat may see only while it is shown (card faces). When
    something the terminal showed is no longer shown, the terminal asks the player to read on, then clears
    the screen and its scrollback, so that the scrollback is not a note (docs/rules/quiz.md)."""
    commands: Mapping[Command, Callable[..., None]] = field(default_factory=dict)
    """Typer commands mounted as `partygames <group> <id>`; their docstring is their help."""
    web: Path | None = None
    """The folder served at `/games/<id>/`: its `view.js` is the browser renderer (web/README.md)."""
    chat: ChatRules = field(default_factory=ChatRules)
    reveals: Reveals = field(default_factory=Reveals)
    """How long each event takes to show (a die roll, a card flip); hosts pace the match by it."""
    samples: Samples = field(default_factory=Samples)
    follows: Mapping[str, Handover] = field(default_factory=dict)
    rating_teams: Callable[[int], Sequence[Sequence[int]]] | None = None
    """For a game played in teams: the seats of each team at a seat count, rated as teams (server/ratings.py)."""
    """`{game id: handover}`: the games whose finished match a match of this one may follow in the same
    room, with the same people (the Liar Game final follows the Pandemic qualifier: its qualifiers become
    the players). Any game may follow itself ("play again", same options) without declaring it."""
    yen: YenRule | None = None
    """What a finished match pays each seat, in yen, with the figures it is worked out from, as the game's seed
    states its prize and debt (engine/tournament.py): the ledger of a tournament across games. None: no money
    changes hands."""
    virtual_clock_options: Mapping[str, Any] = field(default_factory=dict)
    """Options that terminal play and `simulate` use unless given others: they run on a virtual clock, where
    a real-time game plays its turn-like form (the Pandemic Game's rounds tempo)."""
    encoding: EncoderFactory | None = None
    """`(seats, options) -> Encoder`: observation vectors and the action codec for learning agents
    (`engine/encoding.py`, `partygames.rl`); a real-time game encodes its `rounds` tempo."""
    determiniser: type[Determiniser] | None = None
    """Draws whole matches that agree with everything one seat was told (`engine/knowledge.py`): what a
    search may play out from its seat's `SeatRecord`, never from the match (docs/engine.md,
    Determinisation)."""

    @property
    def options_class(self) -> type[Options]:
        return self.match_class.options_class

    @property
    def seat_counts(self) -> Sequence[int]:
        return self.match_class.seat_counts

    def seat_counts_for(self, options: Options | dict[str, Any] | None) -> Sequence[int]:
        return self.match_class.allowed_seat_counts(self.options_class.parse(options))

    def default_seat_count(self, options: Options | dict[str, Any] | None) -> int:
        """`default_seats` when the options allow it, else the smallest count they allow."""
        allowed = self.seat_counts_for(options)
        default = self.default_seats
        return default if default is not None and default in allowed else min(allowed)

    def fitted_options(self, seats: int, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """`options` for a table of `seats`, unparsed: the `SEAT_FIELDS` they leave out follow the seat count
        (`Options.follow_seats`, given `options`). What the terminal's `--seats`, a room and a room's next game
        of another kind (`options_after`) play with."""
        return {**self.options_class.follow_seats(seats, options), **(options or {})}

    def options_for(self, seats: int, options: Mapping[str, Any] | None, strict: bool = False) -> Options:
        """The options of a room of `seats`: the `SEAT_FIELDS` that `options` leaves out follow the seat
        count (`Options.follow_seats`, given `options`); raises InvalidOptions (`strict`: see `Options.parse`)."""
        return self.options_class.parse(self.fitted_options(seats, options), strict)

    def seats_refusal(self, seats: int) -> Text | None:
        """Why a table of `seats` cannot play this game with its default options (their `SEAT_FIELDS`
        following the count), in both languages; None when it can."""
        counts = self.room_seat_counts(None)
        if seats in counts:
            return None
        listed = ", ".join(map(str, counts))
        return Text(f"{self.title.en} seats {listed}, not {seats}.",
                    f"{self.title.ja}の席数は {listed} です({seats} 席では遊べません)。")

    def room_seat_counts(self, options: Mapping[str, Any] | None, strict: bool = False) -> list[int]:
        """The seat counts a room may have with `options`, the `SEAT_FIELDS` it leaves out following
        each count (Smuggling without a team size: any even count; with one: twice it)."""
        counts = []
        for seats in self.seat_counts:
            try:
                fitted = self.options_for(seats, options, strict)
            except InvalidOptions:
                continue
            if seats in self.match_class.allowed_seat_counts(fitted):
                counts.append(seats)
        return counts

    def preset_table(self, preset_id: str) -> tuple[int, Options]:
        """A preset's seat count and its options, the others at their defaults (`SEAT_FIELDS` following the
        seats); raises KeyError for a preset the game does not declare."""
        preset = self.presets[preset_id]
        return preset.seats, self.options_for(preset.seats, preset.options)

    def new(self, seats: int, options: Options | dict[str, Any] | None = None, seed: int | str = 0,
            script: Mapping[str, Sequence[Any]] | None = None, bots: Collection[int] = ()) -> Match:
        """A new match; raises InvalidOptions for options or a seat count the game refuses.

        `script` queues chance outcomes by label before the set-up draws (see `Chance.script`); `bots`
        are the seats bots play (`Match.bot_seats`)."""
        return self.match_class(seats, options, seed, script, bots)

    def from_json(self, data: Mapping[str, Any]) -> Match:
        return self.match_class.from_json(data)

    def options_after(self, previous: Game, result: Result, options: Options, seats: int,
                      given: Mapping[str, Any] | None = None) -> Options:
        """This game's options for a match that follows `previous`'s finished match in the same room, with
        the same seats: the same options again; the ones it derives from that result when it declares it
        follows `previous` (`follows`); else its default options fitted to the seat count (`fitted_options`).
        `given` (a tournament's stage) sets options besides, under what a handover derives. Raises
        InvalidOptions when it cannot be played by these seats."""
        if previous.id == self.id and not given:
            chosen = options
        elif previous.id in self.follows:
            chosen = self.options_class.parse({**(given or {}), **self.follows[previous.id](result, options, seats)})
        else:
            chosen = self.options_for(seats, given)
        if seats not in self.match_class.allowed_seat_counts(chosen):
            raise InvalidOptions(f"{self.id} cannot be played by {seats} seats with these options.",
                                 f"{self.id} はこのオプションでは {seats} 席で遊べません。")
        return chosen

    def encoder(self, seats: int, options: Options | dict[str, Any] | None = None) -> Encoder:
        """The game's encoding for this table; raises ValueError when the game declares none."""
        if self.encoding is None:
            raise ValueError(f"{self.id} declares no encoding (Game.encoding): see docs/engine.md, Encodings")
        return self.encoding(seats, self.options_class.parse(options))

    def determinise(self, record: SeatRecord, rng: random.Random) -> Match:
        """One match drawn from a seat's record (for many, build `determiniser(record)` once and sample it);
        raises ValueError when the game declares no determiniser."""
        if self.determiniser is None:
            raise ValueError(f"{self.id} declares no determiniser (Game.determiniser): see docs/engine.md")
        return self.determiniser(record).sample(rng)

    def make_bot(self, kind: str, seat: int, seed: int = 0, *, table: TableInfo | None = None,
                 budget: Budget | None = None) -> Bot:
        """A bot of `kind` for `seat`. A bot that keeps a record of its table (`Bot.needs_table`: the
        search bot) is told it (`table`, else ValueError) and thinks for `budget` per decision (None: its
        default); every other bot ignores both."""
        if kind not in self.bots:
            raise KeyError(f"{self.id} has no bot {kind!r} (bots: {', '.join(self.bots)})")
        cls = self.bots[kind]
        if not cls.needs_table:
            return cls(seat, seed)
        if table is None:
            raise ValueError(f"the {kind} bot of {self.id} must be told its table: make_bot(..., table=...)")
        if table.game is not self:
            raise ValueError(f"a table of {table.game.id} given to a bot of {self.id}")
        return cls(seat, seed, table=table, budget=budget)  # type: ignore[call-arg]

    def table(self, seats: int, options: Options | Mapping[str, Any] | None = None,
              bots: Collection[int] = ()) -> TableInfo:
        """A `TableInfo` of this game (the options parsed, their defaults filled in)."""
        return TableInfo(self, seats, self.options_class.parse(dict(options) if isinstance(options, Mapping)
                                                               else options), tuple(sorted(set(bots))))

    def bot_title(self, kind: str) -> Text:
        """A bot kind's name in both languages (the bot class's `title`, else a common name)."""
        bot = self.bots.get(kind)
        title = getattr(bot, "title", None)
        if isinstance(title, Text):
            return title
        return COMMON_BOT_TITLES.get(kind, Text(kind, kind))

    def view_labels(self) -> dict[str, Text]:
        """A name for each key a view may hold, as the web's generic board shows it: the catalog's `view`
        table, else the key's name as a result detail, a holding or an action parameter, else the title of
        the option of that name (a view often repeats an option: `races`, `payout_rate`)."""
        titles = {}
        for name, schema in self.options_class.describe().get("properties", {}).items():
            if isinstance(schema.get("title"), str):
                titles[name] = Text(schema["title"], str(schema.get("title_ja", schema["title"])))
        labels = self.labels
        return {**COMMON_VIEW_LABELS, **titles, **labels.params, **labels.holdings, **labels.details, **labels.view}

    def info(self) -> dict[str, Any]:
        """A JSON description for lobbies, the web client's labels and `partygames games`."""
        counts = self.room_seat_counts(None)
        return {
            "id": self.id,
            "title": self.title.to_json(),
            "summary": self.summary.to_json(),
            # Honest for a room made with the default options (issue 29): the counts they accept, the
            # `SEAT_FIELDS` following each; the default among them.
            "seat_counts": counts,
            "default_seats": self.default_seats if self.default_seats in counts else (counts[0] if counts else None),
            "blurb": (self.blurb or self.title).to_json(),
            "options": self.options_class.describe(),
            "presets": [preset.to_json(key) for key, preset in self.presets.items()],
            "bots": list(self.bots),
            "bot_titles": {kind: self.bot_title(kind).to_json() for kind in self.bots},
            "dynamics": self.dynamics.value,
            "chat_direct": self.chat.direct,
            "follows": list(self.follows),
            "labels": {**self.labels.to_json(),
                       "view": {key: text.to_json() for key, text in self.view_labels().items()},
                       "score_unit": self.labels.score_unit},
            "reveals": self.reveals.to_json(),
        }
