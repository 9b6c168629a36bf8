"""The heuristic bot against the random bot over 1,000 seeded six-player games (figures printed).

Final money has a very heavy tail (a random 9,000 stake on an 80x quinella), so the mean money of the
random seats swings wildly; the test compares win rates and mean ranks, and prints money figures."""

from __future__ import annotations

import statistics
from collections.abc import Callable

from partygames.analysis.stats import mean_interval, wilson_interval
from partygames.analysis.tournament import play_series
from partygames.engine import play
from partygames.games import get
from partygames.games.dice_derby.bots import HeuristicBot
from partygames.games.dice_derby.rules import DiceDerbyMatch

GAME = get("dice-derby")


def test_heuristic_bot_clearly_beats_the_random_bot_over_1000_games(report_figures: Callable[[str], None]) -> None:
    money: dict[str, list[float]] = {"heuristic": [], "random": []}
    ranks: dict[str, list[float]] = {"heuristic": [], "random": []}
    wins = {"heuristic": 0, "random": 0}
    games = 1000
    # Three of each, alternating seats.
    for played in play_series(GAME, games, 6, ["heuristic", "random"]):
        for seat in played.result.seats:
            kind = played.kinds[seat.seat]
            money[kind].append(seat.score)
            ranks[kind].append(seat.rank)
            wins[kind] += seat.is_winner
    seats_per_kind = 3 * games
    h_rank, h_lo, h_hi = mean_interval(ranks["heuristic"])
    r_rank, r_lo, r_hi = mean_interval(ranks["random"])
    h_win = wilson_interval(wins["heuristic"], seats_per_kind)
    r_win = wilson_interval(wins["random"], seats_per_kind)
    figures = (f"win rate per seat: heuristic {wins['heuristic'] / seats_per_kind:.3f} "
               f"[{h_win[0]:.3f}, {h_win[1]:.3f}], random {wins['random'] / seats_per_kind:.3f} "
               f"[{r_win[0]:.3f}, {r_win[1]:.3f}]; mean rank (1 best of 6): heuristic {h_rank:.2f} "
               f"[{h_lo:.2f}, {h_hi:.2f}], random {r_rank:.2f} [{r_lo:.2f}, {r_hi:.2f}]; final money: heuristic "
               f"mean {statistics.mean(money['heuristic']):,.0f} median {statistics.median(money['heuristic']):,.0f}, "
               f"random mean {statistics.mean(money['random']):,.0f} median {statistics.median(money['random']):,.0f}")
    report_figures(figures)
    assert h_win[0] > r_win[1], figures
    assert h_hi < r_lo, figures


def test_heuristic_bot_plays_every_option_legally_and_takes_an_edge_when_the_odds_give_one(report_figures: Callable[[str], None]) -> None:
    # A payout rate of 1.25 makes every ticket worth more than its stake: the heuristic bot now bets.
    options = {"payout_rate": 1.25, "loser_boost": True, "fall_rule": True, "fall_probability": 0.1,
               "loans": True, "races": 6}
    net = []
    for i in range(100):
        bots = [HeuristicBot(s, i) for s in range(6)]
        match, log = play(GAME, 6, bots, options, seed=i)
        assert isinstance(match, DiceDerbyMatch) and match.is_over
        assert any(a["type"].startswith("bet_") for _, a in log.actions)
        net.append(sum(match.money) / 6 - 10_000)
    mean = statistics.mean(net)
    report_figures(f"six heuristic bots at payout rate 1.25: mean net {mean:+,.0f} per seat over 100 games")
    assert mean > 0, mean
