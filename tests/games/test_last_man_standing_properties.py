"""Random legal play from random seeds, seat counts and options: never crashes, conserves chips,
ends within five rounds, and never leaks a secret (through the generic conformance checks)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from partygames.engine.actions import sample
from partygames.engine.conformance import check_playout
from partygames.games.last_man_standing import GAME
from partygames.games.last_man_standing.rules import LastManStandingMatch

seats = st.integers(4, 8)
options = st.fixed_dictionaries({"draft_payments_to_pot": st.booleans(), "starting_chips": st.integers(22, 80)})


@given(seed=st.integers(0, 2**32), seats=seats, options=options)
def test_random_play_conserves_chips_and_ends_within_five_rounds(seed: int, seats: int,
                                                                  options: dict[str, object]) -> None:
    match = GAME.new(seats, options, seed)
    assert isinstance(match, LastManStandingMatch)
    total = match.opts.starting_chips * seats
    rng = random.Random(seed)
    while not match.is_over:
        seat = rng.choice(match.to_act())
        match.apply(seat, sample(match.legal_actions(seat), rng))
        assert sum(match.chips) + match.pot + match.set_aside == total
        assert min(match.chips) >= 0 and match.pot >= 0
        if match.phase == "play":
            assert all(len(h) + (c is not None) == 6 - (match.round - 1)
                       for h, c in zip(match.hands, match.sealed, strict=True))
    result = match.result()
    assert result is not None and 1 <= len(match.history) <= 5
    if result.termination == "pot_empty":
        assert match.pot == 0
    else:
        assert len(match.history) == 5 and match.unawarded == match.pot < max(1, len(match.arena_cards))
    assert not options["draft_payments_to_pot"] or match.set_aside == 0
    best = max(match.chips)
    assert result.winners == tuple(s for s in range(seats) if match.chips[s] == best)


@settings(max_examples=6)
@given(seed=st.integers(0, 2**32), seats=seats, to_pot=st.booleans())
def test_random_play_keeps_the_engine_contract_and_leaks_no_secret(seed: int, seats: int, to_pot: bool) -> None:
    check_playout(GAME, seats, seed, {"draft_payments_to_pot": to_pot}, deep_every=3)


def test_perturbed_secrets_really_change_hands_sealed_cards_and_deck_order() -> None:
    """The leak check has teeth: perturbing seat 0's secrets changes what seat 0 alone sees."""
    match = GAME.new(4, seed=5)
    assert isinstance(match, LastManStandingMatch)
    while match.phase == "draft":
        match.apply(match.to_act()[0], {"type": "hire", "slot": 0})
    match.apply(0, {"type": "play", "card": match.hands[0][0]})
    own = match.view(0)
    changed_hand = changed_sealed = changed_deck = False
    for i in range(20):
        other = match.perturb_secrets(0, random.Random(i))
        assert isinstance(other, LastManStandingMatch)
        changed_hand |= other.view(0)["my_hand"] != own["my_hand"]
        changed_sealed |= other.view(0)["my_played"] != own["my_played"]
        assert other.view(1) == match.view(1) and other.view(None) == match.view(None)
        shuffled = match.perturb_secrets(None, random.Random(i))
        assert isinstance(shuffled, LastManStandingMatch)
        changed_deck |= shuffled.deck != match.deck
    assert changed_hand and changed_sealed and changed_deck
