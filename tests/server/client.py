"""Test clients: the HTTP lobby API (httpx) and a WebSocket that keeps every raw frame it receives."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import httpx
from websockets.sync.client import ClientConnection, connect


class Lobby:
    def __init__(self, base_url: str) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=10)

    def create(self, game: str = "toy", seats: int = 2, **body: Any) -> dict[str, Any]:
        response = self.http.post("/api/rooms", json={"game": game, "seats": seats, **body})
        assert response.status_code == 200, response.text
        return dict(response.json())

    def join(self, code: str, name: str, seat: int | None = None) -> dict[str, Any]:
        response = self.http.post(f"/api/rooms/{code}/join", json={"name": name, "seat": seat})
        assert response.status_code == 200, response.text
        return dict(response.json())

    def start(self, code: str, host_token: str) -> dict[str, Any]:
        response = self.http.post(f"/api/rooms/{code}/start", headers={"X-Host-Token": host_token})
        assert response.status_code == 200, response.text
        return dict(response.json())

    def room(self, code: str) -> dict[str, Any]:
        return dict(self.http.get(f"/api/rooms/{code}").json())


OPEN: list[Socket] = []  # closed after every test by an autouse fixture


class Socket:
    """A WebSocket client that records every raw frame (for secrecy checks) and decodes them."""

    def __init__(self, ws_url: str, code: str, token: str | None = None, since: int | None = None,
                 name: str | None = None) -> None:
        query = urlencode({k: v for k, v in (("token", token), ("since", since), ("name", name)) if v is not None})
        self.ws: ClientConnection = connect(f"{ws_url}/ws/{code}" + (f"?{query}" if query else ""),
                                            open_timeout=10, max_size=2**22).__enter__()
        OPEN.append(self)
        self.raw: list[str] = []
        self.frames: list[dict[str, Any]] = []

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        raw = self.ws.recv(timeout=timeout)
        assert isinstance(raw, str)
        self.raw.append(raw)
        frame: dict[str, Any] = json.loads(raw)
        self.frames.append(frame)
        return frame

    def until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            remaining = end - time.monotonic()
            try:
                if remaining <= 0:
                    raise TimeoutError("the time ran out")
                frame = self.recv(remaining)
            except TimeoutError as error:  # say what did come, for a failure's report
                raise TimeoutError(f"no matching frame in {timeout:g} s ({error}); last frames: "
                                   f"{self.frames[-3:]}") from None
            if predicate(frame):
                return frame

    def update(self, version: int | None = None, timeout: float = 10) -> dict[str, Any]:
        """The next update (reaching `version` if given)."""
        return self.until(lambda f: f["type"] == "update" and (version is None or f["version"] >= version), timeout)

    def reach(self, version: int, timeout: float = 10) -> dict[str, Any]:
        """The latest update once this connection has been brought to `version` (waits if needed)."""
        updates = [f for f in self.frames if f["type"] == "update"]
        if updates and updates[-1]["version"] >= version:
            return updates[-1]
        return self.update(version, timeout)

    def error(self, timeout: float = 10) -> dict[str, Any]:
        return self.until(lambda f: f["type"] == "error", timeout)

    def send(self, frame: dict[str, Any]) -> None:
        self.ws.send(json.dumps(frame))

    def act(self, action: dict[str, Any], ref: Any = None, **extra: Any) -> None:
        self.send({"type": "action", "action": action, "id": ref, **extra})

    def quiet(self, seconds: float = 0.3) -> list[dict[str, Any]]:
        """Every frame received within `seconds` (to show that nothing, or nothing more, arrives)."""
        got: list[dict[str, Any]] = []
        end = time.monotonic() + seconds
        while (remaining := end - time.monotonic()) > 0:
            try:
                got.append(self.recv(remaining))
            except TimeoutError:
                break
        return got

    def close(self) -> None:
        self.ws.close()


def human_room(lobby: Lobby, game: str = "toy", seats: int = 2, start: bool = True,
               **body: Any) -> tuple[dict[str, Any], list[str]]:
    """A room whose seats are all taken by humans (the host at seat 0); returns it and the seat tokens."""
    created = lobby.create(game, seats, name="P0", **body)
    tokens = [created["token"]] + [lobby.join(created["code"], f"P{i}")["token"] for i in range(1, seats)]
    if start:
        lobby.start(created["code"], created["host_token"])
    return created, tokens
