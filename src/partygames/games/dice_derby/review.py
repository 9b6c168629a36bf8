"""How a review judges Dice Derby (`analysis/review.py`, docs/review.md): by money, the expected final money
(the result's score, by which seats are ranked), in which the exact odds tables value a ticket; marks by
yen lost against the best candidate (2.5%, 5% and 10% of the default starting money); and the check of a
review's betting decisions against the exact race probabilities (`analysis.py`, `partygames odds
dice-derby`)."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

from partygames.analysis.review import Decision, Expectation, Review, Thresholds, Unit, paired_difference
from partygames.engine.actions import Action
from partygames.engine.bots import Bot, Observation
from partygames.engine.game import Game
from partygames.engine.log import MatchLog
from partygames.engine.match import Match
from partygames.engine.session import Session
from partygames.games.dice_derby import analysis
from partygames.games.dice_derby.bots import SearchBot
from partygames.games.dice_derby.horses import GATES, payout
from partygames.games.dice_derby.rules import DiceDerbyMatch


def luck(match: Match, seat: int, actor: int | None, action: Action | None) -> Expectation | None:
    """The `done` that closes the betting runs the race (`DiceDerbyMatch._close_betting_and_run`): what the race
    pays the seat, its tickets' payouts at the odds of the race and its horse's owner prizes, has the exact
    expectation of the race's probabilities (`analysis`, the tables the odds are priced from), and is read after
    the race from the engine's own record of it (`last_race`: the payouts, the first and the second). The
    auction's lots and the loser boost's effect on later odds are not corrected."""
    if action is None or action["type"] != "done" or not isinstance(match, DiceDerbyMatch):
        return None
    if match.phase != "betting" or not all(done or s == actor for s, done in enumerate(match.done)):
        return None  # another seat is still betting: no race yet
    o = match.options
    fall = analysis.as_fraction(o.fall_probability) if o.fall_rule else Fraction(0)
    first, second = analysis.win_probabilities(fall), analysis.second_probabilities(fall)
    pairs = analysis.quinella_probabilities(fall)
    expected = Fraction(0)
    for t in match.tickets.get(str(seat), []):
        if t["kind"] == "win":
            expected += first[int(t["pick"])] * payout(t["stake"], match.win_odds[int(t["pick"]) - 1])
        else:
            expected += pairs[t["pick"]] * payout(t["stake"], match.quinella_odds[t["pick"]])
    horse = next((g for g in GATES if match.owners[g - 1] == seat), None)
    if horse is not None:
        expected += o.prize_first * first[horse] + o.prize_second * second[horse]

    def realized(after: Match) -> float:
        assert isinstance(after, DiceDerbyMatch) and after.last_race is not None
        race = after.last_race
        got = race["payouts"].get(str(seat), 0)
        if horse is not None:
            got += o.prize_first * (race["first"] == horse) + o.prize_second * (race["second"] == horse)
        return float(got)

    return float(expected), realized


THRESHOLDS = Thresholds(inaccuracy=250.0, mistake=500.0, blunder=1000.0, measure="score", luck=luck)


def _race(match: Match, seat: int) -> int:
    assert isinstance(match, DiceDerbyMatch)
    return match.race


def _net_money(match: Match, seat: int) -> float:
    """The seat's money less what it owes (a loan counts when taken, its repayment with it, as `exact_gain`)."""
    assert isinstance(match, DiceDerbyMatch)
    return float(match.money[seat] - match.debt[seat])


RACE = Thresholds(inaccuracy=250.0, mistake=500.0, blunder=1000.0, measure="unit", unit=Unit(_race, _net_money),
                  luck=luck)
"""A like-for-like measure for the odds check: the seat's money (less debt) gained by the race of the decision,
luck-corrected, as the exact odds value a ticket (the rollout stops when the next betting opens)."""


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


def continued_gain(match: Match, seat: int, action: Action, policy: Bot, now: int) -> Fraction:
    """The exact gain of `action` and of the betting actions the seat's `policy` plays after it in this betting
    phase, until its `done`: the candidate as a review plays it out (its rollouts play on with the search bot's
    policy, as it was before the decision), each action valued by `exact_gain` at the odds shown."""
    copy = match.clone()
    total = Fraction(0)
    for _ in range(100):  # a bound on a policy that never says done
        total += exact_gain(action, copy.view(seat))
        if action["type"] == "done":
            break
        copy.apply(seat, action, now)
        legal = copy.legal_actions(seat)
        chosen = policy.act(Observation(seat, legal, partial(copy.view, seat), now, copy.deadline))
        if chosen is None:
            break
        action = chosen
    return total


@dataclass(frozen=True)
class OddsCheck:
    """A reviewed betting decision beside the exact odds: each candidate's exact expected gain with the bets the
    seat's policy adds after it in the same betting phase (`continued_gain`, what the review's rollouts play) and
    of the candidate alone, the review's mean final money, the review's best and the exact best, and the 95%
    half-width of the review's paired estimate of (exact best − review best)."""

    step: int
    race: int
    last: bool  # the last race, where the heuristic may bet to catch the leader
    actions: tuple[Action, ...]
    exact: tuple[Fraction, ...]
    review: tuple[float, ...]
    best: int
    half_width: float
    alone: tuple[Fraction, ...] = ()
    """The candidates' exact gains alone, without what the policy adds after them."""

    @property
    def exact_best(self) -> int:
        return max(range(len(self.exact)), key=lambda i: (self.exact[i], i == self.best))

    @property
    def agrees(self) -> bool:
        """The review's best has the highest exact gain (an exact tie agrees with either)."""
        return self.exact[self.best] == self.exact[self.exact_best]

    @property
    def agrees_alone(self) -> bool:
        """The review's best is the candidate with the highest exact gain alone (ties agree)."""
        return self.alone[self.best] == max(self.alone)

    @property
    def gap(self) -> float:
        """How much the exact best gains over the review's best, in yen."""
        return float(self.exact[self.exact_best] - self.exact[self.best])

    @property
    def within_noise(self) -> bool:
        """A disagreement where the exact values differ by less than the review's interval."""
        return self.gap < self.half_width


def _half_width(decision: Decision, i: int, j: int) -> float:
    return paired_difference(decision, i, j)[1]


BETTING = frozenset({"bet_win", "bet_quinella", "cancel", "borrow", "done"})


def odds_checks(game: Game, log: MatchLog, review: Review) -> list[OddsCheck]:
    """The review's betting decisions checked against the exact expected gain of each candidate. The seat's
    policy is kept as the review's search bot keeps it (told what the seat is told, asked at every one of the
    seat's moves), so that each candidate is continued as the review's rollouts continue it."""
    steps = {d.step: d for d in review.decisions}
    seat = review.seat
    match = game.new(log.seats, log.options, log.seed, bots=log.bots)
    policy = game.make_bot(SearchBot.policy, seat, 0)
    session = Session(game, match, {seat: policy})
    checks = []
    for step, entry in enumerate(log.entries):
        if entry.seat == seat and entry.action is not None:
            before = pickle.dumps(policy, pickle.HIGHEST_PROTOCOL)
            current = session.match
            policy.act(Observation(seat, current.legal_actions(seat), partial(current.view, seat), entry.at,
                                   current.deadline))  # as the review asks it (its hint), so that it plans alike
            decision = steps.get(step)
            if decision is not None and decision.candidates[0].action["type"] in BETTING:
                view = current.view(seat)
                actions = tuple(c.action for c in decision.candidates)
                exact = tuple(continued_gain(current, seat, a, pickle.loads(before), entry.at) for a in actions)
                check = OddsCheck(step, view["race"], view["race"] == view["races"], actions, exact,
                                  tuple(c.mean for c in decision.candidates), decision.best, 0.0,
                                  tuple(exact_gain(a, view) for a in actions))
                width = _half_width(decision, check.exact_best, decision.best) if not check.agrees else 0.0
                checks.append(dataclasses.replace(check, half_width=width))
        session.replay_entry(entry)
    return checks
