"""Clients that play through a proxy and come back when their process goes away, as the web client does:
each reconnects with its token and `since` (its last version), keeps every frame it received across its
sockets, and records the ids of its actions that were acknowledged."""

from __future__ import annotations

import random
import time
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from partygames.engine.actions import sample
from tests.server.client import Socket

MIN_INTERVAL = 1 / 15  # under the server's frame rate


class Player:
    """A seat's client (None: a spectator) that reconnects, plays random legal actions and keeps what it got."""

    def __init__(self, ws_url: str, code: str, token: str | None, seed: int) -> None:
        self.ws_url, self.code, self.token = ws_url, code, token
        self.rng = random.Random(seed)
        self.frames: list[dict[str, Any]] = []  # every frame, across sockets
        self.updates_by_socket: list[list[dict[str, Any]]] = []
        self.acked: list[str] = []
        self.sent = 0
        self.pending: str | None = None
        self.next_send = 0.0
        self.reconnects = 0
        self.sock = self._connect()

    @property
    def version(self) -> int:
        updates = [f for f in self.frames if f["type"] == "update"]
        return int(updates[-1]["version"]) if updates else -1

    @property
    def view(self) -> dict[str, Any] | None:
        updates = [f for f in self.frames if f["type"] == "update"]
        return updates[-1]["view"] if updates else None

    @property
    def over(self) -> bool:
        view = self.view
        return view is not None and bool(view["is_over"])

    def _connect(self, deadline: float = 30) -> Socket:
        end = time.monotonic() + deadline
        while True:
            try:
                sock = Socket(self.ws_url, self.code, self.token, since=self.version if self.version >= 0 else None)
                self.updates_by_socket.append([])
                return sock
            except (OSError, InvalidHandshake, InvalidStatus, TimeoutError):
                if time.monotonic() > end:
                    raise
                time.sleep(0.2)

    def poll(self, timeout: float = 0.005) -> dict[str, Any] | None:
        """The next frame, if one comes within `timeout`; a closed socket is replaced by a new one."""
        try:
            frame = self.sock.recv(timeout)
        except TimeoutError:
            return None
        except (ConnectionClosed, OSError, EOFError):
            self.reconnects += 1
            self.pending = None  # its answer may be lost: the process that had it is gone
            self.sock = self._connect()
            return None
        self.frames.append(frame)
        if frame["type"] == "update":
            self.updates_by_socket[-1].append(frame)
            if self.pending is not None and self.pending in frame["acks"]:
                self.acked.append(self.pending)
                self.pending = None
        elif frame["type"] == "error" and frame.get("ref") == self.pending:
            self.pending = None
            if frame.get("code") == "rate/limited":
                self.next_send = time.monotonic() + 1.0
        return frame

    def play(self) -> None:
        """Acts (a random legal action from its view's specs) when it may and has nothing pending."""
        view = self.view
        if self.token is None or view is None or not view["legal_actions"] or self.pending is not None:
            return
        if time.monotonic() < self.next_send:
            return
        self.sent += 1
        ref = f"{self.token[:6]}-{self.sent}"
        try:
            self.sock.act(sample(view["legal_actions"], self.rng), ref)
        except (ConnectionClosed, OSError):
            return  # the next poll reconnects
        self.pending = ref
        self.next_send = time.monotonic() + MIN_INTERVAL


def play_until_over(players: list[Player], limit: float = 120, during: Any = None) -> None:
    """Polls and plays every client until all have seen the end; `during(elapsed)` is called every loop."""
    start = time.monotonic()
    while not all(p.over for p in players):
        assert time.monotonic() - start < limit, f"the match did not finish: {[p.version for p in players]}"
        for player in players:
            player.poll()
            player.play()
        if during is not None:
            during(time.monotonic() - start)
