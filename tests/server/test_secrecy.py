"""No frame sent to a seat holds another seat's secret, for a whole match (raw frames searched).

`secret-toy` deals distinctive card values (70xx) that are never revealed, and each seat bids a
distinctive amount that stays sealed until every seat has bid.
"""

from __future__ import annotations

import re

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer

BIDS = [611, 733, 859, 947]


def mentions(raw: str, value: int) -> bool:
    """Whether `value` appears as a whole number (not inside a longer number such as a timestamp)."""
    return re.search(rf"(?<![\d.]){value}(?![\d.])", raw) is not None


def test_no_frame_to_a_seat_or_spectator_holds_another_seats_card_or_sealed_bid(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby, "secret-toy", seats=4, options={"coins": 1000})
    code = created["code"]
    seats = [Socket(server.ws_url, code, token) for token in tokens]
    watcher = Socket(server.ws_url, code)
    cards = [s.update(0)["view"]["my_card"] for s in seats]
    watcher.update(0)
    assert all(7000 < c < 7200 for c in cards)
    reveal_index: dict[int, int] = {}
    for seat, sock in enumerate(seats):
        sock.act({"type": "bid", "amount": BIDS[seat]}, seat)
        sock.update(seat + 1)
    for sock in [*seats, watcher]:
        last = sock.reach(4)
        assert last["view"]["is_over"] and last["view"]["bids"] == BIDS
    for seat, sock in enumerate(seats):
        reveal_index[seat] = next(i for i, raw in enumerate(sock.raw) if '"revealed"' in raw)
        for other in range(4):
            if other == seat:
                continue
            leaks = [raw for raw in sock.raw if mentions(raw, cards[other])]
            assert not leaks, f"seat {seat} was sent seat {other}'s card"
            early = [raw for raw in sock.raw[: reveal_index[seat]] if mentions(raw, BIDS[other])]
            assert not early, f"seat {seat} heard seat {other}'s sealed bid before the reveal"
    watcher_reveal = next(i for i, raw in enumerate(watcher.raw) if '"revealed"' in raw)
    for seat in range(4):
        assert not any(mentions(raw, cards[seat]) for raw in watcher.raw)
        assert not any(mentions(raw, BIDS[seat]) for raw in watcher.raw[:watcher_reveal])


def test_full_state_and_replays_open_only_when_the_match_is_over(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby, "secret-toy", seats=2, options={"coins": 1000})
    code = created["code"]
    for path in (f"/api/rooms/{code}/replay", f"/api/rooms/{code}/replay?seat=0", f"/api/rooms/{code}/log"):
        refused = lobby.http.get(path)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "room/not_over"
    room_json = lobby.http.get(f"/api/rooms/{code}").text
    a, b = Socket(server.ws_url, code, tokens[0]), Socket(server.ws_url, code, tokens[1])
    cards = [a.update(0)["view"]["my_card"], b.update(0)["view"]["my_card"]]
    assert not any(mentions(room_json, c) for c in cards)
    a.act({"type": "bid", "amount": BIDS[0]})
    b.act({"type": "bid", "amount": BIDS[1]})
    a.update(2)
    seat0 = lobby.http.get(f"/api/rooms/{code}/replay?seat=0", headers={"X-Seat-Token": tokens[0]}).json()
    assert [s["version"] for s in seat0["steps"]] == [0, 1, 2]
    assert all(s["view"]["my_card"] == cards[0] for s in seat0["steps"])
    assert not mentions(str(seat0), cards[1])  # a seat's replay still shows only that seat's view
    # The toy's cards are never shown: seat 0's replay is seat 0's and the host's, not the other seat's nor a
    # passer-by's (who may watch the public view).
    for headers in ({}, {"X-Seat-Token": tokens[1]}, {"X-Seat-Token": "not-a-token"}, {"X-Host-Token": tokens[0]},
                    {"X-Host-Token": "not-the-host"}):
        refused = lobby.http.get(f"/api/rooms/{code}/replay?seat=0", headers=headers)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "replay/forbidden", headers
        assert not mentions(refused.text, cards[0])
    by_host = lobby.http.get(f"/api/rooms/{code}/replay?seat=1", headers={"X-Host-Token": created["host_token"]})
    assert all(s["view"]["my_card"] == cards[1] for s in by_host.json()["steps"])
    public = lobby.http.get(f"/api/rooms/{code}/replay").json()
    assert all(s["view"]["my_card"] is None for s in public["steps"])
    assert public["result"]["winners"] == [1]
    # The raw log (seed, final state, every action as played) is the host's alone; others get what a
    # spectator may know (the toy's bids are public once the match is over), no seed and no state.
    log = lobby.http.get(f"/api/rooms/{code}/log", headers={"X-Host-Token": created["host_token"]}).json()
    assert [(seat, action) for _, seat, action in log["entries"]] == [
        (0, {"type": "bid", "amount": BIDS[0]}), (1, {"type": "bid", "amount": BIDS[1]})]
    assert log["final_state"]["state"]["cards"] == cards and isinstance(log["seed"], int) and not log["redacted"]
    for headers in ({}, {"X-Host-Token": "not-the-host"}, {"X-Host-Token": tokens[0]}):
        public_log = lobby.http.get(f"/api/rooms/{code}/log", headers=headers).json()
        assert public_log["redacted"] and public_log["seed"] is None and public_log["final_state"] is None
        assert [e[2] for e in public_log["entries"]] == [e[2] for e in log["entries"]]
        assert not any(mentions(str(public_log), c) for c in cards)
