"""The engine contract on a tiny test-only game (tests/toy_game.py)."""

from __future__ import annotations

import dataclasses
import json
import re
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
from partygames.engine.actions import enumerate_actions, find_spec, int_range, sample, sequence, spec
from partygames.engine.conformance import ConformanceError, check_playout, illegal_variants
from partygames.engine.match import Event
from tests.toy_game import FRUITS, GAME, ORDER_GAME, OrderMatch


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
    with pytest.raises(InvalidOptions, match=r"colour: there is no such option. The options are: coins"):
        GAME.new(2, {"colour": "red"})
    with pytest.raises(InvalidOptions, match="2-4"):
        GAME.new(5)
    with pytest.raises(UnknownGame):
        games.get("chess")


@pytest.mark.parametrize(("game_id", "options", "japanese"), [
    ("lucky-nine", {"rounds": 0}, "rounds: 4, 5, 6 のどれかにしてください"),
    ("smuggling", {"colour": "red"}, "colour: 不明な項目です"),
    ("dice-derby", {"starting_money": 100}, "starting_money: 1000 以上にしてください"),
    ("dice-derby", {"starting_money": 1050}, "starting_money: 100 の倍数にしてください"),  # the game's own check
    ("dice-derby", {"loan_amount": 1000, "loan_repay": 500}, "loan_repay は loan_amount 以上にしてください"),
    ("musical-chairs", {"island": "test", "chairs": 9}, "テスト用の島のイスは 8 脚です"),
    ("musical-chairs", {"tempo": "fast"}, "'real-time', 'rounds' のどれかにしてください"),
    ("quiz", {"custom_deck": "{"}, "カスタムデッキの JSON が不正です"),
])
def test_a_refused_option_is_explained_in_each_language(game_id: str, options: dict[str, object], japanese: str) -> None:
    """Pydantic words its problems in English only, and a game's own checks did too: the Japanese reason
    is written out in Japanese, the English one without Pydantic's "Value error," prefix."""
    with pytest.raises(InvalidOptions) as refused:
        games.get(game_id).options_class.parse(options)
    assert japanese in refused.value.ja, refused.value.ja
    assert not re.search(r"[A-Za-z]+ [a-z]+", refused.value.ja), refused.value.ja  # no English sentence left
    assert refused.value.en.startswith("Invalid options: ") and "Value error" not in refused.value.en


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


def _drawn_one_by_one(chance: Chance, items: list[int]) -> None:
    """A Fisher-Yates shuffle by `below`, the reference for `Chance.shuffle`'s written-out and NumPy paths."""
    for i in range(len(items) - 1, 0, -1):
        j = chance.below(i + 1)
        items[i], items[j] = items[j], items[i]


def _state_whose_next_draw_is(value: int) -> int:
    """The generator state whose next draw gives `value` (SplitMix64's output function inverted)."""
    mask = (1 << 64) - 1
    z = value ^ (value >> 31) ^ (value >> 62)
    z = z * pow(0x94D049BB133111EB, -1, 1 << 64) & mask
    z = z ^ (z >> 27) ^ (z >> 54)
    z = z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & mask
    s = z ^ (z >> 30) ^ (z >> 60)
    return (s - 0x9E3779B97F4A7C15) & mask


@pytest.mark.parametrize("length", [2, 23, 24, 52, 64, 100])
def test_shuffles_draw_as_below_does_one_by_one_even_where_a_draw_is_rejected(length: int) -> None:
    """Shuffles of many items draw with NumPy (`chance.VECTOR_SHUFFLE`), fewer in a loop: both give the
    order, state and draw count of `below` called item by item, from many seeds, and from a state whose
    next draw `below` rejects (the largest value: past every bound but a power of two's)."""
    seeds = [*range(200), _state_whose_next_draw_is((1 << 64) - 1), _state_whose_next_draw_is((1 << 64) - 2)]
    for seed in seeds:
        shuffled, reference = Chance(seed), Chance(seed)
        mine, theirs = list(range(length)), list(range(length))
        shuffled.shuffle("deck", mine)
        _drawn_one_by_one(reference, theirs)
        assert (mine, shuffled.state, shuffled.draws) == (theirs, reference.state, reference.draws)
    rejected = Chance(_state_whose_next_draw_is((1 << 64) - 1))
    _drawn_one_by_one(rejected, list(range(3)))
    assert rejected.draws == 3  # the first draw was rejected and drawn again


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


def test_seat_kinds_are_part_of_the_match_and_its_log() -> None:
    # Rules like "when all human seats agree" read `humans`; a replay and a stored state keep them.
    match, log = play(GAME, 3, [RandomBot(s, seed=s) for s in range(3)], seed=2)
    assert match.bot_seats == (0, 1, 2) and match.humans == ()
    assert MatchLog.from_json(json.loads(json.dumps(log.to_json()))).bots == [0, 1, 2]
    assert replay(GAME, MatchLog.from_json(log.to_json())).bot_seats == (0, 1, 2)
    mixed = GAME.new(3, seed=2, bots=[2, 0])
    assert mixed.bot_seats == (0, 2) and mixed.humans == (1,)
    assert GAME.from_json(json.loads(json.dumps(mixed.to_json()))).humans == (1,)
    assert GAME.new(3, seed=2).humans == (0, 1, 2)  # no bots given: all people
    for bad in ([3], [-1], ["1"]):  # "1": a string from JSON is refused too
        with pytest.raises(InvalidOptions):
            GAME.new(3, seed=2, bots=bad)  # type: ignore[arg-type]


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


# -- sequence parameters: an ordered list of distinct choices ------------------------------------------
RANK = spec("rank", order=sequence([0, 1, 2, 3], min_len=2, max_len=3))


def _refusal(action: dict[str, Any]) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        find_spec([RANK], action)
    assert info.value.en and info.value.ja and info.value.en != info.value.ja
    return info.value


def test_a_sequence_is_described_to_clients_as_json() -> None:
    match = ORDER_GAME.new(2, {"picks": 2}, seed=1)
    assert match.legal_actions(0) == [
        {"type": "guess", "params": {"order": {"sequence": FRUITS, "min_len": 1, "max_len": 2}}}]
    assert json.loads(json.dumps(match.view(0)))["legal_actions"] == match.legal_actions(0)
    assert sequence(["a", "b"]) == {"sequence": ["a", "b"], "min_len": 1, "max_len": 2}


def test_every_order_and_length_of_a_sequence_is_legal_and_nothing_else() -> None:
    actions = enumerate_actions(RANK)
    assert len(actions) == 4 * 3 + 4 * 3 * 2  # the ordered pairs and triples of 4 distinct values
    assert {"type": "rank", "order": [3, 0]} in actions and {"type": "rank", "order": [2, 1, 0]} in actions
    for action in actions:
        assert find_spec([RANK], action) is RANK
    assert len({json.dumps(a) for a in actions}) == len(actions)
    with pytest.raises(ValueError, match="more than 20"):
        enumerate_actions(RANK, limit=20)


def test_a_wrong_sequence_is_refused_with_the_reason_in_both_languages() -> None:
    for value in ("2 0 3", 2, (2, 0), None, {"0": 2}):
        error = _refusal({"type": "rank", "order": value})
        assert error.code == "action/malformed" and "list of choices" in error.en and "リスト" in error.ja
    short = _refusal({"type": "rank", "order": [1]})
    assert short.code == "action/out_of_range"
    assert "2 to 3 choices (this one lists 1)" in short.en and "2〜3 個" in short.ja
    long = _refusal({"type": "rank", "order": [0, 1, 2, 3]})
    assert "this one lists 4" in long.en and "指定は 4 個" in long.ja
    repeated = _refusal({"type": "rank", "order": [2, 0, 2]})
    assert "lists 2 twice" in repeated.en and "2 回" in repeated.ja
    foreign = _refusal({"type": "rank", "order": [2, 7]})
    assert "Item 2 of 'order' (7) is not one of [0, 1, 2, 3]" in foreign.en and "2 番目" in foreign.ja
    # A value that only compares equal to a choice is not one: JSON true, 1.0 and "1" are not 1.
    for twin in (True, 1.0, "1", [1], None):
        assert _refusal({"type": "rank", "order": [0, twin]}).code == "action/out_of_range"


def test_a_huge_or_odd_sequence_is_refused_at_once_with_a_short_message() -> None:
    # The length is judged before any item is looked at: a million foreign items are refused for their
    # number, not item by item (no work grows with what a client sends).
    error = _refusal({"type": "rank", "order": [object()] * 1_000_000})
    assert "this one lists 1000000" in error.en and "Item" not in error.en
    assert len(_refusal({"type": "rank", "order": [0, "x" * 10_000]}).en) < 120
    assert "…" in _refusal({"type": "rank", "order": [0, 10**5000]}).en  # not even printable in full


def test_a_sequence_must_be_declared_with_sensible_values_and_lengths() -> None:
    # No values, repeated values, values of other types than whole numbers and strings, impossible lengths.
    cases: list[tuple[list[Any], int, int | None]] = [
        ([], 1, None), ([1, 1, 2], 1, None), ([True, False], 1, None), ([1.5, 2], 1, None), ([[1], [2]], 1, None),
        ([1, 2], 3, None), ([1, 2], 1, 3), ([1, 2], 2, 1), ([1, 2], -1, None), ([1, 2], 0, 0),
        (list(range(20)), 1, None)]  # longer than the server's frames carry (16)
    for values, low, high in cases:
        with pytest.raises(ValueError):
            sequence(values, low, high)
    assert sequence(list(range(20)), 0, 16)["max_len"] == 16


def test_sampling_a_sequence_draws_every_legal_list_equally_often() -> None:
    import random

    param = spec("rank", order=sequence(["a", "b", "c"], min_len=0, max_len=2))
    rng = random.Random(7)
    counts: dict[str, int] = {}
    for _ in range(20_000):
        action = sample([param], rng)
        find_spec([param], action)
        counts[json.dumps(action["order"])] = counts.get(json.dumps(action["order"]), 0) + 1
    # 1 empty list, 3 of one value, 6 ordered pairs: each about 2,000 times (standard deviation 42).
    assert len(counts) == 10
    assert all(1_800 < n < 2_200 for n in counts.values()), counts


def test_the_order_toy_passes_the_conformance_suite() -> None:
    for seats in (1, 2, 3):
        for picks in (1, 3, 5):
            for seed in range(2):
                match = check_playout(ORDER_GAME, seats, seed, {"picks": picks})
                assert match.result() is not None


def test_the_conformance_suite_proposes_every_kind_of_wrong_sequence() -> None:
    import random

    specs = ORDER_GAME.new(2, {"picks": 3}, seed=0).legal_actions(0)
    bad = [a["order"] for a in illegal_variants(specs, random.Random(3)) if isinstance(a, dict) and "order" in a]
    assert any(not isinstance(v, list) for v in bad)  # another type
    assert [] in bad  # too short
    assert any(isinstance(v, list) and len(v) == 4 for v in bad)  # too long
    assert any(isinstance(v, list) and len(v) >= 10_000 for v in bad)  # huge
    lists = [v for v in bad if isinstance(v, list) and 1 < len(v) <= 3]
    assert any(len(set(map(json.dumps, v))) < len(v) for v in lists)  # a repeated fruit
    assert any(isinstance(x, str) and x not in FRUITS for v in bad if isinstance(v, list) for x in v)  # a stranger


class PickyOrderMatch(OrderMatch):
    """Breaks the "every combination is legal" rule: it lists every order but refuses those that do not
    start with the apple."""

    def _apply(self, seat: int, action: dict[str, Any]) -> list[Event]:
        if action["order"][0] != "apple":
            raise IllegalAction("Apples first.", "りんごが先です。")
        return super()._apply(seat, action)


def test_the_conformance_suite_catches_a_game_refusing_an_order_it_lists() -> None:
    picky = dataclasses.replace(ORDER_GAME, match_class=PickyOrderMatch)
    with pytest.raises(ConformanceError, match="was refused: Apples first"):
        check_playout(picky, 2, 0)


def test_a_guessed_order_stays_secret_until_all_have_guessed_and_scores_by_place() -> None:
    match = ORDER_GAME.new(2, seed=5, script={"ranking": [["kiwi", "apple", "peach", "lemon", "mango"]]})
    match.apply(0, {"type": "guess", "order": ["kiwi", "peach", "apple"]})
    assert match.view(0)["my_guess"] == ["kiwi", "peach", "apple"] and match.view(1)["guesses"] is None
    match.apply(1, {"type": "guess", "order": ["kiwi", "apple"]})
    assert match.view(1)["guesses"] == [["kiwi", "peach", "apple"], ["kiwi", "apple"]]
    result = match.result()
    assert result is not None and [s.score for s in result.seats] == [1.0, 2.0] and result.winners == (1,)
