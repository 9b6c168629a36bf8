"""The event history a reconnecting client is caught up from: audiences respected, old versions dropped."""

from __future__ import annotations

import json

import pytest

from partygames.engine.match import Event
from partygames.server.history import EventHistory


def test_each_seat_gets_the_events_meant_for_it_in_version_order() -> None:
    history = EventHistory(keep=100)
    assert history.record([Event("dealt", {"card": 3}, to=(0,)), Event("dealt", {"card": 8}, to=(1,))]) == 1
    assert history.record([Event("bid_sealed", {"seat": 0})]) == 2
    mine = [json.loads(e) for e in history.events_for(0, 0, 2)]
    assert mine == [{"version": 1, "type": "dealt", "data": {"card": 3}},
                    {"version": 2, "type": "bid_sealed", "data": {"seat": 0}}]
    assert [json.loads(e)["data"] for e in history.events_for(None, 0, 2)] == [{"seat": 0}]  # spectators: public only
    assert history.events_for(1, 1, 2) == history.events_for(None, 1, 2)


def test_only_the_last_versions_are_kept_and_older_gaps_are_refused() -> None:
    history = EventHistory(keep=8)
    for n in range(20):
        history.record([Event("tick", {"n": n})])
    assert history.version == 20
    assert history.covers(12) and not history.covers(2) and not history.covers(21)
    assert [json.loads(e)["data"]["n"] for e in history.events_for(None, 17, 20)] == [17, 18, 19]
    with pytest.raises(ValueError, match="not all kept"):
        history.events_for(None, 2, 20)


def _race(history: EventHistory, race: int, rolls: int) -> None:
    """A race as Dice Derby logs it: betting opens, one seat's ticket, then the rolls."""
    history.record([Event("betting_open", {"race": race}), Event("my_ticket", {"race": race}, to=(0,))])
    history.record([Event("roll", {"race": race, "n": n}) for n in range(rolls)])


def test_someone_arriving_sees_every_kept_event_of_the_match_it_may_see() -> None:
    history = EventHistory(keep=100)
    for race in (1, 2):
        _race(history, race, rolls=6)

    def shown(seat: int | None, kept: EventHistory = history) -> list[tuple[str, int]]:
        return [(e["type"], e["data"]["race"]) for e in map(json.loads, kept.recent(seat))]

    # The whole match from its first event, oldest first: a seat's own events included, nobody else's.
    def told(n: int, mine: bool) -> list[tuple[str, int]]:
        return [("betting_open", n)] + [("my_ticket", n)] * mine + [("roll", n)] * 6

    assert shown(0) == told(1, True) + told(2, True)
    assert shown(1) == shown(None) == told(1, False) + told(2, False)
    assert EventHistory(keep=10).recent(None) == []
    # Only the kept versions: a long match's first races are forgotten, by whole versions.
    short = EventHistory(keep=4)
    for n in range(1, 6):
        _race(short, n, rolls=2)
    assert short.base == 6 and short.version == 10
    assert [json.loads(e)["version"] for e in short.recent(None)] == [7, 8, 8, 9, 10, 10]
