"""It's a QUIZ? properties: random legal play at random times never crashes, conserves the markers
(stock + field + on cards + held = 14 + 14), and after memorising shows no seat a face-down card's
content, in a view or an event, unless that seat is looking at it right now."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from partygames.engine import Event
from partygames.engine.actions import sample
from partygames.engine.session import Session
from partygames.games import get
from partygames.games.quiz.rules import KINDS, QuizMatch
from partygames.games.quiz.scoring import STOCK_MONEY, STOCK_SCORE

GAME = get("quiz")


def _counts(match: QuizMatch) -> dict[str, int]:
    return {k: match.stock[k] + match.field[k] + sum(c[k] for c in match.on_cards) + sum(h[k] for h in match.held)
            for k in KINDS}


def _looking(match: QuizMatch, seat: int | None, card: str) -> bool:
    peek = match.peek
    return peek is not None and seat is not None and peek["target"] == card and (
        seat == peek["seat"] or seat in peek["shown_to"])


def _check_no_leak(match: QuizMatch, events: list[Event]) -> None:
    if match.phase == "memorise":
        return
    down = set(match.face_down_answers()) | {f"w{p}" for p in match.face_down_white()}
    for seat in (None, *range(match.seats)):
        view = match.view(seat)
        for row in view["rows"]:
            for card in row or ():
                if card["card"] in down:
                    assert (card["word"] is not None) == _looking(match, seat, card["card"]), (seat, card)
        for white in view["board"]:
            if white is not None and white["card"] in down:
                assert (white["question"] is not None) == _looking(match, seat, white["card"]), (seat, white)
        if view["peek"] is not None and not _looking(match, seat, view["peek"]["card"]):
            assert "word" not in view["peek"] and "question" not in view["peek"]
        for event in events:
            if not event.is_visible_to(seat) or event.data.get("card") not in down:
                continue
            if "word" in event.data or "question" in event.data:
                # Only a look, addressed to the seats looking at the card right now.
                assert event.type == "card_seen" and event.to is not None and seat is not None, event
                assert _looking(match, seat, event.data["card"]), (seat, event)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 5), wake_rate=st.floats(0.0, 0.5),
       deck=st.sampled_from(["classic", "world"]))
def test_random_play_conserves_markers_and_never_shows_a_face_down_card(
        seed: int, seats: int, wake_rate: float, deck: str) -> None:
    session = Session.new(GAME, seats, {"deck": deck}, seed)
    match = session.match
    assert isinstance(match, QuizMatch)
    rng = random.Random(seed)
    steps = 0
    while not match.is_over:
        due = match.wake_at()
        to_act = match.to_act()
        if due is not None and (not to_act or rng.random() < wake_rate):
            events = session.wake(due)
        else:
            seat = rng.choice(to_act)
            action: dict[str, Any] = sample(match.legal_actions(seat), rng)
            at = match.now + rng.randrange(4) * 1500
            events = session.act(seat, action, at if due is None else min(at, due))
        assert _counts(match) == {"score": STOCK_SCORE, "money": STOCK_MONEY}
        assert min(min(h.values()) for h in match.held) >= 0 and min(match.stock.values()) >= 0
        _check_no_leak(match, events)
        steps += 1
        assert steps < 20_000
    result = match.result()
    assert result is not None and len(result.winners) == 1
    assert Session.replay(GAME, session.log).match == match


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 5), wake_rate=st.floats(0.0, 0.5), bots=st.booleans())
def test_kept_caches_agree_with_a_fresh_copy_at_every_step(seed: int, seats: int, wake_rate: float, bots: bool) -> None:
    """The match keeps who is awaited, whose turn it is, the time limit, the turn's specs, the face-down
    white cards, the shortest rows, the seats holding markers (and those not waiting) and the phase's parts
    of the specs across the steps that cannot change them (a gift or a wait changes only some; time passing
    only what falls due): at every step they equal those of a clone, which starts without caches, whether
    the steps are taken by `apply` or `apply_trusted`, at the match's time or later."""
    match = GAME.new(seats, None, seed, bots=range(seats) if bots else ())
    assert isinstance(match, QuizMatch)
    rng = random.Random(seed)
    steps = 0
    while not match.is_over:
        fresh = match.clone()
        assert match.to_act() == fresh.to_act() and match.turns() == fresh.turns()
        assert match.time_limit() == fresh.time_limit() and match.wake_at() == fresh.wake_at()
        assert [match.legal_actions(s) for s in range(seats)] == [fresh.legal_actions(s) for s in range(seats)]
        assert match.view(None) == fresh.view(None)
        assert match.face_down_white() == fresh.face_down_white() and match.shortest_rows() == fresh.shortest_rows()
        due = match.wake_at()
        to_act = match.to_act()
        if due is not None and (not to_act or rng.random() < wake_rate):
            match.advance(min(due, match.now + rng.randrange(1, 4) * 1500) if to_act else due)
        else:
            seat = rng.choice(to_act)
            action: dict[str, Any] = sample(match.legal_actions(seat), rng)
            at = match.now + rng.randrange(3) * 500
            at = at if due is None else min(at, due)
            if rng.random() < 0.5:
                match.apply(seat, action, at)
            else:
                match.apply_trusted(seat, action, at)
        steps += 1
        assert steps < 20_000
