"""Analyses of It's a QUIZ?: how memory wins (bots of different recall in one table) and the exact
price and worth of a peek for k peekers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

from partygames.analysis.stats import mean_interval, wilson_interval
from partygames.engine.session import play
from partygames.games.quiz.bots import MemoryBot, recall_bot
from partygames.games.quiz.decks import QUESTIONS
from partygames.games.quiz.rules import QuizMatch
from partygames.games.quiz.scoring import FIELD_SCORE, ROUNDS

RECALLS = (0.1, 0.3, 0.5, 0.7, 0.9)


@cache
def _bot_kind(recall: float) -> type[MemoryBot]:
    return recall_bot(recall)


@dataclass(frozen=True)
class RecallRow:
    """How seats recalling each card with probability `recall` fared."""

    recall: float
    seats: int
    wins: int
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats


def win_rates(recalls: tuple[float, ...] = RECALLS, games: int = 500, seats: int = 4, seed: int = 0,
              progress: Callable[[], None] | None = None) -> list[RecallRow]:
    """Plays `games` seeded matches; in match i, seat s recalls with recalls[(i + s) % len(recalls)], so
    every recall sits at every seat and meets every other. Score = score markers held at the end.
    `progress` is called after each match."""
    from partygames.games.quiz import GAME

    wins = dict.fromkeys(recalls, 0)
    scores: dict[float, list[float]] = {r: [] for r in recalls}
    for i in range(games):
        kinds = [recalls[(i + s) % len(recalls)] for s in range(seats)]
        bots = [_bot_kind(r)(s, seed=(seed + i) * 1000 + s) for s, r in enumerate(kinds)]
        match, _ = play(GAME, seats, bots, None, seed + i)
        assert isinstance(match, QuizMatch)
        result = match.result()
        assert result is not None
        for s, recall in enumerate(kinds):
            wins[recall] += result.seats[s].is_winner
            scores[recall].append(float(match.held[s]["score"]))
        if progress is not None:
            progress()
    rows = []
    for recall in recalls:
        n = len(scores[recall])
        lo, hi = wilson_interval(wins[recall], n)
        mean, s_lo, s_hi = mean_interval(scores[recall])
        rows.append(RecallRow(recall, n, wins[recall], lo, hi, mean, s_lo, s_hi))
    return rows


@dataclass(frozen=True)
class PeekWorth:
    """A peek at an answer card of another row during question `question`, with `peekers` peekers.

    `cost`: markers paid per card (points lost if paid in score markers; none if in secret money).
    `later`: probability that the card's row is asked at a later question; `final`: that it is
    question 8's row (where one more word can win the 1億万 prize); `markers`: the most score markers
    that one more word can win on average, `FIELD_SCORE` x `later` (the field a sole winner takes,
    when every question has a winner). Cards never leave a row that is not asked, so what a peek
    shows stays true until the row is asked. Selection is taken as uniform over the remaining white
    cards (nobody places markers)."""

    question: int
    peekers: int
    cost: int
    later: Fraction
    final: Fraction
    markers: Fraction

    @property
    def pays_in_score_markers(self) -> bool:
        return self.markers >= self.cost


def peek_worth(max_peekers: int = 5) -> list[PeekWorth]:
    """The exact table for questions 1-7 (a peek at question 8 is worthless: the game ends)."""
    rows = []
    for question in range(1, ROUNDS):
        remaining = QUESTIONS - question  # rows left once this question's row leaves
        later = Fraction(ROUNDS - question, remaining)
        final = Fraction(1, remaining)
        for k in range(1, max_peekers + 1):
            rows.append(PeekWorth(question, k, k, later, final, FIELD_SCORE * later))
    return rows


def plot(rows: list[RecallRow], path: Path) -> Path:
    """Saves a PNG of the win rate (with its 95% interval) against the recall probability."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axis = plt.subplots(figsize=(7, 4.5))
    x = [r.recall for r in rows]
    y = [r.win_rate for r in rows]
    errors = [[max(0.0, r.win_rate - r.win_low) for r in rows], [max(0.0, r.win_high - r.win_rate) for r in rows]]
    axis.errorbar(x, y, yerr=errors, marker="o", capsize=4, color="tab:blue")
    axis.set_xlabel("probability of recalling a card")
    axis.set_ylabel("win rate per seat")
    axis.set_title("It's a QUIZ?: memory against memory (bots in one table)")
    axis.set_ylim(0, 1)
    axis.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
