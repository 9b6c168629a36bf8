"""A series' next game seen from every process: what it changed is read from the database, not from the
owner's memory."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.cluster.conftest import Cluster
from tests.server.client import Lobby, Socket


def test_a_replaced_bot_kind_is_said_by_a_process_that_does_not_own_the_room(database: str, tmp_path: Path) -> None:
    """cautious-toy's cautious bot plays toy-final's heuristic: the owner says so, and so do the lobby and the
    sockets of the other process (`bots_replaced`, from `seats.bot_was`)."""
    cluster = Cluster(database, tmp_path, 2, bot_delay=0.02).start()
    try:
        lobby = Lobby(cluster.servers[0].url)
        created = lobby.create("cautious-toy", 2, name="P0", seat_kinds=["human", "bot:cautious"])
        code, host = created["code"], created["host_token"]
        lobby.start(code, host)
        lobby.http.close()
        owner = cluster.owner(code)
        assert owner is not None
        other = next(s for s in cluster.servers if s is not owner)
        sock = Socket(owner.ws_url, code, created["token"])
        sock.update(0)
        sock.act({"type": "bid", "amount": 3})
        sock.until(lambda f: f["type"] == "update" and f["view"]["is_over"])
        watching = Socket(other.ws_url, code, None)  # a spectator on the process that follows the room
        watching.recv()
        answer = httpx.post(f"{owner.url}/api/rooms/{code}/next", json={"game": "toy-final"},
                            headers={"X-Host-Token": host}, timeout=10)
        assert answer.status_code == 200, answer.text
        [said] = answer.json()["bots_replaced"]
        assert said["seat"] == 1 and said["was"]["bot"] == "cautious" and said["now"]["bot"] == "heuristic"
        announced = watching.until(lambda f: f["type"] == "room" and f["room"]["match"] == 2)
        assert announced["room"]["bots_replaced"] == [said]
        assert httpx.get(f"{other.url}/api/rooms/{code}", timeout=10).json()["bots_replaced"] == [said]
    finally:
        cluster.stop()
