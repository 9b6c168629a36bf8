"""Dice Derby's determinisation (docs/rules/dice-derby.md): a sealed bid the seat has not seen is a pass
or a bid, half the time each, for any horse and any amount the bidder could pay; the bids revealed by
the auction stay as announced; another seat's tickets are any the random bettor might hold."""

from __future__ import annotations

import random
from collections import Counter

from partygames.engine.knowledge import Determiniser, SeatRecord
from partygames.games import get
from partygames.games.dice_derby.rules import DiceDerbyMatch

GAME = get("dice-derby")


def _determiniser(record: SeatRecord) -> Determiniser:
    assert GAME.determiniser is not None
    return GAME.determiniser(record)


def _step(match: DiceDerbyMatch, records: list[SeatRecord], seat: int, action: dict[str, object]) -> None:
    for event in match.apply(seat, action):
        for record in records:
            if event.is_visible_to(record.seat):
                record.hear(event)


def test_sealed_bids_are_drawn_as_a_random_bidder_and_kept_once_revealed() -> None:
    match = GAME.new(6, {"races": 4}, 2)
    assert isinstance(match, DiceDerbyMatch)
    records = [SeatRecord(GAME, 6, {"races": 4}, s) for s in range(6)]
    for seat in range(5):
        _step(match, records, seat, {"type": "bid", "horse": seat + 1, "amount": 1000 * (seat + 1)})
    determiniser = _determiniser(SeatRecord.from_match(GAME, match, 5))
    rng = random.Random(0)
    kinds: Counter[str] = Counter()
    horses: Counter[int] = Counter()
    for _ in range(1200):
        drawn = determiniser.sample(rng)
        assert isinstance(drawn, DiceDerbyMatch)
        bid = drawn.sealed["0"]
        kinds["pass" if bid["horse"] is None else "bid"] += 1
        if bid["horse"] is not None:
            horses[bid["horse"]] += 1
            assert 100 <= bid["amount"] <= 10_000 and bid["amount"] % 100 == 0
    assert 500 < kinds["bid"] < 700
    assert set(horses) == set(range(1, 7)) and all(60 < n < 140 for n in horses.values())
    _step(match, records, 5, {"type": "pass"})  # the auction closes: every bid is announced
    for record in records:
        record.see(match.view(record.seat), match.now, match.deadline())
    drawn = _determiniser(records[5]).sample(rng)
    assert isinstance(drawn, DiceDerbyMatch)
    assert drawn.sealed == match.sealed and drawn.auction == match.auction


def test_another_seats_tickets_are_ones_it_could_have_bought() -> None:
    match = GAME.new(6, {"races": 4, "loans": True}, 2)
    assert isinstance(match, DiceDerbyMatch)
    for seat in range(6):
        match.apply(seat, {"type": "pass"})
    match.apply(0, {"type": "bet_win", "horse": 6, "amount": 700})
    match.apply(1, {"type": "done"})
    determiniser = _determiniser(SeatRecord.from_match(GAME, match, 0))
    rng = random.Random(1)
    held = Counter[int]()
    for _ in range(300):
        drawn = determiniser.sample(rng)
        assert isinstance(drawn, DiceDerbyMatch)
        assert drawn.tickets["0"] == [{"kind": "win", "pick": "6", "stake": 700}]
        assert drawn.done == match.done
        for seat in range(1, 6):
            tickets = drawn.tickets.get(str(seat), [])
            held[len(tickets)] += 1
            assert drawn.available(seat) >= 0
            assert len([t for t in tickets if t["kind"] == "win"]) <= 1
            assert len([t for t in tickets if t["kind"] == "quinella"]) <= 3
    assert held[0] > 0 and sum(n for k, n in held.items() if k > 0) > 0
