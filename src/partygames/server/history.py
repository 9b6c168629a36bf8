"""The recent events of a room in wire form, so that a client coming back gets exactly what it missed.

As lila-ws's `History`: version v's events are kept with their audience (None: everyone) while v is among
the last `keep` versions; a client whose gap reaches further back is sent a fresh view instead, with
every kept event it may see (the match's history, as far back as it is kept). Events are kept numbered by
the room's version; a connection that did not witness every step numbers them by the steps it witnessed
(`number`, from the room's version to the connection's; docs/server.md, Versions). Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from partygames.engine.match import Event
from partygames.server import frames

Numbering = Callable[[int], int]  # a room version -> the version a reader knows it by (None: the same)


def renumber(wire: str, version: int) -> str:
    """An event's JSON (`{"version":v,...}`, as `EventHistory.record` made it) numbered `version` instead."""
    return f'{{"version":{version:d},{wire[wire.index(",") + 1:]}'


class EventHistory:
    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.base = 0  # versions up to `base` are forgotten
        # Per version, its events: (audience, JSON numbered by the room's version: `renumber` makes another).
        self._versions: list[list[tuple[tuple[int, ...] | None, str]]] = []

    @property
    def version(self) -> int:
        """The latest version recorded."""
        return self.base + len(self._versions)

    def record(self, events: Iterable[Event], standin: str | None = None, seat: int | None = None) -> int:
        """Keeps the next version's events, made into JSON now (event data may share lists with the
        match's state, which moves on), and returns that version. `standin`: the step was played by a bot of
        that kind standing in for `seat`'s absent person (each event says so: `"standin": kind, "for": seat`)."""
        version = self.base + len(self._versions) + 1
        by = {"standin": standin, "for": seat} if standin is not None else {}
        self._versions.append([(e.to, frames.dumps({"version": version, "type": e.type, "data": e.data, **by}))
                               for e in events])
        excess = len(self._versions) - self.keep
        if excess > self.keep // 4:  # trimmed in chunks, not on every entry
            del self._versions[:excess]
            self.base += excess
        return version

    def covers(self, since: int) -> bool:
        """Whether every version after `since` is still kept (so the gap can be filled with events)."""
        return self.base <= since <= self.base + len(self._versions)

    def events_for(self, seat: int | None, after: int, upto: int, number: Numbering | None = None) -> list[str]:
        """The JSON of the events `seat` (None: a spectator) may see in versions after..upto, each numbered
        as `number` says (None: by the room's version)."""
        base = self.base
        if not (base <= after <= upto <= base + len(self._versions)):
            raise ValueError(f"versions {after}..{upto} are not all kept ({self.base}..{self.version})")
        kept = self._versions[after - base:upto - base]
        if number is None:
            return [w for v in kept for to, w in v if to is None or (seat is not None and seat in to)]
        return [renumber(w, number(version)) for version, events in enumerate(kept, start=after + 1)
                for to, w in events if to is None or (seat is not None and seat in to)]

    def recent(self, seat: int | None, number: Numbering | None = None) -> list[str]:
        """The JSON of every kept event `seat` may see, oldest first: the match's history for someone
        arriving now (a reload, a late spectator), from its first version where that is still kept."""
        return self.events_for(seat, self.base, self.version, number)
