"""A reload during a reveal on a process that does not own the room: it is shown the match as it was before
the reveal, then the reveal as an update, as on the owner (docs/server.md, Reveals)."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tests.cluster.conftest import Cluster
from tests.server.client import Lobby, Socket, human_room

REVEAL = 3.0  # reveal-toy reveals each round's bids for 1 s; reveal_scale 3: 3 s


def test_a_reload_on_a_follower_during_a_reveal_watches_it_from_before_it(database: str, tmp_path: Path) -> None:
    cluster = Cluster(database, tmp_path, 2, bot_delay=0.02, settings={"reveal_scale": REVEAL}).start()
    try:
        lobby = Lobby(cluster.servers[0].url)
        created, tokens = human_room(lobby, "reveal-toy", seats=2)
        lobby.http.close()
        code = created["code"]
        owner = cluster.owner(code)
        assert owner is not None
        follower = next(s for s in cluster.servers if s is not owner)
        aki, ben = Socket(owner.ws_url, code, tokens[0]), Socket(owner.ws_url, code, tokens[1])
        aki.update()
        aki.act({"type": "bid", "amount": 1}, "a")
        aki.reach(1)
        ben.act({"type": "bid", "amount": 2}, "b")
        revealing = aki.update(2)  # Ben's bid reveals round 1's bids: 3 s to watch
        assert revealing["reveal"] > REVEAL / 2, revealing
        # The follower holds the room at that step already (its lobby answer catches up with the database):
        # what a reload there is shown comes from the reveal, not from a follower lagging behind.
        assert httpx.get(f"{follower.url}/api/rooms/{code}", timeout=10).json()["version"] == 2
        # Aki reloads on the follower while it plays: the match as it was before that step, then the step.
        back = Socket(follower.ws_url, code, tokens[0])
        back.recv()
        before = back.update()
        assert before["fresh"] is True and before["version"] == 1, before
        assert before["view"]["has_bid"] == [True, False] and before["view"]["version"] == 1
        watch = back.update()
        assert watch["fresh"] is False and watch["version"] == 2 and watch["view"] == revealing["view"]
        assert watch["events"] == [e for e in revealing["events"] if e["version"] == 2]
        assert 0 < watch["reveal"] <= revealing["reveal"]
        # Once it has been shown, a reload on the follower is shown the match as it is.
        time.sleep(watch["reveal"] + 0.2)
        again = Socket(follower.ws_url, code, tokens[0])
        again.recv()
        assert again.update()["version"] == 2
    finally:
        cluster.stop()
