"""Server-side bots play every registered game to the end, watched by a spectator."""

from __future__ import annotations

import itertools

import pytest

from partygames import games
from tests.server.client import Lobby, Socket
from tests.server.live import LiveServer

# Games whose bots' match mostly waits on the wall clock: Musical Chairs' last races run their whole 10 s
# (the one left standing never sits), 20 of the test's 25 s. They play on a server whose match clock runs ten
# times the wall clock (as the bots' pace test below does); the races at the wall clock's pace are played
# in test_real_game.py and the browser tests.
QUICK_CLOCK = {"musical-chairs"}


@pytest.mark.parametrize("game_id", games.ids())
def test_bots_play_a_whole_match_of_every_game_on_the_server(request: pytest.FixtureRequest, game_id: str) -> None:
    registry_server: LiveServer = request.getfixturevalue("quick_registry_server" if game_id in QUICK_CLOCK
                                                          else "registry_server")
    game = games.get(game_id)
    # The golden set-up's options (a short match: the Pandemic Game's default is eight minutes of real time).
    options = dict(game.samples.golden.options) if game.samples.golden else None
    seats = min(game.seat_counts_for(options))
    lobby = Lobby(registry_server.url)
    created = lobby.create(game_id, seats, options=options, host_seat=None,
                           seat_kinds=[f"bot:{'heuristic' if 'heuristic' in game.bots else 'random'}"] * seats)
    lobby.start(created["code"], created["host_token"])
    watcher = Socket(registry_server.ws_url, created["code"])
    final = watcher.until(lambda f: f["type"] == "update" and f["view"]["is_over"], timeout=120)
    result = final["view"]["result"]
    assert sorted(s["seat"] for s in result["seats"]) == list(range(seats)) and result["termination"]
    assert final["view"]["seat"] is None and final["view"]["legal_actions"] == []
    room = lobby.room(created["code"])
    assert room["status"] == "over" and room["result"] == final["view"]["result"]
    lobby.http.close()


def test_in_real_time_play_each_bot_keeps_a_human_pace_between_its_own_actions(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    # Match time runs ten times faster than the wall clock (deadline_scale 0.1: a one-minute Pandemic
    # match lasts 6 s), so a pace of 0.4 s of wall time is 4,000 ms of match time between one bot's actions.
    live = LiveServer(tmp_path_factory.mktemp("paced"), bot_delay=0.0, deadline_scale=0.1, games=None,
                      settings={"bot_pace": 0.4}).start()
    try:
        lobby = Lobby(live.url)
        seats = 6
        created = lobby.create("pandemic", seats, options={"minutes": 1, "infected": 1, "qualifiers": 3},
                               host_seat=None, seat_kinds=["bot:heuristic"] * seats)
        lobby.start(created["code"], created["host_token"])
        watcher = Socket(live.ws_url, created["code"])
        watcher.until(lambda f: f["type"] == "update" and f["view"]["is_over"], timeout=60)
        log = lobby.http.get(f"/api/rooms/{created['code']}/log", headers={"X-Host-Token": created["host_token"]}).json()
        lobby.http.close()
    finally:
        live.stop()
    acted: dict[int, list[int]] = {}
    for at, seat, _action in log["entries"]:
        if seat is not None:
            acted.setdefault(seat, []).append(at)
    assert sum(len(times) for times in acted.values()) >= seats, "the bots hardly played"
    for seat, times in acted.items():
        gaps = [b - a for a, b in itertools.pairwise(times)]
        # 1 ms of rounding: the log keeps whole milliseconds of match time.
        assert all(gap >= 4_000 - 1 for gap in gaps), f"seat {seat} acted again after {min(gaps)} ms"


def test_search_bots_play_a_match_on_the_server(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Search bots (`bot:search`, the lobby's "Strong") think half the bot delay (here 50 ms) per decision
    and play a Smuggling match to the end."""
    live = LiveServer(tmp_path_factory.mktemp("search"), bot_delay=0.1, games=None).start()
    try:
        lobby = Lobby(live.url)
        created = lobby.create("smuggling", 2, options={"team_size": 1, "small_games": 4}, host_seat=None,
                               seat_kinds=["bot:search", "bot:heuristic"])
        lobby.start(created["code"], created["host_token"])
        watcher = Socket(live.ws_url, created["code"])
        final = watcher.until(lambda f: f["type"] == "update" and f["view"]["is_over"], timeout=60)
        log = lobby.http.get(f"/api/rooms/{created['code']}/log", headers={"X-Host-Token": created["host_token"]}).json()
        lobby.http.close()
    finally:
        live.stop()
    assert final["view"]["result"]["termination"] == "last_small_game"
    assert [(seat, action["type"]) for _, seat, action in log["entries"]][:2] in (
        [(0, "pack"), (1, "pass")], [(0, "pack"), (1, "doubt")], [(1, "pack"), (0, "pass")], [(1, "pack"), (0, "doubt")])
