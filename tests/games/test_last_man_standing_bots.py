"""The heuristic bot against random bots over 1,000 seeded games (figures printed; run with -s)."""

from __future__ import annotations

from collections.abc import Callable

from partygames.engine import Bot, RandomBot, play
from partygames.games.last_man_standing import GAME
from partygames.games.last_man_standing.bots import HeuristicBot

GAMES = 1_000
SEATS = 4


def test_heuristic_bot_clearly_beats_random_bots(report_figures: Callable[[str], None]) -> None:
    win_share = 0.0
    heuristic_chips = random_chips = 0.0
    for game in range(GAMES):
        hero = game % SEATS  # the heuristic bot sits in every seat in turn
        bots: list[Bot] = [HeuristicBot(s, seed=game * 10 + s) if s == hero else RandomBot(s, seed=game * 10 + s)
                           for s in range(SEATS)]
        match, _ = play(GAME, SEATS, bots, seed=game)
        result = match.result()
        assert result is not None
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
