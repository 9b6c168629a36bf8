"""The group's arithmetic (server/groups.py, docs/profiles.md), worked out by hand: points from placings, the
evening ("tonight") and the standings and scoreboard built from them."""

from __future__ import annotations

from typing import Any

from partygames.server.groups import EVENING_GAP, evening, points, scoreboard, standings

HOUR = 3600.0


def test_a_seat_scores_one_for_each_seat_it_beat_and_a_half_for_each_it_tied() -> None:
    assert points({0: 1, 1: 2, 2: 3, 3: 4}) == {0: 3.0, 1: 2.0, 2: 1.0, 3: 0.0}
    # Ranks 1, 2, 2, 4: the second and third tie (each beats seat 3: 1, ties the other: 1/2).
    assert points({0: 2, 1: 1, 2: 4, 3: 2}) == {0: 1.5, 1: 3.0, 2: 0.0, 3: 1.5}
    assert points({5: 1, 6: 1}) == {5: 0.5, 6: 0.5}  # a draw of two
    assert points({0: 1}) == {0: 0.0}
    # Whatever the ties, a match of n seats hands out n(n-1)/2 points.
    assert sum(points({0: 1, 1: 1, 2: 3, 3: 3, 4: 3}).values()) == 10.0


def match(start: float, end: float, seats: list[tuple[str | None, int, bool, float]]) -> dict[str, Any]:
    return {"started_at": start, "ended_at": end,
            "seats": [{"profile": p, "rank": r, "won": w, "points": pts} for p, r, w, pts in seats]}


def test_tonight_is_the_matches_back_to_a_gap_of_six_hours() -> None:
    last_week = match(0, HOUR, [("a", 1, True, 1.0), ("b", 2, False, 0.0)])
    first = match(7 * 24 * HOUR, 7 * 24 * HOUR + 600, [("a", 2, False, 0.0), ("b", 1, True, 1.0)])
    # The next one starts 5 h 59 min after the first ended: the same evening.
    second = match(first["ended_at"] + EVENING_GAP - 60, first["ended_at"] + EVENING_GAP + 600,
                   [("a", 1, True, 1.0), ("b", 2, False, 0.0)])
    found = [last_week, first, second]
    tonight, current = evening(found, now=second["ended_at"] + 60)
    assert tonight == [first, second] and current
    # Six hours after the last match, that evening is over (it is still the latest one shown).
    assert evening(found, now=second["ended_at"] + EVENING_GAP) == ([first, second], False)
    # A gap of exactly six hours starts a new evening.
    late = match(second["ended_at"] + EVENING_GAP, second["ended_at"] + EVENING_GAP + 60, [("a", 1, True, 1.0)])
    assert evening([*found, late], now=late["ended_at"])[0] == [late]
    assert evening([], now=0.0) == ([], False)


def test_standings_and_the_running_scoreboard_add_up_by_hand() -> None:
    members = [{"profile": p, "name": n, "colour": "#000000"} for p, n in (("a", "Aki"), ("b", "Ben"), ("c", "Chika"))]
    # Match 1, four seats (a guest at the last place): Aki 1st (3), Ben and Chika tie 2nd (1.5 each).
    one = match(0, 10, [("a", 1, True, 3.0), ("b", 2, False, 1.5), ("c", 2, False, 1.5), (None, 4, False, 0.0)])
    # Match 2, Ben and Chika alone: Chika wins (1), Ben 0.
    two = match(20, 30, [("c", 1, True, 1.0), ("b", 2, False, 0.0)])
    rows = standings([one, two], members)
    assert [(r["name"], r["matches"], r["wins"], r["average_placing"], r["points"]) for r in rows] == [
        ("Aki", 1, 1, 1.0, 3.0), ("Chika", 2, 1, 1.5, 2.5), ("Ben", 2, 0, 2.0, 1.5)]
    board = scoreboard([one, two], members)
    assert [(r["name"], r["by_match"], r["total"], r["wins"]) for r in board] == [
        ("Aki", [3.0, None], 3.0, 1), ("Chika", [1.5, 1.0], 2.5, 1), ("Ben", [1.5, 0.0], 1.5, 0)]
    # A member who did not play tonight is not on the scoreboard, but stands in the standings with nothing.
    assert [r["name"] for r in scoreboard([two], members)] == ["Chika", "Ben"]
    assert standings([two], members)[-1] == {"profile": "a", "name": "Aki", "colour": "#000000", "matches": 0,
                                             "wins": 0, "points": 0.0, "average_placing": None}
