"""A database written before the tables were renamed (pg_rooms, pg_actions, ...) opens with its data kept:
rooms, seats and chat as they were, log times turned into match milliseconds, the old tables gone, and a
playing room resumes on a real server where it stood."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from partygames.server.settings import normalize_database_url
from partygames.server.storage import Storage
from tests.server.client import Lobby, Socket
from tests.server.live import LiveServer
from tests.server.pg import fresh_database

pytestmark = pytest.mark.xdist_group("server-restart")

# The schema as the server created it until issue #7 (storage.py at commit 7c90151).
OLD_SCHEMA = """
CREATE TABLE pg_rooms (code VARCHAR(12) PRIMARY KEY, game VARCHAR(64) NOT NULL, seats INTEGER NOT NULL,
  options TEXT NOT NULL, status VARCHAR(16) NOT NULL, seed TEXT, host_token_hash VARCHAR(64) NOT NULL,
  host_seat INTEGER, created_at FLOAT NOT NULL, started_at FLOAT, phase TEXT, phase_started_at FLOAT, result TEXT);
CREATE TABLE pg_seats (room VARCHAR(12) REFERENCES pg_rooms(code), seat INTEGER, kind VARCHAR(16) NOT NULL,
  bot VARCHAR(32), name VARCHAR(64), token_hash VARCHAR(64), PRIMARY KEY (room, seat));
CREATE TABLE pg_actions (room VARCHAR(12) REFERENCES pg_rooms(code), seq INTEGER, seat INTEGER,
  action TEXT NOT NULL, source VARCHAR(8) NOT NULL, at FLOAT NOT NULL, PRIMARY KEY (room, seq));
CREATE TABLE pg_chats (id INTEGER PRIMARY KEY, room VARCHAR(12) NOT NULL REFERENCES pg_rooms(code),
  channel VARCHAR(64) NOT NULL, seat INTEGER, name VARCHAR(64) NOT NULL, text TEXT NOT NULL, at FLOAT NOT NULL);
"""

TOKEN = "seat-zero-token"


def write_old_database(url: str, code: str) -> None:
    """A 3-seat toy room, started at wall time 1000.0: seat 0 bid 4 at +1.5 s, then a clock tick at 2.25 s."""
    from partygames.server.seats import token_hash

    engine = create_engine(url)
    with engine.begin() as conn:
        for statement in OLD_SCHEMA.split(";"):
            if statement.strip():
                conn.execute(text(statement))
        conn.execute(text("INSERT INTO pg_rooms VALUES (:code, 'toy', 3, '{}', 'playing', '7', :host, 0, 999.0, "
                          "1000.0, 'bidding', 1000.0, NULL)"), {"code": code, "host": "h" * 64})
        for seat in range(3):
            conn.execute(text("INSERT INTO pg_seats VALUES (:code, :seat, 'human', NULL, :name, :token)"),
                         {"code": code, "seat": seat, "name": f"P{seat}", "token": token_hash(f"{TOKEN}{seat}")})
        conn.execute(text("INSERT INTO pg_actions VALUES (:code, 1, 0, :action, 'seat', 1001.5)"),
                     {"code": code, "action": json.dumps({"type": "bid", "amount": 4})})
        conn.execute(text("INSERT INTO pg_actions VALUES (:code, 2, NULL, :action, 'clock', 1002.25)"),
                     {"code": code, "action": json.dumps({"now": 2.25})})
        conn.execute(text("INSERT INTO pg_chats VALUES (1, :code, 'public', 0, 'P0', 'hello', 1001.0)"), {"code": code})
    engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_old_database_is_migrated_with_its_data(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    else:
        # A database of its own: an old one has never met Alembic (the shared one is at its newest revision).
        url = fresh_database(normalize_database_url(request.getfixturevalue("pg_url")))
    code = uuid.uuid4().hex[:8].upper()
    write_old_database(url, code)
    store = Storage(url)
    try:
        tables = set(inspect(store.engine).get_table_names())
        assert {"rooms", "seats", "log_entries", "chat_messages"} <= tables
        assert not {t for t in tables if t.startswith("pg_")}
        loaded = store.load(code)
        assert loaded is not None
        assert loaded.row["status"] == "playing" and loaded.row["started_at"] == 1000.0 and "phase" not in loaded.row
        assert [s["name"] for s in loaded.seats] == ["P0", "P1", "P2"]
        assert [(e["seq"], e["at"], e["seat"], e["source"]) for e in loaded.log] == [
            (1, 1500, 0, "seat"), (2, 2250, None, "clock")]
        assert json.loads(loaded.log[0]["action"]) == {"type": "bid", "amount": 4} and loaded.log[1]["action"] is None
        assert [(c["text"], c["at"]) for c in loaded.chat] == [("hello", 1001.0)]
    finally:
        store.close()
    Storage(url).close()  # opening again changes nothing


def test_a_migrated_playing_room_resumes_on_a_real_server(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    code = "OLDRM1"
    url = f"sqlite:///{data / 'old.sqlite3'}"
    write_old_database(url, code)
    live = LiveServer(data, database_url=url).start()
    try:
        lobby = Lobby(live.url)
        me = Socket(live.ws_url, code, f"{TOKEN}1")
        # Seat 0's bid survived; seats 1 and 2 never bid, and the 30 s limit ran out long ago in wall time,
        # so their defaults fall due at once, at match time 30 s.
        final = me.until(lambda f: f["type"] == "update" and f["view"]["is_over"], timeout=10)
        assert final["view"]["bids"] == [4, 0, 0]
        replay = lobby.http.get(f"/api/rooms/{code}/replay").json()["steps"]
        assert [(s["seat"], s["source"], s["at"]) for s in replay[1:]] == [
            (0, "seat", 1500), (None, "clock", 2250), (None, "wake", 30_000)]
        lobby.http.close()
    finally:
        live.stop()
