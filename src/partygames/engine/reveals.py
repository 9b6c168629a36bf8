"""How long a game's events take to show: a die roll, a chest opening, a card turning over.

A host that shows events one at a time (the web client's "what just happened") reads a game's
`Reveals`: the client plays each event for its duration, and the server holds the match clock and the
bots until the reveal people are watching has had its time (docs/server.md, Reveals). Pure data: the
engine itself never waits (simulations and virtual-clock runs have no reveals).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from partygames.engine.match import Event

DEFAULT_MS = 1000


@dataclass(frozen=True)
class Reveals:
    """Per event type, the milliseconds the stage shows it (`default` for the others; 0: the event is
    only written in the log, never staged). An event type in `chapters` begins a race, a round or a
    small game: the web client's banner watches a reveal that begins one rather than keep a turn's words."""

    durations: Mapping[str, int] = field(default_factory=dict)
    default: int = DEFAULT_MS
    chapters: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        negative = sorted(k for k, ms in self.durations.items() if ms < 0)
        if negative or self.default < 0:
            raise ValueError(f"reveal durations must not be negative: {negative or ['default']}")

    def duration(self, event_type: str) -> int:
        """How many ms the stage shows an event of this type."""
        return self.durations.get(event_type, self.default)

    def cost(self, events: Iterable[Event], audiences: Sequence[int | None]) -> int:
        """The ms the longest reveal of `events` takes for any of `audiences` (seats, None: the public),
        each watching only the events it may see."""
        if not self.default and not self.durations:
            return 0  # a game whose events take no time to show (asked after every step)
        if not audiences:
            return 0
        # Every audience sees the public events; a seat adds the events addressed to it.
        public, private = 0, dict.fromkeys((a for a in audiences if a is not None), 0)
        for event in events:
            ms = self.duration(event.type)
            if not ms:
                continue
            if event.to is None:
                public += ms
            else:
                for seat in event.to:
                    if seat in private:
                        private[seat] += ms
        return public + max(private.values(), default=0)

    def to_json(self) -> dict[str, Any]:
        return {"durations": dict(self.durations), "default": self.default, "chapters": sorted(self.chapters)}
