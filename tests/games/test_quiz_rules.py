"""It's a QUIZ? rules with worked numbers from the seed (docs/rules/quiz.md): a scripted deal in which
question q lies at board place q and its row holds the words 3q, 3q+1, 3q+2."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from partygames.engine import IllegalAction, InvalidOptions
from partygames.games import get
from partygames.games.quiz.decks import DeckError, builtin, parse_deck
from partygames.games.quiz.rules import EXTEND_MS, QuizMatch
from partygames.games.quiz.scoring import PRIZE, judge, split_secret_money

GAME = get("quiz")
SCRIPT: dict[str, list[Any]] = {"white_positions": [list(range(16))], "deal": [list(range(30))], "first_parent": [0]}


def new(seats: int = 3, bots: tuple[int, ...] = (), **options: Any) -> QuizMatch:
    match = GAME.new(seats, options, 1, script=SCRIPT, bots=bots)
    assert isinstance(match, QuizMatch)
    return match


def memorised(seats: int = 3, **options: Any) -> QuizMatch:
    """A match whose memorising ended at 1 s: every (human) seat said ready."""
    match = new(seats, **options)
    for seat in range(seats):
        match.apply(seat, {"type": "ready"}, 1000)
    assert match.phase in ("select", "open")
    return match


def ask(match: QuizMatch, place: int, now: int = 2000) -> None:
    """Selection with nobody placing: everyone passes, and the parent opens `place`."""
    while match.phase == "select":
        seat = match.to_act()[0]
        match.apply(seat, {"type": "pass"}, now)
    if match.phase == "open":
        assert match.parent is not None
        match.apply(match.parent, {"type": "open", "card": place}, now)
    assert match.phase == "answer"


def write(match: QuizMatch, sheets: dict[int, dict[str, Any]], now: int = 3000) -> None:
    for seat, action in sheets.items():
        match.apply(seat, action, now)


def face_down_words(view: dict[str, Any]) -> list[Any]:
    return [card["word"] for row in view["rows"] if row for card in row if not card["open"]]


# -- pure rules ----------------------------------------------------------------------------------------

def test_an_answer_is_wrong_for_a_foreign_word_or_a_reversed_pair_and_gaps_are_fine() -> None:
    row = [7, 2, 9]
    assert judge(row, [7, 2, 9]) == 3
    assert judge(row, [7, 9]) == 2  # 抜けがあるのは構いません
    assert judge(row, [2]) == 1
    assert judge(row, [9, 2]) is None  # 順番がひっくりかえっている
    assert judge(row, [7, 4]) is None  # 正解カードと対応しない
    assert judge(row, [2, 7, 9]) is None


def test_secret_money_one_takes_all_two_take_one_each_three_take_nothing() -> None:
    assert split_secret_money(1, 6) == (6, 0)
    assert split_secret_money(2, 6) == (1, 4)
    assert split_secret_money(3, 6) == (0, 6)
    assert split_secret_money(2, 0) == (0, 0)  # question 8: the field is empty


# -- memorising ----------------------------------------------------------------------------------------

def test_everything_is_open_while_memorising_and_face_down_after() -> None:
    match = new()
    view = match.view(1)
    assert view["rows"][4] == [{"card": "a4.0", "word": 12, "open": True}, {"card": "a4.1", "word": 13, "open": True},
                               {"card": "a4.2", "word": 14, "open": True}]
    assert view["board"][4]["question"] == 4 and view["memorise_until"] == 120_000
    for seat in range(3):
        match.apply(seat, {"type": "ready"}, 5000)
    for viewer in (None, 0, 1, 2):
        view = match.view(viewer)
        assert set(face_down_words(view)) == {None}
        assert all(w is None or w["question"] is None for w in view["board"])


def test_the_time_extends_by_60_s_when_every_human_votes_extend_and_bots_do_not_count() -> None:
    match = new(3, bots=(2,))
    match.apply(0, {"type": "extend"}, 10_000)
    assert match.memorise_until == 120_000
    match.apply(1, {"type": "extend"}, 20_000)
    assert match.memorise_until == 120_000 + EXTEND_MS and match.extensions == 1
    assert match.to_act() == (0, 1, 2)  # the votes start again
    assert match.wake_at() == 180_000
    match.advance(180_000)
    assert match.phase != "memorise" and match.parent == 0


def test_a_mixed_vote_waits_for_the_time_and_an_all_bot_table_ends_when_every_bot_has_looked() -> None:
    match = new(2)
    match.apply(0, {"type": "extend"}, 1000)
    match.apply(1, {"type": "ready"}, 2000)
    assert match.to_act() == () and match.wake_at() == 120_000
    match.advance(120_000)
    assert match.phase == "open"  # round 1: nobody holds a marker, all pass; ten cards tie at zero
    bots = new(3, bots=(1, 2))
    bots.apply(0, {"type": "ready"}, 0)  # the one human is ready, but bot 2 has not looked yet
    bots.apply(1, {"type": "ready"}, 0)
    assert bots.phase == "memorise"
    bots.apply(2, {"type": "ready"}, 0)
    assert bots.phase == "open"
    alone = new(2, bots=(0, 1))
    alone.apply(0, {"type": "ready"}, 0)
    alone.apply(1, {"type": "ready"}, 0)
    assert alone.phase == "open"


# -- one question ---------------------------------------------------------------------------------------

def test_question_1_the_sole_winner_takes_the_field_and_becomes_parent() -> None:
    match = memorised()
    assert match.parent == 0 and match.phase == "open"  # everyone passed at once: no markers yet
    ask(match, place=4)
    assert match.asked == 4
    assert match.field == {"score": 2, "money": 2} and match.stock == {"score": 12, "money": 12}
    write(match, {0: {"type": "secret_money"}, 1: {"type": "answer", "words": [12, 14]},
                  2: {"type": "answer", "words": [13]}})
    # Seat 0 alone took the secret money; seat 1 named two words in order and beat seat 2's one.
    assert match.held == [{"score": 0, "money": 2}, {"score": 2, "money": 0}, {"score": 0, "money": 0}]
    assert match.field == {"score": 0, "money": 0} and match.parent == 1
    assert match.rounds[0]["correct"] == [None, 2, 1] and match.rounds[0]["winners"] == [1]
    # Question 4's cards leave; nine rows of three are all shortest, so the new parent deals.
    assert match.rows[4] is None and match.board[4] is None
    assert match.phase == "deal" and match.to_act()[0] == 1


def test_two_tied_take_one_each_and_the_parent_stays() -> None:
    match = memorised()
    ask(match, place=2)
    write(match, {0: {"type": "answer", "words": [6, 8]}, 1: {"type": "answer", "words": [7, 8]},
                  2: {"type": "answer", "words": [8, 7]}})
    assert [h["score"] for h in match.held] == [1, 1, 0]
    assert match.field["score"] == 0 and match.parent == 0
    assert match.rounds[0]["wrong"] == [False, False, True]


def test_three_tied_or_nobody_right_moves_nothing() -> None:
    match = memorised()
    ask(match, place=2)
    write(match, {s: {"type": "answer", "words": [6 + s]} for s in range(3)})
    assert [h["score"] for h in match.held] == [0, 0, 0] and match.field["score"] == 2


def test_opened_cards_go_face_down_to_the_shortest_rows_announced() -> None:
    match = memorised()
    ask(match, place=4)
    write(match, {s: {"type": "secret_money"} for s in range(3)})  # three takers: nothing moves
    assert match.field == {"score": 2, "money": 2}
    events = match.apply(0, {"type": "deal", "row": 0}, 4000)
    assert events[0].type == "card_dealt" and events[0].data == {"word": 12, "row": 0, "index": 3} and events[0].to is None
    with pytest.raises(IllegalAction):
        match.apply(0, {"type": "deal", "row": 0}, 4000)  # row 0 now has 4 cards: not among the fewest
    match.apply(0, {"type": "deal", "row": 1}, 4000)
    match.apply(0, {"type": "deal", "row": 2}, 4000)
    assert match.rows[0] == [0, 1, 2, 12] and match.rows[2] == [6, 7, 8, 14]
    assert match.view(1)["rows"][0][3] == {"card": "a0.3", "word": None, "open": False}
    # Then the parent may move up to two white cards: a swap uses both moves.
    match.apply(0, {"type": "swap", "cards": [0, 1]}, 5000)
    assert match.board[0] == 1 and match.board[1] == 0 and match.question == 2
    assert match.phase == "open"  # still nobody holds a marker: all passed at once


def test_the_stock_adds_two_of_each_and_question_8_returns_the_field() -> None:
    match = memorised(2)
    for number in range(1, 9):
        assert match.question == number
        place = match.face_down_white()[0]
        ask(match, place, now=1000 * number)
        assert match.field["score"] == (2 * number if number < 8 else 0)
        write(match, {0: {"type": "answer", "words": [29]}, 1: {"type": "answer", "words": [28]}}, 1000 * number)
        while match.phase in ("deal", "move"):
            parent = match.to_act()[0]
            match.apply(parent, match.time_limit().defaults[parent], 1000 * number)  # type: ignore[union-attr]
    # Words 28 and 29 lie in question 9's row, never asked here: nobody ever won, nobody scored, and
    # the two seats, tied at 0 points, go to the tie-break.
    assert match.stock == {"score": 14, "money": 14} and match.phase == "tiebreak"


# -- peeks -------------------------------------------------------------------------------------------------

def peeking(seats: int = 3) -> QuizMatch:
    """Question 1 asked; seat 0 answered, seats 1 and 2 peek; the seats hold markers to pay with."""
    match = memorised(seats)
    ask(match, place=4)
    match.held[1] = {"score": 1, "money": 2}
    match.held[2] = {"score": 2, "money": 0}
    match.stock = {"score": 9, "money": 10}
    write(match, {0: {"type": "answer", "words": [12]}, 1: {"type": "peek"}, 2: {"type": "peek"}})
    assert match.phase == "peek" and match.peekers == [1, 2]
    return match


def test_two_peekers_pay_two_markers_a_card_in_any_mix() -> None:
    match = peeking()
    spec = next(s for s in match.legal_actions(1) if s["type"] == "look")
    assert spec["params"]["paid_money"] == {"min": 1, "max": 2, "step": 1}  # holds 1 score: at least 1 money
    events = match.apply(1, {"type": "look", "card": "a7.1", "paid_money": 1}, 5000)
    assert match.held[1] == {"score": 0, "money": 1} and match.stock == {"score": 10, "money": 11}
    public = next(e for e in events if e.type == "looked")
    private = next(e for e in events if e.type == "card_seen")
    assert public.to is None and "word" not in public.data
    assert private.to == (1,) and private.data["word"] == 22
    # A seat holding 1 marker cannot pay 2: it may only stop.
    assert [s["type"] for s in match.legal_actions(1) if s["type"] != "give"] == ["show", "stop"]


def test_a_peek_lives_only_in_the_peekers_view_until_it_expires() -> None:
    match = peeking()
    match.apply(1, {"type": "look", "card": "a7.1", "paid_money": 2}, 5000)
    assert match.view(1)["rows"][7][1]["word"] == 22
    assert match.view(1)["peek"] == {"seat": 1, "card": "a7.1", "until": 15_000, "shown_to": [], "word": 22}
    for seat in (None, 0, 2):
        assert match.view(seat)["rows"][7][1]["word"] is None
        assert "word" not in match.view(seat)["peek"]
    assert match.wake_at() == 15_000
    match.advance(15_000)
    assert match.view(1)["peek"] is None and match.view(1)["rows"][7][1]["word"] is None


def test_showing_a_peeked_card_reveals_it_to_the_chosen_seats_for_the_same_time() -> None:
    match = peeking()
    match.apply(1, {"type": "look", "card": "w9", "paid_money": 2}, 5000)
    events = match.apply(1, {"type": "show", "to": [0]}, 6000)
    assert [e.to for e in events if e.type == "card_seen"] == [(0,)]
    assert match.view(0)["board"][9]["question"] == 9 and match.view(2)["board"][9]["question"] is None
    match.apply(1, {"type": "stop"}, 7000)  # the turn ends: so does the peek
    assert match.view(0)["board"][9]["question"] is None and match.peek is None


def test_the_next_peeker_pays_the_same_and_then_the_row_is_scored() -> None:
    match = peeking()
    match.apply(1, {"type": "stop"}, 5000)
    match.apply(2, {"type": "look", "card": "a0.0", "paid_money": 0}, 6000)
    assert match.held[2] == {"score": 0, "money": 0}
    match.apply(2, {"type": "stop"}, 7000)
    assert match.held[0]["score"] == 2 and match.parent == 0  # seat 0 named word 12 of question 4's row


# -- giving, the end, options ----------------------------------------------------------------------------

def test_a_seat_may_give_markers_whenever_it_holds_some_answering_included() -> None:
    """「交渉やマーカーの収受 ご自由にどうぞ」 (docs/rules/quiz.md, Free negotiation)."""
    match = peeking()
    assert 2 in match.to_act()  # a bystander holding markers may give
    match.apply(2, {"type": "give", "to": 0, "score": 2, "money": 0}, 5000)
    assert match.held[0]["score"] == 2 and match.held[2]["score"] == 0
    assert 2 not in match.to_act()  # nothing left to give
    # While answering: before its sheet is written a seat may give as well as write; after it, it stays
    # awaited to give until it says `wait`, and nothing waits for it: the sheets are revealed as the last
    # one is written. Here seat 1 pays for seat 2's peek: one look costs one marker (one peeker).
    fresh = memorised()
    ask(fresh, place=4)
    fresh.held[1] = {"score": 1, "money": 1}
    fresh.stock = {"score": 11, "money": 11}
    assert {s["type"] for s in fresh.legal_actions(1)} == {"answer", "secret_money", "peek", "give"}
    fresh.apply(1, {"type": "secret_money"}, 3000)
    assert fresh.to_act() == (0, 2, 1) and fresh.turns() == (0, 2)
    assert {s["type"] for s in fresh.legal_actions(1)} == {"give", "wait"}
    fresh.apply(1, {"type": "give", "to": 2, "score": 0, "money": 1}, 3500)
    assert fresh.held[1] == {"score": 1, "money": 0} and fresh.held[2] == {"score": 0, "money": 1}
    assert fresh.view(2)["my_sheet"] is None and fresh.view(2)["sheets"] is None  # the sheets stay sealed
    write(fresh, {0: {"type": "answer", "words": [12]}, 2: {"type": "peek"}}, 4000)
    assert fresh.phase == "peek" and fresh.peekers == [2]
    fresh.apply(2, {"type": "look", "card": "a7.1", "paid_money": 1}, 5000)
    assert fresh.held[2] == {"score": 0, "money": 0}
    # At the answer's limit a seat that wrote nothing peeks (its default) and the bystander's `wait`
    # comes after: the default moves the phase on.
    late = memorised()
    ask(late, place=4)
    late.held[0] = {"score": 1, "money": 0}
    write(late, {0: {"type": "secret_money"}, 1: {"type": "answer", "words": [12]}})
    limit = late.time_limit()
    assert limit is not None and limit.defaults == {2: {"type": "peek"}, 0: {"type": "wait"}}


def test_no_gift_while_memorising_nor_in_the_tie_break() -> None:
    """While memorising nobody holds a marker (「マーカーは全てストックとして置いておきます」); the tie-break
    comes after the count (「8問目の終了をもってゲーム終了となり、得点計算を行います」), where a marker no longer
    scores: a gift there would be refused (docs/rules/quiz.md, Free negotiation)."""
    match = new()
    assert all(h == {"score": 0, "money": 0} for h in match.held) and match.stock == {"score": 14, "money": 14}
    assert {s["type"] for s in match.legal_actions(0)} == {"ready", "extend"}
    match = memorised(3)
    match.question = 8
    ask(match, place=3)
    match.held[1] = {"score": 1, "money": 1}
    match.held[2] = {"score": 1, "money": 1}
    match.held[0] = {"score": 1, "money": 1}
    write(match, {s: {"type": "secret_money"} for s in range(3)})
    assert match.phase == "tiebreak" and match.tiebreak is not None and match.tiebreak["turn"] == 1
    assert {s["type"] for s in match.legal_actions(1)} == {"call"} and match.to_act() == (1,)
    with pytest.raises(IllegalAction):
        match.apply(1, {"type": "give", "to": 2, "score": 1, "money": 0}, 9000)
    assert match.held[1] == {"score": 1, "money": 1}


def test_a_gift_of_nothing_is_refused_and_the_specs_never_offer_one() -> None:
    # 交渉やマーカーの収受: ご自由にどうぞ. A gift moves markers; one of none of either would only fill the
    # feed with "gives 0 score, 0 secret money" (docs/rules/quiz.md, Free negotiation).
    match = peeking()  # seat 1 holds 1 score and 2 secret money, seat 2 holds 2 score
    gifts = [s["params"] for s in match.legal_actions(1) if s["type"] == "give"]
    assert [(g["score"]["min"], g["score"]["max"], g["money"]["min"], g["money"]["max"]) for g in gifts] == [
        (1, 1, 0, 2),  # at least one score marker, with any secret money
        (0, 0, 1, 2),  # or no score marker and at least one secret-money marker
    ]
    only_score = [s["params"] for s in match.legal_actions(2) if s["type"] == "give"]
    assert [(g["score"]["min"], g["score"]["max"], g["money"]["max"]) for g in only_score] == [(1, 2, 0)]
    before = json.dumps(match.view(None), sort_keys=True), [dict(h) for h in match.held]
    for seat in (1, 2):
        with pytest.raises(IllegalAction) as refused:
            match.apply(seat, {"type": "give", "to": 0, "score": 0, "money": 0}, 5000)
        assert refused.value.code == "action/out_of_range"
        assert refused.value.en == "A gift must give at least one marker."
        assert refused.value.ja == "渡すマーカーを1個以上にしてください。"
    assert (json.dumps(match.view(None), sort_keys=True), match.held) == before
    # Every other pair is a gift: one secret-money marker alone, and one score marker with two secret money.
    match.apply(1, {"type": "give", "to": 2, "score": 0, "money": 1}, 5000)
    match.apply(1, {"type": "give", "to": 0, "score": 1, "money": 1}, 5000)
    assert match.held[1] == {"score": 0, "money": 0} and match.held[2] == {"score": 2, "money": 1}


def test_question_8_sole_winner_gets_the_prize_of_one_oku_man() -> None:
    match = memorised(2)
    match.question = 8
    ask(match, place=3)
    write(match, {0: {"type": "answer", "words": [9, 10]}, 1: {"type": "answer", "words": [11]}})
    result = match.result()
    assert result is not None and result.winners == (0,)
    assert result.seats[0].holdings == {"score": 0, "money": 0, "prize": PRIZE, "total": 10**12}
    assert match.held[0]["score"] == 0  # nobody takes score markers at question 8


def test_question_8_sole_winner_becomes_parent_too_but_takes_no_marker() -> None:
    # 勝者は…親もこの時点で勝者に移ります; the last question's exception covers only the markers
    # (最終問題に限っては、誰も(勝者も)得点マーカーを獲得できません).
    match = memorised(2)
    match.question = 8
    assert match.parent == 0
    ask(match, place=3)
    events = [e for seat, words in ((0, [11]), (1, [9, 10]))
              for e in match.apply(seat, {"type": "answer", "words": words}, 3000)]
    # Seat 1 named two words of question 3's row [9, 10, 11] in order and beat seat 0's one.
    assert match.parent == 1 and match.view(0)["parent"] == 1
    assert match.rounds[-1]["winners"] == [1] and match.rounds[-1]["parent"] == 1
    assert next(e for e in events if e.type == "scored").data["parent"] == 1
    assert [h["score"] for h in match.held] == [0, 0] and match.prize_winner == 1
    result = match.result()
    assert result is not None and result.winners == (1,) and result.termination == "most_points"


def test_question_8_with_two_tied_or_nobody_right_keeps_the_parent() -> None:
    match = memorised(2)
    match.question = 8
    ask(match, place=3)
    write(match, {0: {"type": "answer", "words": [9]}, 1: {"type": "answer", "words": [10]}})
    assert match.parent == 0 and match.rounds[-1]["winners"] == [0, 1] and match.prize_winner is None


def test_tie_break_wrong_call_is_out_and_the_last_left_wins() -> None:
    match = memorised(3)
    match.question = 8
    ask(match, place=3)
    write(match, {s: {"type": "secret_money"} for s in range(3)})
    assert match.phase == "tiebreak" and match.tiebreak is not None
    assert match.tiebreak["seats"] == [1, 2, 0]  # from the parent's left, the parent last
    match.apply(1, {"type": "call", "card": "a0.0", "word": 0}, 9000)  # right
    assert match.view(0)["rows"][0][0] == {"card": "a0.0", "word": 0, "open": True}
    match.apply(2, {"type": "call", "card": "a0.1", "word": 5}, 9000)  # wrong: out
    match.apply(0, {"type": "call", "card": "a0.2", "word": 0}, 9000)  # wrong: out, seat 1 is left
    result = match.result()
    assert result is not None and result.winners == (1,) and result.termination == "tie_break"
    assert [s.rank for s in result.seats] == [2, 1, 2]


def test_custom_decks_are_validated_with_reasons_in_both_languages() -> None:
    lines = [f"Question {i} | 問題{i}" for i in range(10)] + [f"word{i} | 単語{i}" for i in range(30)]
    deck = parse_deck("\n".join(lines))
    assert deck.questions[3].ja == "問題3" and deck.answers[29].en == "word29"
    match = GAME.new(2, {"custom_deck": "\n".join(lines)}, 0)
    assert match.view(0)["deck"]["answers"][0] == {"en": "word0", "ja": "単語0"}
    with pytest.raises(DeckError) as short:
        parse_deck("\n".join(lines[:39]))
    assert "39" in short.value.en and "39" in short.value.ja
    with pytest.raises(DeckError) as twin:
        parse_deck("\n".join([*lines[:39], "WORD0 | 別"]))
    assert "distinct" in twin.value.en and "同じ語" in twin.value.ja
    with pytest.raises(InvalidOptions) as refused:
        GAME.new(2, {"custom_deck": "{not json"}, 0)
    assert "JSON" in refused.value.en and "JSON が不正" in refused.value.ja


def test_both_shipped_decks_are_complete_in_both_languages() -> None:
    for deck_id in ("classic", "world"):
        deck = builtin(deck_id)
        assert len(deck.questions) == 10 and len(deck.answers) == 30
        assert len({a.en for a in deck.answers}) == len({a.ja for a in deck.answers}) == 30


def test_a_custom_deck_fits_a_one_line_field_or_comes_as_json_from_the_cli() -> None:
    parts = [f"Q{i}" for i in range(10)] + [f"w{i} | 語{i}" for i in range(30)]
    one_line = GAME.new(2, {"custom_deck": "; ".join(parts)}, 0)
    assert one_line.view(0)["deck"]["answers"][5] == {"en": "w5", "ja": "語5"}
    as_json = {"questions": [f"Q{i}" for i in range(10)], "answers": [{"en": f"w{i}", "ja": f"語{i}"} for i in range(30)]}
    assert GAME.new(2, {"custom_deck": as_json}, 0).view(1)["deck"]["questions"][9] == {"en": "Q9", "ja": "Q9"}
    with pytest.raises(InvalidOptions) as refused:
        GAME.new(2, {"custom_deck": {"questions": [], "answers": []}}, 0)
    assert "exactly 10 questions" in refused.value.en


def test_a_peek_ends_at_its_time_and_the_peeking_turn_stops_at_its_limit() -> None:
    match = peeking()
    match.apply(1, {"type": "look", "card": "a7.1", "paid_money": 2}, 5000)
    assert match.view(0)["looks"] == [0, 1, 0]
    assert match.wake_at() == 15_000  # the peek's end comes before the turn's 30 s
    match.advance(15_000)
    assert match.peek is None and match.peekers[match.peek_turn] == 1
    assert match.wake_at() == 35_000  # 30 s after the seat's last look
    match.advance(35_000)
    assert match.peekers[match.peek_turn] == 2 and match.to_act()[0] == 2


def test_the_peeking_turns_limit_restarts_with_each_look_but_not_with_a_show() -> None:
    match = peeking()
    match.held[1] = {"score": 0, "money": 6}  # three looks at two markers each
    match.stock["score"] += 1
    match.stock["money"] -= 4
    match.apply(1, {"type": "look", "card": "a7.1", "paid_money": 2}, 5000)
    assert match.time_limit_due() == 35_000  # 30 s from the look at 5 s
    match.apply(1, {"type": "show", "to": [0]}, 9000)
    assert match.time_limit_due() == 35_000  # a show starts no new limit (it would be 39 s)
    match.advance(15_000)  # the peek ends at 5 s + 10 s; the turn goes on
    assert match.peek is None and match.peekers[match.peek_turn] == 1 and match.time_limit_due() == 35_000
    match.apply(1, {"type": "look", "card": "a8.0", "paid_money": 2}, 20_000)
    assert match.time_limit_due() == 50_000  # the next card: 30 s from 20 s
    match.apply(1, {"type": "show", "to": [2]}, 22_000)
    match.apply(2, {"type": "give", "to": 0, "score": 1, "money": 0}, 23_000)  # a bystander's gift neither
    assert match.time_limit_due() == 50_000
    match.advance(49_999)
    assert match.peekers[match.peek_turn] == 1
    match.advance(50_000)  # the limit's default: stop; the next peeker's turn runs from 50 s
    assert match.peekers[match.peek_turn] == 2 and match.time_limit_due() == 80_000


def test_a_seat_may_look_at_the_same_card_twice_and_pays_each_time() -> None:
    # 1枚覗き見るごとに、対応する数のマーカー…をストックに戻してください: every look is paid.
    match = peeking()
    match.held[1] = {"score": 0, "money": 4}
    match.stock["score"] += 1
    match.stock["money"] -= 2
    stock = dict(match.stock)
    first = match.apply(1, {"type": "look", "card": "a7.1", "paid_money": 2}, 5000)
    second = match.apply(1, {"type": "look", "card": "a7.1", "paid_money": 2}, 6000)
    assert match.held[1] == {"score": 0, "money": 0} and match.stock == {"score": stock["score"], "money": stock["money"] + 4}
    assert match.looks == [0, 2, 0]
    assert [e.data["word"] for e in first + second if e.type == "card_seen"] == [22, 22]
    assert match.view(1)["peek"] == {"seat": 1, "card": "a7.1", "until": 16_000, "shown_to": [], "word": 22}


def test_a_peeker_may_look_at_the_asked_rows_cards_still_face_down() -> None:
    # 伏せられたカードの内容を確認できます: the asked row (question 4: words 12, 13, 14) is opened only
    # after the peeks (正解発表).
    match = peeking()
    look = next(s for s in match.legal_actions(1) if s["type"] == "look")
    assert {"a4.0", "a4.1", "a4.2"} <= set(look["params"]["card"]["choice"])
    assert match.view(0)["rows"][4][0] == {"card": "a4.0", "word": None, "open": False}
    events = match.apply(1, {"type": "look", "card": "a4.0", "paid_money": 2}, 5000)
    assert [e.data["word"] for e in events if e.type == "card_seen"] == [12]
    assert match.view(1)["rows"][4][0]["word"] == 12
    for seat in (None, 0, 2):
        assert match.view(seat)["rows"][4][0]["word"] is None


def test_what_a_peeker_sees_changes_no_other_seats_view() -> None:
    match = peeking()
    match.apply(1, {"type": "look", "card": "a7.1", "paid_money": 2}, 5000)
    other = match.perturb_secrets(1, random.Random(3))
    assert isinstance(other, QuizMatch)
    assert other.view(1)["peek"]["word"] != 22  # the owner sees another word there
    for seat in (None, 0, 2):
        assert json.dumps(other.view(seat), sort_keys=True) == json.dumps(match.view(seat), sort_keys=True)


# -- issue 29: rules no test checked (each with the mutation that fails it: tests/mutations) --------------
def second_selection() -> QuizMatch:
    """Question 1 asked at place 4 (row: words 12, 13, 14): seat 0 takes the secret money (2), seat 1 names
    12 then 13 and wins the field's 2 score markers and the parent's seat, seat 2 names 12. Question 2's
    selection starts at the parent's left, seat 2, who holds nothing and passes at once: seat 0's turn."""
    match = memorised()
    ask(match, place=4)
    write(match, {0: {"type": "secret_money"}, 1: {"type": "answer", "words": [12, 13]},
                  2: {"type": "answer", "words": [12]}})
    while match.phase in ("deal", "move"):
        parent = match.to_act()[0]
        match.apply(parent, match.time_limit().defaults[parent], 4000)  # type: ignore[union-attr]
    assert match.question == 2 and match.parent == 1 and match.phase == "select" and match.turn == 0
    assert [match.held[s] for s in range(3)] == [{"score": 0, "money": 2}, {"score": 2, "money": 0},
                                                 {"score": 0, "money": 0}]
    assert match.passed == [False, False, True]
    return match


def test_selection_places_one_held_marker_of_either_kind_on_a_face_down_white_card() -> None:
    """「手番のプレイヤーは伏せられている白い問題カードの上に、手持ちのマーカーをひとつ置くことができます。」「置く
    マーカーは、得点マーカーでも裏金マーカーでも構いません。」"""
    match = second_selection()
    place = next(s for s in match.legal_actions(0) if s["type"] == "place")["params"]
    assert place["kind"]["choice"] == ["money"] and 4 not in place["card"]["choice"]  # its only kind; 4 is gone
    match.apply(0, {"type": "place", "card": 0, "kind": "money"}, 5000)
    match.apply(1, {"type": "place", "card": 0, "kind": "score"}, 5000)
    assert match.held[0] == {"score": 0, "money": 1} and match.held[1] == {"score": 1, "money": 0}
    assert match.on_cards[0] == {"score": 1, "money": 1}
    assert match.view(2)["board"][0]["markers"] == {"score": 1, "money": 1}  # on the table: public
    with pytest.raises(IllegalAction):
        match.apply(0, {"type": "place", "card": 4, "kind": "money"}, 5000)  # question 1's card left the game


def test_selection_skips_the_seats_that_passed() -> None:
    """「親の左隣のプレイヤーから時計回りに手番を行います。但し、パスをしたプレイヤーは飛ばします。」 Seat 2 passed (it
    holds nothing); seat 0 passes; seat 1 places, and the turn comes back to seat 1 past both."""
    match = second_selection()
    match.apply(0, {"type": "pass"}, 5000)
    assert match.turn == 1
    match.apply(1, {"type": "place", "card": 0, "kind": "score"}, 5000)
    assert match.turn == 1 and match.to_act()[0] == 1
    match.apply(1, {"type": "place", "card": 1, "kind": "score"}, 5000)
    # Seat 1 now holds nothing: it passes at once, and so everyone has passed.
    assert match.phase == "open" and match.turn is None


def test_the_parent_opens_only_a_least_marked_card() -> None:
    """「やがて全員がパスしたら、伏せられた白い問題カードのうち、その時点で載っているマーカーの数が最も少ないもの(※)
    から親が1枚選んで開き」「※マーカーはゼロが最小です」. Cards 0 (two markers) and 1 (one) are out of reach."""
    match = second_selection()
    match.apply(0, {"type": "place", "card": 0, "kind": "money"}, 5000)
    match.apply(1, {"type": "place", "card": 0, "kind": "score"}, 5000)
    match.apply(0, {"type": "place", "card": 1, "kind": "money"}, 5000)
    match.apply(1, {"type": "pass"}, 5000)  # seat 0 holds nothing now: it passes at once
    assert match.phase == "open" and match.to_act() == (1,)
    assert match.legal_actions(1)[0]["params"]["card"]["choice"] == [2, 3, 5, 6, 7, 8, 9]
    for card in (0, 1):
        with pytest.raises(IllegalAction):
            match.apply(1, {"type": "open", "card": card}, 6000)
    match.apply(1, {"type": "open", "card": 7}, 6000)
    assert match.asked == 7 and match.phase == "answer"


def test_opening_a_card_returns_every_marker_on_the_cards_to_the_stock() -> None:
    """「この段階で、カードの上に置かれたマーカーは全てストックに戻します。」 then 2 of each kind go to the field:
    the stock held 12 and 12; 2 score and 1 secret money come back from cards 0 and 1."""
    match = second_selection()
    assert match.stock == {"score": 12, "money": 12} and match.field == {"score": 0, "money": 0}
    match.apply(0, {"type": "place", "card": 0, "kind": "money"}, 5000)
    match.apply(1, {"type": "place", "card": 0, "kind": "score"}, 5000)
    match.apply(0, {"type": "pass"}, 5000)
    match.apply(1, {"type": "place", "card": 1, "kind": "score"}, 5000)
    match.apply(1, {"type": "open", "card": 2}, 6000)
    assert all(m == {"score": 0, "money": 0} for m in match.on_cards)
    assert match.stock == {"score": 12 + 2 - 2, "money": 12 + 1 - 2} and match.field == {"score": 2, "money": 2}
    kinds = ("score", "money")
    assert [match.stock[k] + match.field[k] + sum(h[k] for h in match.held) for k in kinds] == [14, 14]


def test_a_seat_that_writes_nothing_peeks() -> None:
    """「何も書かなければ、「覗き見」として扱われます」: at the answer's limit seat 2 has written nothing, and its sheet
    is a peek (it peeks alone: one marker a card)."""
    match = memorised()
    ask(match, place=4)
    write(match, {0: {"type": "answer", "words": [12]}, 1: {"type": "secret_money"}})
    limit = match.time_limit()
    assert limit is not None and limit.seconds == 90
    match.advance(match.time_limit_due() or 0)
    assert match.phase == "peek" and match.peekers == [2] and match.sheets[2] == {"choice": "peek"}


def test_every_card_open_in_the_tie_break_the_last_right_caller_wins() -> None:
    """「全ての正解カードが開けられた場合は、最後の1枚を当てたプレイヤーの勝ちとなります。」 Three seats tie at 0;
    seat 1 calls right, seat 2 wrong (out); seats 0 and 1 then call every card right in turn, 13 each: seat 0
    names the last one and wins, though seat 1 has as many right calls."""
    match = memorised(3)
    match.question = 8
    ask(match, place=3)
    write(match, {s: {"type": "secret_money"} for s in range(3)})
    assert match.tiebreak is not None and match.tiebreak["seats"] == [1, 2, 0]
    match.chance.script("tiebreak_lot", 1)  # were the last call ignored, a lot between 0 and 1 would say 1
    first = match.face_down_answers()[0]
    match.apply(1, {"type": "call", "card": first, "word": match.content(first)["word"]}, 9000)
    wrong = match.face_down_answers()[0]
    match.apply(2, {"type": "call", "card": wrong, "word": (match.content(wrong)["word"] + 1) % 30}, 9000)
    while not match.is_over:
        seat, card = match.tiebreak["turn"], match.face_down_answers()[0]
        match.apply(seat, {"type": "call", "card": card, "word": match.content(card)["word"]}, 9000)
    assert match.tiebreak["correct"] == [13, 13, 0] and match.tiebreak["calls"][-1]["seat"] == 0
    result = match.result()
    assert result is not None and result.winners == (0,) and result.termination == "tie_break"


def test_secret_money_scores_nothing_at_the_end() -> None:
    """「各プレイヤーとも自分が持っている得点マーカー1個につき1点を得ます。なお、裏金マーカーは得点になりません。」 Seat 0
    ends with 1 score and 5 secret-money markers, seat 1 with 2 score: 1 point against 2, seat 1 wins."""
    match = memorised(2)
    match.question = 8
    match.held[0] = {"score": 1, "money": 5}
    match.held[1] = {"score": 2, "money": 0}
    ask(match, place=3)
    write(match, {0: {"type": "secret_money"}, 1: {"type": "secret_money"}})
    result = match.result()
    assert result is not None and result.termination == "most_points" and result.winners == (1,)
    assert [(s.score, s.holdings["money"], s.holdings["total"]) for s in result.seats] == [(1.0, 5, 1), (2.0, 0, 2)]
