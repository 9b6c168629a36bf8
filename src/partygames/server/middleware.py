"""The HTTP gates in front of the routes, as plain ASGI middleware (Starlette's style): each is
`__init__(app, ...)` and `async __call__(scope, receive, send)`, and refuses with the platform's
error body before a route runs, so a refused request changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.protocol import load_json
from partygames.server.ratelimit import ClientBuckets


async def _refuse(error: ServerError, scope: Scope, receive: Receive, send: Send) -> None:
    await JSONResponse({"error": error.to_json()}, status_code=error.status)(scope, receive, send)


class BodyLimit:
    """Refuses HTTP request bodies over `limit` bytes with 413 (`msg/too_large`) before the route
    reads them: at once when the declared `Content-Length` is over, else as soon as the bytes received
    pass it. A body within the limit is read whole; with `max_depth`, it must then be JSON as
    `protocol.load_json` takes it from any client (at most `max_depth` levels deep, text valid Unicode,
    integers within ±2^53), else 400 with that code. It is handed on unchanged."""

    def __init__(self, app: ASGIApp, limit: int, max_depth: int | None = None) -> None:
        self.app = app
        self.limit = limit
        self.max_depth = max_depth

    def too_large(self) -> ServerError:
        return ServerError(Code.MSG_TOO_LARGE, f"A request body may be at most {self.limit} bytes.",
                           f"リクエスト本文は最大 {self.limit} バイトです。", 413)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            await _refuse(self.too_large(), scope, receive, send)
            return
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                await _refuse(self.too_large(), scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        if self.max_depth is not None and size:
            body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.request")
            try:
                if body.strip():
                    load_json(body, self.max_depth)
            except ServerError as error:
                await _refuse(error, scope, receive, send)
                return

        async def replay_receive() -> Message:
            if messages:
                return messages.pop(0)
            return await receive()

        await self.app(scope, replay_receive, send)


class PostRateLimit:
    """Refuses a client address's `POST`s (the lobby's writes) beyond `rate` a second with bursts of
    `burst`, with 429 (`rate/limited`). Reading is not limited. `clock` is for tests."""

    def __init__(self, app: ASGIApp, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.buckets = ClientBuckets(rate, burst)
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            client = scope.get("client")
            if not self.buckets.allow(client[0] if client else "?", self.clock()):
                await _refuse(ServerError(Code.RATE_LIMITED, "Too many requests; wait a little.",
                                          "リクエストが多すぎます。少し待ってください。", 429), scope, receive, send)
                return
        await self.app(scope, receive, send)
