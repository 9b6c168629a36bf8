"""A room's seats before and during a match: who sits where, and the tokens that prove it.

Tokens are random strings handed to a player once; only their SHA-256 hashes are kept (in memory and in
the database), compared in constant time.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass


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

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None


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
