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
    """A race as Dice Derby logs it: betting opens (a chapter begins), one seat's ticket, then the rolls."""
    history.record([Event("betting_open", {"race": race}), Event("my_ticket", {"race": race}, to=(0,))])
    history.record([Event("roll", {"race": race, "n": n}) for n in range(rolls)])


def test_someone_arriving_sees_the_current_chapter_and_at_least_the_last_few_events() -> None:
    history = EventHistory(keep=100)
    for race in (1, 2):
        _race(history, race, rolls=6)

    def shown(seat: int | None, at_least: int, at_most: int = 200) -> list[tuple[str, int]]:
        return [(e["type"], e["data"]["race"]) for e in map(json.loads, history.recent(seat, {"betting_open"}, at_least, at_most))]

    # The whole current race from its start, even when fewer events were asked for; a seat's own event included.
    assert shown(0, at_least=2) == [("betting_open", 2), ("my_ticket", 2)] + [("roll", 2)] * 6
    assert shown(None, at_least=2) == [("betting_open", 2)] + [("roll", 2)] * 6
    # At least `at_least` events: the end of the previous race too, by whole versions, oldest first.
    assert shown(None, at_least=9) == [("roll", 1)] * 6 + [("betting_open", 2)] + [("roll", 2)] * 6
    assert len(shown(None, at_least=100)) == 14  # all there is
    assert shown(None, at_least=100, at_most=3) == [("roll", 2)] * 3  # never more than `at_most`, the newest
    assert EventHistory(keep=10).recent(None, {"betting_open"}, 12) == []
