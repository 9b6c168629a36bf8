"""How a review judges Dice Derby (`analysis/review.py`, docs/review.md): by money, the expected final money
(the result's score, by which seats are ranked), in which the exact odds tables value a ticket; marks by
yen lost against the best candidate (2.5%, 5% and 10% of the default starting money); and the check of a
review's betting decisions against the exact race probabilities (`analysis.py`, `partygames odds
dice-derby`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from partygames.analysis.review import Decision, Review, Thresholds, Z
from partygames.engine.actions import Action
from partygames.engine.game import Game
from partygames.engine.log import MatchLog
from partygames.engine.session import Session
from partygames.games.dice_derby import analysis
from partygames.games.dice_derby.horses import payout

THRESHOLDS = Thresholds(inaccuracy=250.0, mistake=500.0, blunder=1000.0, measure="score")


def ticket_value(kind: str, pick: str, stake: int, view: dict[str, Any]) -> Fraction:
    """A ticket's exact expected gain (what it pays back times the chance it pays, minus the stake) at the
    odds the view shows ('win' on a gate, 'quinella' on a pair)."""
    rules = view["rules"]
    fall = Fraction(0) if rules["fall_probability"] is None else analysis.as_fraction(rules["fall_probability"])
    if kind == "win":
        chance = analysis.win_probabilities(fall)[int(pick)]
        odds = round(view["horses"][int(pick) - 1]["win_odds"] * 10)
    else:
        chance = analysis.quinella_probabilities(fall)[pick]
        odds = round(view["quinella_odds"][pick] * 10)
    return chance * payout(stake, odds) - stake


def exact_gain(action: Action, view: dict[str, Any]) -> Fraction:
    """What a betting action adds to the seat's expected money at the race, exactly: a ticket its value,
    `done` nothing, a cancel minus the cancelled ticket's value, a loan the amount minus the repayment."""
    kind = action["type"]
    if kind == "bet_win":
        return ticket_value("win", str(action["horse"]), action["amount"], view)
    if kind == "bet_quinella":
        return ticket_value("quinella", action["pair"], action["amount"], view)
    if kind == "cancel":
        what, pick = action["ticket"].split(":", 1)
        stake = next(t["stake"] for t in view["me"]["tickets"] if t["kind"] == what and t["pick"] == pick)
        return -ticket_value(what, pick, stake, view)
    if kind == "borrow":
        amount, repay = view["rules"]["loan"]
        return Fraction(amount - repay)
    return Fraction(0)  # done


@dataclass(frozen=True)
class OddsCheck:
    """A reviewed betting decision beside the exact odds: each candidate's exact expected gain and the
    review's mean final money, the review's best and the exact best, and the 95% half-width of the review's
    paired estimate of (exact best − review best)."""

    step: int
    race: int
    last: bool  # the last race, where the heuristic may bet to catch the leader
    actions: tuple[Action, ...]
    exact: tuple[Fraction, ...]
    review: tuple[float, ...]
    best: int
    half_width: float

    @property
    def exact_best(self) -> int:
        return max(range(len(self.exact)), key=lambda i: (self.exact[i], i == self.best))

    @property
    def agrees(self) -> bool:
        """The review's best has the highest exact gain (an exact tie agrees with either)."""
        return self.exact[self.best] == self.exact[self.exact_best]

    @property
    def gap(self) -> float:
        """How much the exact best gains over the review's best, in yen."""
        return float(self.exact[self.exact_best] - self.exact[self.best])

    @property
    def within_noise(self) -> bool:
        """A disagreement where the exact values differ by less than the review's interval."""
        return self.gap < self.half_width


def _half_width(decision: Decision, i: int, j: int) -> float:
    gains = [a - b for a, b in zip(decision.candidates[i].values, decision.candidates[j].values, strict=True)]
    n = len(gains)
    mean = sum(gains) / n
    return Z * math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1) / n) if n > 1 else math.inf


BETTING = frozenset({"bet_win", "bet_quinella", "cancel", "borrow", "done"})


def odds_checks(game: Game, log: MatchLog, review: Review) -> list[OddsCheck]:
    """The review's betting decisions checked against the exact expected gain of each candidate."""
    steps = {d.step: d for d in review.decisions}
    session = Session(game, game.new(log.seats, log.options, log.seed, bots=log.bots))
    checks = []
    for step, entry in enumerate(log.entries):
        decision = steps.get(step)
        if decision is not None and decision.candidates[0].action["type"] in BETTING:
            view = session.match.view(review.seat)
            actions = tuple(c.action for c in decision.candidates)
            exact = tuple(exact_gain(a, view) for a in actions)
            check = OddsCheck(step, view["race"], view["race"] == view["races"], actions, exact,
                              tuple(c.mean for c in decision.candidates), decision.best, 0.0)
            width = _half_width(decision, check.exact_best, decision.best) if not check.agrees else 0.0
            checks.append(OddsCheck(check.step, check.race, check.last, actions, exact, check.review,
                                    decision.best, width))
        session.replay_entry(entry)
    return checks
