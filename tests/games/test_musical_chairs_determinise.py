"""Musical Chairs' determinisation (docs/rules/musical-chairs.md): the rounds tempo's tables determinise
as the real-time ones do (tests/test_determinise.py); other seats' medals are put where the seat last
knew them, adding up; a ballot it has not seen is any candidate or blank, equally likely."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from partygames.engine.actions import sample
from partygames.engine.determinisation import check_determinisation
from partygames.engine.knowledge import SeatRecord
from partygames.games import get
from partygames.games.musical_chairs.determinise import estimate_medals
from partygames.games.musical_chairs.rules import MusicalChairsMatch

GAME = get("musical-chairs")


def test_rounds_tempo_tables_determinise() -> None:
    setup = GAME.samples.research
    assert setup is not None and setup.options["tempo"] == "rounds"
    report = check_determinisation(GAME, setup.seats, 1, dict(setup.options))
    assert report.replayed > 0


def _view(**fields: Any) -> dict[str, Any]:
    return {"seat": 0, "players": [0, 1, 2], "remaining": [0, 1, 2], "my_transfers": [], "shown_to_me": [],
            **fields}


def test_medals_stay_where_the_seat_last_knew_them_and_add_up() -> None:
    # Nothing seen: every player holds its own set.
    assert estimate_medals(_view(my_medals={"0": 4}), 4, 4) == [{"0": 4}, {"1": 4}, {"2": 4}, {}]
    # Seat 0 gave 3 of its medals to seat 3 (a ガヤ) and got 1 of seat 1's.
    gifts = [{"from": 0, "to": 3, "name": 0, "count": 3, "at": 10}, {"from": 1, "to": 0, "name": 1, "count": 1, "at": 20}]
    assert estimate_medals(_view(my_medals={"0": 1, "1": 1}, my_transfers=gifts), 4, 4) == [
        {"0": 1, "1": 1}, {"1": 3}, {"2": 4}, {"0": 3}]
    # Seat 2 then showed holding two of seat 0's medals (seat 3 must have passed them on): seat 3 keeps
    # the one left; seat 1 is out, its medals void.
    shown = [{"from": 2, "to": 0, "medals": {"2": 4, "0": 2}, "at": 30}]
    assert estimate_medals(_view(my_medals={"0": 1, "1": 1}, my_transfers=gifts, shown_to_me=shown,
                                 remaining=[0, 2]), 4, 4) == [{"0": 1}, {}, {"2": 4, "0": 2}, {"0": 1}]


def _to_a_vote(seed: int) -> MusicalChairsMatch | None:
    """A rounds-tempo match played at random (no gifts) until its first vote; None if it ends first."""
    match = GAME.new(5, {**GAME.samples.conformance.options, "tempo": "rounds"}, seed)
    assert isinstance(match, MusicalChairsMatch)
    rng = random.Random(seed)
    while match.phase != "vote":
        if match.is_over:
            return None
        awaited = match.to_act()
        if awaited:
            seat = awaited[0]
            match.apply(seat, sample([s for s in match.legal_actions(seat) if s["type"] not in ("give", "show_medals")], rng))
        else:
            due = match.wake_at()
            assert due is not None
            match.advance(due)
    return match


def test_a_ballot_not_seen_is_any_candidate_or_blank() -> None:
    match = next(m for m in map(_to_a_vote, range(20)) if m is not None)
    rng = random.Random(4)
    candidates = list(match.candidates)
    match.apply(1, {"type": "vote", "candidate": candidates[0]})
    assert GAME.determiniser is not None
    determiniser = GAME.determiniser(SeatRecord.from_match(GAME, match, 0))
    ballots: Counter[object] = Counter()
    for _ in range(600):
        drawn = determiniser.sample(rng)
        assert isinstance(drawn, MusicalChairsMatch)
        ballots["blank" if 1 in drawn.abstained else drawn.ballots["1"]] += 1
        assert drawn.voted() == match.voted()
    share = 600 / (len(candidates) + 1)
    assert set(ballots) == {*candidates, "blank"} and all(abs(n - share) < 0.4 * share for n in ballots.values())
