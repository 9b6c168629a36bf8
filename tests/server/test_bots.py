"""Server-side bots play every registered game to the end, watched by a spectator."""

from __future__ import annotations

import pytest

from partygames import games
from partygames.engine.game import Dynamics
from tests.server.client import Lobby, Socket
from tests.server.live import LiveServer


@pytest.mark.parametrize("game_id", games.ids())
def test_bots_play_a_whole_match_of_every_game_on_the_server(registry_server: LiveServer, game_id: str) -> None:
    game = games.get(game_id)
    options: dict[str, object] = {}
    if game.dynamics is Dynamics.REAL_TIME and game.samples.golden is not None:
        # A real-time game runs on the wall clock here: its short golden set-up, not minutes of breaks.
        options = dict(game.samples.golden.options)
    seats = min(game.seat_counts_for(options))  # allowed with these options
    lobby = Lobby(registry_server.url)
    created = lobby.create(game_id, seats, host_seat=None, **({"options": options} if options else {}),
                           seat_kinds=[f"bot:{'heuristic' if 'heuristic' in game.bots else 'random'}"] * seats)
    lobby.start(created["code"], created["host_token"])
    watcher = Socket(registry_server.ws_url, created["code"])
    final = watcher.until(lambda f: f["type"] == "update" and f["view"]["is_over"], timeout=120)
    assert final["view"]["result"]["winners"]
    assert final["view"]["seat"] is None and final["view"]["legal_actions"] == []
    room = lobby.room(created["code"])
    assert room["status"] == "over" and room["result"] == final["view"]["result"]
    lobby.http.close()
