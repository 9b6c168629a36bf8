"""The match log: what replays a match exactly (the saved-match file format, and the server's log)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from partygames.engine.actions import Action
from partygames.engine.match import Match

# 1: [seat, action] pairs, no time (before time entered the engine). 2: [at, seat, action] entries.
LOG_FORMAT = 2
READABLE_FORMATS = (1, 2)


@dataclass(frozen=True, slots=True)
class Entry:
    """One step of a match: a seat's action at `at` ms since the match began, or, with `seat` None,
    a wake-up (time passing to `at`: a time limit's defaults, an offer lapsing, an arrival)."""

    at: int
    seat: int | None
    action: Action | None

    @property
    def is_wake(self) -> bool:
        return self.seat is None

    def to_json(self) -> list[Any]:
        return [self.at, self.seat, self.action]

    @classmethod
    def from_json(cls, data: Any) -> Entry:
        at, seat, action = data
        if type(at) is not int or at < 0 or (seat is not None and type(seat) is not int):
            raise ValueError(f"bad log entry {data!r}")
        if (seat is None) != (action is None) or (action is not None and not isinstance(action, dict)):
            raise ValueError(f"bad log entry {data!r}")
        return cls(at, seat, action)


@dataclass
class MatchLog:
    """Game, seat count, options, seed, the bot seats, the people's names and every entry in order;
    `final_state` to check a replay by."""

    game: str
    seats: int
    options: dict[str, Any]
    seed: int | str
    entries: list[Entry] = field(default_factory=list)
    final_state: dict[str, Any] | None = None
    bots: list[int] = field(default_factory=list)  # Match.bot_seats
    names: list[str] = field(default_factory=list)
    """The people's names by seat ("" for a bot or an unnamed seat), for replays to tell who did what."""
    format: int = LOG_FORMAT  # the format it was read from

    @property
    def actions(self) -> list[tuple[int, Action]]:
        """The seats' actions in order, without times and wake-ups."""
        return [(e.seat, e.action) for e in self.entries if e.seat is not None and e.action is not None]

    def to_json(self) -> dict[str, Any]:
        return {"format": LOG_FORMAT, "game": self.game, "seats": self.seats, "options": self.options,
                "seed": self.seed, "bots": self.bots, "entries": [e.to_json() for e in self.entries],
                "final_state": self.final_state, **({"names": self.names} if self.names else {})}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchLog:
        """Reads formats 1 and 2; a format-1 log's actions all happen at time 0, which replays it
        exactly (no time passed in the engine then). Raises ValueError for anything else."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a match log is a JSON object, not {type(data).__name__}")
        version = data.get("format")
        if version not in READABLE_FORMATS:
            raise ValueError(f"unsupported match log format {version!r} (this version reads formats "
                             f"{', '.join(map(str, READABLE_FORMATS))})")
        if version == 1:
            entries = [Entry(0, int(s), dict(a)) for s, a in data["actions"]]
        else:
            entries = [Entry.from_json(e) for e in data["entries"]]
            for number, (before, after) in enumerate(itertools.pairwise(entries), 2):
                if after.at < before.at:
                    raise ValueError(f"entry {number}'s time goes back ({after.at} ms after {before.at} ms)")
        return cls(game=data["game"], seats=int(data["seats"]), options=dict(data["options"]), seed=data["seed"],
                   entries=entries, bots=[int(b) for b in data.get("bots", [])], final_state=data.get("final_state"),
                   names=[str(n) for n in data.get("names", [])],
                   format=int(version))

    def reproduces(self, match: Match) -> bool:
        """Whether `match` is in the stored final state (a format-1 state has no clock to compare)."""
        if self.final_state is None:
            return True
        state = match.to_json()
        if self.format == 1:
            state.pop("clock")
        return state == self.final_state
