"""How a review judges Lucky Nine (`analysis/review.py`, docs/review.md): by money, the expected final
diamonds (the result's score), as the exact turn analysis (`analysis.py`) values a turn; marks by
diamonds lost against the best candidate (64 at the start by default); the luck of each of the seat's draws
taken out of its rollouts (`luck`); and the check of a review against that exact analysis, by the diamonds
of one turn (`TURN`)."""

from __future__ import annotations

from dataclasses import dataclass

from partygames.analysis.review import Expectation, Review, Thresholds, Unit, paired_difference
from partygames.engine.actions import Action
from partygames.engine.game import Game
from partygames.engine.log import MatchLog
from partygames.engine.match import Match
from partygames.engine.session import Session
from partygames.games.lucky_nine.bots import continue_value
from partygames.games.lucky_nine.rules import CHESTS, LuckyNineMatch

DROPPER = "dropper"
"""The label of the dropper's draw (`LuckyNineMatch._draw`), by which a copy of the match is told its result."""


def _score(match: Match, seat: int) -> float:
    """The seat's score now: diamonds, and claimed prizes at their value (the result's score at the end)."""
    assert isinstance(match, LuckyNineMatch)
    return float(match.score(seat))


def luck(match: Match, seat: int, actor: int | None, action: Action | None) -> Expectation | None:
    """A press (or continue) of the seat: the exact expected score of the seat after the draw, averaged over
    the dropper's possible results, each played by the engine on a copy of the match told that result (so every
    rule counts as it is played: special rule b, prizes, the bonuses; a result the draw cannot give now, variant
    c's repeat, is refused by the engine and left out), and the seat's score after the real draw. Nothing else
    moves the seat's diamonds by chance: another seat's draw never changes them."""
    if actor != seat or action is None or action["type"] not in ("press", "continue"):
        return None
    assert isinstance(match, LuckyNineMatch)
    scores = []
    for chest in CHESTS:
        copy = match.clone()
        copy.chance.script(DROPPER, chest)
        try:
            copy.apply_trusted(seat, action)
        except ValueError:
            continue  # not a result the dropper can give now (variant c: the previous one)
        assert isinstance(copy, LuckyNineMatch) and copy.last_draw == chest, "the dropper's label changed"
        scores.append(copy.score(seat))
    return sum(scores) / len(scores), lambda after: _score(after, seat)


THRESHOLDS = Thresholds(inaccuracy=2.0, mistake=5.0, blunder=10.0, measure="score", luck=luck)


def _turn(match: Match, seat: int) -> int:
    assert isinstance(match, LuckyNineMatch)
    return match.turn_number


TURN = Thresholds(inaccuracy=2.0, mistake=5.0, blunder=10.0, measure="unit", unit=Unit(_turn, _score), luck=luck)
"""The honesty check's measure: the seat's score (diamonds, and prizes at their value) gained in the turn of the
decision, as the exact turn analysis counts a turn, with the same luck correction."""


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
    last_turn: bool = False
    """In the last lap of the last round: the seat has no later turn, so this turn's diamonds are its final ones."""
    short: bool = False
    """The seat holds less than a miss could cost (twice the stake, three times with variant a): special rule b
    (it pays what it has and is out), which the exact turn model ignores, can apply."""

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
                mean, half_width = paired_difference(decision, types.index("continue"), types.index("pass"))
                view = session.match.view(review.seat)
                miss = (3 if view["variants"]["triple_diamond"] else 2) * view["stake"]
                checks.append(ExactCheck(step, continue_value(view), types[decision.best], mean, half_width,
                                         view["round"] == view["rounds"] and view["lap"] == view["laps"],
                                         view["players"][review.seat]["diamonds"] < miss))
        session.replay_entry(entry)
    return checks
