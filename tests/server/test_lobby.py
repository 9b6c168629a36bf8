"""The lobby's HTTP API against a real server: rooms, seats, tokens, host powers, refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx

from tests.server.client import Lobby
from tests.server.live import LiveServer


def error_code(response: httpx.Response) -> str:
    return str(response.json()["error"]["code"])


def test_games_list_shows_options_with_defaults_and_bots(lobby: Lobby) -> None:
    games = {g["id"]: g for g in lobby.http.get("/api/games").json()}
    assert set(games) == {"toy", "secret-toy", "team-toy", "dm-toy", "clock-toy", "rounds-toy", "leaver-toy",
                          "reveal-toy", "buggy-toy", "whisper-toy", "toy-final", "cautious-toy", "last-man-standing",
                          "smuggling"}
    assert games["dm-toy"]["chat_direct"] and not games["toy"]["chat_direct"]
    assert games["toy-final"]["follows"] == ["toy", "cautious-toy"]
    toy = games["toy"]
    assert toy["options"]["properties"]["coins"]["default"] == 10
    assert toy["seat_counts"] == [2, 3, 4]
    assert toy["bots"] == ["random", "heuristic"]
    assert toy["bot_titles"]["heuristic"] == {"en": "heuristic", "ja": "ヒューリスティック"}


def test_bot_seats_carry_their_kind_in_both_languages(lobby: Lobby) -> None:
    created = lobby.create("toy", 3, name="Aki", seat_kinds=["human", "bot:random", "bot:heuristic"])
    seats = lobby.room(created["code"])["seats"]
    assert seats[0]["bot_title"] is None
    assert seats[1]["bot_title"] == {"en": "random", "ja": "ランダム"}
    assert seats[2]["bot_title"] == {"en": "heuristic", "ja": "ヒューリスティック"}


def seat_counts(lobby: Lobby, game: str, options: object = None) -> httpx.Response:
    params = {} if options is None else {"options": options if isinstance(options, str) else json.dumps(options)}
    return lobby.http.get(f"/api/games/{game}/seat-counts", params=params)


def test_seat_counts_follow_the_options_as_the_engine_decides(lobby: Lobby) -> None:
    # Last Man Standing's entry fee is $15/16/18/20/22 for 4-8 players: $18 each affords only 4-6.
    answer = seat_counts(lobby, "last-man-standing", {"starting_chips": 18})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["seat_counts"] == [4, 5, 6]
    assert body["game"] == "last-man-standing" and body["options"]["starting_chips"] == 18
    assert seat_counts(lobby, "last-man-standing").json()["seat_counts"] == [4, 5, 6, 7, 8]  # $50 by default
    toy = seat_counts(lobby, "toy", {}).json()
    assert {k: toy[k] for k in ("game", "options", "seat_counts")} == {"game": "toy", "options": {"coins": 10},
                                                                      "seat_counts": [2, 3, 4]}
    assert toy["setups"][0] == {"seats": 2, "options": {"coins": 10}, "outline": None, "minutes": None}


def test_a_team_size_left_out_follows_the_seat_count(lobby: Lobby) -> None:
    # Smuggling's team size follows the seats: 4 seats are two teams of 2, not an 18-seat room.
    body = seat_counts(lobby, "smuggling", {"small_games": 3}).json()
    assert body["seat_counts"] == [2, 4, 6, 8, 10, 12, 14, 16, 18]
    four = next(s for s in body["setups"] if s["seats"] == 4)
    assert four["options"]["team_size"] == 2 and four["options"]["small_games"] == 3
    assert four["outline"] == {"en": "Two teams of 2 players · 3 small games", "ja": "2人ずつの2チーム · 小ゲーム3回"}
    # 3 small games x (30 s vote + 30 s packing + 120 s inspection) / 2 = 270 s, and 3 x 8.6 s of reveals.
    assert four["minutes"] == 5
    # A team size given explicitly is kept, and decides the seat count.
    assert seat_counts(lobby, "smuggling", {"team_size": 3}).json()["seat_counts"] == [6]
    created = lobby.create("smuggling", 4, name="Aki", options={"small_games": 3},
                           seat_kinds=["human", "bot:random", "bot:random", "bot:random"])
    room = lobby.room(created["code"])
    assert len(room["seats"]) == 4 and room["options"]["team_size"] == 2


def test_seat_counts_refuse_invalid_options_and_unknown_games_in_both_languages(lobby: Lobby) -> None:
    cases = [("last-man-standing", {"starting_chips": 5}, 422, "options/invalid"),  # below the $15 minimum
             ("toy", {"colour": "red"}, 422, "options/invalid"),
             ("toy", [1, 2], 422, "options/invalid"),
             ("toy", "{not json", 422, "options/invalid"),
             ("nope", {}, 404, "game/unknown")]
    for game, options, status, code in cases:
        response = seat_counts(lobby, game, options)
        assert response.status_code == status, (game, options, response.text)
        error = response.json()["error"]
        assert error["code"] == code
        assert error["en"] and error["ja"] and error["en"] != error["ja"]


def test_creating_a_room_gives_a_code_a_share_link_and_the_host_seat(lobby: Lobby, server: LiveServer) -> None:
    created = lobby.create("toy", 3, name="Aki", options={"coins": 50})
    code = created["code"]
    assert len(code) == 6 and code.isupper()
    assert created["link"] == f"{server.url}/room/{code}"
    assert created["seat"] == 0 and len(created["token"]) >= 30 and len(created["host_token"]) >= 30
    room = lobby.room(code.lower())  # codes are case-insensitive
    assert room["status"] == "open" and room["options"] == {"coins": 50}
    assert [s["taken"] for s in room["seats"]] == [True, False, False]
    assert room["seats"][0]["name"] == "Aki"
    listed = {r["code"]: r for r in lobby.http.get("/api/rooms").json()}
    assert listed[code]["status"] == "open" and listed[code]["seats_taken"] == 1
    # The share link opens the web client.
    assert httpx.get(created["link"]).status_code == 200


def test_joining_takes_free_seats_in_order_and_refuses_a_taken_or_missing_seat(lobby: Lobby) -> None:
    created = lobby.create("toy", 3, name="Aki")
    code = created["code"]
    assert lobby.join(code, "Ben")["seat"] == 1
    taken = lobby.http.post(f"/api/rooms/{code}/join", json={"name": "Cy", "seat": 1})
    assert taken.status_code == 409 and error_code(taken) == "seat/taken"
    missing = lobby.http.post(f"/api/rooms/{code}/join", json={"name": "Cy", "seat": 7})
    assert error_code(missing) == "seat/no_such_seat"
    assert lobby.join(code, "Cy")["seat"] == 2
    full = lobby.http.post(f"/api/rooms/{code}/join", json={"name": "Dee"})
    assert full.status_code == 409 and error_code(full) == "room/full"


def test_only_the_host_token_starts_and_a_room_with_free_seats_does_not_start(lobby: Lobby) -> None:
    created = lobby.create("toy", 2, name="Aki")
    code = created["code"]
    for token in (None, "wrong", created["token"]):  # the host's seat token is not the host token
        headers = {"X-Host-Token": token} if token else {}
        refused = lobby.http.post(f"/api/rooms/{code}/start", headers=headers)
        assert refused.status_code == 403 and error_code(refused) == "host/bad_token"
    early = lobby.http.post(f"/api/rooms/{code}/start", headers={"X-Host-Token": created["host_token"]})
    assert early.status_code == 409 and error_code(early) == "room/seats_empty"
    filled = lobby.http.post(f"/api/rooms/{code}/fill-bots", json={"kind": "random"},
                             headers={"X-Host-Token": created["host_token"]}).json()
    assert filled["seats"][1]["kind"] == "bot" and filled["seats"][1]["bot"] == "random"
    assert lobby.start(code, created["host_token"])["status"] == "playing"
    late = lobby.http.post(f"/api/rooms/{code}/join", json={"name": "Late"})
    assert late.status_code == 409 and error_code(late) == "room/not_open"


def test_bad_room_requests_are_refused_with_reasons_in_both_languages(lobby: Lobby) -> None:
    cases = [
        ({"game": "nope", "seats": 2}, "game/unknown"),
        ({"game": "toy", "seats": 9}, "options/invalid"),
        ({"game": "toy", "seats": 2, "options": {"coins": -5}}, "options/invalid"),
        ({"game": "toy", "seats": 2, "options": {"colour": "red"}}, "options/invalid"),
        ({"game": "toy", "seats": 2, "seat_kinds": ["human", "bot:genius"]}, "room/seat_kinds"),
        ({"game": "toy", "seats": 2, "name": "x" * 30}, "name/invalid"),
        ({"game": "toy", "seats": 2, "name": "a\u0007b"}, "name/invalid"),
        ({"game": "toy", "seats": "two"}, "msg/invalid"),
        ({"game": "toy", "seats": 2, "surprise": 1}, "msg/invalid"),
    ]
    for body, code in cases:
        response = lobby.http.post("/api/rooms", json=body)
        assert 400 <= response.status_code < 500, body
        error = response.json()["error"]
        assert error["code"] == code, (body, error)
        assert error["en"] and error["ja"] and error["en"] != error["ja"]
        assert not re.search(r"[A-Za-z]+ [a-z]+", error["ja"]), error  # no English sentence in the Japanese
    assert error_code(lobby.http.get("/api/rooms/ZZZZZZ")) == "room/not_found"


def test_oversized_request_bodies_are_refused_before_parsing_and_change_nothing(lobby: Lobby) -> None:
    rooms = lobby.http.get("/api/rooms").json()
    # A room the server would create, but for the whitespace that takes it past the limit (16 KiB).
    body = b'{"game": "toy", "seats": 2' + b" " * 20000 + b"}"
    response = lobby.http.post("/api/rooms", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and error_code(response) == "msg/too_large"
    assert "16384 bytes" in response.json()["error"]["en"]
    assert lobby.http.get("/api/rooms").json() == rooms


def test_a_host_who_only_watches_gets_no_seat(lobby: Lobby) -> None:
    created = lobby.create("toy", 2, host_seat=None)
    assert created["seat"] is None and created["token"] is None
    assert [s["taken"] for s in created["room"]["seats"]] == [False, False]


def test_openapi_describes_the_lobby(lobby: Lobby) -> None:
    spec = lobby.http.get("/openapi.json").json()
    for path in ("/api/games", "/api/rooms", "/api/rooms/{code}/join", "/api/rooms/{code}/start",
                 "/api/rooms/{code}/replay"):
        assert path in spec["paths"]


def test_lobby_writes_are_rate_limited_per_client(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, settings={"http_rate_burst": 5, "http_rate_per_second": 0.2}).start()
    try:
        client = Lobby(live.url)
        answers = [client.http.post("/api/rooms", json={"game": "toy", "seats": 2}) for _ in range(7)]
        assert [a.status_code for a in answers] == [200] * 5 + [429] * 2
        assert error_code(answers[-1]) == "rate/limited"
        assert client.http.get("/api/rooms").status_code == 200  # reading is not limited
        client.http.close()
    finally:
        live.stop()


def test_a_room_s_join_link_is_served_as_a_qr_code_drawn_locally(lobby: Lobby) -> None:
    created = lobby.create("toy", 2, name="Aki")
    answer = lobby.http.get(f"/api/rooms/{created['code']}/qr.svg")
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
    svg = answer.text
    # Scales to any size (a viewBox, no fixed size) and names the link it encodes.
    assert "<svg" in svg and "viewBox=" in svg and " width=" not in svg.split("<svg", 1)[1].split(">", 1)[0]
    assert f"<title>{created['link']}</title>" in svg
    assert lobby.http.get("/api/rooms/NOSUCH/qr.svg").status_code == 404


def test_the_server_says_where_to_open_it_in_both_languages(server: LiveServer) -> None:
    started = server.log.read_text(encoding="utf-8")
    assert f"partygames: open {server.url} (database: sqlite" in started
    assert f"partygames: ブラウザで {server.url} を開いてください(データベース: sqlite" in started
