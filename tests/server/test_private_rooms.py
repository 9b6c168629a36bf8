"""Room privacy (issue #21, item 9): a host can make a room private, unlisted and joinable by code or link
only, kept through a restart and in databases from before; and guessing room codes is limited per client
address, so that walking into other people's tables by guessing takes years, not minutes."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect, make_url, text
from websockets.exceptions import ConnectionClosed

from partygames.server import migrations
from partygames.server.settings import normalize_database_url
from partygames.server.storage import Storage
from tests.server.client import Lobby, Socket
from tests.server.live import LiveServer

pytestmark = pytest.mark.xdist_group("server-restart")

BURST = 5
RATE = 0.5  # lookups of unknown codes a second, per address


def listed(lobby: Lobby) -> set[str]:
    return {r["code"] for r in lobby.http.get("/api/rooms").json()}


def test_a_private_room_is_unlisted_but_joinable_by_code_and_stays_so_after_a_restart(tmp_path: Path) -> None:
    live = LiveServer(tmp_path).start()
    try:
        lobby = Lobby(live.url)
        hidden = lobby.create("toy", 2, name="Aki", private=True)
        shown = lobby.create("toy", 2, name="Ben")
        code = hidden["code"]
        assert hidden["room"]["private"] is True and shown["room"]["private"] is False
        assert shown["code"] in listed(lobby) and code not in listed(lobby)
        # The code (or the link) is all it takes: look it up, join it, watch it.
        assert lobby.room(code.lower())["private"] is True
        assert lobby.join(code, "Cy")["seat"] == 1
        watcher = Socket(live.ws_url, code)
        assert watcher.recv()["room"]["private"] is True
        watcher.close()
        live.stop()
        live.start()  # rebuilt from the database
        assert lobby.room(code)["private"] is True and code not in listed(lobby) and shown["code"] in listed(lobby)
        lobby.http.close()
    finally:
        live.stop()


def test_private_takes_a_boolean_only(lobby: Lobby) -> None:
    for value in ("yes", 1, None):
        answer = lobby.http.post("/api/rooms", json={"game": "toy", "seats": 2, "private": value})
        assert answer.status_code == 422 and answer.json()["error"]["code"] == "msg/invalid", value


def fresh_database(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """An empty database: a SQLite file, or a new database in the test PostgreSQL cluster."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'before.sqlite3'}"
    server = make_url(normalize_database_url(request.getfixturevalue("pg_url")))
    name = f"before_private_{uuid.uuid4().hex[:8]}"
    engine = create_engine(server, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return server.set(database=name).render_as_string(hide_password=False)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_from_before_private_rooms_keeps_its_rooms_listed(backend: str, tmp_path: Path,
                                                                      request: pytest.FixtureRequest) -> None:
    url = fresh_database(backend, tmp_path, request)
    engine = create_engine(url)
    with engine.begin() as conn:  # the tables as they were before private rooms (revision 0001), one room in them
        command.upgrade(migrations.config(conn), "0001")
        assert "private" not in {c["name"] for c in inspect(conn).get_columns("rooms")}
        conn.execute(text("INSERT INTO rooms (code, game, seats, options, status, host_token_hash, created_at) "
                          "VALUES ('OLDONE', 'toy', 2, '{}', 'open', :hash, :now)"), {"hash": "h" * 64, "now": time.time()})
    engine.dispose()
    store = Storage(url)  # upgraded to the newest revision
    try:
        assert [r["code"] for r in store.recent()] == ["OLDONE"]
        loaded = store.load("OLDONE")
        assert loaded is not None and loaded.row["private"] is False
    finally:
        store.close()
    Storage(url).close()  # opening again changes nothing


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("guessing"),
                      settings={"unknown_code_burst": BURST, "unknown_code_rate": RATE}).start()
    yield live
    live.stop()


def test_guessing_room_codes_is_limited_per_address(guarded: LiveServer) -> None:
    lobby = Lobby(guarded.url)
    code = lobby.create("toy", 2, name="Aki", private=True)["code"]
    guesser = {"X-Forwarded-For": "10.0.0.66"}  # uvicorn takes the client's address from the local proxy
    for guess in ("AAAAAA", "AAAAAB", "AAAAAC", "AAAAAD", "AAAAAE"):
        assert lobby.http.get(f"/api/rooms/{guess}", headers=guesser).status_code == 404
    for path in (f"/api/rooms/{code}", "/api/rooms/AAAAAF", f"/api/rooms/{code}/qr.svg"):
        answer = lobby.http.get(path, headers=guesser)
        assert answer.status_code == 429, path  # a room that exists too: the refusal tells nothing
        error = answer.json()["error"]
        assert error["code"] == "rate/room_lookups" and error["en"] and error["ja"]
    joining = lobby.http.post(f"/api/rooms/{code}/join", json={"name": "Eve"}, headers=guesser)
    assert joining.status_code == 429
    assert lobby.room(code)["seats"][1]["taken"] is False
    assert lobby.http.get(f"/api/rooms/{code}").status_code == 200  # another address is not held up
    time.sleep(1.2 / RATE)  # a lookup's worth of budget is back
    assert lobby.http.get(f"/api/rooms/{code}", headers=guesser).status_code == 200
    lobby.http.close()


def test_guessing_room_codes_over_websockets_is_limited_too(guarded: LiveServer) -> None:
    lobby = Lobby(guarded.url)
    code = lobby.create("toy", 2, name="Aki")["code"]
    for guess in ("BBBBBA", "BBBBBB", "BBBBBC", "BBBBBD", "BBBBBE"):
        missing = Socket(guarded.ws_url, guess)
        assert missing.recv()["code"] == "room/not_found"
    refused = Socket(guarded.ws_url, code)
    error = refused.recv()
    assert error["type"] == "error" and error["code"] == "rate/room_lookups"
    with pytest.raises(ConnectionClosed) as closed:
        refused.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    lobby.http.close()
