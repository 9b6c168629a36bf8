"""Time in a room: a game's own wake-ups (here a tick every 500 ms of match time) are run by the room's
scheduler, logged like actions with their match time, and replay exactly."""

from __future__ import annotations

from pathlib import Path

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer


def test_a_game_that_moves_with_time_is_woken_on_time_and_replays_exactly(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby, "clock-toy", seats=2)
    code = created["code"]
    me = Socket(server.ws_url, code, tokens[0])
    later = me.until(lambda f: f["type"] == "update" and f["view"]["ticked"] >= 1500, timeout=10)
    # Versions count wake-ups too; nobody has acted yet.
    assert later["version"] >= 3 and later["view"]["to_act"] == [0, 1]
    me.act({"type": "bid", "amount": 1}, "a")
    Socket(server.ws_url, code, tokens[1]).act({"type": "bid", "amount": 2}, "b")
    final = me.until(lambda f: f["type"] == "update" and f["view"]["is_over"])
    end_version = final["version"]
    assert [f for f in me.quiet(0.8) if f["type"] == "update"] == []  # no wake-ups once the match is over
    steps = lobby.http.get(f"/api/rooms/{code}/replay?seat=0", headers={"X-Seat-Token": tokens[0]}).json()["steps"]
    assert len(steps) == end_version + 1 and steps[-1]["view"] == final["view"]
    wakes = [s for s in steps[1:] if s["source"] == "wake"]
    assert len(wakes) == end_version - 2 and all(s["seat"] is None and s["action"] is None for s in wakes)
    # Each wake-up happened at its own match time, on the half second, in order.
    assert [s["at"] for s in wakes] == [500 * (i + 1) for i in range(len(wakes))]
    assert [e["data"]["now"] for s in wakes for e in s["events"]] == [s["at"] for s in wakes]
    assert [s["at"] for s in steps] == sorted(s["at"] for s in steps)


def test_a_gap_older_than_the_kept_events_gets_a_fresh_view(tmp_path: Path) -> None:
    # Time 20 times faster: a tick every 25 ms, the 30 s bidding limit after 1.5 s (60 ticks).
    live = LiveServer(tmp_path, settings={"max_catchup": 8}, deadline_scale=0.05).start()
    try:
        lobby = Lobby(live.url)
        created, tokens = human_room(lobby, "clock-toy", seats=2)
        code = created["code"]
        watcher = Socket(live.ws_url, code)
        end = watcher.until(lambda f: f["type"] == "update" and f["view"]["is_over"], timeout=10)["version"]
        assert end >= 30
        recent = Socket(live.ws_url, code, tokens[0], since=end - 3)
        recent.recv()
        caught_up = recent.update()
        assert caught_up["fresh"] is False
        assert sorted({e["version"] for e in caught_up["events"]}) == [end - 2, end - 1, end]
        old = Socket(live.ws_url, code, tokens[0], since=2)
        old.recv()
        assert old.update()["fresh"] is True
        lobby.http.close()
    finally:
        live.stop()
