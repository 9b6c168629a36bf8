"""It's a QUIZ? information state (docs/rules/quiz.md, Encoding): a seat's recall, built from its first view
and the events it may see, holds what the seat once saw and no longer sees; the observation never does.
The scripted deal of test_quiz_rules: question q lies at board place q and its row holds the words 3q,
3q+1, 3q+2."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from partygames.engine.actions import sample
from partygames.engine.encoding import Vector, hear, start_recalls
from partygames.games import get
from partygames.games.quiz.decks import ANSWERS, QUESTIONS
from partygames.games.quiz.encoding import QuizCodec, QuizEncoder
from partygames.games.quiz.recall import QuizRecall
from partygames.games.quiz.rules import BOARD, MAX_ANSWER, QuizMatch
from partygames.games.quiz.scoring import answer_target, white_target

GAME = get("quiz")
SCRIPT: dict[str, list[Any]] = {"white_positions": [list(range(16))], "deal": [list(range(30))], "first_parent": [0]}
WHEN = 9.0  # "when" is (question seen + 1) / 9: 1/9 while memorising, 2/9 during question 1


class Recorded:
    """A scripted match whose every seat keeps a `QuizRecall`, fed as the research adapters feed it."""

    def __init__(self, seats: int = 3, seed: int = 1, script: dict[str, list[Any]] | None = SCRIPT) -> None:
        match = GAME.new(seats, {}, seed, script=script)
        assert isinstance(match, QuizMatch)
        self.match = match
        self.encoder = QuizEncoder(seats, match.options)
        self.recalls = start_recalls(self.encoder, match, (*range(seats), None))

    def apply(self, seat: int, action: dict[str, Any], now: int) -> None:
        hear(self.recalls, self.match.apply(seat, action, now))

    def advance(self, now: int) -> None:
        hear(self.recalls, self.match.advance(now))

    def observation(self, seat: int) -> dict[str, Vector]:
        return self.encoder.layout.split(self.encoder.observe(self.match.view(seat)))

    def information(self, seat: int) -> dict[str, Vector]:
        vector = self.encoder.recalled_state(self.match.view(seat), self.recalls[seat])
        return self.encoder.information_layout.split(vector)


def memorised(seats: int = 3) -> Recorded:
    table = Recorded(seats)
    for seat in range(seats):
        table.apply(seat, {"type": "ready"}, 1000)
    return table


def ask(table: Recorded, place: int, now: int = 2000) -> None:
    match = table.match
    while match.phase == "select":
        table.apply(match.to_act()[0], {"type": "pass"}, now)
    if match.phase == "open":
        assert match.parent is not None
        table.apply(match.parent, {"type": "open", "card": place}, now)
    assert match.phase == "answer"


def peeking() -> Recorded:
    """Question 1 asked (place 4); seat 0 answered, seats 1 and 2 peek, holding markers to pay with."""
    table = memorised()
    ask(table, place=4)
    table.match.held[1] = {"score": 1, "money": 2}
    table.match.held[2] = {"score": 2, "money": 0}
    table.match.stock = {"score": 9, "money": 10}
    sheets: dict[int, dict[str, Any]] = {0: {"type": "answer", "words": [12]}, 1: {"type": "peek"}, 2: {"type": "peek"}}
    for seat, action in sheets.items():
        table.apply(seat, action, 3000)
    assert table.match.phase == "peek"
    return table


def word_at(parts: dict[str, Vector], card: str) -> int | None:
    """The word the `recall_word` part holds at an answer place (None: none)."""
    row, _, index = card[1:].partition(".")
    k = int(row) * MAX_ANSWER + int(index)
    hot = np.flatnonzero(parts["recall_word"][k * ANSWERS:(k + 1) * ANSWERS])
    return int(hot[0]) if len(hot) else None


def question_at(parts: dict[str, Vector], place: int) -> int | None:
    hot = np.flatnonzero(parts["recall_question"][place * QUESTIONS:(place + 1) * QUESTIONS])
    return int(hot[0]) if len(hot) else None


def test_after_memorising_the_information_state_holds_the_whole_table_and_the_observation_none_of_it() -> None:
    table = memorised()
    observation, info = table.observation(1), table.information(1)
    assert observation["card_word"].sum() == 0 and observation["white_question"].sum() == 0
    assert [word_at(info, answer_target(q, i)) for q in range(QUESTIONS) for i in range(3)] == list(range(30))
    assert [question_at(info, p) for p in range(BOARD)] == [*range(10), *[None] * 6]
    assert info["recall_word_when"][0] == pytest.approx(1 / WHEN)  # seen while memorising
    assert np.array_equal(table.encoder.recalled_state(table.match.view(1), table.recalls[1])[:table.encoder.size],
                          table.encoder.observe(table.match.view(1)))  # the observation comes first, unchanged


def test_a_peeked_card_leaves_the_observation_when_the_peek_ends_but_stays_in_the_information_state() -> None:
    table = peeking()
    table.apply(1, {"type": "look", "card": "a7.1", "paid_money": 2}, 5000)
    at = (7 * MAX_ANSWER + 1) * ANSWERS + 22  # answer place a7.1 holds word 22
    assert table.observation(1)["card_word"][at] == 1
    table.advance(15_000)  # the peek's 10 s are over
    assert table.observation(1)["card_word"].sum() == 0
    mine, other = table.information(1), table.information(0)
    assert word_at(mine, "a7.1") == 22 and word_at(other, "a7.1") == 22  # both memorised it
    # Seat 1 saw it again during question 1; seat 0 only while memorising, and saw seat 1 look (public).
    assert mine["recall_word_when"][71] == pytest.approx(2 / WHEN)
    assert other["recall_word_when"][71] == pytest.approx(1 / WHEN)
    seen_by = other["seen_by"].reshape(-1, 3)
    assert seen_by[71].tolist() == [0.0, 1.0, 0.0] and seen_by.sum() == 1


def test_histories_that_differ_only_in_another_seats_sealed_sheet_give_this_seat_the_same_information_state() -> None:
    tables = []
    for sheet in ({"type": "answer", "words": [5]}, {"type": "secret_money"}):
        table = memorised()
        ask(table, place=4)
        table.apply(1, sheet, 3000)
        tables.append(table)
    first, second = tables
    for seat, same in ((0, True), (2, True), (1, False)):
        a, b = (t.encoder.recalled_state(t.match.view(seat), t.recalls[seat]) for t in tables)
        assert np.array_equal(a, b) is same, seat
    # Once every sheet is revealed the words are public: they enter every seat's history.
    for table in tables:
        for seat in (0, 2):
            table.apply(seat, {"type": "secret_money"}, 3000)
    words = first.information(0)["history_words"].reshape(8, 3, ANSWERS)
    assert np.flatnonzero(words[0, 1]).tolist() == [5] and second.information(0)["history_words"].sum() == 0


def test_dealt_answers_and_white_cards_seen_moving_keep_their_faces_in_the_information_state() -> None:
    table = memorised()
    ask(table, place=4)
    for seat in range(3):
        table.apply(seat, {"type": "secret_money"}, 3000)  # three takers: nothing moves
    for row in (0, 1, 2):
        table.apply(0, {"type": "deal", "row": row}, 4000)  # words 12, 13, 14, announced to everyone
    table.apply(0, {"type": "swap", "cards": [0, 1]}, 5000)  # the parent swaps two face-down white cards
    info = table.information(2)
    assert [word_at(info, f"a{q}.3") for q in (0, 1, 2)] == [12, 13, 14]
    assert info["recall_word_when"][3] == pytest.approx(2 / WHEN)  # heard during question 1
    assert [word_at(info, f"a4.{i}") for i in range(3)] == [None, None, None]  # row 4 left the game
    assert [question_at(info, p) for p in (0, 1, 4)] == [1, 0, None]
    assert table.observation(2)["white_question"].sum() == 0  # the view cannot tell the cards apart


def test_a_seats_recall_knows_every_card_on_the_table_at_every_step_of_random_matches() -> None:
    """Perfect recall: what the seat saw while memorising, then the public moves, deals and openings,
    rebuild the whole table (a face-down card and a peek add no new face: they only re-date it)."""
    for seed in range(3):
        table, rng = Recorded(2 + seed, seed=seed, script=None), random.Random(seed)
        match, steps = table.match, 0
        while not match.is_over:
            due, to_act = match.wake_at(), match.to_act()
            if due is not None and (not to_act or rng.random() < 0.05):
                table.advance(max(due, match.now))
            else:
                seat = rng.choice(to_act)
                table.apply(seat, sample(match.legal_actions(seat), rng), match.now + 500)
            steps += 1
            truth = {answer_target(q, i): word for q, row in enumerate(match.rows) for i, word in enumerate(row or ())}
            truth |= {white_target(p): question for p, question in enumerate(match.board) if question is not None}
            for viewer, recall in table.recalls.items():
                assert isinstance(recall, QuizRecall)
                assert {card: face for card, (face, _) in recall.cards.items()} == truth, (seed, steps, viewer)
        assert match.question == 8


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_information_layout_has_the_documented_length_for_every_table(seats: int) -> None:
    """3,534 + 26n for the observation, then 3,356 + 396n for the recall: 6,890 + 422n in all, whatever
    the options (times and decks change no size)."""
    for options in ({}, {"memorise_seconds": 30, "peek_seconds": 2}, {"deck": "world", "answer_seconds": 300}):
        encoder = QuizEncoder(seats, GAME.options_class.parse(options))
        assert encoder.size == 3534 + 26 * seats
        assert encoder.recall_layout.size == 3356 + 396 * seats
        assert encoder.information_layout.size == 6890 + 422 * seats
        assert encoder.information_layout.names[:len(encoder.layout.names)] == encoder.layout.names


def test_without_a_record_the_information_state_remembers_only_what_the_view_shows() -> None:
    table = memorised()
    view = table.match.view(0)
    info = table.encoder.information_layout.split(table.encoder.information_state(view))
    assert info["recall_word"].sum() == 0 and info["recall_question"].sum() == 0  # all face down now
    memorising = Recorded().match.view(0)
    info = table.encoder.information_layout.split(table.encoder.information_state(memorising))
    assert info["recall_word"].sum() == 30 and info["recall_question"].sum() == 10  # all open then


@pytest.mark.parametrize(("seats", "options"), [
    (2, {"memorise_seconds": 30, "peek_seconds": 2}),
    (3, {"deck": "world", "memorise_seconds": 600, "peek_seconds": 60}),
    (5, {"custom_deck": ";".join([*(f"Q{i}" for i in range(QUESTIONS)), *(f"A{i}" for i in range(ANSWERS))]),
         "peek_seconds": 5}),
])
def test_the_observation_read_from_the_match_equals_the_views_for_every_seat_under_every_option(
        seats: int, options: dict[str, Any]) -> None:
    """`observe_match` is `observe(view)` at every step of random matches under options the conformance
    suite does not play (its memorising and peek times scale two entries; a deck changes no entry): time
    moves on by up to 4 s a step, so countdowns run and peeks end while the match waits."""
    phases: set[str] = set()
    shown = False
    # At 5 seats a look costs up to 5 markers and random seats give theirs away, so looks are rare: seed 8
    # is a match in which a card is shown (the assertion below says so if it no longer is).
    for seed in (0, 1, 8) if seats == 5 else (0, 1):
        match = GAME.new(seats, options, seed)
        assert isinstance(match, QuizMatch)
        encoder, rng = QuizEncoder(seats, match.options), random.Random(seed)
        while True:
            for seat in range(seats):
                assert np.array_equal(encoder.observe_match(match, seat), encoder.observe(match.view(seat))), \
                    (seed, match.version, match.phase, seat)
            phases.add(match.phase)
            shown |= match.peek is not None and bool(match.peek["shown_to"])
            if match.is_over:
                break
            due, to_act = match.wake_at(), match.to_act()
            if due is not None and (not to_act or rng.random() < 0.1):
                match.advance(max(due, match.now))
            else:
                seat = rng.choice(to_act)
                at = match.now + rng.randrange(5) * 1000
                match.apply(seat, sample(match.legal_actions(seat), rng), at if due is None else min(at, due))
    assert phases >= {"memorise", "select", "answer", "peek", "move", "over"}, phases
    assert shown or seats == 2


@pytest.mark.parametrize("seats", [2, 4])
def test_masks_worked_out_directly_equal_the_generic_codecs_at_every_step_of_random_matches(seats: int) -> None:
    """`QuizCodec.mask` looks most types up (a card to open, a row, a move, a swap, a gift per offer) where
    the generic codec checks its moves: both give the same mask for every seat at every step, the gifts
    being those `decode` gives."""
    from partygames.engine.encoding import ActionCodec

    kinds: set[str] = set()
    for seed in range(3):
        match = GAME.new(seats, {}, seed)
        codec, rng = QuizEncoder(seats, match.options).codec, random.Random(seed)
        assert isinstance(codec, QuizCodec)
        while not match.is_over:
            for seat in range(seats):
                specs = match.legal_actions(seat)
                reference = ActionCodec.mask(codec, specs)
                for i in codec._gifts:
                    reference[i] = codec.decode(i, specs) is not None
                assert np.array_equal(codec.mask(specs), reference), (seed, match.version, seat, specs)
                kinds |= {spec["type"] for spec in specs}
            due, to_act = match.wake_at(), match.to_act()
            if not to_act:
                assert due is not None
                match.advance(max(due, match.now))
            else:
                seat = rng.choice(to_act)
                match.apply(seat, sample(match.legal_actions(seat), rng))
    assert kinds >= {"open", "deal", "place", "move", "swap", "give", "answer", "call", "ready", "pass"}, kinds


def test_the_codec_gives_none_half_or_all_of_each_kind_and_never_a_gift_of_nothing() -> None:
    table = peeking()  # seat 1 holds 1 score and 2 secret money; seat 2 holds 2 score and nothing else
    codec = table.encoder.codec
    for seat, held in ((1, (1, 2)), (2, (2, 0))):
        specs = table.match.legal_actions(seat)
        mask = codec.mask(specs)
        gifts = {}
        for i, move in enumerate(codec.moves):
            if move.type != "give":
                continue
            decoded = codec.decode(i, specs)
            assert bool(mask[i]) == (decoded is not None), (seat, move)
            if decoded is not None:
                gifts[(move.scaled["score"], move.scaled["money"], move.fixed["to"])] = decoded
                # Every legal move decodes to an action that encodes back to it.
                back = codec.encode(decoded, specs)
                assert back is not None and codec.decode(back, specs) == decoded
        score, money = held
        expected = {(fs, fm, to): {"type": "give", "to": to, "score": int(fs * score), "money": int(fm * money)}
                    for fs in (0.0, 0.5, 1.0) for fm in (0.0, 0.5, 1.0) for to in range(3)
                    if to != seat and int(fs * score) + int(fm * money) > 0}
        assert gifts == expected, seat
        assert all(g["score"] + g["money"] > 0 for g in gifts.values())
    # A bot that asks for a gift of nothing is brought to the nearest gift there is: one marker.
    near = codec.nearest({"type": "give", "to": 0, "score": 0, "money": 0}, table.match.legal_actions(1))
    assert near is not None and codec.decode(near, table.match.legal_actions(1)) in (
        {"type": "give", "to": 0, "score": 1, "money": 0}, {"type": "give", "to": 0, "score": 0, "money": 1})
