"""The rounds tempo's intents, written straight from the state for speed, are exactly those the rules'
real-time actions give (`_rule_actions`), and an intent is carried out exactly when those actions allow it."""

from __future__ import annotations

import random

import pytest

from partygames.engine.actions import find_spec, sample
from partygames.engine.errors import IllegalAction
from partygames.games import get
from partygames.games.pandemic.rules import WAIT, PandemicMatch, intent_of, parse_intent

GAME = get("pandemic")


def _intents_from_rules(match: PandemicMatch, seat: int) -> list[str]:
    """The intents as the rules' actions list them: `wait`, then one per action, in order."""
    intents = [WAIT]
    for candidate in match._rule_actions(seat):
        if not candidate["params"]:
            intents.append(candidate["type"])
        for name, param in candidate["params"].items():
            intents += [intent_of({"type": candidate["type"], name: v}) for v in param["choice"]]
    return intents


def _allowed_by_rules(match: PandemicMatch, seat: int, intent: str) -> bool:
    try:
        find_spec(match._rule_actions(seat), parse_intent(intent))
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize(("seats", "options"), [
    (5, {"tempo": "rounds", "minutes": 4, "step_seconds": 10, "busy_seconds": 20, "offer_seconds": 30}),
    (8, {"tempo": "rounds", "minutes": 3, "rooms": 1, "stay_seconds": 20, "read_seconds": 5, "step_seconds": 5}),
    (12, {"tempo": "rounds", "minutes": 2, "rooms": 3, "periods": 2, "break_seconds": 5}),
])
def test_every_seat_is_offered_exactly_the_intents_the_rules_allow(seats: int, options: dict[str, object]) -> None:
    rng = random.Random(seats)
    match = GAME.new(seats, options, seed=seats)
    assert isinstance(match, PandemicMatch)
    checked = 0
    while not match.is_over:
        awaited = match.to_act()
        if not awaited:
            match.advance(match.wake_at() or match.now)
            continue
        # Every intent any seat could name now: offers to anyone, every open offer, the plain actions.
        candidates = [f"offer:{t}" for t in range(seats)] + ["withdraw", "leave", "visit", "press"]
        candidates += [f"{kind}:{offer}" for offer in match.offers for kind in ("accept", "decline")]
        for seat in range(seats):
            assert match._intents(seat) == _intents_from_rules(match, seat)
            for intent in candidates:
                assert match._intent_allowed(seat, intent) == _allowed_by_rules(match, seat, intent), (seat, intent)
            checked += 1
        seat = awaited[rng.randrange(len(awaited))]
        match.apply(seat, sample(match.legal_actions(seat), rng))
    assert checked > 100
