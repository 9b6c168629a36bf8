"""It's a QUIZ?'s determinisation (docs/rules/quiz.md): a seat that saw the table from the start (the
memorising time, then every public move) pins every face-down card, so its samples hold the real deal;
a record begun later pins only what the seat sees now and deals the rest uniformly."""

from __future__ import annotations

import random
from collections import Counter

from partygames.engine.actions import sample
from partygames.engine.determinisation import play_random
from partygames.engine.knowledge import Determiniser, SeatRecord
from partygames.engine.session import Session
from partygames.games import get
from partygames.games.quiz.rules import QuizMatch

GAME = get("quiz")


def _determiniser(record: SeatRecord) -> Determiniser:
    assert GAME.determiniser is not None
    return GAME.determiniser(record)


def test_a_seat_that_saw_everything_samples_the_real_table() -> None:
    log = play_random(GAME, 3, 4, {"memorise_seconds": 30}).log
    session = Session(GAME, GAME.new(3, {"memorise_seconds": 30}, log.seed))
    match = session.match
    assert isinstance(match, QuizMatch)
    records = [SeatRecord(GAME, 3, match.options, s) for s in range(3)]
    for record in records:
        record.see(match.view(record.seat), match.now, match.deadline())
    rng = random.Random(0)
    checked = 0
    for step, entry in enumerate(log.entries):
        if step % 9 == 0 and not match.is_over:
            for record in records:
                record.see(match.view(record.seat), match.now, match.deadline())
                drawn = _determiniser(record).sample(rng)
                assert isinstance(drawn, QuizMatch)
                assert (drawn.rows, drawn.board) == (match.rows, match.board)
                checked += 1
        for event in session.replay_entry(entry):
            for record in records:
                if event.is_visible_to(record.seat):
                    record.hear(event)
    assert checked > 10


def test_a_record_begun_later_deals_the_unseen_words_uniformly() -> None:
    match = GAME.new(2, {"memorise_seconds": 30}, 5)
    assert isinstance(match, QuizMatch)
    match.advance(30_000)  # the cards turn face down unseen by any record
    assert match.phase == "open"  # nobody holds a marker: all pass at once
    determiniser = _determiniser(SeatRecord.from_match(GAME, match, 0))
    rng = random.Random(1)
    at_first: Counter[int] = Counter()
    for _ in range(3000):
        drawn = determiniser.sample(rng)
        assert isinstance(drawn, QuizMatch)
        words = [w for row in drawn.rows if row is not None for w in row]
        assert sorted(words) == list(range(30))
        assert sorted(q for q in drawn.board if q is not None) == list(range(10))
        first = drawn.rows[0]
        assert first is not None
        at_first[first[0]] += 1
    assert len(at_first) == 30 and all(50 < n < 150 for n in at_first.values())  # 100 expected each


def test_a_sealed_sheet_is_drawn_as_a_random_player_writes_it() -> None:
    match = GAME.new(3, {"memorise_seconds": 30}, 2)
    assert isinstance(match, QuizMatch)
    rng = random.Random(2)
    while match.phase != "answer":
        seat = match.to_act()[0] if match.to_act() else None
        if seat is None:
            due = match.wake_at()
            assert due is not None
            match.advance(due)
        else:
            match.apply(seat, sample([s for s in match.legal_actions(seat) if s["type"] != "give"], rng))
    match.apply(1, {"type": "secret_money"})
    determiniser = _determiniser(SeatRecord.from_match(GAME, match, 0))
    choices: Counter[str] = Counter()
    for _ in range(600):
        drawn = determiniser.sample(rng)
        assert isinstance(drawn, QuizMatch)
        sheet = drawn.sheets[1]
        assert sheet is not None and drawn.sheets[0] is None and drawn.sheets[2] is None
        choices[sheet["choice"]] += 1
    assert set(choices) == {"answer", "secret_money", "peek"} and all(150 < n < 250 for n in choices.values())
