"""Hostile input against a real server: deep JSON, text that is not Unicode, values of the wrong type,
clients that vanish. Each is refused with a coded error in both languages (HTTP: `{"error": {...}}`;
WebSocket: an `error` frame, the socket staying usable), changes nothing, and leaves no traceback in
the server's log (issue #21, items 2, 3, 5 and 6)."""

from __future__ import annotations

import json
import os
import re
import socket
import struct
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer

BID = {"type": "bid", "amount": 3}
DEPTH = 32  # the server's default `max_json_depth`


@pytest.fixture(autouse=True)
def no_tracebacks(server: LiveServer) -> Iterator[None]:
    """Nothing a client does may put a traceback (or uvicorn's "Exception in ASGI application") in the log."""
    start = server.log.stat().st_size
    yield
    time.sleep(0.2)  # what the last request caused is logged
    with server.log.open("rb") as log:
        log.seek(start)
        written = log.read().decode("utf-8", "replace")
    assert "Traceback" not in written and "Exception in ASGI" not in written, written[-3000:]


def assert_coded(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert set(error) == {"code", "en", "ja"} and error["code"] == code, error
    assert error["en"] and error["ja"] and not re.search(r"[A-Za-z]+ [a-z]+", error["ja"]), error
    return error


def nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


def playing(lobby: Lobby, server: LiveServer) -> tuple[Socket, dict[str, Any]]:
    """Seat 0 of a started two-seat toy room, at version 0."""
    created, tokens = human_room(lobby)
    me = Socket(server.ws_url, created["code"], tokens[0])
    me.update(0)
    return me, created


def still_usable(me: Socket, ref: str) -> None:
    """The socket answers an action with its acknowledgement: nothing before it was taken."""
    time.sleep(0.5)  # the frames before may have used the connection's burst (40 frames)
    me.act(BID, ref)
    update = me.update()
    assert update["acks"] == [ref] and update["version"] == 1


# -- item 2: JSON nesting is bounded everywhere a client's JSON is read -------------------------------------
def test_deep_options_in_a_query_get_a_coded_400_not_a_500(lobby: Lobby) -> None:
    for options in ("[" * 1000, nested(DEPTH + 1), '{"a":' * 50 + "1" + "}" * 50):
        answer = lobby.http.get("/api/games/toy/seat-counts", params={"options": options})
        assert_coded(answer, 400, "msg/too_deep")
    assert lobby.http.get("/api/games/toy/seat-counts", params={"options": "{}"}).status_code == 200


def test_deep_request_bodies_get_a_coded_400_and_change_nothing(lobby: Lobby) -> None:
    rooms = lobby.http.get("/api/rooms").json()
    body = '{"game": "toy", "seats": 2, "options": {"coins": ' + nested(3000) + "}}"
    answer = lobby.http.post("/api/rooms", content=body, headers={"Content-Type": "application/json"})
    error = assert_coded(answer, 400, "msg/too_deep")
    assert str(DEPTH) in error["en"] and str(DEPTH) in error["ja"]
    assert lobby.http.get("/api/rooms").json() == rooms
    created = lobby.create("toy", 2, name="Aki")
    joining = lobby.http.post(f"/api/rooms/{created['code']}/join", content='{"name": ' + nested(DEPTH + 1, '"x"') + "}")
    assert_coded(joining, 400, "msg/too_deep")
    assert [s["taken"] for s in lobby.room(created["code"])["seats"]] == [True, False]


def test_nesting_within_the_limit_and_brackets_inside_strings_are_not_refused_as_deep(lobby: Lobby,
                                                                                       server: LiveServer) -> None:
    within = lobby.http.post("/api/rooms", json={"game": "toy", "seats": 2, "options": {"coins": json.loads(
        nested(DEPTH - 2))}})
    assert_coded(within, 422, "options/invalid")  # read, then refused by the game for what it says
    me, _ = playing(lobby, server)
    me.send({"type": "chat", "text": "[" * 100 + "{" * 100})
    assert me.until(lambda f: f["type"] == "chat")["text"] == "[" * 100 + "{" * 100


def test_a_deep_frame_gets_a_coded_error_and_the_socket_stays_usable(lobby: Lobby, server: LiveServer) -> None:
    me, _ = playing(lobby, server)
    me.ws.send('{"type": "action", "action": {"type": "bid", "amount": ' + nested(DEPTH) + '}, "id": "deep"}')
    error = me.error()
    assert error["code"] == "msg/too_deep" and error["ja"]
    me.ws.send(nested(1500))
    assert me.error()["code"] == "msg/too_deep"
    still_usable(me, "after")


# -- item 3: text that is not Unicode ------------------------------------------------------------------------
SURROGATE = "\\ud800"  # as it appears in the JSON text: an unpaired (high) surrogate
LOW = "\\udfff"


def surrogate_frames() -> list[str]:
    """Every text field of every frame, and a field name, holding an unpaired surrogate."""
    frames = []
    for bad in (SURROGATE, LOW, "a" + SURROGATE + "b", LOW + SURROGATE):
        frames += [
            f'{{"type": "{bad}"}}',
            f'{{"type": "action", "action": {{"type": "{bad}"}}, "id": "x"}}',
            f'{{"type": "action", "action": {{"type": "bid", "{bad}": 3}}, "id": "x"}}',
            f'{{"type": "action", "action": {{"type": "bid", "amount": "{bad}"}}, "id": "x"}}',
            f'{{"type": "action", "action": {{"type": "bid", "amount": ["{bad}"]}}, "id": "x"}}',
            f'{{"type": "action", "action": {{"type": "bid", "amount": 3}}, "id": "{bad}"}}',
            f'{{"type": "chat", "channel": "{bad}", "text": "hi"}}',
            f'{{"type": "chat", "text": "{bad}"}}',
            f'{{"type": "ping", "{bad}": 1}}',
            f'{{"type": "sync", "since": "{bad}"}}',
        ]
    return frames


def test_unpaired_surrogates_in_any_text_field_get_a_coded_error_and_the_socket_stays_usable(
        lobby: Lobby, server: LiveServer) -> None:
    me, created = playing(lobby, server)
    for raw in surrogate_frames():
        me.ws.send(raw)
        error = me.error(timeout=5)
        assert error["code"] == "msg/invalid_text", (raw, error)
        assert error["en"] and error["ja"]
    assert lobby.room(created["code"])["version"] == 0
    still_usable(me, "after")


def test_paired_surrogates_are_text_like_any_other(lobby: Lobby, server: LiveServer) -> None:
    me, _ = playing(lobby, server)
    me.ws.send('{"type": "chat", "text": "\\ud83c\\udfb2 rolled"}')
    assert me.until(lambda f: f["type"] == "chat")["text"] == "\U0001f3b2 rolled"


def masked(opcode: int, payload: bytes) -> bytes:
    """One client-to-server WebSocket frame (clients mask theirs)."""
    mask = os.urandom(4)
    size = len(payload)
    head = bytes([0x80 | opcode]) + (bytes([0x80 | size]) if size < 126 else bytes([0xFE]) + struct.pack("!H", size))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_invalid_utf8_in_a_binary_frame_gets_a_coded_error_and_the_socket_stays_usable(
        lobby: Lobby, server: LiveServer) -> None:
    me, _ = playing(lobby, server)
    for payload in (b'{"type": "chat", "text": "\xff"}', b'{"type": "\xed\xa0\x80"}', b"\xc3"):
        me.ws.send(payload)
        assert me.error()["code"] == "msg/invalid_text", payload
    still_usable(me, "after")


def test_invalid_utf8_in_a_text_frame_closes_the_socket_1007_without_a_traceback(lobby: Lobby,
                                                                                 server: LiveServer) -> None:
    me, created = playing(lobby, server)
    sock: socket.socket = me.ws.socket
    sock.sendall(masked(0x1, b'{"type": "chat", "text": "\xff"}'))  # RFC 6455 8.1: the endpoint fails the connection
    with pytest.raises(ConnectionClosed) as closed:
        me.until(lambda f: False, timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    assert lobby.room(created["code"])["version"] == 0


def test_unpaired_surrogates_in_http_bodies_and_queries_get_coded_errors(lobby: Lobby) -> None:
    created = lobby.create("toy", 2, name="Aki")
    headers = {"Content-Type": "application/json"}
    for path, body in (("/api/rooms", f'{{"game": "{SURROGATE}", "seats": 2}}'),
                       ("/api/rooms", f'{{"game": "toy", "seats": 2, "options": {{"{SURROGATE}": 1}}}}'),
                       ("/api/rooms", f'{{"game": "toy", "seats": 2, "name": "A{LOW}"}}'),
                       (f"/api/rooms/{created['code']}/join", f'{{"name": "{SURROGATE}"}}')):
        assert_coded(lobby.http.post(path, content=body, headers=headers), 400, "msg/invalid_text")
    answer = lobby.http.get("/api/games/toy/seat-counts", params={"options": f'{{"{SURROGATE}": 1}}'})
    assert_coded(answer, 400, "msg/invalid_text")
    assert [s["taken"] for s in lobby.room(created["code"])["seats"]] == [True, False]


# -- item 6: values of the wrong type are refused, not converted -----------------------------------------------
def test_http_bodies_take_values_of_their_documented_types_only(lobby: Lobby) -> None:
    rooms = lobby.http.get("/api/rooms").json()
    for body in ({"game": "toy", "seats": "2"}, {"game": "toy", "seats": 2.0}, {"game": "toy", "seats": True},
                 {"game": "toy", "seats": 2, "host_seat": "0"}, {"game": "toy", "seats": 2, "seat_kinds": "human"},
                 {"game": "toy", "seats": 2, "name": 7}, {"game": ["toy"], "seats": 2}):
        assert_coded(lobby.http.post("/api/rooms", json=body), 422, "msg/invalid")
    assert lobby.http.get("/api/rooms").json() == rooms
    created = lobby.create("toy", 3, name="Aki")
    code = created["code"]
    for body in ({"name": "Ben", "seat": "1"}, {"name": "Ben", "seat": 1.0}, {"name": "Ben", "seat": True}):
        assert_coded(lobby.http.post(f"/api/rooms/{code}/join", json=body), 422, "msg/invalid")
    assert [s["taken"] for s in lobby.room(code)["seats"]] == [True, False, False]
    host = {"X-Host-Token": created["host_token"]}
    assert_coded(lobby.http.post(f"/api/rooms/{code}/fill-bots", json={"kind": 1}, headers=host), 422, "msg/invalid")
    assert lobby.join(code, "Ben", seat=1)["seat"] == 1  # the right type still works


def test_fastapi_s_own_refusals_have_the_documented_shape(lobby: Lobby) -> None:
    created, _ = human_room(lobby)
    code = created["code"]
    assert_coded(lobby.http.get(f"/api/rooms/{code}/replay", params={"seat": "one"}), 422, "msg/invalid")
    assert_coded(lobby.http.post("/api/rooms", content=b"[1, 2]", headers={"Content-Type": "application/json"}),
                 422, "msg/invalid")
    assert_coded(lobby.http.post(f"/api/rooms/{code}/join", content=b"{oops"), 400, "msg/malformed_json")
    assert_coded(lobby.http.get("/api/no-such-thing"), 404, "path/not_found")
    assert_coded(lobby.http.get("/static/no-such-file.js"), 404, "path/not_found")
    assert_coded(lobby.http.delete(f"/api/rooms/{code}"), 405, "path/method")


@pytest.mark.parametrize("frame", [
    {"type": "sync", "since": "0"},
    {"type": "sync", "since": 0.0},
    {"type": "sync", "since": True},
    {"type": "action", "action": BID, "id": "s", "seat": "0"},
    {"type": "action", "action": BID, "id": "s", "seat": False},
    {"type": "action", "action": BID, "id": 1.0},
    {"type": "action", "action": BID, "id": True},
    {"type": "chat", "channel": 1, "text": "hi"},
    {"type": "chat", "text": ["hi"]},
])
def test_frames_take_values_of_their_documented_types_only(lobby: Lobby, server: LiveServer,
                                                           frame: dict[str, Any]) -> None:
    me, created = playing(lobby, server)
    me.send(frame)
    error = me.error()
    assert error["code"] == "msg/invalid" and error["en"] and error["ja"], error
    assert not [f for f in me.quiet(0.2) if f["type"] in ("update", "chat")]
    assert lobby.room(created["code"])["version"] == 0
    still_usable(me, "after")


def test_an_action_field_of_the_wrong_type_is_the_engine_s_refusal(lobby: Lobby, server: LiveServer) -> None:
    me, _ = playing(lobby, server)
    for amount in ("3", 3.0, True, None, [3]):
        me.act({"type": "bid", "amount": amount}, "typed")
        assert me.error()["code"] in ("action/malformed", "action/out_of_range"), amount
    still_usable(me, "after")


# -- item 5: a client that vanishes leaves no traceback ----------------------------------------------------------
def vanish(server: LiveServer, path: str) -> None:
    """Opens a WebSocket, and drops the TCP connection as soon as the handshake is answered."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        assert sock.recv(12) == b"HTTP/1.1 101"
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # a reset, not a close


def test_clients_that_vanish_right_after_the_handshake_leave_no_traceback(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby)
    code = created["code"]
    paths = ["/ws/QQQQQQ", f"/ws/{code}?token=wrong", f"/ws/{code}", f"/ws/{code}?token={tokens[0]}&since=0"]
    for _ in range(10):
        for path in paths:
            vanish(server, path)
    me = Socket(server.ws_url, code, tokens[1])  # and the room goes on
    me.act(BID, "still")
    assert me.update(1)["acks"] == ["still"]


# -- issue #31, item 9: numbers from outside are ASCII digits ---------------------------------------------------
@pytest.mark.parametrize("since", ["%C2%B2", "%E2%91%A0", "%D9%A1", "1_0", "+1"])  # ², ①, Arabic-Indic 1
def test_a_since_that_is_no_ascii_number_is_ignored_and_the_socket_is_served(lobby: Lobby, server: LiveServer,
                                                                               since: str) -> None:
    created, tokens = human_room(lobby)
    url = f"{server.ws_url}/ws/{created['code']}?token={tokens[0]}&since={since}"
    with connect(url, open_timeout=10) as ws:
        frames = [json.loads(ws.recv(timeout=10)) for _ in range(2)]
        assert [f["type"] for f in frames] == ["welcome", "update"], frames  # a fresh view, as without `since`
        ws.send(json.dumps({"type": "action", "action": BID, "id": "after"}))
        while (frame := json.loads(ws.recv(timeout=10)))["type"] != "update":
            pass
        assert frame["acks"] == ["after"]


def test_seat_numbers_in_paths_and_queries_are_ascii_digits(lobby: Lobby) -> None:
    created, _ = human_room(lobby)
    code, host = created["code"], {"X-Host-Token": created["host_token"]}
    for seat in ("²", "①", "١", "1_0", "+1", " 1", "1.0"):
        assert_coded(lobby.http.get(f"/api/rooms/{code}/replay", params={"seat": seat}), 422, "msg/invalid")
        answer = lobby.http.post(f"/api/rooms/{code}/seats/{seat}/standin", json={"kind": None}, headers=host)
        assert_coded(answer, 422, "msg/invalid")
    # The digits 0-9 still reach the route: the match is not over, the seat is present.
    assert_coded(lobby.http.get(f"/api/rooms/{code}/replay", params={"seat": "1"}), 409, "room/not_over")
    answer = lobby.http.post(f"/api/rooms/{code}/seats/1/standin", json={"kind": "random"}, headers=host)
    assert_coded(answer, 409, "seat/present")


# -- issue #31, item 10: a NUL byte in a file name is no file -----------------------------------------------------
@pytest.mark.parametrize("path", ["/games/smuggling/%00", "/games/smuggling/view.js%00.py",
                                  "/games/smuggling/%00view.js"])
def test_a_game_file_name_with_a_nul_byte_is_not_found(lobby: Lobby, path: str) -> None:
    assert lobby.http.get("/games/smuggling/view.js").status_code == 200
    assert_coded(lobby.http.get(path), 404, "file/not_found")
