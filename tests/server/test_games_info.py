"""`/api/games` is honest (issue 29): every seat count it lists makes a room with the default options, and
its default seat count is one of them; Musical Chairs' rules summary says the medals a room's players hold."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.client import Lobby
from tests.server.live import LiveServer


@pytest.fixture
def registry_lobby(registry_server: LiveServer) -> Iterator[Lobby]:
    client = Lobby(registry_server.url)
    yield client
    client.http.close()


def test_every_listed_seat_count_makes_a_room_with_the_default_options(registry_lobby: Lobby) -> None:
    games = registry_lobby.http.get("/api/games").json()
    for game in games:
        counts = game["seat_counts"]
        assert counts and game["default_seats"] in counts, (game["id"], counts, game["default_seats"])
        for seats in (counts[0], game["default_seats"], counts[-1]):
            answer = registry_lobby.http.post("/api/rooms", json={"game": game["id"], "seats": seats, "options": {},
                                                                  "name": "Aki"})
            assert answer.status_code == 200, (game["id"], seats, answer.text)
        # Nothing below the first count, however the options are picked from the seats.
        below = registry_lobby.http.post("/api/rooms", json={"game": game["id"], "seats": counts[0] - 1, "options": {},
                                                             "name": "Aki"})
        assert below.status_code == 422, (game["id"], below.text)


def test_a_small_musical_chairs_room_needs_no_option_and_its_summary_says_its_medals(registry_lobby: Lobby) -> None:
    info = next(g for g in registry_lobby.http.get("/api/games").json() if g["id"] == "musical-chairs")
    assert info["default_seats"] == 6 and 2 in info["seat_counts"]
    for seats, players, gallery, medals in ((4, 4, 0, 3), (12, 6, 6, 11), (24, 6, 18, 23)):
        room = registry_lobby.http.post("/api/rooms", json={"game": "musical-chairs", "seats": seats, "options": {},
                                                            "name": "Aki"}).json()["room"]
        assert (room["options"]["players"], room["options"]["gallery"]) == (players, gallery)
        assert f"starts with {medals} medals" in room["summary"]["en"], room["summary"]["en"]
        assert f"メダル{medals}枚" in room["summary"]["ja"]
    # Players given (as the lobby's form gives them): the gallery is the seats left; both given: as given.
    for options, seats, expected in (({"players": 3}, 8, (3, 5)), ({"players": 3, "gallery": 3}, 6, (3, 3))):
        room = registry_lobby.http.post("/api/rooms", json={"game": "musical-chairs", "seats": seats,
                                                            "options": options, "name": "Aki"}).json()
        assert (room["room"]["options"]["players"], room["room"]["options"]["gallery"]) == expected
    # A game whose summary has no such figure sends none.
    other = registry_lobby.http.post("/api/rooms", json={"game": "lucky-nine", "seats": 4, "options": {}, "name": "Aki"})
    assert other.json()["room"]["summary"] is None
