"""The heuristic bot against the random bot over 1,000 seeded four-player games (figures printed)."""

from __future__ import annotations

from collections.abc import Callable

from partygames.analysis.stats import mean_interval, wilson_interval
from partygames.engine import RandomBot, play
from partygames.games import get
from partygames.games.lucky_nine.bots import HeuristicBot

GAME = get("lucky-nine")


def test_heuristic_bot_clearly_beats_the_random_bot_over_1000_games(report_figures: Callable[[str], None]) -> None:
    nets: dict[str, list[float]] = {"heuristic": [], "random": []}
    wins = {"heuristic": 0, "random": 0}
    games = 1000
    for i in range(games):
        # Two of each, alternating seats so that neither kind always presses first.
        kinds = ["heuristic" if (s + i) % 2 == 0 else "random" for s in range(4)]
        bots = [HeuristicBot(s, i) if k == "heuristic" else RandomBot(s, i) for s, k in enumerate(kinds)]
        match, _ = play(GAME, 4, bots, seed=i)
        result = match.result()
        assert result is not None
        for s, kind in enumerate(kinds):
            nets[kind].append(result.seats[s].holdings["net"])
            wins[kind] += result.seats[s].is_winner
    seats_per_kind = 2 * games
    h_mean, h_lo, h_hi = mean_interval(nets["heuristic"])
    r_mean, r_lo, r_hi = mean_interval(nets["random"])
    h_win = wilson_interval(wins["heuristic"], seats_per_kind)
    r_win = wilson_interval(wins["random"], seats_per_kind)
    figures = (f"net diamonds per seat: heuristic {h_mean:+.2f} [{h_lo:+.2f}, {h_hi:+.2f}], "
               f"random {r_mean:+.2f} [{r_lo:+.2f}, {r_hi:+.2f}]; win rate per seat: "
               f"heuristic {wins['heuristic'] / seats_per_kind:.3f} [{h_win[0]:.3f}, {h_win[1]:.3f}], "
               f"random {wins['random'] / seats_per_kind:.3f} [{r_win[0]:.3f}, {r_win[1]:.3f}]")
    report_figures(figures)
    assert h_win[0] > r_win[1], figures
    assert h_lo > r_hi, figures
