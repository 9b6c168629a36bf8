"""A process paused past its lease (SIGSTOP: a long GC, a partition) loses its rooms without knowing it:
another process takes them over under a new epoch. When it wakes (SIGCONT), its next write is refused by
the database itself, its clients are told the room moved and are disconnected, and the log holds no fork:
one entry per step, each stored under the epoch of the process that owned the room then."""

from __future__ import annotations

import signal
import time
from pathlib import Path

from sqlalchemy import create_engine, text

from tests.cluster.conftest import LEASE, Cluster
from tests.server.client import Lobby, Socket, human_room


def acked(sock: Socket, ref: str) -> None:
    sock.until(lambda f: f["type"] == "update" and ref in f["acks"])


def test_a_paused_owner_s_next_write_is_refused_and_its_clients_are_sent_away(database: str, tmp_path: Path) -> None:
    cluster = Cluster(database, tmp_path, 2).start()
    first, second = cluster.servers
    try:
        lobby = Lobby(first.url)
        created, tokens = human_room(lobby, "rounds-toy", seats=2)
        lobby.http.close()
        code = created["code"]
        assert cluster.owner(code) is first
        on_first = [Socket(first.ws_url, code, token) for token in tokens]
        watcher = Socket(second.ws_url, code)  # the second process follows the room
        for sock in [*on_first, watcher]:
            sock.update(0)
        for seat, sock in enumerate(on_first):
            sock.act({"type": "bid", "amount": seat + 1}, f"before-{seat}")
            acked(sock, f"before-{seat}")
        watcher.reach(2)

        assert first.proc is not None
        first.proc.send_signal(signal.SIGSTOP)
        try:
            deadline = time.monotonic() + 10 * LEASE
            while cluster.owner(code) is not second:  # the lease ran out: the second process took the room
                assert time.monotonic() < deadline, "nobody took the room over"
                time.sleep(0.1)
            taken = cluster.query("SELECT epoch FROM rooms WHERE code = :code", code=code)
            # Play goes on through the new owner meanwhile.
            on_second = [Socket(second.ws_url, code, token, since=2) for token in tokens]
            for seat, sock in enumerate(on_second):
                sock.act({"type": "bid", "amount": 5}, f"after-{seat}")
                acked(sock, f"after-{seat}")
            # Frames the paused process's clients send wait in its socket buffers.
            on_first[0].act({"type": "bid", "amount": 9}, "stale")
        finally:
            first.proc.send_signal(signal.SIGCONT)

        # Its write under the old epoch is refused, so it tells its clients the room moved and lets them go.
        moved = on_first[0].until(lambda f: f["type"] == "error", timeout=15)
        assert moved["code"] == "room/moved"
        closed = False
        try:
            on_first[0].until(lambda f: False, timeout=10)
        except Exception as error:  # the socket was closed: its client reconnects (the web client does)
            closed = "1012" in str(error) or "closed" in str(error).lower()
        assert closed
        entries = cluster.rows("SELECT seq, seat, action, epoch FROM log_entries WHERE room = :code ORDER BY seq",
                               code=code)
        assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))  # no fork: one entry per step
        assert not any('"amount":9' in str(e["action"]) for e in entries)  # the stale process's write is not there
        assert {e["epoch"] for e in entries[2:]} == {taken}  # every later step by the new owner
        assert cluster.owner(code) is second
    finally:
        cluster.stop()


def test_a_process_woken_after_its_lease_ran_out_steps_back_from_a_room_that_moves_with_time(
        database: str, tmp_path: Path) -> None:
    # A room whose match moves by itself (a tick every 500 ms of match time): the paused owner, woken, first
    # runs the ticks due in its own copy, then hears that another process took the room (issue #31, item 2:
    # it replayed the new owner's earlier ticks onto its later ones: "time runs forward only", 3 runs of 3).
    cluster = Cluster(database, tmp_path, 2).start()
    first, second = cluster.servers
    try:
        lobby = Lobby(first.url)
        created, tokens = human_room(lobby, "clock-toy", seats=2)
        lobby.http.close()
        code = created["code"]
        assert cluster.owner(code) is first
        on_first = Socket(first.ws_url, code, tokens[0])
        on_first.update(2)  # (ticks)
        assert first.proc is not None
        first.proc.send_signal(signal.SIGSTOP)
        try:
            deadline = time.monotonic() + 10 * LEASE
            while cluster.owner(code) is not second:
                assert time.monotonic() < deadline, "nobody took the room over"
                time.sleep(0.1)
            taken = cluster.query("SELECT max(seq) FROM log_entries WHERE room = :code", code=code)
            deadline = time.monotonic() + 10
            while cluster.query("SELECT max(seq) FROM log_entries WHERE room = :code", code=code) == taken:
                assert time.monotonic() < deadline, "the new owner stored no tick"
                time.sleep(0.1)
            time.sleep(LEASE)  # the paused process's ticks fall due meanwhile
            # Writes to the rooms table wait (as on a busy database) while the process wakes, reads do not: it
            # hears of the takeover, and reads what the new owner stored, before its own first write is
            # refused. (Whichever comes first, it must step back cleanly.)
            locker = create_engine(database.replace("postgresql://", "postgresql+psycopg://", 1))
            held = locker.connect()
            held.execute(text("LOCK TABLE rooms IN EXCLUSIVE MODE"))
        finally:
            first.proc.send_signal(signal.SIGCONT)
        try:
            # It steps back: its clients are told that the room moved, and sent away to reconnect.
            assert on_first.error(timeout=15)["code"] == "room/moved"
        finally:
            held.rollback()
            held.close()
            locker.dispose()
        # Come back through it, a client gets the room as the new owner plays it, the same as through the owner.
        time.sleep(1.0)
        back, there = Socket(first.ws_url, code, tokens[0]), Socket(second.ws_url, code, tokens[1])
        stored = cluster.query("SELECT max(seq) FROM log_entries WHERE room = :code", code=code)
        assert isinstance(stored, int)
        seen = back.update(stored + 2, timeout=15)
        assert there.update(seen["version"], timeout=15)["view"]["ticked"] >= seen["view"]["ticked"]
        assert cluster.owner(code) is second
    finally:
        cluster.stop()
    log = first.log.read_text()
    assert "Traceback" not in log and "never retrieved" not in log, log[-3000:]
