"""Whole matches of the real games over real WebSockets, humans playing random legal actions.

Every update a seat (or a spectator) receives must be exactly what the engine says that seat may know
at that version (its own view, the events visible to it), checked by replaying the stored log
afterwards; and, in Last Man Standing, no raw frame to a seat may name a card another holds in secret.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from partygames import games
from partygames.cli.main import app
from partygames.engine.actions import sample
from partygames.games.last_man_standing.rules import LastManStandingMatch
from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer

GAME = "last-man-standing"


# A well-behaved client stays under the server's frame rate (20 a second): a seat that may act again at
# once (the Quiz's optional gifts) would otherwise send hundreds a second and be disconnected.
MIN_INTERVAL = 1 / 15


def drain(sock: Socket, wait: float) -> list[dict[str, Any]]:
    """Every frame that has come on `sock`, waiting at most `wait` seconds for the first. Reading them all
    matters: a client that leaves frames unread stops reading its socket (websockets' flow control), so the
    server's keepalive pings go unanswered and it closes the connection (1011) on a slow machine."""
    got: list[dict[str, Any]] = []
    try:
        got.append(sock.recv(wait))
        while True:
            got.append(sock.recv(0))
    except TimeoutError:
        return got


def play_randomly(socks: list[Socket], seed: int, limit: float = 60, watchers: tuple[Socket, ...] = ()) -> int:
    """Each seat plays random legal actions from its own view's specs until the match is over, at most 15
    a second (after a refusal for sending too fast, it waits a second). The `watchers` (spectators) are
    read as the match goes, as a spectator's page does."""
    rngs = [random.Random(seed * 10 + i) for i in range(len(socks))]
    pending = [False] * len(socks)
    latest: list[dict[str, Any] | None] = [None] * len(socks)
    over = [False] * len(socks)
    next_send = [0.0] * len(socks)
    errors = 0

    end = time.monotonic() + limit
    while not all(over):
        assert time.monotonic() < end, "the match did not finish"
        for i, sock in enumerate(socks):
            for frame in drain(sock, 0.005):
                if frame["type"] == "error":
                    errors += 1
                    pending[i] = False
                    if frame.get("code") == "rate/limited":
                        next_send[i] = time.monotonic() + 1.0
                elif frame["type"] == "update":
                    latest[i] = frame
                    if frame["acks"]:
                        pending[i] = False
                    over[i] = frame["view"]["is_over"]
            last = latest[i]
            view = last["view"] if last is not None else None
            now = time.monotonic()
            if view is not None and view["legal_actions"] and not pending[i] and now >= next_send[i]:
                sock.act(sample(view["legal_actions"], rngs[i]), f"{i}")
                pending[i] = True
                next_send[i] = now + MIN_INTERVAL
        for watcher in watchers:
            drain(watcher, 0)
    return errors


def play_match(lobby: Lobby, server: LiveServer, game_id: str, seed: int) -> tuple[list[Socket], Socket, dict[str, Any]]:
    """Plays one match with the game's golden configuration; returns the sockets and the stored log."""
    golden = games.get(game_id).samples.golden
    seats, options = (golden.seats, dict(golden.options)) if golden is not None else (4, {})
    created, tokens = human_room(lobby, game_id, seats=seats, options=options)
    code = created["code"]
    socks = [Socket(server.ws_url, code, t) for t in tokens]
    watcher = Socket(server.ws_url, code)
    try:
        play_randomly(socks, seed=seed, limit=120, watchers=(watcher,))
        if not any(f["type"] == "update" and f["view"]["is_over"] for f in watcher.frames):
            watcher.until(lambda f: f["type"] == "update" and f["view"]["is_over"])
    except BaseException:
        for sock in [*socks, watcher]:  # else a failure leaks them into the next test's garbage collection
            sock.close()
        raise
    log: dict[str, Any] = lobby.http.get(f"/api/rooms/{code}/log", headers={"X-Host-Token": created["host_token"]}).json()
    return socks, watcher, log


# Games whose random match mostly waits on a time limit at the wall clock: the Quiz's memorising (30 s:
# random humans' votes rarely all say "ready", the time runs out). They play on a server whose match clock
# runs ten times the wall clock: the same match time, limits and steps in the log, a tenth of the waiting.
# (The scaled clock itself: tests/server/test_match_clock.py; limits passing on the server: test_timers.py.)
QUICK_CLOCK = {"quiz"}


@pytest.mark.parametrize("game_id", games.ids())
def test_every_update_of_a_real_match_is_exactly_the_seats_own_view_and_events(
        request: pytest.FixtureRequest, game_id: str) -> None:
    server: LiveServer = request.getfixturevalue("quick_registry_server" if game_id in QUICK_CLOCK
                                                 else "registry_server")
    lobby = Lobby(server.url)
    try:
        socks, watcher, log = play_match(lobby, server, game_id, seed=7)
    finally:
        lobby.http.close()  # (left open by a failure, its socket would fail a later test when collected)
    check_frames(game_id, socks, watcher, log)


def test_the_log_names_the_people_and_the_terminal_replay_tells_who_did_what(registry_server: LiveServer,
                                                                             tmp_path: Path) -> None:
    lobby = Lobby(registry_server.url)
    _, _, log = play_match(lobby, registry_server, "last-man-standing", seed=3)
    lobby.http.close()
    assert log["names"] == [f"P{i}" for i in range(log["seats"])]
    path = tmp_path / "match.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    output = CliRunner().invoke(app, ["replay", str(path)], env={"COLUMNS": "160"}).output
    assert re.search(r"\(P\d\) kills \S+ \(P\d\): \$\d", output), output
    assert re.search(r"^\d+ [\d.]+s P\d: Hire a fighter", output, re.MULTILINE) and "P0 hired" in output
    assert not re.search(r"\(seat \d\)", output)


def check_frames(game_id: str, socks: list[Socket], watcher: Socket, log: dict[str, Any]) -> None:
    streams: list[tuple[int | None, list[dict[str, Any]]]] = [*enumerate(s.frames for s in socks), (None, watcher.frames)]
    check_streams(game_id, streams, log)


def check_streams(game_id: str, streams: list[tuple[int | None, list[dict[str, Any]]]], log: dict[str, Any]) -> None:
    """Each stream (a seat's frames, None: a spectator's; across reconnects, in the order received) holds
    exactly what that seat may know: every update's view is the seat's view at that version of the stored
    log's replay (versions counted as the seat witnessed them), its events are the seat's, and the events
    of all its updates are every event visible to it after its first update, once each, in order."""
    game = games.get(game_id)
    match = game.new(log["seats"], log["options"], log["seed"], bots=log.get("bots", []))
    perspectives: list[int | None] = [*range(log["seats"]), None]
    stamps = {"version", *match.VIEW_CLOCK_KEYS}

    def content(view: dict[str, Any]) -> str:
        """A view without what only says when it was made (its version and the game's clock fields)."""
        return json.dumps({k: v for k, v in view.items() if k not in stamps}, sort_keys=True)

    # Per perspective, the views and events of the steps it witnessed, numbered as it counts them
    # (`Match.step_witnesses`: a private step is not even counted by the others).
    views: dict[int | None, list[str]] = {s: [content(match.view(s))] for s in perspectives}
    events: dict[int | None, list[list[Any]]] = {s: [] for s in perspectives}
    for at, seat, action in log["entries"]:
        step = match.advance(at) if seat is None else match.apply(seat, action, at)
        witnesses = match.step_witnesses(seat, action, step)
        for s in perspectives:
            if witnesses is None or s in witnesses:
                views[s].append(content(match.view(s)))
                events[s].append(step)
    assert match.is_over and json.dumps(match.to_json(), sort_keys=True) == json.dumps(log["final_state"], sort_keys=True)

    for seat, frames in streams:
        updates = [f for f in frames if f["type"] == "update"]
        assert updates and updates[-1]["version"] == len(events[seat])
        for update in updates:
            version = update["version"]
            assert update["view"]["version"] == version
            assert content(update["view"]) == views[seat][version], (seat, version)
            for event in update["events"]:
                visible = [e for e in events[seat][event["version"] - 1] if e.is_visible_to(seat)]
                assert {"type": event["type"], "data": event["data"]} in [{"type": e.type, "data": e.data} for e in visible]
        expected = [(v, e.type) for v, step in enumerate(events[seat], start=1) for e in step if e.is_visible_to(seat)]
        # Each connection gets every visible event once after its first, fresh update; a fresh update
        # carries the history before it (a reload shows the whole match so far), all of it, in order.
        first = updates[0]["version"]
        got = [(e["version"], e["type"]) for u in updates if not u["fresh"] for e in u["events"]]
        assert got == [x for x in expected if x[0] > first]
        for fresh in (u for u in updates if u["fresh"]):
            assert [(e["version"], e["type"]) for e in fresh["events"]] == [x for x in expected if x[0] <= fresh["version"]]



def test_last_man_standing_cards_dealt_face_down_never_reach_another_seat(lobby: Lobby, server: LiveServer) -> None:
    socks, watcher, log = play_match(lobby, server, GAME, seed=11)
    check_frames(GAME, socks, watcher, log)
    dealt = games.get(GAME).new(log["seats"], log["options"], log["seed"])
    assert isinstance(dealt, LastManStandingMatch)
    secret_hands = [list(h) for h in dealt.hands]
    # The cards dealt face down stay secret from the other seats until they are played.
    for owner, hand in enumerate(secret_hands):
        for card in hand:
            played_at = next((i for i, (_, s, a) in enumerate(log["entries"]) if s == owner and a is not None and a.get("card") == card), None)
            for seat, sock in enumerate(socks):
                if seat == owner:
                    continue
                for frame, raw in zip(sock.frames, sock.raw, strict=True):
                    if frame["type"] != "update" or frame["view"]["is_over"]:
                        continue
                    if played_at is not None and frame["version"] > played_at:
                        continue
                    assert not re.search(rf'"{card}"', raw), f"seat {seat} saw seat {owner}'s secret {card}"
