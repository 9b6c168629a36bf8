"""Bots for Dice Derby. The heuristic bot buys a horse that pays for itself and bets only with an edge,
or, in the last race, to catch the leader."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Any

from partygames.engine import search
from partygames.engine.actions import Action, find_spec
from partygames.engine.bots import Bot, Observation, RandomBot
from partygames.engine.errors import IllegalAction
from partygames.games.dice_derby import analysis
from partygames.games.dice_derby.horses import GATES, PAIRS, UNIT, payout

__all__ = ["HeuristicBot", "RandomBot"]


def _fall(rules: dict[str, Any]) -> Fraction:
    p = rules["fall_probability"]
    return Fraction(0) if p is None else analysis.as_fraction(p)


@lru_cache(maxsize=64)  # one entry per fall probability in use
def _chances(fall_probability: float | None) -> tuple[dict[int, Fraction], dict[str, Fraction], tuple[int, ...]]:
    """For a view's `rules["fall_probability"]`: the exact win probabilities by gate, the quinella ones by pair,
    and their weights: the probabilities (win tickets' by gate, then quinella tickets' by pair) times their
    common denominator, whole numbers in the same ratios, so that probability x odds is compared in integers.
    A plan is made per seat and race of every search rollout: fractions cost most of it."""
    fall = _fall({"fall_probability": fall_probability})
    win, pairs = analysis.win_probabilities(fall), analysis.quinella_probabilities(fall)
    probabilities = [*(win[g] for g in GATES), *(pairs[p] for p in PAIRS)]
    common = lcm(*(p.denominator for p in probabilities))
    return win, pairs, tuple(p.numerator * (common // p.denominator) for p in probabilities)


class HeuristicBot(Bot):
    """Auction: bids about 60% of a horse's expected prize money, on one of the three most valuable.
    Betting: a half-Kelly stake on tickets whose odds beat their probability; in the last race, when
    behind, the likeliest ticket that would lift it past the leader; otherwise nothing."""

    name = "heuristic"

    def __init__(self, seat: int, seed: int = 0) -> None:
        super().__init__(seat, seed)
        self._plan: list[Action] = []
        self._planned_for = -1

    def act(self, obs: Observation) -> Action:
        types = {s["type"] for s in obs.legal}
        view = obs.view
        if "pass" in types:
            return self._bid(view, types)
        if self._planned_for != view["race"]:
            self._planned_for = view["race"]
            self._plan = self._betting_plan(view)
        while self._plan:
            action = self._plan.pop(0)
            try:
                find_spec(obs.legal, action)
            except IllegalAction:
                continue  # e.g. the catch-up ticket is the one already bought for its edge
            return action
        return {"type": "done"}

    def _bid(self, view: dict[str, Any], types: set[str]) -> Action:
        rules = view["rules"]
        fall = _fall(rules)
        win, second = analysis.win_probabilities(fall), analysis.second_probabilities(fall)
        first_prize, second_prize = rules["prizes"]
        value = {g: view["races"] * (first_prize * win[g] + second_prize * second[g]) for g in GATES}
        best = sorted(GATES, key=lambda g: -value[g])[:3]
        gate = best[self.rng.randrange(len(best))]
        amount = min(int(value[gate] * Fraction(3, 5)) // UNIT * UNIT, view["me"]["money"] // UNIT * UNIT)
        if "bid" not in types or amount < UNIT:
            return {"type": "pass"}
        return {"type": "bid", "horse": gate, "amount": amount}

    def _betting_plan(self, view: dict[str, Any]) -> list[Action]:
        win, pairs, weights = _chances(view["rules"]["fall_probability"])
        cash = view["me"]["available"] // UNIT * UNIT
        tickets: list[tuple[str, Any, Fraction, int]] = [("bet_win", g, win[g], round(h["win_odds"] * 10))
                                                         for g, h in zip(GATES, view["horses"], strict=True)]
        tickets += [("bet_quinella", p, pairs[p], round(view["quinella_odds"][p] * 10)) for p in PAIRS]
        plan: list[Action] = []
        # An edge (the 1.5x option, or a payout rate above 1): half Kelly on the best ticket.
        # The first of the best by probability x odds, in integers (`_chances`): max() keeps the first too.
        products = [w * t[3] for w, t in zip(weights, tickets, strict=True)]
        best = tickets[products.index(max(products))]
        p, odds = best[2], Fraction(best[3], 10)
        if p * odds > 1 and cash >= UNIT:
            kelly = (p * odds - 1) / (odds - 1) / 2
            stake = int(cash * kelly) // UNIT * UNIT
            if stake >= UNIT:
                plan.append(self._ticket(best[0], best[1], stake))
                cash -= stake
        if view["race"] == view["races"] and cash >= UNIT:
            mine = view["me"]["money"]
            leader = max(m for s, m in enumerate(view["money"]) if s != self.seat)
            if mine <= leader:
                need = leader - mine + UNIT
                feasible = []
                for (kind, pick, _, odds_x10), weight in zip(tickets, weights, strict=True):
                    stake = self._stake_for(need, odds_x10, cash)
                    if stake:  # the likeliest (by its weight, in the probability's ratios), then the cheapest
                        feasible.append((weight, -stake, kind, pick, stake))
                if feasible:
                    _, _, kind, pick, stake = max(feasible)
                    plan.append(self._ticket(kind, pick, stake))
        plan.append({"type": "done"})
        return plan

    @staticmethod
    def _stake_for(need: int, odds_x10: int, cash: int) -> int:
        """The smallest stake whose winnings (payout minus stake) reach `need`, 0 if none within cash."""
        if odds_x10 <= 10:
            return 0
        stake = max(UNIT, (need * 10 // (odds_x10 - 10)) // UNIT * UNIT)
        while stake <= cash:
            if payout(stake, odds_x10) - stake >= need:
                return stake
            stake += UNIT
        return 0

    @staticmethod
    def _ticket(kind: str, pick: Any, stake: int) -> Action:
        if kind == "bet_win":
            return {"type": "bet_win", "horse": pick, "amount": stake}
        return {"type": "bet_quinella", "pair": pick, "amount": stake}


class SearchBot(search.SearchBot):
    """The search bot (`engine/search.py`) with this game's heuristic as rollout policy and prior."""
