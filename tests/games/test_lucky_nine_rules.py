"""Lucky Nine rules (seed 004), each with the numbers worked out. The dropper is forced with the
public chance hook: `script={"dropper": [...]}` or `match.chance.script("dropper", ...)`."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from partygames.engine import IllegalAction, InvalidOptions
from partygames.engine.match import TimeLimit
from partygames.games import get
from partygames.games.lucky_nine.rules import CHESTS, NON_DIAMOND, LuckyNineMatch

GAME = get("lucky-nine")
FOUR = ("lapis", "redstone", "gold", "emerald")
# With 7 players: the four funded chests, then the diamond chest (3), which empties everything and
# triggers the refill of special rule a, then two of the refilled chests.
ROUND_ONE_HITS = [*FOUR, "diamond", "lapis", "redstone"]


def new(seats: int, options: dict[str, Any] | None = None, draws: list[str] | None = None) -> LuckyNineMatch:
    match = GAME.new(seats, options, seed=1, script={"dropper": draws or []})
    assert isinstance(match, LuckyNineMatch)
    return match


def act(match: LuckyNineMatch, action_type: str, **params: Any) -> list[str]:
    events = match.apply(match.to_act()[0], {"type": action_type, **params})
    return [e.type for e in events]


def turn(match: LuckyNineMatch, draws: list[str], end: str = "pass", after: str = "stay") -> None:
    """Plays one whole turn: the scripted draws, continuing after each hit but the last."""
    match.chance.script("dropper", *draws)
    act(match, "press")
    for _ in draws[1:]:
        act(match, "continue")
    if match.phase == "decide":
        act(match, end)
    if match.phase == "dropout":
        act(match, after)


def conserved(match: LuckyNineMatch) -> bool:
    return match.total_diamonds() == match.seats * match.options.start_diamonds


# -- set-up ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("seats", "diamond_chest", "house"), [(2, 0, -4), (4, 0, -4), (6, 2, -6), (20, 16, -20)])
def test_house_funds_four_chests_with_one_and_the_rest_of_one_per_player_into_the_diamond_chest(
        seats: int, diamond_chest: int, house: int) -> None:
    match = new(seats)
    assert {c: match.chests[c] for c in FOUR} == dict.fromkeys(FOUR, 1)
    assert match.chests["diamond"] == diamond_chest
    assert match.house == house
    assert match.holdings == [64] * seats
    assert match.view(None)["lit"] == list(FOUR) + (["diamond"] if diamond_chest else [])


def test_starting_diamonds_are_an_option() -> None:
    assert new(3, {"start_diamonds": 100}).holdings == [100, 100, 100]


def test_seat_counts_and_options_out_of_range_are_refused() -> None:
    for seats in (1, 21):
        with pytest.raises(InvalidOptions):
            new(seats)
    for bad in ({"rounds": 7}, {"start_diamonds": 0},
                {"special_prizes": [{"name": "elytra"}, {"name": "elytra"}]},
                {"special_prizes": [{"name": "diamond"}]}):
        with pytest.raises(InvalidOptions):
            new(3, bad)


# -- hits and misses -------------------------------------------------------------------------------
def test_a_hit_takes_the_chest_and_asks_continue_or_pass() -> None:
    match = new(6, draws=["gold"])
    events = match.apply(0, {"type": "press"})
    assert [(e.type, e.data) for e in events] == [
        ("draw", {"seat": 0, "chest": "gold", "hit": True}),
        ("take", {"seat": 0, "chest": "gold", "kind": "diamond", "count": 1})]
    assert match.holdings[0] == 65 and match.chests["gold"] == 0
    assert [s["type"] for s in match.legal_actions(0)] == ["continue", "pass"]


def test_a_miss_pays_the_stake_into_the_drawn_chest_and_into_the_diamond_chest() -> None:
    match = new(6, draws=["wood"])  # diamond chest starts with 2
    events = match.apply(0, {"type": "press"})
    assert [(e.type, e.data) for e in events] == [
        ("draw", {"seat": 0, "chest": "wood", "hit": False}),
        ("pay", {"seat": 0, "owed": 2, "paid": {"wood": 1, "diamond": 1}})]
    assert match.holdings[0] == 62 and match.chests["wood"] == 1 and match.chests["diamond"] == 3
    assert match.phase == "dropout" and match.turn_seat == 0
    assert conserved(match)


def test_a_miss_on_the_empty_diamond_chest_pays_twice_the_stake_into_it() -> None:
    match = new(3, draws=["diamond"])  # 3 players: the diamond chest starts empty
    act(match, "press")
    assert match.holdings[0] == 62 and match.chests["diamond"] == 2


def test_variant_a_triples_the_payment_when_the_diamond_chest_is_empty() -> None:
    match = new(3, {"triple_diamond": True}, draws=["diamond"])
    act(match, "press")
    assert match.holdings[0] == 61 and match.chests["diamond"] == 3


def test_a_hit_on_the_diamond_chest_takes_all_its_diamonds() -> None:
    match = new(10, draws=["diamond"])  # 10 players: 6 in the diamond chest
    act(match, "press")
    assert match.holdings[0] == 70 and match.chests["diamond"] == 0


def test_continue_presses_again_and_a_miss_after_hits_keeps_the_hits() -> None:
    match = new(6, draws=["lapis", "gold", "coal"])
    act(match, "press")
    act(match, "continue")
    assert match.holdings[0] == 66
    act(match, "continue")  # coal is empty: pay 1 into coal and 1 into the diamond chest
    assert match.holdings[0] == 64 and match.chests["coal"] == 1 and match.chests["diamond"] == 3
    assert match.view(None)["turn_draws"] == ["lapis", "gold", "coal"]


def test_pass_ends_the_turn_and_the_next_seat_presses() -> None:
    match = new(3, draws=["lapis"])
    act(match, "press")
    act(match, "pass")
    assert [s["type"] for s in match.legal_actions(0)] == ["stay", "drop_out"]
    act(match, "stay")
    assert match.to_act() == (1,) and match.phase == "press"


def test_a_dropped_out_player_gets_no_more_turns() -> None:
    match = new(3)
    turn(match, ["lapis"], after="drop_out")
    turn(match, ["gold"])
    turn(match, ["wood"])
    assert match.to_act() == (1,)  # seat 0 is skipped in the second lap
    assert match.status == ["dropped", "active", "active"]


def test_the_game_ends_when_no_active_player_remains() -> None:
    match = new(2)
    turn(match, ["lapis"], after="drop_out")
    turn(match, ["gold"], after="drop_out")
    assert match.is_over
    result = match.result()
    assert result is not None and result.termination == "no_active_players"
    # The house collects redstone and emerald (1 each): ledger -4 + 2.
    assert match.house == -2 and result.detail["house_collected"] == 2
    assert result.winners == (0, 1) and [s.score for s in result.seats] == [65.0, 65.0]


# -- rounds, stakes, top-up ------------------------------------------------------------------------
def test_six_or_fewer_players_take_two_turns_per_round_seven_or_more_one() -> None:
    six = new(6)
    for draw in ["wood", "stone", "coal", "iron", "wood", "stone"]:  # miss, miss, miss, miss, hit, hit
        turn(six, [draw])
    assert six.round == 0 and six.lap == 1 and six.turn_seat == 0 and six.stake == 1
    seven = new(7)
    for _ in range(7):
        turn(seven, ["stone"])
    assert seven.round == 1 and seven.turn_seat == 0 and seven.stake == 2


@pytest.mark.parametrize(("rounds", "stakes"), [(4, [1, 3, 6, 9]), (5, [1, 2, 4, 6, 9]), (6, [1, 2, 4, 6, 8, 9])])
def test_stakes_per_round_follow_the_seed_tables(rounds: int, stakes: list[int]) -> None:
    match = new(7, {"rounds": rounds})
    seen = []
    while not match.is_over:
        if match.phase == "press":
            seen.append(match.stake)
        turn(match, ["wood"])  # wood is hit after the first miss; nobody drops out
    assert sorted(set(seen)) == stakes and len(seen) == 7 * rounds


def test_between_rounds_the_lit_chests_but_the_diamond_chest_are_topped_up_to_the_next_stake() -> None:
    match = new(7, {"rounds": 4})  # stakes 1, 3, 6, 9; diamond chest starts with 3
    # Stake 1: wood miss (wood 1, diamond chest 4), lapis hit, coal miss (5), iron miss (6),
    # stone miss (7), stone hit, wood hit.
    for draw in ["wood", "lapis", "coal", "iron", "stone", "stone", "wood"]:
        turn(match, [draw])
    # Round 2, stake 3: coal, iron, redstone, gold and emerald held 1 each -> 3 each (+10 from the
    # house); the empty chests stay empty and the diamond chest is not topped up.
    assert match.round == 1 and match.stake == 3
    assert match.chests == {"wood": 0, "stone": 0, "coal": 3, "iron": 3, "lapis": 0, "redstone": 3, "gold": 3,
                            "emerald": 3, "diamond": 7}
    assert match.house == -3 - 4 - 10
    assert conserved(match)


def test_after_the_last_round_the_house_collects_what_the_chests_hold() -> None:
    match = new(7, {"rounds": 4})
    while not match.is_over:
        turn(match, ["wood"])
    result = match.result()
    assert result is not None and result.termination == "rounds_complete"
    assert sum(match.chests.values()) == 0 and result.detail["house_collected"] > 0
    assert conserved(match)


def test_the_drop_out_question_is_not_asked_after_a_players_last_turn() -> None:
    match = new(7, {"rounds": 4})
    for _ in range(21):
        turn(match, ["wood"])
    assert match.round == 3
    match.chance.script("dropper", "stone")
    act(match, "press")  # a miss in the last round: no later turn, so no question
    assert match.phase == "press" and match.turn_seat == 1


# -- special rules a and b ---------------------------------------------------------------------------
def test_special_rule_a_refills_four_chests_with_the_stake_when_a_take_empties_every_chest() -> None:
    match = new(3, draws=list(FOUR))  # diamond chest empty with 3 players
    act(match, "press")
    for _ in range(3):
        act(match, "continue")
    assert match.holdings[0] == 68
    assert {c: match.chests[c] for c in FOUR} == dict.fromkeys(FOUR, 1)
    assert match.house == -8 and conserved(match)


def test_special_rule_b_a_player_below_the_stake_who_misses_pays_everything_into_the_diamond_chest_and_is_out() -> None:
    match = new(7, {"rounds": 4, "start_diamonds": 1})  # stakes 1 then 3; diamond chest 3
    for draw in ROUND_ONE_HITS:  # every seat hits once: seat 0 holds 1 + 1 = 2
        turn(match, [draw])
    assert match.round == 1 and match.stake == 3 and match.holdings[0] == 2
    before = match.chests["diamond"]
    match.chance.script("dropper", "wood")
    assert act(match, "press") == ["draw", "pay", "disqualified"]
    assert match.holdings[0] == 0 and match.chests["diamond"] == before + 2 and match.chests["wood"] == 0
    assert match.status[0] == "disqualified" and match.turn_seat == 1  # no drop-out question
    assert conserved(match)


def test_a_player_who_holds_the_stake_but_not_the_whole_miss_pays_what_they_hold_and_is_out() -> None:
    # Our decision: stake 1, holdings 1, a miss owes 2: 1 goes into the drawn chest, 0 into the
    # diamond chest, and the player is disqualified like under special rule b.
    match = new(3, {"start_diamonds": 1}, draws=["wood"])
    act(match, "press")
    assert match.holdings[0] == 0 and match.chests["wood"] == 1 and match.chests["diamond"] == 0
    assert match.status[0] == "disqualified"


def test_a_player_below_the_stake_plays_on_until_a_miss() -> None:
    match = new(7, {"rounds": 4, "start_diamonds": 1})
    for draw in ROUND_ONE_HITS:
        turn(match, [draw])
    assert match.holdings[0] == 2 < match.stake
    turn(match, ["gold"])  # a hit with 2 < 3 held: still in the game (gold was topped up to 3)
    assert match.status[0] == "active" and match.holdings[0] == 5


# -- variants ---------------------------------------------------------------------------------------
def test_variant_b_the_last_lit_chest_also_gives_one_slot_of_the_diamond_chest() -> None:
    match = new(6, {"sweep_bonus": True}, draws=list(FOUR))  # diamond chest holds 2
    act(match, "press")
    for _ in range(3):
        types = act(match, "continue")
    assert types == ["draw", "take", "sweep_bonus", "refill"]
    assert match.holdings[0] == 64 + 4 + 2


def test_variant_b_slot_is_one_stack_of_64() -> None:
    match = new(6, {"sweep_bonus": True}, draws=list(FOUR))
    match.chests["diamond"] = 100
    match.house -= 98  # keep the ledger whole for the test set-up
    act(match, "press")
    for _ in range(3):
        act(match, "continue")
    assert match.holdings[0] == 64 + 4 + 64 and match.chests["diamond"] == 36
    assert conserved(match)


def test_without_variant_b_the_last_lit_chest_gives_nothing_more() -> None:
    match = new(6, draws=list(FOUR))
    act(match, "press")
    for _ in range(3):
        act(match, "continue")
    assert match.holdings[0] == 68 and match.chests["diamond"] == 2


def test_variant_c_never_repeats_the_previous_result() -> None:
    match = new(3, {"no_repeat": True}, draws=["wood"])
    act(match, "press")
    act(match, "stay")
    match.chance.script("dropper", "wood")
    with pytest.raises(ValueError, match="not one of"):
        act(match, "press")
    plain = new(3, draws=["wood"])
    act(plain, "press")
    act(plain, "stay")
    plain.chance.script("dropper", "wood")
    act(plain, "press")  # the seed's machine may repeat: 「連続で同じ出目が出るように」
    assert plain.holdings[1] == 65


def test_variant_d_pays_five_times_the_stake_on_every_fifth_hit_in_a_row() -> None:
    match = new(6, {"chain_bonus": True}, draws=[*FOUR, "diamond"])
    act(match, "press")
    for _ in range(3):
        act(match, "continue")
    types = act(match, "continue")
    assert types[:2] == ["draw", "chain_bonus"]
    assert match.holdings[0] == 64 + 4 + 2 + 5 and conserved(match)


def test_variant_d_counts_within_one_turn_only() -> None:
    match = new(6, {"chain_bonus": True})
    turn(match, ["lapis", "redstone"])
    turn(match, ["gold", "emerald", "diamond"])
    assert match.holdings[:2] == [66, 64 + 4]


# -- special prizes ---------------------------------------------------------------------------------
def test_a_diamond_chest_hit_claims_one_kind_and_the_rest_stays() -> None:
    options = {"special_prizes": [{"name": "elytra", "name_ja": "エリトラ", "count": 2, "value": 30}]}
    match = new(10, options, draws=["diamond", "diamond"])  # diamond chest: 6 diamonds and 2 elytra
    act(match, "press")
    assert match.legal_actions(0) == [{"type": "claim", "params": {"kind": {"choice": ["diamond", "elytra"]}}}]
    act(match, "claim", kind="elytra")
    assert match.claimed[0] == {"elytra": 2} and match.chests["diamond"] == 6 and match.holdings[0] == 64
    act(match, "continue")  # only diamonds are left: no question
    assert match.holdings[0] == 70 and match.phase == "decide"
    assert match.score(0) == 70 + 60


def test_a_diamond_chest_holding_only_a_prize_is_lit() -> None:
    match = new(3, {"special_prizes": [{"name": "trident"}]}, draws=["diamond"])
    assert "diamond" in match.view(None)["lit"]
    act(match, "press")
    assert match.claimed[0] == {"trident": 1} and match.holdings[0] == 64


def test_unlisted_actions_are_refused_in_both_languages() -> None:
    match = new(3)
    with pytest.raises(IllegalAction) as info:
        match.apply(0, {"type": "continue"})
    assert info.value.en and info.value.ja
    with pytest.raises(IllegalAction):
        match.apply(1, {"type": "press"})


def test_views_show_every_chest_and_are_the_same_for_every_seat() -> None:
    match = new(4, draws=["wood"])
    act(match, "press")
    public = match.view(None)
    assert set(public["chests"]) == set(CHESTS)
    for seat in range(4):
        view = match.view(seat)
        assert {k: v for k, v in view.items() if k not in ("seat", "legal_actions")} == \
            {k: v for k, v in public.items() if k not in ("seat", "legal_actions")}


# -- further decisions where the seed is open --------------------------------------------------------
def test_taking_the_last_prize_counts_as_receiving_for_special_rule_a() -> None:
    match = new(3, {"special_prizes": [{"name": "trident"}]}, draws=[*FOUR, "diamond"])
    act(match, "press")
    for _ in range(4):
        act(match, "continue")
    assert match.claimed[0] == {"trident": 1}
    assert {c: match.chests[c] for c in FOUR} == dict.fromkeys(FOUR, 1) and match.house == -8


def test_variant_b_lets_the_player_choose_one_slot_when_the_diamond_chest_holds_several_kinds() -> None:
    options = {"sweep_bonus": True, "special_prizes": [{"name": "elytra", "count": 2}]}
    match = new(6, options, draws=list(FOUR))
    act(match, "press")
    for _ in range(3):
        act(match, "continue")
    assert match.phase == "claim" and match.view(0)["claim"] == {"mode": "slot", "kinds": ["diamond", "elytra"]}
    act(match, "claim", kind="elytra")
    assert match.claimed[0] == {"elytra": 1} and match.prizes == {"elytra": 1} and match.chests["diamond"] == 2
    assert match.phase == "decide"


def test_variant_d_pays_again_on_the_tenth_hit_in_a_row() -> None:
    match = new(6, {"chain_bonus": True})
    for chest in NON_DIAMOND:
        match.chests[chest] = 1
    match.house -= 4  # four extra chests funded for the test set-up
    draws = [*NON_DIAMOND, "diamond", "lapis"]  # 8 + the diamond chest (2), refill, then a 10th hit
    turn(match, draws)
    assert match.holdings[0] == 64 + 8 + 2 + 1 + 5 + 5 and conserved(match)


def test_the_number_of_laps_is_fixed_by_the_starting_player_count() -> None:
    match = new(8)
    for seat in range(3):
        turn(match, ["wood" if seat == 0 else "stone"], after="drop_out")
    for _ in range(5):
        turn(match, ["coal"])
    # Five players remain, but a round is still one lap, as with the eight who started.
    assert match.round == 1 and match.stake == 2 and match.turn_seat == 3


def _dropper_results(options: dict[str, Any], games: int) -> list[list[str]]:
    """Every dropper result of seeded games where everyone stays in and passes after each hit."""
    sequences = []
    for seed in range(games):
        match = GAME.new(7, options, seed)
        assert isinstance(match, LuckyNineMatch)
        draws: list[str] = []
        while not match.is_over:
            kind = {"press": "press", "decide": "pass", "dropout": "stay"}.get(match.phase, "claim")
            for event in match.apply(match.turn_seat, {"type": kind}):
                if event.type == "draw":
                    draws.append(event.data["chest"])
        sequences.append(draws)
    return sequences


def test_the_dropper_is_uniform_over_the_nine_chests_and_may_repeat() -> None:
    draws = [c for seq in _dropper_results({}, 400) for c in seq]  # 400 games x 35 presses
    share = {c: draws.count(c) / len(draws) for c in CHESTS}
    assert all(abs(s - 1 / 9) < 0.01 for s in share.values()), share
    repeats = sum(a == b for seq in _dropper_results({}, 100) for a, b in pairwise(seq))
    assert repeats > 0


def test_variant_c_never_repeats_across_turns_and_rounds() -> None:
    sequences = _dropper_results({"no_repeat": True}, 100)
    assert all(a != b for seq in sequences for a, b in pairwise(seq))
    assert sum(len(seq) for seq in sequences) == 100 * 35


def test_prizes_nobody_claimed_go_back_to_the_house_at_the_end() -> None:
    match = new(2, {"special_prizes": [{"name": "elytra"}]})
    turn(match, ["lapis"], after="drop_out")
    turn(match, ["gold"], after="drop_out")
    result = match.result()
    assert result is not None and result.detail["prizes_left"] == {"elytra": 1}


# -- review: edges of the miss payment and of variant b ------------------------------------------------
def test_a_player_who_pays_a_miss_in_full_down_to_zero_stays_in_until_the_next_miss() -> None:
    # 3 players with 2 diamonds, stake 1: a miss owes 2 (1 into wood, 1 into the diamond chest); holding
    # exactly 2 the player pays it in full, holds 0 and is still in (rule b needs holdings below the stake
    # *and* a miss). At the next miss 0 < 1: rule b puts all of 0 into the diamond chest and the player is out.
    match = new(3, {"start_diamonds": 2}, draws=["wood"])
    assert act(match, "press") == ["draw", "pay"]
    assert match.holdings[0] == 0 and match.status[0] == "active" and match.phase == "dropout"
    assert match.chests["wood"] == 1 and match.chests["diamond"] == 1
    act(match, "stay")
    turn(match, ["lapis"])
    turn(match, ["redstone"])
    match.chance.script("dropper", "stone")
    assert act(match, "press") == ["draw", "pay", "disqualified"]
    assert match.holdings[0] == 0 and match.chests["stone"] == 0 and match.chests["diamond"] == 1
    assert match.status[0] == "disqualified" and match.turn_seat == 1 and conserved(match)


def test_special_rule_b_on_the_empty_diamond_chest_under_variant_a_puts_what_is_held_into_it() -> None:
    match = new(3, {"rounds": 4, "triple_diamond": True})  # stakes 1, 3, 6, 9; diamond chest empty
    for draw in [*FOUR, "lapis", "redstone"]:  # round 1: six hits (the fourth empties all: refill)
        turn(match, [draw])
    # Round 2, stake 3: gold and emerald topped up 1 -> 3 (house: -4 set-up, -4 refill, -4 top-up).
    assert match.stake == 3 and match.chests["diamond"] == 0 and match.house == -12
    match.holdings[0] -= 64  # seat 0 holds 2 < 3 (set-up for the test: the 64 go to the house)
    match.house += 64
    match.chance.script("dropper", "diamond")
    assert act(match, "press") == ["draw", "pay", "disqualified"]
    # Owed 3 x 3 = 9; below the stake, the player puts all 2 into the diamond chest and is out.
    assert match.holdings[0] == 0 and match.chests["diamond"] == 2 and match.status[0] == "disqualified"
    assert conserved(match)


def test_variant_b_gives_nothing_from_an_empty_diamond_chest_and_special_rule_a_refills() -> None:
    match = new(3, {"sweep_bonus": True}, draws=list(FOUR))  # 3 players: the diamond chest is empty
    act(match, "press")
    for _ in range(3):
        types = act(match, "continue")
    assert types == ["draw", "take", "refill"]
    assert match.holdings[0] == 68 and {c: match.chests[c] for c in FOUR} == dict.fromkeys(FOUR, 1)
    assert match.house == -8 and conserved(match)


# -- time limits (docs/rules/lucky-nine.md, Time limits) ---------------------------------------------
def time_out(match: LuckyNineMatch) -> TimeLimit:
    """Lets the time of the current decision pass: the host applies the default of the awaited seat."""
    limit = match.time_limit()
    assert limit is not None and list(limit.defaults) == list(match.to_act()) == [match.turn_seat]
    match.apply(match.turn_seat, limit.defaults[match.turn_seat])
    return limit


def test_an_absent_player_presses_passes_after_a_hit_and_stays_in() -> None:
    options = {"press_seconds": 10, "decide_seconds": 20, "claim_seconds": 30, "dropout_seconds": 40,
               "first_press_seconds": 10}
    match = new(3, options, draws=["lapis"])
    press = time_out(match)
    assert (press.phase, press.seconds, press.defaults) == ("press:1:0", 10, {0: {"type": "press"}})
    assert match.holdings[0] == 65  # the press hit lapis
    decide = time_out(match)
    assert (decide.phase, decide.seconds, decide.defaults) == ("decide:1:1", 20, {0: {"type": "pass"}})
    assert match.holdings[0] == 65 and match.phase == "dropout"  # passing keeps the hit
    dropout = time_out(match)
    assert (dropout.phase, dropout.seconds, dropout.defaults) == ("dropout:1:1", 40, {0: {"type": "stay"}})
    assert match.status[0] == "active"
    after = match.time_limit()
    assert after is not None and after.phase == "press:2:0" and after.defaults == {1: {"type": "press"}}


def test_time_limits_default_to_15_30_30_and_15_seconds() -> None:
    # A press and staying in are one click each (docs/rules/lucky-nine.md, The default table).
    match = new(10, {"special_prizes": [{"name": "elytra"}]}, draws=["diamond", "diamond"])
    seconds = []
    for action in ({"type": "press"}, {"type": "claim", "kind": "elytra"}, {"type": "continue"},
                   {"type": "pass"}):
        limit = match.time_limit()
        assert limit is not None
        seconds.append((match.phase, limit.seconds))
        match.apply(0, action)
    assert seconds == [("press", 60), ("claim", 30), ("decide", 30), ("decide", 30)]
    limit = match.time_limit()
    assert match.phase == "dropout" and limit is not None and limit.seconds == 15


def test_a_player_s_first_turn_opens_with_60_seconds_to_press_and_every_later_one_with_15() -> None:
    """Issue 29: at 15 s a newcomer's first turn timed out while they read the machine. Each player's first
    press of the match (round 1, lap 1) has `first_press_seconds`; every later one `press_seconds`."""
    match = new(3, {"rounds": 4})
    limits: list[tuple[int, int, int, float]] = []
    while len(limits) < 9:
        limit = match.time_limit()
        assert limit is not None
        if match.phase == "press":
            limits.append((match.turn_seat, match.round, match.lap, limit.seconds))
        match.apply(match.turn_seat, limit.defaults[match.turn_seat])
    assert limits == [(0, 0, 0, 60), (1, 0, 0, 60), (2, 0, 0, 60), (0, 0, 1, 15), (1, 0, 1, 15), (2, 0, 1, 15),
                      (0, 1, 0, 15), (1, 1, 0, 15), (2, 1, 0, 15)]


def test_the_view_after_the_last_round_says_its_last_lap() -> None:
    """Issue 29: the end screen said "Round 5/5 (lap 1/2)" after lap 2."""
    match = new(3, {"rounds": 4})
    while not match.is_over:
        limit = match.time_limit()
        assert limit is not None
        match.apply(match.turn_seat, limit.defaults[match.turn_seat])
    view = match.view(None)
    assert (view["round"], view["rounds"], view["lap"], view["laps"]) == (4, 4, 2, 2)


def phase_name(match: LuckyNineMatch) -> str:
    limit = match.time_limit()
    assert limit is not None
    return limit.phase


def test_every_decision_of_a_turn_has_its_own_phase_name() -> None:
    options = {"special_prizes": [{"name": "elytra"}]}
    match = new(10, options, draws=["gold", "diamond", "wood"])  # a hit, a two-kind diamond chest, a miss
    phases = [time_out(match).phase]  # the press: gold
    phases.append(phase_name(match))
    act(match, "continue")  # the diamond chest: diamonds or the elytra?
    phases.append(time_out(match).phase)  # the claim
    phases.append(phase_name(match))
    act(match, "continue")  # wood: a miss
    phases.append(time_out(match).phase)  # stay
    phases.append(phase_name(match))  # the next player's press
    assert phases == ["press:1:0", "decide:1:1", "claim:1:2", "decide:1:2", "dropout:1:3", "press:2:0"]


@pytest.mark.parametrize(("prizes", "diamonds", "expected"), [
    ([{"name": "elytra", "count": 1, "value": 7}], 6, "elytra"),  # 7 > 6
    ([{"name": "elytra", "count": 1, "value": 6}], 6, "diamond"),  # a tie: diamonds come first
    ([{"name": "elytra", "count": 3, "value": 3}], 6, "elytra"),  # all 3 units: 9 > 6
    ([{"name": "elytra"}, {"name": "totem", "value": 1}], 0, "totem"),
    ([{"name": "elytra"}, {"name": "totem"}], 0, "elytra"),  # worth nothing: the first prize listed
])
def test_an_absent_player_claims_the_kind_worth_most(prizes: list[dict[str, Any]], diamonds: int,
                                                     expected: str) -> None:
    match = new(4 + diamonds, {"special_prizes": prizes}, draws=["diamond"])  # the chest holds seats - 4
    act(match, "press")
    assert match.phase == "claim" and match.chests["diamond"] == diamonds
    limit = time_out(match)
    assert limit.defaults == {0: {"type": "claim", "kind": expected}}
    claimed = match.holdings[0] - 64 if expected == "diamond" else match.claimed[0][expected]
    assert claimed > 0 and match.phase == "decide"


def test_an_absent_players_sweep_bonus_slot_counts_one_unit_of_a_prize_and_at_most_64_diamonds() -> None:
    # 20 players: 16 diamonds in the diamond chest and 3 totems worth 10 each.
    options = {"sweep_bonus": True, "special_prizes": [{"name": "totem", "count": 3, "value": 10}]}
    hit = new(20, options, draws=["diamond"])
    act(hit, "press")
    assert time_out(hit).defaults == {0: {"type": "claim", "kind": "totem"}}  # all three: 30 > 16
    assert hit.claimed[0] == {"totem": 3}
    sweep = new(20, options, draws=list(FOUR))
    act(sweep, "press")
    for _ in range(3):
        act(sweep, "continue")  # emerald, the last lit chest: one slot of the diamond chest
    assert sweep.view(0)["claim"] == {"mode": "slot", "kinds": ["diamond", "totem"]}
    assert time_out(sweep).defaults == {0: {"type": "claim", "kind": "diamond"}}  # one totem: 10 < 16
    assert sweep.holdings[0] == 64 + 4 + 16 and sweep.claimed[0] == {}


def test_a_table_of_absent_players_still_finishes_the_game() -> None:
    match = GAME.new(6, {"special_prizes": [{"name": "elytra", "count": 2}], "sweep_bonus": True}, seed=3)
    assert isinstance(match, LuckyNineMatch)
    phases = []
    while not match.is_over:
        phases.append(time_out(match).phase)
    assert match.time_limit() is None and match.termination == "rounds_complete"
    assert all(a != b for a, b in pairwise(phases))  # every timeout starts a new decision
    # Nobody was dropped out: 5 rounds of two laps of the 6 players, every turn played to its end.
    assert match.status == ["active"] * 6
    assert sum(p.startswith("press:") for p in phases) == 5 * 2 * 6


@pytest.mark.parametrize("field", ["press_seconds", "first_press_seconds", "decide_seconds", "claim_seconds",
                                   "dropout_seconds"])
@pytest.mark.parametrize("seconds", [4, 3601])
def test_time_limits_outside_5_to_3600_seconds_are_refused(field: str, seconds: int) -> None:
    with pytest.raises(InvalidOptions, match=field):
        new(3, {field: seconds})


# -- issue 29: rules no test checked (each with the mutation that fails it: tests/mutations) --------------
def test_a_disqualified_player_in_the_middle_of_the_order_is_skipped_in_later_laps() -> None:
    """「失格となったプレイヤーは「ドロップアウト」と同じく、ゲーム終了まで手番が回されません。」 Three players, one
    diamond each: seat 1 misses at once (it owes 2 and holds 1) and is disqualified; the lap goes on to seat
    2, wraps to seat 0, and then passes seat 1 by for seat 2, lap after lap."""
    match = new(3, {"start_diamonds": 1})
    turn(match, ["lapis"])  # seat 0 hits
    turn(match, ["wood"])  # seat 1 misses: disqualified
    assert match.status == ["active", "disqualified", "active"] and match.turn_seat == 2
    seats = []
    for draw in ["redstone", "gold", "emerald", "lapis"]:
        seats.append(match.turn_seat)
        turn(match, [draw])
    assert seats == [2, 0, 2, 0] and match.holdings[1] == 0


def test_the_result_ranks_by_diamonds_plus_the_value_of_claimed_prizes() -> None:
    """「ダイヤのチェストに特別な賞品を入れる場合もあります」 and docs/rules/lucky-nine.md (End of the game): the
    standing is the diamonds plus the `value` of claimed prizes. Seat 0 claims two elytra worth 30 each and
    ends with 64 + 60 = 124, against seat 1's 64 + 1 + 1 = 66 diamonds: seat 0 is first although it holds
    fewer diamonds."""
    options = {"special_prizes": [{"name": "elytra", "count": 2, "value": 30}]}
    match = new(2, options, draws=["diamond"])  # 2 players: the diamond chest holds only the elytra
    act(match, "press")  # one kind: claimed for the player
    assert match.claimed[0] == {"elytra": 2} and match.holdings[0] == 64
    act(match, "pass")
    act(match, "drop_out")
    turn(match, ["lapis", "redstone"], after="drop_out")  # seat 1 takes 2 diamonds; nobody is left
    result = match.result()
    assert result is not None and match.holdings == [64, 66]
    assert [s.score for s in result.seats] == [124.0, 66.0]
    assert result.winners == (0,) and [s.rank for s in result.seats] == [1, 2]


def test_the_results_show_each_player_s_net_gain_or_loss_in_diamonds() -> None:
    """「主催者及びほかの参加者からダイヤを奪いあう」: the results' `net` is what a player took from the others and
    the house: diamonds held at the end minus the diamonds brought (docs/rules/lucky-nine.md, End of the
    game). Seat 0 hits lapis (+1), seat 1 misses wood (-2), both drop out: net +1 and -2."""
    match = new(2)
    turn(match, ["lapis"], after="drop_out")
    turn(match, ["wood"], after="drop_out")
    result = match.result()
    assert result is not None and result.termination == "no_active_players"
    assert [(s.holdings["diamonds"], s.holdings["net"]) for s in result.seats] == [(65, 1), (62, -2)]
