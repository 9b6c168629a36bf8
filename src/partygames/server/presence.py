"""Who is at a room's table: online (a connection with the page in view), away (connected, the page hidden)
or offline since when, per seat, and how many spectators watch.

Each process counts its own connections (`local`); the others' counts come from the database's `presence`
rows, read when a process says they changed (`remote`), so that every process tells the same. The hub
writes this process's rows (`changed`, coalesced) and reads the others'. Pure: no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SPECTATORS = -1  # the presence rows' seat for spectators


@dataclass
class Count:
    conns: int = 0
    away: int = 0  # of them, with the page hidden


@dataclass
class Presence:
    local: dict[int, Count] = field(default_factory=dict)
    remote: dict[int, Count] = field(default_factory=dict)  # the other processes', summed
    seen_at: dict[int, float] = field(default_factory=dict)  # seat -> when its person was last connected
    dirty: bool = False  # local counts changed since the hub last stored them

    def join(self, seat: int | None, away: bool = False) -> None:
        count = self.local.setdefault(SPECTATORS if seat is None else seat, Count())
        count.conns += 1
        count.away += away
        self.dirty = True

    def leave(self, seat: int | None, away: bool, now: float) -> None:
        key = SPECTATORS if seat is None else seat
        count = self.local.setdefault(key, Count())
        count.conns = max(0, count.conns - 1)
        count.away = max(0, count.away - away)
        if seat is not None and count.conns == 0:
            self.seen_at[seat] = now
        self.dirty = True

    def turn(self, seat: int | None, away: bool) -> None:
        """A connection's page was hidden (`away`) or shown again."""
        count = self.local.setdefault(SPECTATORS if seat is None else seat, Count())
        count.away = max(0, min(count.conns, count.away + (1 if away else -1)))
        self.dirty = True

    def total(self, seat: int) -> Count:
        local, remote = self.local.get(seat, Count()), self.remote.get(seat, Count())
        return Count(local.conns + remote.conns, local.away + remote.away)

    def spectators(self) -> int:
        return self.total(SPECTATORS).conns

    def humans_here(self) -> bool:
        """Whether any seat's person is connected, here or elsewhere."""
        return any(c.conns for s, c in [*self.local.items(), *self.remote.items()] if s != SPECTATORS)

    def of(self, seat: int) -> dict[str, Any]:
        """A seat's presence as clients see it: `online`, `away` (every connection hidden) or `offline`,
        with `since` (epoch seconds) for offline when known."""
        count = self.total(seat)
        if count.conns == 0:
            return {"state": "offline", "since": self.seen_at.get(seat)}
        return {"state": "away" if count.away >= count.conns else "online", "since": None}
