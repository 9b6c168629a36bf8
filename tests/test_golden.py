"""Each game's committed golden playthrough must regenerate byte for byte.

A failure here means the rules or views changed: review the diff, then accept it with
`python -m partygames.engine.golden --update`.
"""

from __future__ import annotations

from typing import Any

import pytest

from partygames.engine.game import Game
from partygames.engine.golden import golden_cases, path_for, playthrough


@pytest.mark.parametrize("case", golden_cases(), ids=lambda c: c[0].id)
def test_golden_playthrough_is_unchanged(case: tuple[Game, int, int, dict[str, Any]]) -> None:
    game, seats, seed, options = case
    path = path_for(game)
    assert path.exists(), f"no golden file for {game.id}: run python -m partygames.engine.golden --update"
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = playthrough(game, seats, seed, options).splitlines()
    for i, (want, got) in enumerate(zip(expected, actual, strict=False)):
        assert got == want, f"{game.id} golden differs at line {i + 1}"
    assert len(actual) == len(expected)
