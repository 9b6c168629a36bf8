"""Server-side bots play every registered game to the end, watched by a spectator."""

from __future__ import annotations

import pytest

from partygames import games
from tests.server.client import Lobby, Socket
from tests.server.live import LiveServer


@pytest.mark.parametrize("game_id", games.ids())
def test_bots_play_a_whole_match_of_every_game_on_the_server(registry_server: LiveServer, game_id: str) -> None:
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
