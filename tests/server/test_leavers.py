"""People leave a table, and the table copes (issue #23): every seat's presence is shown (online, away,
offline since when), a seat that runs out of time is said to, the host can hand a leaver's seat to a bot
(once it has run out of time or been away a while) and take it back, a public room does it by itself, and
the person who comes back plays their seat again from their next turn."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer

# Time limits run 10 times faster (the toy's 30 s bidding: 3 s); bots act at once.
SCALE = 0.1


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("leavers"), bot_delay=0.0, deadline_scale=SCALE,
                      settings={"presence_interval": 0.05}).start()
    yield live
    live.stop()


def stand_in(lobby: Lobby, code: str, host: str, seat: int, kind: str | None) -> httpx.Response:
    return lobby.http.post(f"/api/rooms/{code}/seats/{seat}/standin", json={"kind": kind},
                           headers={"X-Host-Token": host})


def seat_of(frame: dict[str, Any], seat: int) -> dict[str, Any]:
    return dict(frame["room"]["seats"][seat])


def test_a_leaver_is_shown_offline_timed_out_stood_in_for_and_gets_the_seat_back(quick: LiveServer) -> None:
    lobby = Lobby(quick.url)
    created, tokens = human_room(lobby, "leaver-toy", seats=2, private=True)  # private: no automatic stand-in
    code, host = created["code"], created["host_token"]
    aki, ben = Socket(quick.ws_url, code, tokens[0]), Socket(quick.ws_url, code, tokens[1])
    for sock in (aki, ben):
        sock.update(0)
    assert lobby.room(code)["auto_standin"] is False
    refused = stand_in(lobby, code, host, 1, "heuristic")  # Ben is here: no bot may take his seat
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "seat/present"
    # Ben steps away (his page hidden), then leaves.
    ben.send({"type": "presence", "away": True})
    away = aki.until(lambda f: f["type"] == "room" and seat_of(f, 1)["presence"]["state"] == "away")
    assert seat_of(away, 0)["presence"]["state"] == "online"
    left_at = time.time()
    ben.close()
    gone = aki.until(lambda f: f["type"] == "room" and seat_of(f, 1)["presence"]["state"] == "offline")
    assert abs(seat_of(gone, 1)["presence"]["since"] - left_at) < 5 and not seat_of(gone, 1)["connected"]
    # Aki bids; Ben's time runs out: everyone is told, then his default is played.
    aki.act({"type": "bid", "amount": 3}, "a1")
    told = aki.until(lambda f: f["type"] == "update" and any(e["type"] == "timed_out" for e in f["events"]))
    assert [e["data"] for e in told["events"] if e["type"] == "timed_out"] == [{"seat": 1}]
    assert seat_of(aki.until(lambda f: f["type"] == "room" and seat_of(f, 1)["timed_out"]), 1)["timed_out"]
    # The host hands his seat to a bot, which plays it from now on.
    handed = stand_in(lobby, code, host, 1, "heuristic")
    assert handed.status_code == 200, handed.text
    assert handed.json()["seats"][1]["standin"]["bot"] == "heuristic"
    version = aki.reach(0)["version"]
    aki.act({"type": "bid", "amount": 4}, "a2")
    played = aki.until(lambda f: f["type"] == "update" and f["version"] >= version + 2)  # Aki's, then the bot's
    assert played["version"] >= version + 2
    # Ben comes back: his seat is his again, at once, and the bot plays no more.
    back = Socket(quick.ws_url, code, tokens[1], since=0)
    back.update()
    returned = aki.until(lambda f: f["type"] == "room" and seat_of(f, 1)["standin"] is None
                         and seat_of(f, 1)["presence"]["state"] == "online")
    assert returned
    now = aki.reach(0)["version"]
    aki.act({"type": "bid", "amount": 5}, "a3")
    assert [f for f in aki.quiet(0.3) if f["type"] == "update" and f["version"] > now + 1] == []  # Ben's own turn
    back.act({"type": "bid", "amount": 6}, "b1")
    assert "b1" in back.until(lambda f: f["type"] == "update" and bool(f["acks"]))["acks"]
    log = lobby.http.get(f"/api/rooms/{code}/replay", params={"seat": 0})
    assert log.status_code == 409  # (the match goes on: a thousand rounds)
    # The host may also give a seat back by hand, and hand it again only on the rules' terms.
    assert stand_in(lobby, code, host, 1, None).status_code == 200
    assert stand_in(lobby, code, host, 0, "heuristic").json()["error"]["code"] == "seat/present"
    assert stand_in(lobby, code, "wrong", 1, "heuristic").status_code == 403
    lobby.http.close()


def test_a_public_room_hands_a_leaver_s_seat_to_a_bot_by_itself(quick: LiveServer) -> None:
    lobby = Lobby(quick.url)
    created, tokens = human_room(lobby, "leaver-toy", seats=3)  # public: the room stands in by itself
    code = created["code"]
    assert lobby.room(code)["auto_standin"] is True and lobby.room(code)["standin_after"] == 60
    socks = [Socket(quick.ws_url, code, token) for token in tokens[:2]]  # the third never comes
    for sock in socks:
        sock.update(0)
    for seat, sock in enumerate(socks):
        sock.act({"type": "bid", "amount": seat + 1}, f"b{seat}")
    # The third seat runs out of time (said), and the room gives it to a bot for the rest of the match.
    taken = socks[0].until(lambda f: f["type"] == "room" and seat_of(f, 2)["standin"] is not None, timeout=15)
    assert seat_of(taken, 2)["standin"]["bot"] == "heuristic" and seat_of(taken, 2)["timed_out"]
    lobby.http.close()
