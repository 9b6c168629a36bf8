"""Bots with memory over 1,000 seeded four-player games each (figures printed): the human-like
heuristic bot against the random bot, and perfect recall against the human-like memory."""

from __future__ import annotations

from collections.abc import Callable

from partygames.analysis.stats import mean_interval, wilson_interval
from partygames.analysis.tournament import play_series
from partygames.engine import Event
from partygames.games import get
from partygames.games.quiz.bots import HeuristicBot
from partygames.games.quiz.memory import HUMAN, PERFECT, Memory

GAME = get("quiz")


def _series(kinds: list[str], games: int = 1000) -> tuple[dict[str, list[float]], dict[str, int], int]:
    scores: dict[str, list[float]] = {k: [] for k in kinds}
    wins = dict.fromkeys(kinds, 0)
    for played in play_series(GAME, games, 4, kinds):
        for seat in played.result.seats:
            kind = played.kinds[seat.seat]
            scores[kind].append(seat.holdings["score"])
            wins[kind] += seat.is_winner
    return scores, wins, 2 * games


def _compare(better: str, worse: str, report: Callable[[str], None]) -> None:
    scores, wins, seats = _series([better, worse])
    b_mean, b_lo, b_hi = mean_interval(scores[better])
    w_mean, w_lo, w_hi = mean_interval(scores[worse])
    b_win, w_win = wilson_interval(wins[better], seats), wilson_interval(wins[worse], seats)
    figures = (f"score markers per seat: {better} {b_mean:.2f} [{b_lo:.2f}, {b_hi:.2f}], "
               f"{worse} {w_mean:.2f} [{w_lo:.2f}, {w_hi:.2f}]; win rate per seat: "
               f"{better} {wins[better] / seats:.3f} [{b_win[0]:.3f}, {b_win[1]:.3f}], "
               f"{worse} {wins[worse] / seats:.3f} [{w_win[0]:.3f}, {w_win[1]:.3f}]")
    report(figures)
    assert b_win[0] > w_win[1], figures
    assert b_lo > w_hi, figures


def test_heuristic_bot_clearly_beats_the_random_bot_over_1000_games(report_figures: Callable[[str], None]) -> None:
    _compare("heuristic", "random", report_figures)


def test_perfect_recall_beats_human_like_memory_over_1000_games(report_figures: Callable[[str], None]) -> None:
    _compare("perfect", "heuristic", report_figures)


def test_recall_falls_with_the_cards_seen_at_once_with_time_and_with_cards_seen_since() -> None:
    assert HUMAN.recall(1, 0, 0) == 0.95
    assert abs(HUMAN.recall(40, 0, 0) - 0.95 * 12 / 40) < 1e-12
    assert abs(HUMAN.recall(1, 600_000, 0) - 0.475) < 1e-12  # one half-life
    assert HUMAN.recall(1, 0, 10) < HUMAN.recall(1, 0, 0)
    assert PERFECT.recall(40, 10**9, 10**6) == 1.0


def test_a_bot_learns_a_card_only_from_an_event_addressed_to_it_and_follows_moved_white_cards() -> None:
    bot = HeuristicBot(0, seed=1)
    bot.memory = Memory(PERFECT, bot.rng)
    bot.observe(Event("card_seen", {"card": "w3", "question": 7, "by": 0, "until": 10_000}, to=(0,)))
    bot.observe(Event("white_moved", {"from": 3, "to": 12}))
    assert bot.memory.recall("w12", 0) == 7 and bot.memory.recall("w3", 0) is None
    bot.observe(Event("white_swapped", {"cards": [12, 5]}))
    assert bot.memory.recall("w5", 0) == 7
    bot.observe(Event("looked", {"seat": 1, "card": "a2.0", "paid": {"score": 1, "money": 0}, "until": 1}))
    assert bot.memory.recall("a2.0", 0) is None  # another seat's look says nothing of the card
