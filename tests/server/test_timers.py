"""Time limits run on the room's scheduler: when one passes, one wake-up applies the engine's defaults
for every seat still awaited."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # The toy's 30 s bidding deadline becomes 2.4 s.
    live = LiveServer(tmp_path_factory.mktemp("fast"), deadline_scale=0.08).start()
    yield live
    live.stop()


def test_when_the_deadline_passes_the_defaults_are_applied_for_the_seats_still_awaited(fast_server: LiveServer) -> None:
    lobby = Lobby(fast_server.url)
    created, tokens = human_room(lobby, seats=3)
    code = created["code"]
    me = Socket(fast_server.ws_url, code, tokens[0])
    first = me.update(0)
    deadline = first["deadline"]
    assert deadline["phase"] == "bidding" and deadline["seconds"] == pytest.approx(2.4)
    assert 0 < deadline["remaining"] <= 2.4
    me.act({"type": "bid", "amount": 4}, "mine")
    assert me.update(1)["deadline"]["ends_at"] == deadline["ends_at"]  # the same phase keeps its clock
    final = me.update(2, timeout=5)
    assert final["view"]["is_over"] and final["view"]["bids"] == [4, 0, 0] and final["deadline"] is None
    steps = lobby.http.get(f"/api/rooms/{code}/replay").json()["steps"]
    assert [(s["seat"], s["source"]) for s in steps[1:]] == [(0, "seat"), (None, "wake")]
    assert steps[2]["at"] == 30_000  # match time: the limit's own length, whatever the wall clock did
    lobby.http.close()
