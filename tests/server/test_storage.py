"""The storage layer on SQLite and on a real PostgreSQL: batches are atomic, rooms load back whole."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.exc import DBAPIError, IntegrityError

from partygames.server import storage as db
from partygames.server.committer import Committer
from partygames.server.settings import normalize_database_url
from partygames.server.storage import Storage, Write
from tests.server.loops import run

pytestmark = pytest.mark.xdist_group("server-restart")


def make_storage(database_url: str | None, tmp_path: Path) -> Storage:
    return Storage(normalize_database_url(database_url) if database_url else f"sqlite:///{tmp_path / 'db.sqlite3'}")


def room_write(code: str) -> Write:
    return Write(inserts=[
        (db.rooms, {"code": code, "game": "toy", "seats": 2, "options": "{}", "status": "playing", "seed": "42",
                    "host_token_hash": "h" * 64, "host_seat": 0, "created_at": 1.0, "started_at": 2.0}),
        (db.seats, {"room": code, "seat": 0, "kind": "human", "bot": None, "name": "Aki", "token_hash": "t" * 64}),
        (db.seats, {"room": code, "seat": 1, "kind": "bot", "bot": "random", "name": None, "token_hash": None}),
    ])


def action_write(code: str, seq: int, over: bool = False) -> Write:
    write = Write(inserts=[(db.log_entries, {"room": code, "seq": seq, "at": 1000 * seq, "seat": seq % 2,
                                             "action": '{"type":"bid","amount":1}', "source": "seat"})])
    if over:
        write.updates.append((db.rooms, {"code": code}, {"status": "over", "result": "{}"}))
    return write


def test_a_room_written_in_batches_loads_back_whole(database_url: str | None, tmp_path: Path) -> None:
    store = make_storage(database_url, tmp_path)
    code = uuid.uuid4().hex[:12].upper()
    try:
        store.write([room_write(code)])
        store.write([action_write(code, 1), action_write(code, 2),
                     Write(inserts=[(db.chat_messages, {"room": code, "channel": "public", "seat": 0, "name": "Aki",
                                                        "text": "<hi>", "at": 4.0})]),
                     Write(inserts=[(db.log_entries, {"room": code, "seq": 3, "at": 30_000, "seat": None,
                                                      "action": None, "source": "wake"})])])
        loaded = store.load(code)
        assert loaded is not None
        assert loaded.row["seed"] == "42" and loaded.row["started_at"] == 2.0
        assert [(s["seat"], s["kind"], s["name"]) for s in loaded.seats] == [(0, "human", "Aki"), (1, "bot", None)]
        assert [(a["seq"], a["at"], a["seat"]) for a in loaded.log] == [(1, 1000, 1), (2, 2000, 0), (3, 30_000, None)]
        assert loaded.chat[0]["text"] == "<hi>"
        assert code in store.codes("playing")
        assert store.load("NOSUCHROOM") is None
    finally:
        store.close()


def test_a_batch_that_fails_leaves_nothing_behind(database_url: str | None, tmp_path: Path) -> None:
    store = make_storage(database_url, tmp_path)
    code = uuid.uuid4().hex[:12].upper()
    try:
        store.write([room_write(code), action_write(code, 1)])
        # The second action repeats seq 1: the whole batch, the good action 2 included, is rolled back.
        with pytest.raises(IntegrityError):
            store.write([action_write(code, 2, over=True), action_write(code, 1)])
        loaded = store.load(code)
        assert loaded is not None
        assert [a["seq"] for a in loaded.log] == [1] and loaded.row["status"] == "playing"
    finally:
        store.close()


def test_a_batch_longer_than_one_insert_statement_is_stored_whole_and_in_order(
        database_url: str | None, tmp_path: Path) -> None:
    # On SQLite a batch's log rows go in multi-row INSERTs of db.VALUES_ROWS rows: three rooms' steps, more
    # than two statements' worth, interleaved as rooms act.
    store = make_storage(database_url, tmp_path)
    codes = [uuid.uuid4().hex[:12].upper() for _ in range(3)]
    steps = 2 * db.VALUES_ROWS // 3 + 17
    try:
        store.write([room_write(code) for code in codes])
        batch = []
        for seq in range(1, steps + 1):
            batch += [action_write(code, seq) for code in codes]
        assert len(batch) > 2 * db.VALUES_ROWS
        store.write(batch)
        for code in codes:
            loaded = store.load(code)
            assert loaded is not None
            assert [(a["seq"], a["at"], a["seat"]) for a in loaded.log] == [
                (seq, 1000 * seq, seq % 2) for seq in range(1, steps + 1)]
    finally:
        store.close()


def test_statements_stay_within_an_older_sqlites_parameter_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # SQLite before 3.32 takes at most 999 parameters a statement: the connection is held to that limit here,
    # and the storage, told the limit, splits a batch's rows to fit (500 rows of 6 columns would not).
    store = make_storage(None, tmp_path)
    monkeypatch.setattr(db, "SQLITE_MAX_PARAMETERS", 999)
    event.listen(store.engine, "connect",
                 lambda conn, _record: conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 999))
    store.engine.dispose()  # new connections, with the limit
    code = uuid.uuid4().hex[:12].upper()
    try:
        store.write([room_write(code)])
        store.write([action_write(code, seq) for seq in range(1, 601)])
        loaded = store.load(code)
        assert loaded is not None and [a["seq"] for a in loaded.log] == list(range(1, 601))
    finally:
        store.close()


def test_a_step_under_another_epoch_is_refused_by_the_database_and_its_batch_with_it(
        database_url: str | None, tmp_path: Path) -> None:
    # The fence trigger (migration 0002) checks every row of a multi-row INSERT: a stale owner's row
    # in the middle of a batch rolls the whole batch back.
    store = make_storage(database_url, tmp_path)
    code = uuid.uuid4().hex[:12].upper()
    try:
        store.write([room_write(code), action_write(code, 1)])
        batch = [action_write(code, seq) for seq in (2, 3, 4)]
        for seq, write in zip((2, 3, 4), batch, strict=True):
            write.inserts[0][1]["epoch"] = 7 if seq == 3 else 0  # the room is at epoch 0
        with pytest.raises(DBAPIError, match="another epoch"):
            store.write(batch)
        loaded = store.load(code)
        assert loaded is not None and [a["seq"] for a in loaded.log] == [1]
    finally:
        store.close()


def test_rows_of_different_shapes_in_one_batch_keep_every_value(database_url: str | None, tmp_path: Path) -> None:
    # A row naming its epoch between two that leave it to the default: one executemany of all three would
    # take its columns from the first row and drop the epoch of the second, letting a stale step in.
    store = make_storage(database_url, tmp_path)
    code = uuid.uuid4().hex[:12].upper()
    try:
        store.write([room_write(code), action_write(code, 1)])
        stale = action_write(code, 3)
        stale.inserts[0][1]["epoch"] = 7  # the room is at epoch 0
        with pytest.raises(DBAPIError, match="another epoch"):
            store.write([action_write(code, 2), stale, action_write(code, 4)])
        store.write([action_write(code, 2), Write(inserts=[(db.log_entries, {
            "room": code, "seq": 3, "at": 3, "seat": None, "action": None, "source": "wake", "epoch": 0})]),
            action_write(code, 4)])
        loaded = store.load(code)
        assert loaded is not None
        assert [(a["seq"], a["source"]) for a in loaded.log] == [(1, "seat"), (2, "seat"), (3, "wake"), (4, "seat")]
    finally:
        store.close()


def test_leases_are_renewed_and_batches_kept_for_exactly_the_rooms_still_held_under_their_epochs(
        database_url: str | None, tmp_path: Path) -> None:
    # Three rooms owned by process "a"; process "b" takes the second, and "a" itself takes the third again
    # (a restart: a new epoch). "a" renewing all three under the epochs it knew keeps the first alone. On
    # PostgreSQL (where processes share the database) a batch of "a" under those epochs stores the first
    # room's step and drops the others': they are fenced.
    store = make_storage(database_url, tmp_path)
    codes = [uuid.uuid4().hex[:12].upper() for _ in range(3)]
    try:
        store.write([w for code in codes for w in (room_write(code), action_write(code, 1))])
        claimed = {code: store.claim(code, "a", 30.0) for code in codes}
        epochs = {code: e for code, e in claimed.items() if e is not None}
        assert len(epochs) == 3
        assert store.claim(codes[1], "b", 30.0, force=True) == epochs[codes[1]] + 1
        assert store.claim(codes[2], "a", 30.0, force=True) == epochs[codes[2]] + 1
        assert store.renew("a", epochs, 30.0) == {codes[0]}
        if database_url is None:
            return  # SQLite: one process, no fencing of batches (its file is locked: dblock.py)
        batch = []
        for code in codes:
            write = action_write(code, 2)
            write.inserts[0][1]["epoch"] = epochs[code]
            write.room, write.epoch = code, epochs[code]
            batch.append(write)
        assert store.write(batch, "a", 30.0) == {(codes[1], epochs[codes[1]]), (codes[2], epochs[codes[2]])}
        stored = {code: [a["seq"] for a in (store.load(code) or pytest.fail(code)).log] for code in codes}
        assert stored == {codes[0]: [1, 2], codes[1]: [1], codes[2]: [1]}
    finally:
        store.close()


def owned_step(code: str, seq: int, epoch: int) -> Write:
    """An owner's step of room `code` under `epoch`."""
    write = action_write(code, seq)
    write.inserts[0][1]["epoch"] = epoch
    write.room, write.epoch = code, epoch
    return write


def test_a_batch_with_a_room_under_two_epochs_keeps_the_current_one_s_writes_and_the_other_rooms(
        pg_url: str) -> None:
    # Writes of one room under an epoch its process had itself superseded and under the current one, in
    # one batch beside another room's (issue #31): only the stale writes are dropped; nothing is refused.
    store = make_storage(pg_url, Path("."))
    codes = [uuid.uuid4().hex[:12].upper() for _ in range(2)]
    try:
        store.write([w for code in codes for w in (room_write(code), action_write(code, 1))])
        epochs = {code: store.claim(code, "a", 30.0) for code in codes}
        stale = epochs[codes[0]]
        assert stale is not None and store.claim(codes[0], "a", 30.0) == stale + 1
        other = epochs[codes[1]]
        assert other is not None
        fenced = store.write([owned_step(codes[0], 2, stale), owned_step(codes[1], 2, other),
                              owned_step(codes[0], 2, stale + 1)], "a", 30.0)
        assert fenced == {(codes[0], stale)}
        for code, epoch in ((codes[0], stale + 1), (codes[1], other)):
            loaded = store.load(code)
            assert loaded is not None and [(a["seq"], a["epoch"]) for a in loaded.log] == [(1, 0), (2, epoch)]
    finally:
        store.close()


def test_a_write_the_database_refuses_costs_its_own_room_only_not_the_rest_of_its_batch(
        database_url: str | None, tmp_path: Path) -> None:
    # A room's step that slipped past its process's own check (its row under another epoch than the room's)
    # is refused by the fence trigger; the committer stores the other rooms of its batch all the same.
    store = make_storage(database_url, tmp_path)
    codes = [uuid.uuid4().hex[:12].upper() for _ in range(3)]

    async def batch() -> list[BaseException | None]:
        committer = Committer(store, "a", 30.0)
        committer.start()
        try:
            refused = owned_step(codes[1], 2, epochs[codes[1]])
            refused.inserts[0][1]["epoch"] = epochs[codes[1]] + 5
            futures = [committer.submit(owned_step(codes[0], 2, epochs[codes[0]])), committer.submit(refused),
                       committer.submit(owned_step(codes[2], 2, epochs[codes[2]]))]
            await committer.drain()
            return [f.exception() for f in futures]
        finally:
            await committer.stop()

    try:
        store.write([w for code in codes for w in (room_write(code), action_write(code, 1))])
        epochs = {code: store.claim(code, "a", 30.0) or 0 for code in codes}
        first, refused, third = run(batch)
        assert first is None and third is None
        assert isinstance(refused, DBAPIError) and "another epoch" in str(refused)
        stored = {code: [a["seq"] for a in (store.load(code) or pytest.fail(code)).log] for code in codes}
        assert stored == {codes[0]: [1, 2], codes[1]: [1], codes[2]: [1, 2]}
    finally:
        store.close()


def test_plain_postgresql_urls_use_psycopg_3() -> None:
    assert normalize_database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_database_url("sqlite:////x.db") == "sqlite:////x.db"
