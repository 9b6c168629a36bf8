"""A room's seats before and during a match: who sits where, and the tokens that prove it.

Tokens are random strings handed to a player once; only their SHA-256 hashes are kept (in memory and in
the database), compared in constant time. The lobby's checks (a seat to join, a bot kind, every seat
taken before the start) are plain functions of the seats, refusing with a `ServerError`.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from partygames.engine.game import Game
from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.text import escape


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def same_token(token: str | None, digest: str | None) -> bool:
    """Whether `token` hashes to `digest` (False when either is missing)."""
    return token is not None and digest is not None and secrets.compare_digest(token_hash(token), digest)


@dataclass
class SeatInfo:
    """One seat of a room: a human (named and holding a token once taken) or a bot of a kind."""

    kind: str  # "human" | "bot"
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    standin: str | None = None  # a human seat played by a bot of this kind while its person is away
    #: JSON {"bot", "game"}: the kind this bot seat played before the current match's game lacked it.
    bot_was: str | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> SeatInfo:
        """A seat as stored (`storage.seats`)."""
        return cls(row["kind"], row["bot"], row["name"], row["token_hash"], row.get("standin"), row.get("bot_was"))


def seat_for_token(seats: Sequence[SeatInfo], token: str) -> int | None:
    """The seat whose token this is, if any."""
    digest = token_hash(token)
    for seat, info in enumerate(seats):
        if info.token_hash is not None and secrets.compare_digest(info.token_hash, digest):
            return seat
    return None


def free_human_seats(seats: Sequence[SeatInfo]) -> list[int]:
    return [i for i, s in enumerate(seats) if s.kind == "human" and not s.taken]


def bot_kinds(seats: Sequence[SeatInfo]) -> dict[int, str]:
    """Seat -> bot kind, for the bot seats."""
    return {i: s.bot for i, s in enumerate(seats) if s.kind == "bot" and s.bot}


def seat_to_join(seats: Sequence[SeatInfo], seat: int | None) -> int:
    """The seat someone joining takes: the one asked for if it is free, else (None) the first free human seat."""
    if seat is None:
        free = free_human_seats(seats)
        if not free:
            raise ServerError(Code.ROOM_FULL, "No free seat in this room.", "このルームに空席はありません。", 409)
        return free[0]
    if not 0 <= seat < len(seats):
        raise ServerError(Code.SEAT_NO_SUCH_SEAT, f"No seat {seat}.", f"席 {seat} はありません。", 422)
    if seats[seat].taken:
        raise ServerError(Code.SEAT_TAKEN, f"Seat {seat} is taken.", f"席 {seat} はすでに埋まっています。", 409)
    return seat


def fill_with_bots(seats: Sequence[SeatInfo], kind: str, known: Collection[str]) -> list[int]:
    """Gives every free seat to a bot of `kind` (one of the game's `known` kinds); returns those seats."""
    if kind not in known:
        raise ServerError(Code.BOT_UNKNOWN, f"No bot {kind[:40]!r} (bots: {', '.join(known)}).",
                          f"ボット「{kind[:40]}」はありません(ボット: {', '.join(known)})。", 422)
    filled = [seat for seat, info in enumerate(seats) if not info.taken]
    for seat in filled:
        seats[seat].kind, seats[seat].bot = "bot", kind
    return filled


def check_all_taken(seats: Sequence[SeatInfo]) -> None:
    """A match starts only once every seat is taken."""
    if not all(s.taken for s in seats):
        raise ServerError(Code.ROOM_SEATS_EMPTY, "Some seats are still free: wait for players or fill them with bots.",
                          "空席があります。参加者を待つか、ボットで埋めてください。", 409)


def seats_json(seats: Sequence[SeatInfo], game: Game, presence: Callable[[int], dict[str, Any]],
               timed_out: Collection[int] = ()) -> list[dict[str, Any]]:
    """The seats as clients see them (no tokens): kind, bot, name, taken, whether someone is there
    (`connected`), a human seat's `presence` (`presence.Presence.of`: online, away, or offline since), the bot
    playing it while its person is away (`standin`, with its title) and whether it has run out of time in
    this match (`timed_out`)."""
    shown = []
    for i, s in enumerate(seats):
        here = {"state": "online", "since": None} if s.kind == "bot" else presence(i)
        shown.append({"seat": i, "kind": s.kind, "bot": s.bot,
                      "bot_title": game.bot_title(s.bot).to_json() if s.bot else None,
                      "name": escape(s.name) if s.name else (f"{s.bot} bot" if s.bot else None),
                      "taken": s.taken, "connected": here["state"] != "offline", "presence": here,
                      "standin": {"bot": s.standin, "title": game.bot_title(s.standin).to_json()} if s.standin else None,
                      "timed_out": i in timed_out})
    return shown


def acting_seat(seat: int | None, claimed: int | None) -> int:
    """The seat a connection acts for: its own (spectators cannot act), which the frame may name."""
    if seat is None:
        raise ServerError(Code.SEAT_SPECTATOR, "Spectators cannot act.", "観戦者は操作できません。", 403)
    if claimed is not None and claimed != seat:
        raise ServerError(Code.SEAT_NOT_YOURS, f"Your token is for seat {seat}, not seat {claimed}.",
                          f"あなたのトークンは席 {seat} のものです(席 {claimed} ではありません)。", 403)
    return seat
