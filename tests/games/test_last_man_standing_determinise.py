"""Last Man Standing's determinisation draws what a seat has not seen uniformly: each unseen card is
equally likely in another seat's hand (its share of the unseen cards) and never a card the seat saw; a
face-down card is any of its player's cards, equally likely (docs/rules/last-man-standing.md)."""

from __future__ import annotations

import math
import random
from collections import Counter

from partygames.engine.knowledge import Determiniser, SeatRecord
from partygames.games import get
from partygames.games.last_man_standing.rules import LastManStandingMatch

GAME = get("last-man-standing")
SAMPLES = 3000


def _determiniser(match: LastManStandingMatch, seat: int) -> Determiniser:
    assert GAME.determiniser is not None
    return GAME.determiniser(SeatRecord.from_match(GAME, match, seat))


def _within(count: int, expected: float) -> bool:
    """Binomial counts within 5 standard deviations (a false alarm about once in 3 million)."""
    p = expected / SAMPLES
    return abs(count - expected) <= 5 * math.sqrt(SAMPLES * p * (1 - p))


def test_unseen_cards_are_dealt_uniformly_to_the_other_hands_and_the_deck() -> None:
    match = GAME.new(4, seed=3)
    assert isinstance(match, LastManStandingMatch)
    seen = {*match.view(0)["my_hand"], *(m["card"] for m in match.view(0)["market"])}
    determiniser = _determiniser(match, 0)
    rng = random.Random(0)
    in_hand: Counter[str] = Counter()
    tops: Counter[str] = Counter()
    for _ in range(SAMPLES):
        drawn = determiniser.sample(rng)
        assert isinstance(drawn, LastManStandingMatch)
        assert drawn.hands[0] == match.hands[0] and drawn.market == match.market
        in_hand.update(drawn.hands[1])
        tops[drawn.deck[0]] += 1
        assert not seen & {*drawn.hands[1], *drawn.hands[2], *drawn.hands[3], *drawn.deck}
    unseen = 52 - len(seen)
    assert len(in_hand) == unseen and len(tops) == unseen
    assert all(_within(n, SAMPLES * 2 / unseen) for n in in_hand.values())
    assert all(_within(n, SAMPLES / unseen) for n in tops.values())


def test_a_face_down_card_is_any_card_of_its_player_equally_likely() -> None:
    match = GAME.new(4, seed=3)
    assert isinstance(match, LastManStandingMatch)
    while match.phase == "draft":
        match.apply(match.turn, {"type": "hire", "slot": 0})
    match.apply(1, {"type": "play", "card": match.hands[1][2]})
    known = match.view(0)["known_cards"][1]
    assert len(known) == 4  # seat 1 hired 4 cards everyone saw; its 2 dealt cards are unseen
    determiniser = _determiniser(match, 0)
    rng = random.Random(1)
    sealed: Counter[str] = Counter()
    for _ in range(SAMPLES):
        drawn = determiniser.sample(rng)
        assert isinstance(drawn, LastManStandingMatch)
        card = drawn.sealed[1]
        assert card is not None and card not in drawn.hands[1] and set(known) <= {card, *drawn.hands[1]}
        sealed["known" if card in known else "dealt"] += 1
    # Six cards: each is face down with probability 1/6, so a hired one with 4/6.
    assert _within(sealed["known"], SAMPLES * 4 / 6)
