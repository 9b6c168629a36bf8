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
