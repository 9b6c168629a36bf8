"""Next game, same people (issue 30): once a match is over the host may go on to any game that seats the room's
people, not only the same one or one that declares it follows; every phone stays in its seat and the big screen
follows. A game that does not exist, or cannot seat them, is refused with a coded en/ja error and nothing changes."""

from __future__ import annotations

from typing import Any

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer


def next_match(lobby: Lobby, code: str, host_token: str, game: str | None) -> tuple[int, dict[str, Any]]:
    response = lobby.http.post(f"/api/rooms/{code}/next", json={"game": game}, headers={"X-Host-Token": host_token})
    return response.status_code, response.json()


def test_the_host_picks_a_game_that_does_not_follow_and_every_phone_and_the_big_screen_move_in_their_seats(
        server: LiveServer, lobby: Lobby) -> None:
    created, tokens = human_room(lobby, "toy", seats=2)
    code, host = created["code"], created["host_token"]
    phones = [Socket(server.ws_url, code, token) for token in tokens]
    screen = Socket(server.ws_url, code)  # the big screen: a spectator
    for sock, bid in zip(phones, (3, 7), strict=True):
        sock.update(0)
        sock.act({"type": "bid", "amount": bid})
    assert phones[0].reach(2)["view"]["is_over"]

    room = lobby.room(code)
    # Two seats: Smuggling (two teams of one) is offered though it declares no series with toy; Last Man
    # Standing (4-8 seats) is not, and the picker is told why in both languages.
    offered = [g["id"] for g in room["next_games"]]
    assert offered[:2] == ["toy", "toy-final"] and "smuggling" in offered and "last-man-standing" not in offered
    [refused] = room["next_refused"]
    assert refused["id"] == "last-man-standing"
    assert "not 2" in refused["why"]["en"] and "2 席では遊べません" in refused["why"]["ja"]

    # Bad input changes nothing: a game that does not exist, one that cannot seat two.
    status, body = next_match(lobby, code, host, "no-such-game")
    assert (status, body["error"]["code"]) == (422, "game/unknown") and body["error"]["ja"]
    status, body = next_match(lobby, code, host, "last-man-standing")
    assert (status, body["error"]["code"]) == (422, "game/cannot_seat")
    assert "not 2" in body["error"]["en"] and "2 席では遊べません" in body["error"]["ja"]
    after = lobby.room(code)
    assert (after["game"], after["match"], after["status"], after["options"]) == ("toy", 1, "over", room["options"])

    status, moved = next_match(lobby, code, host, "smuggling")
    assert status == 200 and (moved["game"], moved["match"], moved["status"]) == ("smuggling", 2, "playing")
    assert moved["options"]["team_size"] == 1  # the defaults, the team size fitted to the two seats
    assert [s["name"] for s in moved["seats"]] == ["P0", "P1"]
    for seat, sock in enumerate(phones):
        announced = sock.until(lambda f: f["type"] == "room" and f["room"]["match"] == 2)
        assert announced["room"]["game"] == "smuggling"
        view = sock.update(0)["view"]
        assert view["seat"] == seat and view["game"] == "smuggling" and view["my_team"] in ("north", "south")
    screen.until(lambda f: f["type"] == "room" and f["room"]["match"] == 2 and f["room"]["game"] == "smuggling")
    public = screen.update(0)["view"]
    assert public["seat"] is None and public["game"] == "smuggling"
