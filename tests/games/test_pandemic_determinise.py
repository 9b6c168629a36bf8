"""The Pandemic Game's determinisation (docs/rules/pandemic.md): the initial infected set is drawn among
the worlds the seat's own exact odds count, each equally likely, so a seat is infected in the samples
as often as its odds say; the real set is always among them, and carried through the log it gives the
real watches, vaccines, pairs and history."""

from __future__ import annotations

import random
from collections import Counter

from partygames.engine.determinisation import play_random
from partygames.engine.knowledge import SeatRecord
from partygames.engine.session import Session
from partygames.games import get
from partygames.games.pandemic.determinise import PandemicDeterminiser
from partygames.games.pandemic.rules import PandemicMatch

GAME = get("pandemic")
OPTIONS = dict(GAME.samples.conformance.options)


def test_samples_follow_the_seats_exact_odds_and_hold_the_real_world() -> None:
    log = play_random(GAME, 5, 2, {**OPTIONS, "infected": 2}).log
    session = Session(GAME, GAME.new(5, {**OPTIONS, "infected": 2}, log.seed))
    match = session.match
    assert isinstance(match, PandemicMatch)
    records = [SeatRecord(GAME, 5, match.options, s) for s in range(5)]
    checked = 0
    for step, entry in enumerate(log.entries):
        if step % 7 == 0 and not match.is_over:
            for record in records:
                view = match.view(record.seat)
                record.see(view, match.now, match.deadline())
                determiniser = PandemicDeterminiser(record)
                sets = [determiniser.initial_set(w) for w in determiniser.worlds]
                assert len(sets) == view["my_odds"]["worlds"]
                now = [determiniser._carry(chosen)["infected"] for chosen in sets]  # each world's watches now
                assert [sum(w[s] for w in now) for s in range(5)] == view["my_odds"]["infected"]
                real = tuple(match.initial_infected)
                assert real in sets
                carried = determiniser._carry(real)
                assert [carried[k] for k in ("infected", "vaccines", "paired", "history")] == [
                    match.infected, match.vaccines, match.paired, match.history]
                checked += 1
        for event in session.replay_entry(entry):
            for record in records:
                if event.is_visible_to(record.seat):
                    record.hear(event)
    assert checked > 20


def test_a_seat_is_infected_in_the_samples_as_often_as_its_odds_say() -> None:
    match = GAME.new(6, {**OPTIONS, "infected": 2}, 1)
    assert isinstance(match, PandemicMatch)
    match.apply(0, {"type": "offer", "target": 1}, 100)
    match.apply(1, {"type": "accept", "offer": "0@100"}, 200)  # a public contact of 0 and 1
    determiniser = PandemicDeterminiser(SeatRecord.from_match(GAME, match, 2))
    odds = match.view(2)["my_odds"]
    rng = random.Random(3)
    infected: Counter[int] = Counter()
    for _ in range(3000):
        drawn = determiniser.sample(rng)
        assert isinstance(drawn, PandemicMatch)
        infected.update(s for s in range(6) if drawn.infected[s])
    for seat in range(6):
        share = odds["infected"][seat] / odds["worlds"]
        assert abs(infected[seat] / 3000 - share) < 0.04, (seat, infected[seat], share)
