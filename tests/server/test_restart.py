"""Restart safety with a real SIGKILL of the server process, on SQLite and on PostgreSQL.

Whatever a client was told survives the kill; after a restart every room and match is back where it
was, players reconnect to their seats with their tokens, bots resume and deadlines fire on time.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer

pytestmark = pytest.mark.xdist_group("server-restart")


def test_after_a_kill_mid_match_players_reconnect_to_their_seats_and_bots_resume(
        tmp_path: Path, database_url: str | None) -> None:
    live = LiveServer(tmp_path, database_url, bot_delay=3.0).start()
    try:
        lobby = Lobby(live.url)
        created = lobby.create("toy", 4, name="Aki", seat_kinds=["human", "human", "bot:random", "bot:heuristic"],
                               options={"coins": 100})
        code = created["code"]
        ben = lobby.join(code, "Ben")
        lobby.start(code, created["host_token"])
        aki = Socket(live.ws_url, code, created["token"])
        card = aki.update(0)["view"]["my_card"]
        aki.act({"type": "bid", "amount": 42}, "a")
        assert aki.update(1)["acks"] == ["a"]  # acknowledged, hence committed
        live.kill()  # the bots are still thinking (3 s)
        lobby.http.close()

        live.start()
        lobby = Lobby(live.url)
        room = lobby.room(code)
        assert room["status"] == "playing" and room["version"] == 1
        assert [s["name"] for s in room["seats"][:2]] == ["Aki", "Ben"]
        back = Socket(live.ws_url, code, created["token"], since=1)
        assert back.recv()["seat"] == 0
        resumed = back.update()
        assert resumed["version"] >= 1 and resumed["view"]["my_bid"] == 42 and resumed["view"]["my_card"] == card
        # The bots act again after their think delay, without anybody prompting them.
        after_bots = back.update(3, timeout=10)
        assert after_bots["view"]["has_bid"] == [True, False, True, True]
        bots_sealed = [e["data"]["seat"] for u in back.frames if u["type"] == "update" for e in u["events"]
                       if e["type"] == "bid_sealed"]
        assert sorted(bots_sealed) == [2, 3]
        ben_sock = Socket(live.ws_url, code, ben["token"])
        ben_sock.update()
        ben_sock.act({"type": "bid", "amount": 7}, "b")
        final = back.update(4)
        assert final["view"]["is_over"] and final["view"]["bids"][:2] == [42, 7]
        assert lobby.room(code)["status"] == "over"
        lobby.http.close()
    finally:
        live.stop()


def test_a_deadline_that_passed_while_the_server_was_down_fires_on_restart(
        tmp_path: Path, database_url: str | None) -> None:
    live = LiveServer(tmp_path, database_url, deadline_scale=0.1).start()  # 3 s to bid
    try:
        lobby = Lobby(live.url)
        created = lobby.create("toy", 2, name="Aki")
        code = created["code"]
        lobby.join(code, "Ben")
        lobby.start(code, created["host_token"])
        aki = Socket(live.ws_url, code, created["token"])
        ends_at = aki.update(0)["deadline"]["ends_at"]
        aki.act({"type": "bid", "amount": 9}, "a")
        aki.update(1)
        live.kill()
        lobby.http.close()
        time.sleep(max(0.0, ends_at - time.time()) + 0.2)
        live.start()
        back = Socket(live.ws_url, code, created["token"], since=1)
        final = back.update(2, timeout=10)
        assert final["view"]["is_over"] and final["view"]["bids"] == [9, 0]
        lobby = Lobby(live.url)
        steps = lobby.http.get(f"/api/rooms/{code}/replay").json()["steps"]
        assert [(s["seat"], s["source"]) for s in steps[1:]] == [(0, "seat"), (None, "wake")]
        assert steps[2]["at"] == 30_000  # at the limit's match time, though the server was down then
        lobby.http.close()
    finally:
        live.stop()


def test_an_open_room_survives_a_kill_with_its_seats_and_tokens(tmp_path: Path, database_url: str | None) -> None:
    live = LiveServer(tmp_path, database_url).start()
    try:
        lobby = Lobby(live.url)
        created = lobby.create("toy", 2, name="Aki")
        code = created["code"]
        live.kill()
        lobby.http.close()
        live.start()
        lobby = Lobby(live.url)
        ben = lobby.join(code, "Ben")
        assert ben["seat"] == 1
        lobby.start(code, created["host_token"])  # the host token still works
        aki = Socket(live.ws_url, code, created["token"])
        assert aki.recv()["seat"] == 0
        lobby.http.close()
    finally:
        live.stop()


def test_nothing_a_client_was_told_is_lost_when_the_server_is_killed_under_load(
        tmp_path: Path, database_url: str | None) -> None:
    live = LiveServer(tmp_path, database_url).start()
    try:
        lobby = Lobby(live.url)
        created, tokens = human_room(lobby, "rounds-toy", seats=2)
        code = created["code"]
        socks = [Socket(live.ws_url, code, t) for t in tokens]
        seen = 0
        pending = [False, False]
        while seen < 60:  # both seats bid as fast as they can; the kill lands with actions in flight
            for i, sock in enumerate(socks):
                try:
                    frame = sock.recv(0.01)
                except TimeoutError:
                    continue
                if frame["type"] == "update":
                    seen = max(seen, frame["version"])
                    if frame["acks"]:
                        pending[i] = False
                    if frame["view"]["legal_actions"] and not pending[i]:
                        sock.act({"type": "bid", "amount": seen % 10}, seen)
                        pending[i] = True
                elif frame["type"] == "error":
                    pending[i] = False
        live.kill()
        lobby.http.close()
        live.start()
        lobby = Lobby(live.url)
        stored = lobby.room(code)["version"]
        assert stored >= seen, f"clients saw version {seen}, the restarted server has {stored}"
        back = Socket(live.ws_url, code, tokens[0], since=seen)
        back.recv()
        assert back.update()["version"] == stored
        lobby.http.close()
    finally:
        live.stop()
