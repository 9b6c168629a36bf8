"""How a review judges the Smuggling Game (`analysis/review.py`, docs/review.md): by the team's lead in
yen (its third-country total minus the other team's at the end), the quantity the win is decided by and
the one the small game's equilibrium values (`analysis.py`); marks by yen lost against the best
candidate, 5%, 10% and 20% of the 1億 trunk cap; and the check of a review against the equilibrium."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from partygames.analysis.review import Decision, Review, Thresholds, Unit, paired_difference
from partygames.engine.actions import Action
from partygames.engine.game import Game
from partygames.engine.log import MatchLog
from partygames.engine.match import Match, Result
from partygames.engine.session import Session
from partygames.games.smuggling.analysis import DEFAULT_GRID, Solution, solve
from partygames.games.smuggling.bots import _caps, _on_unit
from partygames.games.smuggling.rules import SmugglingMatch
from partygames.games.smuggling.settlement import TRUNK_CAP


def team_lead(result: Result, seat: int) -> float:
    """The seat's team's third-country total minus the other team's (even seats are North)."""
    difference = float(result.detail["difference"])
    return difference if seat % 2 == 0 else -difference


THRESHOLDS = Thresholds(inaccuracy=0.05 * TRUNK_CAP, mistake=0.10 * TRUNK_CAP, blunder=0.20 * TRUNK_CAP,
                        measure="lead", lead=team_lead)


def _small_game(match: Match, seat: int) -> int:
    assert isinstance(match, SmugglingMatch)
    return match.small_game


def _lead_now(match: Match, seat: int) -> float:
    """The seat's team's third-country total minus the other team's, now (what `team_lead` reads at the end)."""
    assert isinstance(match, SmugglingMatch)
    totals = match.team_totals()
    difference = totals["north"] - totals["south"]
    return float(difference if seat % 2 == 0 else -difference)


SMALL_GAME = Thresholds(inaccuracy=0.05 * TRUNK_CAP, mistake=0.10 * TRUNK_CAP, blunder=0.20 * TRUNK_CAP,
                        measure="unit", unit=Unit(_small_game, _lead_now))
"""The honesty check's measure: the team's lead gained in the small game of the decision, which the small game's
equilibrium values (no luck correction: after the deal nothing in the Smuggling Game is left to chance)."""

SUPPORT = 1e-6
"""A move the equilibrium plays with more than this probability is in its support (the LP's zeros are
zeros up to its rounding)."""


def payoff(trunk: int, doubt: int) -> int:
    """The smuggler's payoff, the change in (smuggling team − inspecting team), for a trunk and a doubt (0: a
    pass), by the settlement's four cases (`analysis.payoff_matrix` for any amounts, not only the grid's)."""
    if doubt == 0:
        return trunk
    if trunk == 0:
        return doubt
    return -trunk if trunk <= doubt else trunk + doubt


@dataclass(frozen=True)
class Judged:
    """One candidate of a decision: its exact value for the mover against the other side's equilibrium
    strategy, whether the equilibrium plays it, and the review's mean value (the lead, in yen)."""

    action: Action
    exact: float
    played_by_equilibrium: bool
    review: float


@dataclass(frozen=True)
class EquilibriumCheck:
    """A reviewed pack or declaration beside the small game's equilibrium: every candidate's exact value,
    the review's best, and for pairs the review's paired differences with their 95% half-widths."""

    step: int
    role: str  # "smuggler" or "inspector"
    last: bool  # the match's last small game, where the heuristic plays for the win, not the equilibrium
    candidates: tuple[Judged, ...]
    best: int  # the review's best candidate
    half_widths: dict[tuple[int, int], float]  # (i, j): the 95% half-width of review value i − j
    tolerance: float  # exact values this close are equal (the LP's accuracy)

    @property
    def exact_best(self) -> int:
        return max(range(len(self.candidates)), key=lambda i: self.candidates[i].exact)

    @property
    def agrees(self) -> bool:
        """The review's best move is one of the exact best (equal values agree with either)."""
        return self.candidates[self.best].exact >= self.candidates[self.exact_best].exact - self.tolerance

    @property
    def within_noise(self) -> bool:
        """A disagreement where the exact values differ by less than the review's interval."""
        gap = self.candidates[self.exact_best].exact - self.candidates[self.best].exact
        return gap < self.half_widths[(self.exact_best, self.best)]

    def pairs(self) -> list[tuple[int, int, bool, bool]]:
        """(played, never played, review orders them so, within the noise) for every pair of a candidate the
        equilibrium plays and one it never plays whose exact values differ."""
        found = []
        for i, a in enumerate(self.candidates):
            for j, b in enumerate(self.candidates):
                if a.played_by_equilibrium and not b.played_by_equilibrium and a.exact > b.exact + self.tolerance:
                    found.append((i, j, a.review > b.review, a.exact - b.exact < self.half_widths[(i, j)]))
        return found


def _solution(view: dict[str, Any]) -> Solution:
    unit, trunk_max, doubt_max = _caps(view)
    return solve(trunk_max, doubt_max, max(unit, _on_unit(DEFAULT_GRID, unit)))  # as the equilibrium bot


def _exact(action: Action, solution: Solution) -> tuple[float, bool]:
    """The candidate's value for its mover against the other side's equilibrium mix, and whether the
    equilibrium plays it."""
    if action["type"] == "pack":
        trunk = int(action["amount"])
        value = sum(q * payoff(trunk, x) for x, q in zip(solution.doubts, solution.inspector, strict=True))
        played = any(t == trunk and p > SUPPORT for t, p in zip(solution.trunks, solution.smuggler, strict=True))
        return value, played
    doubt = 0 if action["type"] == "pass" else int(action["amount"])
    value = -sum(p * payoff(t, doubt) for t, p in zip(solution.trunks, solution.smuggler, strict=True))
    played = any(x == doubt and q > SUPPORT for x, q in zip(solution.doubts, solution.inspector, strict=True))
    return value, played


def _half_width(decision: Decision, i: int, j: int) -> float:
    return paired_difference(decision, i, j)[1]


def equilibrium_checks(game: Game, log: MatchLog, review: Review) -> list[EquilibriumCheck]:
    """The review's packs and declarations beside the exact values of the small game's equilibrium
    (`partygames analyze smuggling`) for that small game's caps, as the equilibrium bot solves it."""
    steps = {d.step: d for d in review.decisions}
    session = Session(game, game.new(log.seats, log.options, log.seed, bots=log.bots))
    checks = []
    for step, entry in enumerate(log.entries):
        decision = steps.get(step)
        if decision is not None and decision.candidates[0].action["type"] in ("pack", "pass", "doubt"):
            view = session.match.view(review.seat)
            solution = _solution(view)
            judged = []
            for c in decision.candidates:
                exact, played = _exact(c.action, solution)
                judged.append(Judged(c.action, exact, played, c.mean))
            n = len(judged)
            widths = {(i, j): _half_width(decision, i, j) for i in range(n) for j in range(n) if i != j}
            role = "smuggler" if decision.candidates[0].action["type"] == "pack" else "inspector"
            checks.append(EquilibriumCheck(step, role, view["small_game"] == view["small_games"], tuple(judged),
                                           decision.best, widths, 1e-4 * max(solution.stake, 1)))
        session.replay_entry(entry)
    return checks
