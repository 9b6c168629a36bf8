"""The heuristic bot against random bots over 1,000 seeded games (figures printed; run with -s)."""

from __future__ import annotations

from collections.abc import Callable

from partygames.analysis.tournament import play_series
from partygames.games.last_man_standing import GAME

GAMES = 1_000
SEATS = 4


def test_heuristic_bot_clearly_beats_random_bots(report_figures: Callable[[str], None]) -> None:
    win_share = 0.0
    heuristic_chips = random_chips = 0.0
    # The heuristic bot sits in every seat in turn.
    for played in play_series(GAME, GAMES, SEATS, ["heuristic", "random", "random", "random"]):
        hero, result = played.kinds.index("heuristic"), played.result
        if hero in result.winners:
            win_share += 1 / len(result.winners)
        chips = [s.holdings["chips"] for s in result.seats]
        heuristic_chips += chips[hero]
        random_chips += (sum(chips) - chips[hero]) / (SEATS - 1)
    figures = (f"heuristic vs 3 random, {GAMES} games: win share {win_share / GAMES:.3f} (fair share 0.250), "
               f"mean chips heuristic {heuristic_chips / GAMES:.2f} vs random {random_chips / GAMES:.2f}")
    report_figures(figures)
    assert win_share / GAMES > 0.40, figures
    assert heuristic_chips - random_chips > 10 * GAMES, figures
