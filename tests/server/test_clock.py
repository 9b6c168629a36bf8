"""The room clock: a game with a tick rate receives the time as input, logged like an action."""

from __future__ import annotations

from pathlib import Path

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer


def test_a_game_with_a_tick_rate_receives_time_and_replays_it_exactly(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby, "clock-toy", seats=2)
    code = created["code"]
    me = Socket(server.ws_url, code, tokens[0])
    later = me.until(lambda f: f["type"] == "update" and f["view"]["now"] >= 0.3, timeout=10)
    # Versions count clock ticks too; the match's own version counts actions only.
    assert later["version"] >= 5 and later["view"]["version"] == 0
    ticks = [e for e in later["events"] if e["type"] == "tick"]
    assert all(round(e["data"]["now"] * 10) % 5 == 0 for e in ticks)
    me.act({"type": "bid", "amount": 1}, "a")
    Socket(server.ws_url, code, tokens[1]).act({"type": "bid", "amount": 2}, "b")
    final = me.until(lambda f: f["type"] == "update" and f["view"]["is_over"])
    end_version = final["version"]
    assert [f for f in me.quiet(0.4) if f["type"] == "update"] == []  # the clock stops with the match
    steps = lobby.http.get(f"/api/rooms/{code}/replay?seat=0").json()["steps"]
    assert len(steps) == end_version + 1
    clock_steps = [s for s in steps[1:] if s["source"] == "clock"]
    assert len(clock_steps) == end_version - 2 and all(s["seat"] is None for s in clock_steps)
    assert steps[-1]["view"] == final["view"]
    times = [s["action"]["now"] for s in clock_steps]
    assert times == sorted(times) and steps[-1]["view"]["now"] == times[-1]


def test_a_gap_older_than_the_kept_events_gets_a_fresh_view(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, settings={"max_catchup": 8}).start()
    try:
        lobby = Lobby(live.url)
        created, tokens = human_room(lobby, "clock-toy", seats=2)
        code = created["code"]
        watcher = Socket(live.ws_url, code)
        watcher.until(lambda f: f["type"] == "update" and f["version"] >= 30, timeout=10)
        recent = Socket(live.ws_url, code, tokens[0], since=28)
        recent.recv()
        caught_up = recent.update()
        assert (caught_up["fresh"] is False and caught_up["events"][0]["version"] >= 29) or not caught_up["events"]
        old = Socket(live.ws_url, code, tokens[0], since=2)
        old.recv()
        assert old.update()["fresh"] is True
        lobby.http.close()
    finally:
        live.stop()
