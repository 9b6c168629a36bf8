"""`Match.clone()` without JSON: a deep copy equal to the match, independent of it, for every game; and the
conformance suite holding a game to its `CLONE_SHAPES`."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from partygames import games
from partygames.engine.actions import sample
from partygames.engine.conformance import ConformanceError, check_playout
from partygames.engine.copying import Shape, copy_json, copy_rows, has_shape
from partygames.engine.match import Match
from partygames.engine.samples import Setup
from tests.toy_game import GAME, ToyMatch

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=30)


def _containers(value: Any) -> list[Any]:
    found = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list | dict):
            found.append(item)
            stack.extend(item if isinstance(item, list) else item.values())
    return found


@given(st.lists(json_values, max_size=4) | st.dictionaries(st.text(max_size=3), json_values, max_size=4))
def test_copy_json_is_an_equal_copy_sharing_no_list_or_dict(value: Any) -> None:
    copy = copy_json(value)
    assert json.dumps(copy) == json.dumps(value)
    originals = {id(c) for c in _containers(value)}
    assert not originals & {id(c) for c in _containers(copy)}


def test_copy_rows_copies_two_levels_and_shapes_are_told_apart() -> None:
    rows = [[1, 2], {"a": None}, 3]
    copy = copy_rows(rows)
    copy[0].append(9)
    copy[1]["b"] = 1
    assert rows == [[1, 2], {"a": None}, 3]
    assert has_shape([1, "a", None, 2.5, True], Shape.FLAT) and not has_shape([[1]], Shape.FLAT)
    assert has_shape(rows, Shape.ROWS) and not has_shape([[[1]]], Shape.ROWS)


def _mid_game(game_id: str, seed: int) -> tuple[Match, random.Random, bool]:
    """A benchmark table's match played at random to about its middle."""
    game = games.get(game_id)
    setup = game.samples.benchmark or Setup(min(game.seat_counts_for(None)))
    match = game.new(setup.seats, dict(setup.options) or None, seed=seed)
    rng = random.Random(seed)
    real_time = game.dynamics.value == "real_time"
    for _ in range(150):
        _step(match, rng, real_time)
    return match, rng, real_time


def _step(match: Match, rng: random.Random, real_time: bool) -> None:
    if match.is_over:
        return
    awaited = match.to_act()
    due = match.wake_at()
    if due is not None and (not awaited or (real_time and rng.random() < 0.1)):
        match.advance(due if not awaited else min(due, match.now + 1000))
    else:
        seat = awaited[rng.randrange(len(awaited))]
        match.apply(seat, sample(match.legal_actions(seat), rng), match.now)


@pytest.mark.parametrize("game_id", games.ids())
def test_a_clone_is_equal_and_plays_on_alone_exactly_as_the_match_would(game_id: str) -> None:
    match, _, real_time = _mid_game(game_id, seed=3)
    before = json.dumps(match.to_json(), sort_keys=True)
    clone = match.clone()
    assert clone == match and type(clone) is type(match)
    assert games.get(game_id).from_json(json.loads(json.dumps(clone.to_json()))) == match
    # The clone played to the end with one random source leaves the match as it was ...
    for _ in range(400):
        _step(clone, random.Random(len(clone.to_act()) + clone.version), real_time)
    assert json.dumps(match.to_json(), sort_keys=True) == before
    # ... and the match, played on with the same source, ends exactly as the clone did.
    for _ in range(400):
        _step(match, random.Random(len(match.to_act()) + match.version), real_time)
    assert match == clone and match.version == clone.version


class SharedBidsMatch(ToyMatch):
    """Declares its bids shared by clones, though every bid changes them in place."""

    CLONE_SHAPES: ClassVar[dict[str, Shape]] = {"bids": Shape.SHARED}


class FlatCardsMatch(ToyMatch):
    """Declares its cards flat, then keeps a list in them."""

    CLONE_SHAPES: ClassVar[dict[str, Shape]] = {"cards": Shape.FLAT}

    def _setup(self) -> None:
        super()._setup()
        self.cards: list[Any] = [[card] for card in self.cards]


@pytest.mark.parametrize(("match_class", "message"), [
    (SharedBidsMatch, "steps played on a clone changed the match"),
    (FlatCardsMatch, "cards is flat, but it is"),
])
def test_the_conformance_suite_holds_a_game_to_its_clone_shapes(match_class: type[Match], message: str) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_playout(dataclasses.replace(GAME, match_class=match_class), 3, 0)
