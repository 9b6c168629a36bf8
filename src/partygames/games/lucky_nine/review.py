"""How a review judges Lucky Nine (`analysis/review.py`, docs/review.md): by money, the expected final
diamonds (the result's score), as the exact turn analysis (`analysis.py`) values a turn; marks by
diamonds lost against the best candidate (64 at the start by default); and the check of a review against that exact analysis."""

from __future__ import annotations

import math
from dataclasses import dataclass

from partygames.analysis.review import Review, Thresholds, Z
from partygames.engine.game import Game
from partygames.engine.log import MatchLog
from partygames.engine.session import Session
from partygames.games.lucky_nine.bots import continue_value

THRESHOLDS = Thresholds(inaccuracy=2.0, mistake=5.0, blunder=10.0, measure="score")


@dataclass(frozen=True)
class ExactCheck:
    """One continue/pass decision of a review beside the exact turn analysis: the exact gain of
    continuing over passing (`continue_value`), the review's best move, its estimate of the same difference
    with its 95% half-width, and whether their best moves agree (an exact tie agrees with either)."""

    step: int
    exact_gain: float
    review_best: str
    review_gain: float
    half_width: float

    @property
    def agrees(self) -> bool:
        return self.exact_gain == 0 or (self.exact_gain > 0) == (self.review_best == "continue")

    @property
    def within_noise(self) -> bool:
        """A disagreement where the exact values differ by less than the review's interval."""
        return abs(self.exact_gain) < self.half_width


def exact_checks(game: Game, log: MatchLog, review: Review) -> list[ExactCheck]:
    """The review's continue/pass decisions checked against the exact optimal stop rule."""
    steps = {d.step: d for d in review.decisions}
    session = Session(game, game.new(log.seats, log.options, log.seed, bots=log.bots))
    checks = []
    for step, entry in enumerate(log.entries):
        decision = steps.get(step)
        if decision is not None:
            types = [c.action["type"] for c in decision.candidates]
            if "continue" in types and "pass" in types:
                going = decision.candidates[types.index("continue")].values
                stopping = decision.candidates[types.index("pass")].values
                gains = [a - b for a, b in zip(going, stopping, strict=True)]
                mean = sum(gains) / len(gains)
                error = math.sqrt(sum((g - mean) ** 2 for g in gains) / (len(gains) - 1) / len(gains))
                checks.append(ExactCheck(step, continue_value(session.match.view(review.seat)),
                                          types[decision.best], mean, Z * error))
        session.replay_entry(entry)
    return checks
