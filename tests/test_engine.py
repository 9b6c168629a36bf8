"""The engine contract on a tiny test-only game (tests/toy_game.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from partygames import games
from partygames.engine import (
    Chance,
    IllegalAction,
    InvalidOptions,
    MatchLog,
    RandomBot,
    UnknownGame,
    play,
    replay,
)
from partygames.engine.actions import enumerate_actions, find_spec, int_range, sample, spec
from partygames.engine.conformance import check_playout
from tests.toy_game import GAME


def test_toy_game_passes_the_conformance_suite() -> None:
    for seats in (2, 3, 4):
        for seed in range(3):
            check_playout(GAME, seats, seed)


def test_simultaneous_bids_stay_secret_until_all_have_bid() -> None:
    match = GAME.new(3, seed=5)
    match.apply(0, {"type": "bid", "amount": 7})
    assert match.to_act() == (1, 2)
    assert match.view(0)["my_bid"] == 7
    assert "7" not in json.dumps(match.view(1)["has_bid"]) and match.view(1)["bids"] is None
    match.apply(1, {"type": "bid", "amount": 3})
    events = match.apply(2, {"type": "bid", "amount": 9})
    assert events[-1].data == {"bids": [7, 3, 9]}
    result = match.result()
    assert result is not None and result.winners == (2,)
    assert [s.rank for s in result.seats] == [2, 3, 1]


def test_refused_action_leaves_state_untouched_and_explains_in_both_languages() -> None:
    match = GAME.new(2, {"coins": 5}, seed=1)
    before = match.to_json()
    refusals: list[tuple[dict[str, Any], str]] = [
        ({"type": "bid", "amount": 6}, "action/out_of_range"),
        ({"type": "bid", "amount": True}, "action/malformed"),
        ({"type": "bid"}, "action/malformed"),
        ({"type": "fold"}, "action/not_allowed"),
        ({"type": "bid", "amount": 10**100}, "action/out_of_range")]
    for bad, code in refusals:
        with pytest.raises(IllegalAction) as info:
            match.apply(0, bad)
        assert info.value.code == code and info.value.en and info.value.ja
    match.apply(0, {"type": "bid", "amount": 1})
    with pytest.raises(IllegalAction, match="not your turn"):
        match.apply(0, {"type": "bid", "amount": 1})
    with pytest.raises(IllegalAction, match="No such seat"):
        match.apply(9, {"type": "bid", "amount": 1})
    assert match.version == 1 and before["version"] == 0


def test_invalid_options_and_seat_counts_are_refused() -> None:
    with pytest.raises(InvalidOptions, match="coins"):
        GAME.new(2, {"coins": 0})
    with pytest.raises(InvalidOptions, match=r"(unknown|Extra)"):
        GAME.new(2, {"colour": "red"})
    with pytest.raises(InvalidOptions, match="2-4"):
        GAME.new(5)
    with pytest.raises(UnknownGame):
        games.get("chess")


def test_scripted_chance_forces_outcomes_and_rejects_impossible_ones() -> None:
    chance = Chance(1)
    chance.script("die:d6", 6, 1)
    assert [chance.randint("die:d6", 1, 6) for _ in range(2)] == [6, 1]
    chance.script("die:d6", 7)
    with pytest.raises(ValueError, match="not in"):
        chance.randint("die:d6", 1, 6)
    deck = [1, 2, 3]
    chance.script("deck", [3, 1, 2])
    chance.shuffle("deck", deck)
    assert deck == [3, 1, 2]


def test_chance_is_deterministic_and_uniform_enough() -> None:
    a, b = Chance("seed"), Chance("seed")
    draws = [a.randint("x", 1, 6) for _ in range(6000)]
    assert draws == [b.randint("x", 1, 6) for _ in range(6000)]
    counts = [draws.count(v) for v in range(1, 7)]
    assert all(850 < c < 1150 for c in counts), counts
    restored = Chance.from_json(json.loads(json.dumps(a.to_json())))
    assert [restored.below(100) for _ in range(10)] == [a.below(100) for _ in range(10)]


def test_script_hook_fixes_the_deal_made_at_set_up() -> None:
    match = GAME.new(2, seed=3, script={"deck": [[9, 4, 1, 2, 3, 5, 6, 7, 8, 10]]})
    assert match.view(0)["my_card"] == 9 and match.view(1)["my_card"] == 4
    assert GAME.new(2, seed=3) == GAME.new(2, seed=3)
    assert GAME.new(2, seed=3) != GAME.new(2, seed=4)


def test_replay_and_json_round_trip_are_exact() -> None:
    bots = [RandomBot(s, seed=s) for s in range(4)]
    match, log = play(GAME, 4, bots, seed=11)
    data = json.loads(json.dumps(log.to_json()))
    again = replay(GAME, MatchLog.from_json(data))
    assert again == match
    assert GAME.from_json(json.loads(json.dumps(match.to_json()))) == match


def test_specs_enumerate_exactly_the_legal_actions() -> None:
    s = spec("bet", amount=int_range(100, 500, 100))
    actions = enumerate_actions(s)
    assert [a["amount"] for a in actions] == [100, 200, 300, 400, 500]
    for action in actions:
        assert find_spec([s], action) is s
    with pytest.raises(IllegalAction):
        find_spec([s], {"type": "bet", "amount": 150})
    import random

    rng = random.Random(0)
    assert all(sample([s], rng)["amount"] % 100 == 0 for _ in range(50))
