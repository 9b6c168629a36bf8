"""Bounds on what clients may hold at once: open WebSockets per client address, spectators per room
(issue #21, item 4). Counted as sockets open and close, in the one process that serves them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from partygames.server.codes import Code
from partygames.server.errors import ServerError


class Quota:
    """At most `limit` holders per key at once; one more is refused with `refusal(limit)`."""

    def __init__(self, limit: int, refusal: Callable[[int], ServerError]) -> None:
        self.limit = limit
        self.refusal = refusal
        self.held: Counter[str] = Counter()

    @contextmanager
    def hold(self, key: str) -> Iterator[None]:
        """Holds one of `key`'s places for the block, or raises the refusal when they are all taken."""
        if self.held[key] >= self.limit:
            raise self.refusal(self.limit)
        self.held[key] += 1
        try:
            yield
        finally:
            self.held[key] -= 1
            if not self.held[key]:
                del self.held[key]


def too_many_sockets(limit: int) -> ServerError:
    return ServerError(Code.RATE_SOCKETS, f"This address already has {limit} connections open; close some first.",
                       f"このアドレスからの接続がすでに {limit} 本あります。いくつか閉じてください。", 429)


def spectators_full(limit: int) -> ServerError:
    return ServerError(Code.ROOM_SPECTATORS_FULL, f"The room already has {limit} spectators; try again later.",
                       f"このルームの観戦者はすでに {limit} 人です。あとでもう一度お試しください。", 409)
