"""A room plays on: the same people play again, or a match that follows the finished one (a series), and
the room's matches survive a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer

pytestmark = pytest.mark.xdist_group("server-restart")


def finish(socks: list[Socket], version: int, bids: tuple[int, ...] = (3, 7)) -> None:
    """Both seats bid (the toy match ends once all have bid); seat 1 bids more, so it wins."""
    for sock, bid in zip(socks, bids, strict=True):
        sock.act({"type": "bid", "amount": bid})
    assert socks[0].reach(version + 2)["view"]["is_over"]


def next_match(lobby: Lobby, code: str, host_token: str | None, game: str | None = None) -> tuple[int, dict[str, Any]]:
    response = lobby.http.post(f"/api/rooms/{code}/next", json={"game": game},
                               headers={"X-Host-Token": host_token} if host_token else {})
    return response.status_code, response.json()


def test_the_same_people_play_again_then_a_following_game_and_it_all_survives_a_restart(
        tmp_path: Path, database_url: str | None) -> None:
    live = LiveServer(tmp_path, database_url, bot_delay=0.02).start()
    try:
        lobby = Lobby(live.url)
        created, tokens = human_room(lobby, "toy", seats=2)
        code, host = created["code"], created["host_token"]
        socks = [Socket(live.ws_url, code, t) for t in tokens]
        for sock in socks:
            sock.update(0)
        # Not before the match is over, and only the host.
        assert next_match(lobby, code, host)[1]["error"]["code"] == "room/not_over"
        finish(socks, 0)
        assert [g["id"] for g in lobby.room(code)["next_games"]][:2] == ["toy", "toy-final"]  # then any that seats two
        assert next_match(lobby, code, None)[1]["error"]["code"] == "host/bad_token"
        assert next_match(lobby, code, host, "dice-derby")[1]["error"]["code"] == "game/unknown"  # not a game here
        assert lobby.room(code)["status"] == "over"

        status, room = next_match(lobby, code, host)  # play again: same game, options and seats
        assert status == 200 and room["match"] == 2 and room["status"] == "playing" and room["version"] == 0
        assert [s["name"] for s in room["seats"]] == ["P0", "P1"]
        for sock in socks:
            announced = sock.until(lambda f: f["type"] == "room" and f["room"]["match"] == 2)
            assert announced["room"]["game"] == "toy"
            fresh = sock.update(0)
            assert fresh["fresh"] and not fresh["view"]["is_over"] and fresh["view"]["my_bid"] is None
        finish(socks, 0, bids=(9, 1))  # seat 0 wins this one

        status, room = next_match(lobby, code, host, "toy-final")
        assert status == 200 and room["match"] == 3 and room["game"] == "toy-final"
        assert room["options"]["coins"] == 10 + 100  # one winner in match 2 (tests/server/games.py)
        for sock in socks:
            sock.until(lambda f: f["type"] == "room" and f["room"]["match"] == 3)
            view = sock.update(0)["view"]  # toy-final's Match is toy's, with the options the handover gave
            assert view["legal_actions"][0]["params"]["amount"]["max"] == 110
        socks[0].act({"type": "bid", "amount": 105}, "a")
        assert socks[0].update(1)["acks"] == ["a"]
        live.kill()
        lobby.http.close()

        live.start()
        lobby = Lobby(live.url)
        room = lobby.room(code)
        assert (room["match"], room["game"], room["status"], room["version"]) == (3, "toy-final", "playing", 1)
        back = Socket(live.ws_url, code, tokens[1])
        back.recv()
        assert back.update()["view"]["has_bid"] == [True, False]
        check_earlier_matches(lobby, code, host, tokens)
        back.act({"type": "bid", "amount": 2})
        assert back.update(2)["view"]["is_over"]
        listed = lobby.http.get(f"/api/rooms/{code}/matches").json()["matches"]
        assert listed[2]["result"]["winners"] == [0]
        lobby.http.close()
    finally:
        live.stop()


def check_earlier_matches(lobby: Lobby, code: str, host: str, tokens: list[str]) -> None:
    """While the room plays its third match, on a restarted server (from the database alone): the evening's
    matches are listed; the first two replay, each as it was played (seat 1 won the first, bidding 7 to 3;
    seat 0 the second, 9 to 1), each seat's view for its own token and the host only, the public view for
    anyone; their logs and the host's raw log; the match being played and one never played are refused."""
    listed = lobby.http.get(f"/api/rooms/{code}/matches").json()["matches"]
    assert [(m["number"], m["game"]) for m in listed] == [(1, "toy"), (2, "toy"), (3, "toy-final")]
    assert [m["result"]["winners"] if m["result"] else None for m in listed] == [[1], [0], None]
    for number, bids, winner in ((1, [3, 7], 1), (2, [9, 1], 0)):
        public = lobby.http.get(f"/api/rooms/{code}/replay", params={"match": number}).json()
        assert (public["match"], public["game"], public["seat"], public["result"]["winners"]) == (number, "toy", None, [winner])
        assert public["steps"][-1]["view"]["bids"] == bids and public["steps"][-1]["view"]["is_over"]
        for seat in (0, 1):
            mine = lobby.http.get(f"/api/rooms/{code}/replay", params={"match": number, "seat": seat},
                                  headers={"X-Seat-Token": tokens[seat]}).json()
            assert mine["match"] == number and [s["view"]["my_bid"] for s in mine["steps"]][-1] == bids[seat]
            by_host = lobby.http.get(f"/api/rooms/{code}/replay", params={"match": number, "seat": seat},
                                     headers={"X-Host-Token": host}).json()
            assert by_host["steps"] == mine["steps"]
            refused = lobby.http.get(f"/api/rooms/{code}/replay", params={"match": number, "seat": seat},
                                     headers={"X-Seat-Token": tokens[1 - seat]})
            assert refused.status_code == 403 and refused.json()["error"]["code"] == "replay/forbidden"
        raw = lobby.http.get(f"/api/rooms/{code}/log", params={"match": number}, headers={"X-Host-Token": host}).json()
        assert [(e[1], e[2]["amount"]) for e in raw["entries"]] == [(0, bids[0]), (1, bids[1])]
        assert not raw["redacted"] and raw["final_state"]["state"]["bids"] == {"0": bids[0], "1": bids[1]}
        assert raw["game"] == "toy" and raw["final_state"]["version"] == 2
        shown = lobby.http.get(f"/api/rooms/{code}/log", params={"match": number}).json()
        assert shown["redacted"] and shown["seed"] is None and len(shown["entries"]) == 2
    # The first two matches were different deals: the seeds differ, and so does each seat's card.
    logs = [lobby.http.get(f"/api/rooms/{code}/log", params={"match": n}, headers={"X-Host-Token": host}).json()
            for n in (1, 2)]
    assert logs[0]["seed"] != logs[1]["seed"]
    playing = lobby.http.get(f"/api/rooms/{code}/replay", params={"match": 3})
    assert playing.status_code == 409 and playing.json()["error"]["code"] == "room/not_over"
    for never in ("4", "0", "99999999999"):
        missing = lobby.http.get(f"/api/rooms/{code}/replay", params={"match": never})
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "replay/no_match", never
        assert lobby.http.get(f"/api/rooms/{code}/log", params={"match": never}).status_code == 404


def test_a_replaced_bot_kind_is_said_from_the_database_after_a_restart(tmp_path: Path, database_url: str | None) -> None:
    """A bot that played cautious in cautious-toy plays toy-final's heuristic, and the room says so: also
    from a restarted server (the notice is stored with the seat, not kept in the owner's memory), and only
    for that match (playing toy-final again says nothing)."""
    live = LiveServer(tmp_path, database_url, bot_delay=0.02).start()
    try:
        lobby = Lobby(live.url)
        created = lobby.create("cautious-toy", 2, name="P0", seat_kinds=["human", "bot:cautious"])
        code, host = created["code"], created["host_token"]
        lobby.start(code, host)
        sock = Socket(live.ws_url, code, created["token"])
        sock.update(0)
        sock.act({"type": "bid", "amount": 3})
        sock.until(lambda f: f["type"] == "update" and f["view"]["is_over"])
        status, room = next_match(lobby, code, host, "toy-final")
        assert status == 200, room
        [said] = room["bots_replaced"]
        assert said["seat"] == 1 and said["was"]["bot"] == "cautious" and said["now"]["bot"] == "heuristic"
        assert said["was"]["title"] and said["was"]["game"] and said["now"]["title"]
        live.kill()
        lobby.http.close()

        live.start()
        lobby = Lobby(live.url)
        assert lobby.room(code)["bots_replaced"] == [said]  # rebuilt from the database, still said
        sock = Socket(live.ws_url, code, created["token"])
        welcome = sock.until(lambda f: f["type"] in ("welcome", "room"))
        assert welcome.get("room", {}).get("bots_replaced") == [said], welcome
        sock.update()
        sock.act({"type": "bid", "amount": 2})
        sock.until(lambda f: f["type"] == "update" and f["view"]["is_over"])
        status, room = next_match(lobby, code, host)  # toy-final again: nothing was replaced this time
        assert status == 200 and room["bots_replaced"] == [], room
        lobby.http.close()
    finally:
        live.stop()
