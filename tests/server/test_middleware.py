"""The HTTP gates (server/middleware.py) in front of a small app that records every write it takes:
a refused request gets a clear error and reaches no route."""

from __future__ import annotations

import json
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message

from partygames.server.middleware import BodyLimit, PostRateLimit
from tests.server.loops import run

LIMIT = 1000


class Recorder:
    """An app with one route: POST stores the body, GET lists what was stored."""

    def __init__(self) -> None:
        self.stored: list[bytes] = []

        async def write(request: Request) -> JSONResponse:
            self.stored.append(await request.body())
            return JSONResponse({"stored": len(self.stored)})

        async def read(_request: Request) -> JSONResponse:
            return JSONResponse({"stored": len(self.stored)})

        self.app = Starlette(routes=[Route("/things", write, methods=["POST"]), Route("/things", read)])


def request(app: ASGIApp, method: str, body: bytes = b"", client: str = "testclient",
            headers: dict[str, str] | None = None) -> httpx.Response:
    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, client=(client, 1234))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            return await http.request(method, "/things", content=body, headers=headers)

    return run(go)


def raw_call(app: ASGIApp, chunks: list[bytes], headers: list[tuple[bytes, bytes]]) -> tuple[list[Message], int]:
    """Calls `app` with a POST whose body arrives in `chunks` (no Content-Length unless given);
    returns what it sent and how many body messages it read."""
    sent: list[Message] = []
    incoming: list[Message] = [{"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
                               for i, chunk in enumerate(chunks)]
    read = 0

    async def receive() -> Message:
        nonlocal read
        if read < len(incoming):
            read += 1
            return incoming[read - 1]
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    scope: dict[str, Any] = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                             "scheme": "http", "path": "/things", "raw_path": b"/things", "query_string": b"",
                             "root_path": "", "headers": headers, "client": ("testclient", 1234),
                             "server": ("test", 80)}
    async def call() -> None:
        await app(scope, receive, send)

    run(call)
    return sent, read


def status_and_body(sent: list[Message]) -> tuple[int, Any]:
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body)


def test_an_oversized_body_gets_a_clear_413_and_reaches_no_route() -> None:
    recorder = Recorder()
    app = BodyLimit(recorder.app, limit=LIMIT)
    response = request(app, "POST", b"x" * (LIMIT + 1))
    assert response.status_code == 413
    error = response.json()["error"]
    assert error == {"code": "msg/too_large", "en": f"A request body may be at most {LIMIT} bytes.",
                     "ja": f"リクエスト本文は最大 {LIMIT} バイトです。"}
    assert recorder.stored == []
    assert request(app, "GET").json() == {"stored": 0}


def test_a_body_at_the_limit_reaches_the_route_unchanged() -> None:
    recorder = Recorder()
    app = BodyLimit(recorder.app, limit=LIMIT)
    body = bytes(range(256)) * 3 + b"y" * (LIMIT - 768)
    assert request(app, "POST", body).json() == {"stored": 1}
    assert recorder.stored == [body]


def test_a_declared_length_over_the_limit_is_refused_before_any_byte_is_read() -> None:
    recorder = Recorder()
    sent, read = raw_call(BodyLimit(recorder.app, limit=LIMIT), [b"x" * 10],
                          [(b"content-length", str(LIMIT + 1).encode())])
    status, body = status_and_body(sent)
    assert (status, body["error"]["code"], read, recorder.stored) == (413, "msg/too_large", 0, [])


def test_a_streamed_body_is_refused_once_it_passes_the_limit() -> None:
    recorder = Recorder()
    chunks = [b"x" * 400] * 5  # no Content-Length; the third chunk passes the limit
    sent, read = raw_call(BodyLimit(recorder.app, limit=LIMIT), chunks, [])
    status, body = status_and_body(sent)
    assert (status, body["error"]["code"], read, recorder.stored) == (413, "msg/too_large", 3, [])


def test_a_streamed_body_within_the_limit_is_handed_on_whole() -> None:
    recorder = Recorder()
    sent, read = raw_call(BodyLimit(recorder.app, limit=LIMIT), [b"ab" * 100, b"cd" * 100, b""], [])
    assert status_and_body(sent) == (200, {"stored": 1}) and read == 3
    assert recorder.stored == [b"ab" * 100 + b"cd" * 100]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_posts_beyond_the_rate_get_429_and_reach_no_route_while_reading_stays_open() -> None:
    recorder, clock = Recorder(), Clock()
    app = PostRateLimit(recorder.app, rate=0.5, burst=2, clock=clock)
    answers = [request(app, "POST", b"a") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[-1].json()["error"] == {"code": "rate/limited", "en": "Too many requests; wait a little.",
                                           "ja": "リクエストが多すぎます。少し待ってください。"}
    assert len(recorder.stored) == 2
    assert [request(app, "GET").status_code for _ in range(5)] == [200] * 5
    assert request(app, "POST", b"b", client="10.0.0.2").status_code == 200  # another client has its own
    clock.now = 2.0  # one token back at 0.5 a second
    assert [request(app, "POST", b"c").status_code for _ in range(2)] == [200, 429]
    assert recorder.stored == [b"a", b"a", b"b", b"c"]


def test_a_client_over_its_rate_is_refused_before_its_body_is_read() -> None:
    recorder = Recorder()
    app = PostRateLimit(BodyLimit(recorder.app, limit=LIMIT), rate=0.01, burst=1, clock=Clock())
    assert request(app, "POST", b"x").status_code == 200
    sent, read = raw_call(app, [b"x" * 10], [])
    assert (status_and_body(sent)[0], read) == (429, 0)


def test_with_a_depth_a_body_must_be_json_any_client_may_send_or_reach_no_route() -> None:
    recorder = Recorder()
    app = BodyLimit(recorder.app, limit=LIMIT, max_depth=4)
    refused = {b'{"a": [[[[1]]]]}': "msg/too_deep", b'{"name": "\\udc00"}': "msg/invalid_text",
               b'{"name": "\xff"}': "msg/invalid_text", b'{"n": 9007199254740993}': "msg/number_too_large",
               b'{"n": NaN}': "msg/malformed_json", b"{oops": "msg/malformed_json"}
    for body, code in refused.items():
        response = request(app, "POST", body)
        assert response.status_code == 400 and response.json()["error"]["code"] == code, body
    accepted = [b'{"a": [[["]]]]]]"]]]}', b'{"name": "\\ud83c\\udfb2"}', b""]
    assert [request(app, "POST", body).status_code for body in accepted] == [200] * 3
    assert recorder.stored == accepted
