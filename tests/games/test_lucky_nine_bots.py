"""The heuristic bot against the random bot over 1,000 seeded four-player games (figures printed).

Only the most diamonds win, so the heuristic stays in while it does not lead: it wins far more often than
random play, and pays the house more for it (its net diamonds are below random play's, which drops out
as often as it stays)."""

from __future__ import annotations

from collections.abc import Callable

from partygames.analysis.stats import mean_interval, wilson_interval
from partygames.analysis.tournament import play_series
from partygames.games import get

GAME = get("lucky-nine")


def test_heuristic_bot_clearly_beats_the_random_bot_over_1000_games(report_figures: Callable[[str], None]) -> None:
    nets: dict[str, list[float]] = {"heuristic": [], "random": []}
    wins = {"heuristic": 0, "random": 0}
    games = 1000
    # Two of each, alternating seats so that neither kind always presses first.
    for played in play_series(GAME, games, 4, ["heuristic", "random"]):
        for seat in played.result.seats:
            kind = played.kinds[seat.seat]
            nets[kind].append(seat.holdings["net"])
            wins[kind] += seat.is_winner
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
    assert h_win[0] > 4 * r_win[1], figures
    assert h_lo > -8, figures  # staying in costs a few diamonds per seat, not a ruin
