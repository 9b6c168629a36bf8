"""The Smuggling Game's determinisation (docs/rules/smuggling.md): the trunk a seat does not see is any
amount the smuggler could pack, equally likely, the balance it was taken from agreeing; another seat's
vote in progress is any member of its team, equally likely; votes announced with the representatives
stay as they were."""

from __future__ import annotations

import random
from collections import Counter

from partygames.engine.determinisation import check_determinisation
from partygames.engine.knowledge import Determiniser, SeatRecord
from partygames.games import get
from partygames.games.smuggling.rules import SmugglingMatch

GAME = get("smuggling")
UNIT = 25_000_000  # five trunks: 0, 25, 50, 75 and 100 million
OPTIONS = {"team_size": 2, "small_games": 2, "unit": UNIT}


def _determiniser(record: SeatRecord) -> Determiniser:
    assert GAME.determiniser is not None
    return GAME.determiniser(record)


def _vote(match: SmugglingMatch, records: list[SeatRecord], seat: int, candidate: int) -> None:
    for event in match.apply(seat, {"type": "vote", "candidate": candidate}):
        for record in records:
            if event.is_visible_to(record.seat):
                record.hear(event)


def test_a_vote_in_progress_is_any_member_of_the_voters_team() -> None:
    match = GAME.new(4, OPTIONS, 1)
    assert isinstance(match, SmugglingMatch)
    records = [SeatRecord(GAME, 4, OPTIONS, s) for s in range(4)]
    _vote(match, records, 0, 2)
    _vote(match, records, 1, 1)
    determiniser = _determiniser(SeatRecord.from_match(GAME, match, 2))
    rng = random.Random(0)
    seen: Counter[tuple[int | None, ...]] = Counter()
    for _ in range(800):
        drawn = determiniser.sample(rng)
        assert isinstance(drawn, SmugglingMatch)
        seen[tuple(drawn.votes)] += 1
    assert set(seen) == {(a, b, None, None) for a in (0, 2) for b in (1, 3)}
    assert all(150 < n < 250 for n in seen.values())


def test_the_unseen_trunk_is_any_amount_the_smuggler_could_pack_and_announced_votes_stay() -> None:
    match = GAME.new(4, OPTIONS, 1)
    assert isinstance(match, SmugglingMatch)
    records = [SeatRecord(GAME, 4, OPTIONS, s) for s in range(4)]
    for seat, candidate in ((0, 2), (1, 1), (2, 2), (3, 3)):
        _vote(match, records, seat, candidate)
    votes = list(match.votes)
    smuggler, inspector = match.smuggler, match.inspector
    assert smuggler is not None and inspector is not None
    for event in match.apply(smuggler, {"type": "pack", "amount": 2 * UNIT}):
        for record in records:
            if event.is_visible_to(record.seat):
                record.hear(event)
    for record in records:
        record.see(match.view(record.seat), match.now, match.deadline())
    rng = random.Random(2)
    trunks: Counter[int] = Counter()
    for record in records:
        determiniser = _determiniser(record)
        for _ in range(500 if record.seat == inspector else 20):
            drawn = determiniser.sample(rng)
            assert isinstance(drawn, SmugglingMatch)
            assert drawn.votes == votes  # announced with the representatives: part of the next ledger entry
            assert drawn.opp[smuggler] + drawn.trunk == 300_000_000
            if record.seat == smuggler:
                assert drawn.trunk == 2 * UNIT
            elif record.seat == inspector:
                trunks[drawn.trunk] += 1
    assert set(trunks) == {k * UNIT for k in range(5)} and all(60 < n < 140 for n in trunks.values())
    # A record begun now has not heard the votes: each member voted for its team's representative.
    fresh = _determiniser(SeatRecord.from_match(GAME, match, inspector)).sample(rng)
    assert isinstance(fresh, SmugglingMatch)
    assert fresh.votes == [smuggler if s % 2 == smuggler % 2 else inspector for s in range(4)]


def test_rotation_tables_determinise_too() -> None:
    report = check_determinisation(GAME, 4, 3, {**OPTIONS, "representatives": "rotation", "small_games": 4})
    assert report.replayed > 0
