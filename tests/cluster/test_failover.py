"""Three processes on one PostgreSQL behind nginx (deploy/nginx.conf): the process that owns a match is
killed (SIGKILL) in the middle of it, another takes the room over from the stored log, and the match
finishes. Every acknowledged action is in the final log; every client, reconnected through the proxy with
`since`, saw each event once and in order, with no gap; and what each was told equals a replay of the
final log at those versions (no fork)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from tests.cluster.conftest import Cluster
from tests.cluster.players import Player, play_until_over
from tests.cluster.proxy import Proxy
from tests.server.test_real_game import check_streams

GAME = "last-man-standing"  # hidden hands, sealed simultaneous plays, and bots that must carry on


def test_a_killed_owner_s_match_finishes_elsewhere_with_nothing_lost(database: str, tmp_path: Path) -> None:
    cluster = Cluster(database, tmp_path, 3, bot_delay=0.05).start()
    proxy = Proxy("nginx", [s.port for s in cluster.servers], tmp_path).start()
    try:
        with httpx.Client(base_url=proxy.url, timeout=10) as http:
            created = http.post("/api/rooms", json={"game": GAME, "seats": 4, "name": "Aki",
                                                    "seat_kinds": ["human", "human", "bot:heuristic", "bot:random"]}).json()
            code = created["code"]
            ben = http.post(f"/api/rooms/{code}/join", json={"name": "Ben"}).json()
            assert http.post(f"/api/rooms/{code}/start", headers={"X-Host-Token": created["host_token"]}).status_code == 200
        players = [Player(proxy.ws_url, code, created["token"], 1), Player(proxy.ws_url, code, ben["token"], 2),
                   Player(proxy.ws_url, code, None, 3)]
        owner = cluster.owner(code)
        assert owner is not None
        killed: dict[str, float] = {}

        def kill_midway(_elapsed: float) -> None:
            if not killed and min(p.version for p in players) >= 12:
                killed["at"] = time.monotonic()
                killed["version"] = players[0].version
                owner.kill()

        play_until_over(players, limit=180, during=kill_midway)
        assert killed, "the match ended before the owner could be killed"
        successor = cluster.owner(code)
        assert (successor is not None and successor is not owner) or cluster.query(
            "SELECT status FROM rooms WHERE code = :code", code=code) == "over"
        epochs = cluster.rows("SELECT DISTINCT epoch FROM log_entries WHERE room = :code ORDER BY epoch", code=code)
        assert len(epochs) >= 2, epochs  # entries stored by the first owner and by the one that took over
        alive = next(s for s in cluster.servers if s is not owner)
        with httpx.Client(base_url=alive.url, timeout=10) as http:
            log: dict[str, Any] = http.get(f"/api/rooms/{code}/log", headers={"X-Host-Token": created["host_token"]}).json()
        # Every acknowledged action is in the final log (an action's id names its sender and its count).
        logged = sum(1 for _, seat, action in log["entries"] if seat in (0, 1) and action is not None)
        assert logged >= len(players[0].acked) + len(players[1].acked)
        # The people reconnected through the proxy and saw everything once, in order, as the log replays it.
        assert all(p.reconnects >= 1 for p in players if p.updates_by_socket and len(p.updates_by_socket) > 1)
        assert any(p.reconnects for p in players)
        for player in players:
            resumed = [s[0] for s in player.updates_by_socket[1:] if s]
            assert all(not first["fresh"] for first in resumed), "a reconnect was not a catch-up"
        check_streams(GAME, [(0, players[0].frames), (1, players[1].frames), (None, players[2].frames)], log)
    finally:
        proxy.stop()
        cluster.stop()
