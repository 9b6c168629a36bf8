"""A room's lobby: its seats and its host, and the rows that store each change to them.

`RoomLobby` applies the seat rules (`seats`) to one room: someone joining, the free seats given to bots, the
check before the first match starts, the bots a series changes. Each change is made at once and handed
back as the `Write` that stores it; the room submits it and announces the change. Pure: no I/O, and the
seed and the time of a start are passed in (only seat tokens are drawn here).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, NamedTuple

from sqlalchemy import Table

from partygames.engine.game import Game
from partygames.server import storage as db
from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.frames import dumps
from partygames.server.seats import (
    SeatInfo,
    bot_kinds,
    check_all_taken,
    fill_with_bots,
    new_token,
    same_token,
    seat_for_token,
    seat_to_join,
    seats_json,
    token_hash,
)
from partygames.server.storage import Write
from partygames.server.text import check_name_free


class Joined(NamedTuple):
    """Someone seated: the seat, its token (handed to them once; only its hash is kept) and the write."""

    seat: int
    token: str
    write: Write


class RoomLobby:
    """The seats of room `code` and its host: the host token's hash, and the seat the host sits in (if any)."""

    def __init__(self, code: str, seats: list[SeatInfo], host_token_hash: str, host_seat: int | None) -> None:
        self.code = code
        self.seats = seats
        self.host_token_hash = host_token_hash
        self.host_seat = host_seat

    def seat_rows(self) -> list[tuple[Table, dict[str, Any]]]:
        """The inserts that store every seat of a new room (`Write.inserts`)."""
        return [(db.seats, {"room": self.code, "seat": i, "kind": s.kind, "bot": s.bot, "name": s.name,
                            "token_hash": s.token_hash}) for i, s in enumerate(self.seats)]

    def seat_for_token(self, token: str) -> int | None:
        return seat_for_token(self.seats, token)

    def is_host(self, token: str | None) -> bool:
        return same_token(token, self.host_token_hash)

    def bot_kinds(self) -> dict[int, str]:
        """Seat -> bot kind, for the bot seats."""
        return bot_kinds(self.seats)

    def join(self, name: str, seat: int | None) -> Joined:
        """Seats `name` at `seat` (None: the first free human seat) with a new token; refused (ServerError)
        when there is no such seat or it is taken, or when someone at the table has a name that looks the same."""
        seat = seat_to_join(self.seats, seat)
        check_name_free(name, (info.name for other, info in enumerate(self.seats) if other != seat))
        token = new_token()
        info = self.seats[seat]
        info.name, info.token_hash = name, token_hash(token)
        return Joined(seat, token, Write(updates=[(db.seats, {"room": self.code, "seat": seat},
                                                   {"name": name, "token_hash": info.token_hash})]))

    def fill_bots(self, kind: str, known: Collection[str]) -> Write | None:
        """Gives every free seat to a bot of `kind` (one of the game's `known` kinds; refused otherwise);
        None when no seat was free."""
        filled = fill_with_bots(self.seats, kind, known)
        if not filled:
            return None
        return Write(updates=[(db.seats, {"room": self.code, "seat": seat}, {"kind": "bot", "bot": kind})
                              for seat in filled])

    def start(self, seed: int, now: float) -> Write:
        """The write that starts the room's first match with `seed` at `now`; refused (ServerError) while a
        seat is free."""
        check_all_taken(self.seats)
        return Write(updates=[(db.rooms, {"code": self.code},
                               {"status": "playing", "seed": dumps(seed), "started_at": now})])

    def change_bots(self, bots: Mapping[int, str]) -> None:
        """The bot seats that play another kind from the next match on (stored by `series.plan_next`)."""
        for seat, kind in bots.items():
            self.seats[seat].bot = kind

    def to_json(self, game: Game, presence: Callable[[int], dict[str, Any]],
                timed_out: Collection[int] = ()) -> dict[str, Any]:
        """The seats as clients see them (`seats.seats_json`; `presence`: a seat's, online, away or offline;
        `timed_out`: the seats that ran out of time in this match) and the host's seat."""
        return {"seats": seats_json(self.seats, game, presence, timed_out), "host_seat": self.host_seat}

    def stand_in(self, seat: int, kind: str | None, known: Collection[str]) -> Write:
        """A bot of `kind` plays human seat `seat` while its person is away (None: nobody does any more)."""
        if not 0 <= seat < len(self.seats):
            raise ServerError(Code.SEAT_NO_SUCH_SEAT, f"No seat {seat}.", f"席 {seat} はありません。", 422)
        if self.seats[seat].kind != "human":
            raise ServerError(Code.SEAT_NOT_HUMAN, f"Seat {seat} is not a human seat of this room.",
                              f"席 {seat} はこのルームの人間の席ではありません。", 422)
        if kind is not None and kind not in known:
            raise ServerError(Code.BOT_UNKNOWN, f"No bot {kind[:40]!r} (bots: {', '.join(known)}).",
                              f"ボット「{kind[:40]}」はありません(ボット: {', '.join(known)})。", 422)
        self.seats[seat].standin = kind
        return Write(updates=[(db.seats, {"room": self.code, "seat": seat}, {"standin": kind})])
