"""Last Man Standing rules with the numbers worked out (seed 001; docs/rules/last-man-standing.md).

Most tests fix the whole deal with the public chance hook: `deck_for` builds a deck order that gives
each seat the six cards we want when every player hires the free ($0) card, so the fights below are
exactly the ones described in their docstrings.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from partygames.engine import IllegalAction, InvalidOptions
from partygames.games.last_man_standing import GAME
from partygames.games.last_man_standing.cards import DECK, by_rank
from partygames.games.last_man_standing.rules import LastManStandingMatch


def deck_for(hands: list[list[str]], start: int = 0) -> list[str]:
    """A deck order: hands[s][:2] are dealt to seat s, hands[s][2:] reach it by free hires from `start`."""
    n = len(hands)
    dealt = [hands[s][i] for i in range(2) for s in range(n)]
    hired = [hands[(start + k) % n][2 + k // n] for k in range(4 * n)]
    used = dealt + hired
    assert len(set(used)) == len(used), "a card appears twice"
    return used + [c for c in DECK if c not in used]


def new_match(hands: list[list[str]], start: int = 0, options: dict[str, Any] | None = None,
              ) -> LastManStandingMatch:
    match = GAME.new(len(hands), options, seed=0, script={"deck": [deck_for(hands, start)], "start_player": [start]})
    assert isinstance(match, LastManStandingMatch)
    return match


def hire_free_cards(match: LastManStandingMatch) -> None:
    while match.phase == "draft":
        match.apply(match.to_act()[0], {"type": "hire", "slot": 0})


def fight(match: LastManStandingMatch, cards: list[str]) -> dict[str, Any]:
    """Every seat plays its card; returns the round's record from the public view."""
    for seat, card in enumerate(cards):
        match.apply(seat, {"type": "play", "card": card})
    history: list[dict[str, Any]] = match.view(None)["history"]
    return history[-1]


def kills(record: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(k["killer"]["card"], k["victim"]["card"], k["paid"]) for k in record["kills"]]


def fresh(seats: int, options: dict[str, Any] | None = None, seed: int = 0,
          script: dict[str, list[Any]] | None = None) -> LastManStandingMatch:
    match = GAME.new(seats, options, seed, script)
    assert isinstance(match, LastManStandingMatch)
    return match


def ready(hands: list[list[str]]) -> LastManStandingMatch:
    match = new_match(hands)
    hire_free_cards(match)
    return match


# Spare cards, aces first, so that each hand has six; no test plays them.
SPARES = by_rank(list(DECK))[::-1]


def hands_playing(rounds: list[list[str]]) -> list[list[str]]:
    """Four six-card hands: seat s plays rounds[r][s] in round r; spare cards fill the rest."""
    hands = [[r[s] for r in rounds] for s in range(4)]
    used = {c for h in hands for c in h}
    spares = [c for c in SPARES if c not in used]
    for hand in hands:
        while len(hand) < 6:
            hand.append(spares.pop(0))
    return hands


# -- set-up -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("seats", "fee"), [(4, 15), (5, 16), (6, 18), (7, 20), (8, 22)])
def test_entry_fee_by_seat_count_goes_into_the_pot(seats: int, fee: int) -> None:
    view = GAME.new(seats, seed=1).view(None)
    assert view["pot"] == fee * seats
    assert view["chips"] == [50 - fee] * seats
    assert view["entry_fee"] == fee


def test_seat_counts_outside_four_to_eight_are_refused() -> None:
    for seats in (3, 9):
        with pytest.raises(InvalidOptions):
            GAME.new(seats)


def test_seat_counts_whose_entry_fee_the_starting_chips_cannot_pay_are_refused() -> None:
    assert list(GAME.seat_counts_for({"starting_chips": 16})) == [4, 5]
    with pytest.raises(InvalidOptions, match="4-5"):
        GAME.new(6, {"starting_chips": 16})


def test_two_secret_cards_each_and_four_face_up_cards_priced_0_2_4_6() -> None:
    hands = hands_playing([["2S", "3S", "4S", "5S"], ["2H", "3H", "4H", "5H"]])
    match = new_match(hands)
    me = match.view(0)
    assert me["my_hand"] == ["2S", "2H"]
    assert me["hand_counts"] == [2, 2, 2, 2]
    # Seat 0's first hire is the first market card (nearest the free end).
    assert [(m["card"], m["price"]) for m in me["market"]] == [(hands[0][2], 0), (hands[1][2], 2),
                                                                (hands[2][2], 4), (hands[3][2], 6)]
    other = json.dumps(match.view(1)) + json.dumps(match.view(None))
    assert '"2S"' not in other and '"2H"' not in other
    assert me["deck_count"] == 52 - 8 - 4


def test_hiring_pays_the_slot_price_set_aside_and_slides_the_market_toward_the_free_end() -> None:
    match = fresh(4, seed=7)
    start = match.to_act()[0]
    before = [m["card"] for m in match.view(None)["market"]]
    top = match.deck[0]
    events = match.apply(start, {"type": "hire", "slot": 1})
    view = match.view(start)
    assert [m["card"] for m in view["market"]] == [before[0], before[2], before[3], top]
    assert before[1] in view["my_hand"] and view["known_cards"][start] == [before[1]]
    assert view["chips"][start] == 35 - 2 and view["set_aside"] == 2 and view["pot"] == 60
    assert events[0].data == {"seat": start, "card": before[1], "slot": 1, "price": 2, "refill": top}


def test_draft_payments_go_to_the_pot_with_the_option() -> None:
    match = GAME.new(4, {"draft_payments_to_pot": True}, seed=7)
    start = match.to_act()[0]
    match.apply(start, {"type": "hire", "slot": 3})
    view = match.view(None)
    assert view["chips"][start] == 35 - 6 and view["pot"] == 66 and view["set_aside"] == 0


def test_draft_runs_clockwise_from_the_random_start_player_until_every_hand_holds_six() -> None:
    match = fresh(5, seed=3, script={"start_player": [3]})
    order = []
    while match.phase == "draft":
        seat = match.to_act()[0]
        order.append(seat)
        match.apply(seat, {"type": "hire", "slot": 0})
    assert order == [3, 4, 0, 1, 2] * 4
    view = match.view(None)
    assert view["hand_counts"] == [6] * 5 and view["round"] == 1
    assert match.to_act() == (0, 1, 2, 3, 4)


def test_a_player_may_hire_only_cards_they_can_afford() -> None:
    match = fresh(8, {"starting_chips": 25}, seed=2, script={"start_player": [0]})
    assert match.view(0)["chips"][0] == 3
    assert match.legal_actions(0) == [{"type": "hire", "params": {"slot": {"choice": [0, 1]}}}]
    before = match.to_json()
    with pytest.raises(IllegalAction) as refused:
        match.apply(0, {"type": "hire", "slot": 2})
    assert refused.value.ja and match.to_json() == before
    match.apply(0, {"type": "hire", "slot": 1})
    for seat in range(1, 8):
        match.apply(seat, {"type": "hire", "slot": 0})
    assert match.view(0)["chips"][0] == 1
    assert match.legal_actions(0)[0]["params"]["slot"]["choice"] == [0]


# -- sealed play ------------------------------------------------------------------------------------
def test_a_played_card_stays_secret_until_everyone_has_played() -> None:
    match = ready(hands_playing([["2S", "KS", "KH", "7S"]]))
    events = match.apply(0, {"type": "play", "card": "2S"})
    assert [e.to_json() for e in events] == [{"type": "played_face_down", "data": {"seat": 0}, "to": None}]
    assert match.view(0)["my_played"] == "2S"
    for seat in (1, None):
        view = match.view(seat)
        assert view["has_played"] == [True, False, False, False]
        assert "2S" not in json.dumps(view)
    assert match.to_act() == (1, 2, 3)
    with pytest.raises(IllegalAction, match="not your turn"):
        match.apply(0, {"type": "play", "card": "KD"})


def test_cards_hired_from_the_market_are_known_to_all_until_played() -> None:
    hands = hands_playing([["2S", "3S", "4S", "5S"], ["KS", "QS", "JS", "10S"], ["9S", "8S", "7S", "6S"]])
    match = ready(hands)
    # Seat 0 was dealt 2S and KS (secret) and hired 9S and three spares in the open.
    assert match.view(1)["known_cards"][0] == by_rank(hands[0][2:])
    fight(match, ["2S", "3S", "4S", "5S"])
    fight(match, ["KS", "QS", "JS", "10S"])
    assert match.view(1)["known_cards"][0] == by_rank(hands[0][2:])
    fight(match, ["9S", "8S", "7S", "6S"])
    assert match.view(None)["known_cards"][0] == by_rank(hands[0][3:])


# -- the fight --------------------------------------------------------------------------------------
def test_seed_example_lowest_fighter_kills_both_highest_for_1_plus_2_dollars() -> None:
    """2 kills both kings: $1 + $2 = $3 (the seed's example). Then the 7 kills the 2: $3."""
    match = ready(hands_playing([["2S", "KS", "KH", "7S"]]))
    record = fight(match, ["2S", "KS", "KH", "7S"])
    assert kills(record) == [("2S", "KS", 1), ("2S", "KH", 2), ("7S", "2S", 3)]
    view = match.view(None)
    assert view["chips"] == [35 + 3, 35, 35, 35 + 3] and view["pot"] == 60 - 6
    assert view["arena"] == [{"card": "7S", "owner": 3}]
    assert view["discard"] == ["KS", "KH", "2S"]
    assert view["round"] == 2 and match.to_act() == (0, 1, 2, 3)


def test_tied_lowest_rank_stares_down_and_the_ascending_ranks_still_kill() -> None:
    """2, 2: no kill in the first step. The 5 kills both 2s ($1 + $2), the K kills the 5 ($3)."""
    match = ready(hands_playing([["2S", "2H", "5S", "KS"]]))
    record = fight(match, ["2S", "2H", "5S", "KS"])
    assert kills(record) == [("5S", "2S", 1), ("5S", "2H", 2), ("KS", "5S", 3)]
    assert match.view(None)["chips"] == [35, 35, 38, 38]
    assert match.view(None)["arena"] == [{"card": "KS", "owner": 3}]


def test_a_rank_held_by_two_fighters_kills_nothing_so_lower_fighters_live() -> None:
    """2 kills the K ($1); the two 7s stare each other down, so the 2 survives with them."""
    match = ready(hands_playing([["2S", "7S", "7H", "KS"]]))
    record = fight(match, ["2S", "7S", "7H", "KS"])
    assert kills(record) == [("2S", "KS", 1)]
    assert [f["card"] for f in match.view(None)["arena"]] == ["2S", "7S", "7H"]
    assert match.view(None)["pot"] == 59


def test_four_of_a_kind_is_a_stand_off_with_no_kill() -> None:
    match = ready(hands_playing([["7S", "7H", "7D", "7C"]]))
    record = fight(match, ["7S", "7H", "7D", "7C"])
    assert record["kills"] == [] and len(match.view(None)["arena"]) == 4


def test_a_fighter_killed_in_the_first_step_does_not_act() -> None:
    """2 kills the K ($1); the 5 kills the 2 ($2); the 9 kills the 5 ($3); the dead K does nothing."""
    match = ready(hands_playing([["2S", "5S", "9S", "KS"]]))
    record = fight(match, ["2S", "5S", "9S", "KS"])
    assert kills(record) == [("2S", "KS", 1), ("5S", "2S", 2), ("9S", "5S", 3)]
    assert match.view(None)["chips"] == [36, 37, 38, 35]
    assert match.view(None)["arena"] == [{"card": "9S", "owner": 2}]


def test_survivors_fight_again_and_may_kill_their_own_players_fighter() -> None:
    """Round 1: 2 kills the 9 ($1); the 5s stare down. Round 2 (bounties start again at $1): seat 0's
    surviving 2 is the lowest and kills the ace, seat 0's own new fighter ($1 to seat 0); the 3 kills
    the 2 ($2); the four 5s stare down."""
    match = ready(hands_playing([["2S", "5S", "5H", "9S"], ["AS", "5D", "5C", "3S"]]))
    fight(match, ["2S", "5S", "5H", "9S"])
    assert match.view(None)["chips"] == [36, 35, 35, 35]
    record = fight(match, ["AS", "5D", "5C", "3S"])
    assert kills(record) == [("2S", "AS", 1), ("3S", "2S", 2)]
    assert record["kills"][0]["killer"]["owner"] == record["kills"][0]["victim"]["owner"] == 0
    view = match.view(None)
    assert view["chips"] == [37, 35, 35, 37] and view["pot"] == 60 - 1 - 3
    assert sorted(f["card"] for f in view["arena"]) == ["3S", "5C", "5D", "5H", "5S"]


# -- the end ----------------------------------------------------------------------------------------
STAND_OFF_ROUNDS = [["2S", "2H", "3S", "3H"], ["4S", "4H", "5S", "5H"], ["6S", "6H", "7S", "7H"],
                    ["8S", "8H", "9S", "9H"]]


def test_when_the_pot_runs_dry_the_game_ends_at_once() -> None:
    """Four rounds of pairs: no kill, 16 fighters. Round 5 plays 10, 10, J, Q: the J is the lowest
    unique rank above the pairs and kills the 18 fighters below it, one at a time: $1 + ... + $10 = $55
    leaves $5, so the 11th kill (bounty $11) gets the last $5 and the game ends; the Q never acts."""
    match = ready(hands_playing([*STAND_OFF_ROUNDS, ["10S", "10H", "JS", "QS"]]))
    for cards in STAND_OFF_ROUNDS:
        assert fight(match, cards)["kills"] == []
    record = fight(match, ["10S", "10H", "JS", "QS"])
    paid = [k["paid"] for k in record["kills"]]
    assert paid == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 5]
    assert {k["killer"]["card"] for k in record["kills"]} == {"JS"}
    assert match.is_over
    result = match.result()
    assert result is not None and result.termination == "pot_empty"
    assert [s.holdings["chips"] for s in result.seats] == [35, 35, 95, 35]
    assert result.winners == (2,) and result.detail["pot"] == 0 and result.detail["unawarded"] == 0


def test_after_round_five_survivors_split_the_pot_and_the_remainder_stays_unawarded() -> None:
    """Round 1: 2 kills the K ($1 to seat 0), the 5s stare down. Rounds 2-5 only add pairs, so no one
    else dies: 19 fighters share $59, $3 each ($57), and $2 stays on the table. Seats 0-2 have five
    survivors each, seat 3 four: 35 + 1 + 15 = 51, 35 + 15 = 50, 50, 35 + 12 = 47."""
    rounds = [["2S", "5S", "5H", "KS"], ["2H", "2D", "QS", "QH"], ["3S", "3H", "JS", "JH"],
              ["4S", "4H", "10S", "10H"], ["6S", "6H", "9S", "9H"]]
    match = ready(hands_playing(rounds))
    for cards in rounds:
        fight(match, cards)
    result = match.result()
    assert result is not None and result.termination == "five_rounds"
    assert [s.holdings["chips"] for s in result.seats] == [51, 50, 50, 47]
    assert result.detail["unawarded"] == 2 and result.detail["pot"] == 2
    assert len(result.detail["survivors"]) == 19
    assert result.winners == (0,) and [s.rank for s in result.seats] == [1, 2, 2, 4]
    assert sum(s.holdings["chips"] for s in result.seats) + 2 == 200


def test_players_with_equal_chips_share_the_win() -> None:
    """Only stand-offs for five rounds: 20 survivors, five each, share $60: $3 each, all end on $50."""
    rounds = [["7S", "7H", "7D", "7C"], ["2S", "2H", "KS", "KH"], ["3S", "3H", "QS", "QH"],
              ["4S", "4H", "JS", "JH"], ["5S", "5H", "10S", "10H"]]
    match = ready(hands_playing(rounds))
    for cards in rounds:
        assert fight(match, cards)["kills"] == []
    result = match.result()
    assert result is not None
    assert [s.holdings["chips"] for s in result.seats] == [50] * 4
    assert result.winners == (0, 1, 2, 3) and all(s.rank == 1 for s in result.seats)


def test_on_timeout_a_drafter_takes_the_free_card_and_a_player_plays_their_lowest() -> None:
    match = ready(hands_playing([["9S", "5S", "5H", "KS"]]))
    deadline = match.time_limit()
    assert deadline is not None and deadline.phase == "round:1" and deadline.seconds == 60
    assert deadline.defaults[0] == {"type": "play", "card": "9S"}
    draft = GAME.new(4, seed=1).time_limit()
    assert draft is not None and list(draft.defaults.values()) == [{"type": "hire", "slot": 0}]


def test_time_limits_come_from_the_options_and_every_hire_gets_its_own() -> None:
    hands = hands_playing([["9S", "5S", "5H", "KS"]])
    match = new_match(hands, start=2, options={"draft_seconds": 20, "play_seconds": 45})
    first = match.time_limit()
    assert first is not None and first.phase == "draft:0" and first.seconds == 20
    assert first.defaults == {2: {"type": "hire", "slot": 0}}
    match.apply(2, first.defaults[2])  # the timeout: seat 2 hires the free card, paying nothing
    assert match.chips[2] == 50 - 15
    second = match.time_limit()
    assert second is not None and second.phase == "draft:1" and second.defaults == {3: {"type": "hire", "slot": 0}}
    hire_free_cards(match)
    play = match.time_limit()
    assert play is not None and play.phase == "round:1" and play.seconds == 45
    match.apply(1, {"type": "play", "card": "5S"})
    # One simultaneous phase: a seat playing early does not restart the others' time, and has no default.
    same = match.time_limit()
    assert same is not None and same.phase == "round:1" and sorted(same.defaults) == [0, 2, 3]
    for seat, action in same.defaults.items():
        match.apply(seat, action)
    # Seats 0 and 2 play their lowest cards 9S and 5H; seat 3 holds KS with five spares, 9C the lowest.
    assert match.view(None)["history"][0]["plays"] == ["9S", "5S", "5H", "9C"]
    after = match.time_limit()
    assert after is not None and after.phase == "round:2"


@pytest.mark.parametrize("field", ["draft_seconds", "play_seconds"])
@pytest.mark.parametrize("seconds", [4, 3601])
def test_time_limits_outside_5_to_3600_seconds_are_refused(field: str, seconds: int) -> None:
    with pytest.raises(InvalidOptions, match=field):
        fresh(4, {field: seconds})


def test_a_dry_pot_ends_the_game_before_round_five_with_cards_left_in_hand() -> None:
    """Three rounds of pairs; in round 4 the lone 9 kills the 14 fighters below it: the 11th kill
    empties the pot ($55 + $5) and nothing more is played."""
    rounds = [*STAND_OFF_ROUNDS[:3], ["8S", "8H", "9S", "QS"]]
    match = ready(hands_playing(rounds))
    for cards in rounds:
        record = fight(match, cards)
    assert [k["paid"] for k in record["kills"]] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 5]
    assert match.is_over and match.to_act() == ()
    view = match.view(None)
    assert view["round"] == 4 and view["hand_counts"] == [2, 2, 2, 2] and view["pot"] == 0
    assert view["chips"] == [35, 35, 95, 35]
    # The three victims-to-be (7H, 8S, 8H) stay alive when the pot runs dry, as does the Q that never acted.
    assert sorted(f["card"] for f in view["arena"]) == ["7H", "8H", "8S", "9S", "QS"]


@pytest.mark.parametrize(("starting_chips", "affordable"), [(23, [0]), (24, [0, 1]), (26, [0, 1, 2]),
                                                            (27, [0, 1, 2]), (28, [0, 1, 2, 3])])
def test_a_card_priced_exactly_at_a_players_chips_is_affordable(starting_chips: int, affordable: list[int]) -> None:
    """8 seats pay $22 each: $23 leaves $1 (only the free card), $24 leaves $2 (the $2 card too), $26 leaves
    $4 (the $4 card, not the $6 one), $28 leaves $6 (every card)."""
    match = fresh(8, {"starting_chips": starting_chips}, seed=2, script={"start_player": [0]})
    assert match.view(0)["chips"][0] == starting_chips - 22
    assert match.legal_actions(0)[0]["params"]["slot"]["choice"] == affordable


def draft_with_a_six_dollar_last_hire(hands: list[list[str]]) -> LastManStandingMatch:
    """Free hires, except the 16th and last (seat 3) takes the $6 card, into the pot: the pot holds $66.

    The market then holds seat 3's sixth card (a spare) at $0 and three undealt cards; seat 3 takes the
    one at $6 instead, so its spare changes but none of the cards it plays."""
    match = new_match(hands, options={"draft_payments_to_pot": True})
    for _ in range(15):
        match.apply(match.to_act()[0], {"type": "hire", "slot": 0})
    assert match.to_act() == (3,)
    match.apply(3, {"type": "hire", "slot": 3})
    assert match.phase == "play" and match.pot == 66 and match.chips == [35, 35, 35, 29]
    return match


def test_a_bounty_that_empties_the_pot_exactly_ends_the_game_at_once() -> None:
    """Pot $66 = $1 + ... + $11. Four rounds of pairs leave 16 fighters; in round 5 the lone J has 18
    fighters below it: the 11th kill takes the last $11 in full, the pot is empty, the game ends and the
    other 7 fighters below the J live (no kill paying $0 follows)."""
    match = draft_with_a_six_dollar_last_hire(hands_playing([*STAND_OFF_ROUNDS, ["10S", "10H", "JS", "QS"]]))
    for cards in STAND_OFF_ROUNDS:
        assert fight(match, cards)["kills"] == []
    record = fight(match, ["10S", "10H", "JS", "QS"])
    assert [k["paid"] for k in record["kills"]] == list(range(1, 12))
    assert match.is_over and match.view(None)["pot"] == 0 and len(match.view(None)["arena"]) == 20 - 11
    result = match.result()
    assert result is not None and result.termination == "pot_empty"
    assert [s.holdings["chips"] for s in result.seats] == [35, 35, 35 + 66, 29]


def test_draft_payments_put_in_the_pot_are_shared_by_the_survivors_at_the_end() -> None:
    """Five rounds of stand-offs with a $66 pot: 20 survivors, $3 each ($60), $6 stays unawarded. Seat 3
    paid $6 for its card: 29 + 15 = 44; the others 35 + 15 = 50."""
    rounds = [["7S", "7H", "7D", "7C"], ["2S", "2H", "KS", "KH"], ["3S", "3H", "QS", "QH"],
              ["4S", "4H", "JS", "JH"], ["5S", "5H", "10S", "10H"]]
    match = draft_with_a_six_dollar_last_hire(hands_playing(rounds))
    for cards in rounds:
        assert fight(match, cards)["kills"] == []
    result = match.result()
    assert result is not None and result.termination == "five_rounds"
    assert [s.holdings["chips"] for s in result.seats] == [50, 50, 50, 44]
    assert result.detail["unawarded"] == 6 and result.detail["set_aside"] == 0
    assert result.winners == (0, 1, 2)
