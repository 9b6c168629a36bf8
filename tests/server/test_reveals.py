"""Reveals pace the match (docs/server.md, Reveals): while the reveal people watch plays, the match clock
stands still and bots wait, so a time limit starts only once it has been shown. `reveal-toy` reveals each
round's bids for 1 s; its bidding limit is 30 s of match time, here 1.5 s (deadline_scale 0.05)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer

REVEAL = 1.0
LIMIT = 1.5


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("paced"), bot_delay=0.05, deadline_scale=0.05,
                      settings={"reveal_scale": 1.0}).start()
    yield live
    live.stop()


@pytest.fixture
def lobby(paced: LiveServer) -> Iterator[Lobby]:
    client = Lobby(paced.url)
    yield client
    client.http.close()


def _round_over(frame: dict[str, object], round_no: int) -> bool:
    events = frame.get("events") or []
    assert isinstance(events, list)
    return frame["type"] == "update" and any(e["type"] == "round" and e["data"]["round"] == round_no for e in events)


def test_a_bot_waits_until_the_reveal_has_been_shown(lobby: Lobby, paced: LiveServer) -> None:
    created = lobby.create("reveal-toy", 2, name="Aki", seat_kinds=["human", "bot:random"])
    lobby.start(created["code"], created["host_token"])
    aki = Socket(paced.ws_url, created["code"], created["token"])
    aki.until(lambda f: f["type"] == "update" and f["view"]["has_bid"] == [False, True])  # the bot bid at once
    aki.act({"type": "bid", "amount": 3}, "a")
    revealed = aki.until(lambda f: _round_over(f, 2))
    shown_at = time.monotonic()
    assert REVEAL - 0.2 <= revealed["reveal"] <= REVEAL
    aki.until(lambda f: f["type"] == "update" and f["view"]["has_bid"] == [False, True])
    assert time.monotonic() - shown_at >= REVEAL - 0.15  # the bot's next bid came after the reveal


def test_a_time_limit_starts_after_the_reveal(lobby: Lobby, paced: LiveServer) -> None:
    created, tokens = human_room(lobby, "reveal-toy", seats=2)
    aki, ben = (Socket(paced.ws_url, created["code"], token) for token in tokens)
    aki.update()
    aki.act({"type": "bid", "amount": 1}, "a")
    ben.act({"type": "bid", "amount": 2}, "b")
    revealed = aki.until(lambda f: _round_over(f, 2))
    shown_at = time.monotonic()
    # Round 2's limit runs from the end of round 1's reveal: 1 s of reveal, then 1.5 s.
    assert REVEAL + LIMIT - 0.25 <= revealed["deadline"]["remaining"] <= REVEAL + LIMIT
    lapsed = aki.until(lambda f: _round_over(f, 3), timeout=10)  # nobody bids: the defaults end round 2
    waited = time.monotonic() - shown_at
    assert REVEAL + LIMIT - 0.15 <= waited <= REVEAL + LIMIT + 1.0
    assert [e["data"]["seat"] for e in lapsed["events"] if e["type"] == "bid_sealed"] == [0, 1]


def test_a_reveal_shown_before_a_restart_still_delays_the_limit_after_it(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, settings={"reveal_scale": 2.0}).start()  # 2 s reveals, a 30 s limit
    try:
        lobby = Lobby(live.url)
        created, tokens = human_room(lobby, "reveal-toy", seats=2)
        code = created["code"]
        aki, ben = (Socket(live.ws_url, code, token) for token in tokens)
        aki.update()
        aki.act({"type": "bid", "amount": 1}, "a")
        ben.act({"type": "bid", "amount": 2}, "b")
        ends_at = aki.until(lambda f: _round_over(f, 2))["deadline"]["ends_at"]
        live.kill()
        lobby.http.close()
        live.start()
        back = Socket(live.ws_url, code, tokens[0], since=2)
        back.recv()
        assert back.update()["deadline"]["ends_at"] == pytest.approx(ends_at, abs=0.01)
    finally:
        live.stop()


def test_someone_arriving_mid_match_is_shown_the_match_s_history(lobby: Lobby, paced: LiveServer) -> None:
    created, tokens = human_room(lobby, "reveal-toy", seats=2)
    code = created["code"]
    aki, ben = (Socket(paced.ws_url, code, token) for token in tokens)
    aki.update()
    for round_no in (1, 2, 3):
        aki.act({"type": "bid", "amount": round_no}, f"a{round_no}")
        ben.act({"type": "bid", "amount": 0}, f"b{round_no}")
        aki.until(partial(_round_over, round_no=round_no + 1))
    aki.act({"type": "bid", "amount": 4}, "a4")
    # (once the reveals queued so far have been shown: someone arriving during one watches it, below)
    time.sleep(aki.update(7)["reveal"] + 0.1)
    late = Socket(paced.ws_url, code)
    late.recv()
    first = late.update()
    assert first["fresh"] is True and first["version"] == 7
    # Every public event since the match began, oldest first: the whole history, not only this round.
    assert [e["version"] for e in first["events"]] == [1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6, 6, 7]
    assert [e["type"] for e in first["events"][-4:]] == ["bid_sealed", "revealed", "round", "bid_sealed"]


def test_someone_arriving_during_a_reveal_watches_it_from_before_it(lobby: Lobby, paced: LiveServer) -> None:
    created, tokens = human_room(lobby, "reveal-toy", seats=2)
    code = created["code"]
    aki, ben = (Socket(paced.ws_url, code, token) for token in tokens)
    aki.update()
    aki.act({"type": "bid", "amount": 1}, "a")
    aki.reach(1)
    ben.act({"type": "bid", "amount": 2}, "b")
    revealing = aki.until(lambda f: _round_over(f, 2))  # Ben's bid reveals round 1's bids: 1 s to watch
    assert revealing["version"] == 2 and revealing["reveal"] > 0.5
    # Aki reloads while it plays: the match as it was before that step, then the step's events to watch.
    back = Socket(paced.ws_url, code, tokens[0])
    back.recv()
    before = back.update()
    assert before["fresh"] is True and before["version"] == 1
    assert before["view"]["has_bid"] == [True, False] and before["view"]["version"] == 1
    assert [e["type"] for e in before["events"]] == ["bid_sealed"]
    watch = back.update()
    assert watch["fresh"] is False and watch["version"] == 2 and watch["view"] == revealing["view"]
    assert watch["events"] == [e for e in revealing["events"] if e["version"] == 2]
    assert 0 < watch["reveal"] <= revealing["reveal"]
    # Once it has been shown, a reload is shown the match as it is.
    time.sleep(REVEAL)
    again = Socket(paced.ws_url, code, tokens[0])
    again.recv()
    assert again.update()["version"] == 2
