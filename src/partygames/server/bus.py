"""Messages between the processes that serve one database: PostgreSQL's LISTEN/NOTIFY.

Each process listens on its own channel (`node_channel`: actions forwarded to the rooms it owns, refusals
and frames for its connections) and on the channel of every room it has in memory (`room_channel`: new log
entries, lobby changes, chat, presence). The owner's notice of new log entries is sent inside the
transaction that stores them (`Storage.write`), so PostgreSQL delivers it only once they are committed,
and never if they are not. A notice carries no state: the receiver reads what changed from the tables, so
a lost notice (a dropped listening connection) costs only a delay, and `on_reconnect` tells the hub to
read everything again. SQLite serves one process, which needs no bus (`NullBus`).

Why PostgreSQL rather than Redis: it is already there, its notices are transactional (a notice of an entry
that was never committed cannot exist), and the payloads are small (docs/scaling.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], None]

# PostgreSQL refuses a notice's payload of 8000 bytes or more.
MAX_PAYLOAD = 7900


def node_channel(node: str) -> str:
    return f"pgn_{node}".lower()


def room_channel(code: str) -> str:
    return f"pgr_{code}".lower()


# Every process listens here: rooms released by a process that stops, for any of them to take at once.
RELEASED = "pg_released"


class Bus:
    """Nothing to say to anyone (one process alone: SQLite)."""

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def listen(self, channel: str, handler: Handler) -> None:
        return None

    async def unlisten(self, channel: str) -> None:
        return None

    async def send(self, channel: str, payload: dict[str, Any]) -> None:
        return None


NullBus = Bus


class PostgresBus(Bus):
    """LISTEN/NOTIFY on two connections of their own: one that listens (and only that), one that sends."""

    POLL = 0.1  # how often the listener stops to take new LISTENs (notices that arrive meanwhile wait)

    def __init__(self, dsn: str, on_reconnect: Callable[[], Awaitable[None]] | None = None) -> None:
        self.dsn = dsn
        self.on_reconnect = on_reconnect
        self.handlers: dict[str, Handler] = {}
        self._changes: list[tuple[str, bool, asyncio.Future[None]]] = []  # (channel, listen?, done)
        self._listener: Any = None
        self._sender: Any = None
        self._send_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self._live = False  # listening now (else every channel of `handlers` is listened to on reconnecting)
        # A database that does not answer is an error in seconds (the DSN's own timeout wins).
        self._timeout: dict[str, Any] = {} if "connect_timeout" in dsn else {"connect_timeout": 5}

    async def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="bus")
        await asyncio.wait_for(self._connected.wait(), 30)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        for conn in (self._listener, self._sender):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    async def listen(self, channel: str, handler: Handler) -> None:
        """Calls `handler(payload)` for every notice on `channel` from now on (returns once listening)."""
        self.handlers[channel] = handler
        await self._change(channel, True)

    async def unlisten(self, channel: str) -> None:
        if self.handlers.pop(channel, None) is not None:
            await self._change(channel, False)

    async def _change(self, channel: str, listen: bool) -> None:
        if not self._live:
            return  # the connection is down: reconnecting listens to `handlers` (a request waits for nothing)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._changes.append((channel, listen, done))
        await done

    async def send(self, channel: str, payload: dict[str, Any]) -> None:
        """A notice now, outside any transaction (a forwarded action, a refusal)."""
        import psycopg

        text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
        if len(text.encode()) > MAX_PAYLOAD:
            raise ValueError(f"a notice of {len(text.encode())} bytes is too large for PostgreSQL")
        async with self._send_lock:
            for attempt in range(2):
                try:
                    if self._sender is None or self._sender.closed:
                        self._sender = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True,
                                                                             **self._timeout)
                    await self._sender.execute("SELECT pg_notify(%s, %s)", (channel, text))
                    return
                except psycopg.OperationalError:
                    self._sender = None
                    if attempt:
                        raise

    async def _run(self) -> None:
        import psycopg

        delay = 0.2
        while True:
            try:
                self._listener = conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True,
                                                                              **self._timeout)
                for channel in self.handlers:
                    await conn.execute(f'LISTEN "{channel}"')
                reconnected = self._connected.is_set()
                self._live = True
                self._connected.set()
                delay = 0.2
                if reconnected and self.on_reconnect is not None:
                    await self.on_reconnect()  # notices may have been lost while the connection was down
                while True:
                    while self._changes:
                        channel, listen, done = self._changes.pop(0)
                        await conn.execute(f'{"LISTEN" if listen else "UNLISTEN"} "{channel}"')
                        if not done.done():
                            done.set_result(None)
                    async for notice in conn.notifies(timeout=self.POLL):
                        self._dispatch(notice.channel, notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self._live = False
                for _channel, _listen, done in self._changes:  # (listened to on reconnecting, from `handlers`)
                    if not done.done():
                        done.set_result(None)
                self._changes.clear()
                said = str(error).strip().splitlines()
                log.warning("the database's notices were lost (%s); listening again in %.1f s",
                            said[0] if said else type(error).__name__, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    def _dispatch(self, channel: str, payload: str) -> None:
        handler = self.handlers.get(channel)
        if handler is None:
            return
        try:
            handler(json.loads(payload))
        except Exception:
            log.exception("a notice on %s could not be handled", channel)
