"""Determinisation, on every game that declares one: at a spread of steps of the conformance suite's
seeded random matches, every seat's samples give it exactly the view it had, play its own next
actions as the real match did, play on to the end, and do not depend on anyone else's secrets
(`engine/determinisation.py` says what is checked)."""

from __future__ import annotations

import pytest

from partygames import games
from partygames.engine.determinisation import check_determinisation


def _cases() -> list[tuple[str, int, dict[str, object]]]:
    cases: list[tuple[str, int, dict[str, object]]] = []
    for game in games.all_games():
        if game.determiniser is None:
            continue
        conf = game.samples.conformance
        counts = conf.seat_counts(game.seat_counts)
        for options in conf.option_sets():
            cases.extend((game.id, seats, options) for seats in sorted({counts[0], counts[-1]}))
    return cases


@pytest.mark.parametrize(("game_id", "seats", "options"), _cases())
def test_samples_agree_with_what_the_seat_was_told(game_id: str, seats: int, options: dict[str, object]) -> None:
    game = games.get(game_id)
    report = check_determinisation(game, seats, 0, options or None)
    assert report.checkpoints > 0 and report.samples >= report.checkpoints * min(seats, 4)
    assert report.replayed > 0  # the seats' own future actions were played in samples


def test_every_game_declares_a_determiniser() -> None:
    assert [game.id for game in games.all_games() if game.determiniser is None] == []
