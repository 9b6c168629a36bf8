"""Exact values of one Lucky Nine turn, and Monte Carlo house edge of whole games.

The turn model. Every lit chest other than the diamond chest holds exactly the current stake `s`
(a miss puts `s` into an empty chest, the top-up between rounds and the refill of special rule a fill
to `s`, and stakes only rise), so a decision point after a hit is fully described by `k` (lit chests
besides the diamond chest), `D` (diamonds in the diamond chest) and, for variant d, the hits so far
in the turn. Pressing draws each of the nine chests with probability 1/9: a lit chest pays `s` (and
leaves k-1), the diamond chest pays `D` when it holds any, and any other draw is a miss that costs
`2s` (`3s` for an empty diamond chest under variant a) and ends the turn. Passing is worth 0. The
value of a decision point is V = max(0, C), C being the expected gain of continuing and then playing
on optimally. Special rule a (refill to 4 chests of `s` when a take empties everything) makes the
chain of states with D = 0 cyclic; that layer is solved exactly by policy iteration over Fractions,
and every state with D > 0 then follows by recursion (D never grows within a turn).

The model counts only this turn's diamonds: what a miss pays into the chests may come back to anyone
later, and it assumes the player can pay a miss in full (special rule b is ignored).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

NON_DIAMOND_CHESTS = 8
REFILL_CHESTS = 4
SLOT_DIAMONDS = 64
CHAIN_LENGTH = 5
CHAIN_MULTIPLIER = 5


@dataclass(frozen=True)
class TurnRules:
    """The variants that change the value of a turn (variant c is handled by `cont_excluding`)."""

    triple_diamond: bool = False
    sweep_bonus: bool = False
    chain_bonus: bool = False


State = tuple[int, int]  # (k, chain) in the D = 0 layer
Outcome = tuple[str, int, Fraction, "tuple[int, int, int] | None"]


class TurnSolver:
    """Exact optimal stopping of one turn at a given stake."""

    def __init__(self, stake: int, rules: TurnRules | None = None) -> None:
        self.stake = stake
        self.rules = rules or TurnRules()
        self.chains = CHAIN_LENGTH if self.rules.chain_bonus else 1
        self._memo: dict[tuple[int, int, int], Fraction] = {}
        self._zero = self._solve_zero_layer()

    # -- the transition model ----------------------------------------------------------------------
    def _outcomes(self, k: int, d: int, c: int) -> list[Outcome]:
        """(group, weight out of 9, gain, next decision state or None when the turn ends) for one
        press; the groups are the lit chests, the diamond chest and the empty chests."""
        s = self.stake
        r = self.rules
        nxt_c = (c + 1) % self.chains
        chain_pay = CHAIN_MULTIPLIER * s if r.chain_bonus and (c + 1) % CHAIN_LENGTH == 0 else 0
        out: list[Outcome] = []
        if k > 0:
            gain = s + chain_pay
            k2, d2 = k - 1, d
            if r.sweep_bonus and k2 == 0 and d2 > 0:
                slot = min(SLOT_DIAMONDS, d2)
                gain += slot
                d2 -= slot
            if k2 == 0 and d2 == 0:
                k2 = REFILL_CHESTS
            out.append(("lit", k, Fraction(gain), (k2, d2, nxt_c)))
        if d > 0:
            out.append(("diamond", 1, Fraction(d + chain_pay), (k if k > 0 else REFILL_CHESTS, 0, nxt_c)))
        else:
            out.append(("diamond", 1, Fraction(-(3 if r.triple_diamond else 2) * s), None))
        if k < NON_DIAMOND_CHESTS:
            out.append(("empty", NON_DIAMOND_CHESTS - k, Fraction(-2 * s), None))
        return out

    # -- D = 0: a small cyclic system, solved by policy iteration --------------------------------
    def _zero_states(self) -> list[State]:
        return [(k, c) for k in range(1, NON_DIAMOND_CHESTS + 1) for c in range(self.chains)]

    def _solve_zero_layer(self) -> dict[State, Fraction]:
        states = self._zero_states()
        policy = dict.fromkeys(states, False)  # False: pass
        while True:
            values = self._evaluate(states, policy)
            better = {st: self._cont_with(st[0], 0, st[1], values) > 0 for st in states}
            if better == policy:
                return values
            policy = better

    def _cont_with(self, k: int, d: int, c: int, zero: dict[State, Fraction]) -> Fraction:
        total = Fraction(0)
        for _, weight, gain, nxt in self._outcomes(k, d, c):
            total += weight * gain
            if nxt is not None:
                total += weight * zero[(nxt[0], nxt[2])]
        return total / 9

    def _evaluate(self, states: list[State], policy: dict[State, bool]) -> dict[State, Fraction]:
        """Solves V = (policy ? C : 0) exactly (Gauss-Jordan over Fractions)."""
        index = {st: i for i, st in enumerate(states)}
        n = len(states)
        rows: list[list[Fraction]] = []
        for st in states:
            row = [Fraction(0)] * (n + 1)
            row[index[st]] = Fraction(1)
            if policy[st]:
                for _, weight, gain, nxt in self._outcomes(st[0], 0, st[1]):
                    row[n] += Fraction(weight, 9) * gain
                    if nxt is not None:
                        row[index[(nxt[0], nxt[2])]] -= Fraction(weight, 9)
            rows.append(row)
        for col in range(n):
            pivot = next(r for r in range(col, n) if rows[r][col] != 0)
            rows[col], rows[pivot] = rows[pivot], rows[col]
            lead = rows[col][col]
            rows[col] = [x / lead for x in rows[col]]
            for r in range(n):
                if r != col and rows[r][col] != 0:
                    factor = rows[r][col]
                    rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
        return {st: rows[index[st]][n] for st in states}

    # -- the public answers ------------------------------------------------------------------------
    def cont(self, k: int, d: int, c: int = 0) -> Fraction:
        """Expected gain of pressing (once more) at k lit chests besides the diamond chest and D = d."""
        if d == 0:
            return self._cont_with(k, 0, c % self.chains, self._zero)
        key = (k, d, c % self.chains)
        value = self._memo.get(key)
        if value is None:
            total = Fraction(0)
            for _, weight, gain, nxt in self._outcomes(k, d, c % self.chains):
                total += weight * gain
                if nxt is not None:
                    total += weight * self.value(*nxt)
            value = self._memo[key] = total / 9
        return value

    def value(self, k: int, d: int, c: int = 0) -> Fraction:
        """Value of a decision point under the optimal stop rule: max(pass = 0, continue)."""
        if d == 0:
            if k == 0:
                k = REFILL_CHESTS  # special rule a has refilled the four chests
            return self._zero[(k, c % self.chains)]
        return max(Fraction(0), self.cont(k, d, c))

    def should_continue(self, k: int, d: int, c: int = 0) -> bool:
        return self.cont(k, d, c) > 0

    def threshold(self, k: int, c: int = 0, limit: int | None = None) -> int | None:
        """The fewest diamonds in the diamond chest at which continuing beats passing (None: never
        up to `limit`)."""
        top = limit if limit is not None else 40 * self.stake + 64
        for d in range(top + 1):
            if self.cont(k, d, c) > 0:
                return d
        return None

    def cont_excluding(self, k: int, d: int, excluded: str, c: int = 0) -> float:
        """Variant c (no repeat), approximately: the next press draws from the eight chests other than
        the last result (`excluded`: "lit", "diamond" or "empty"); what follows is valued as without it."""
        total = 0.0
        count = 0
        for group, weight, gain, nxt in self._outcomes(k, d, c % self.chains):
            if group == excluded:
                weight -= 1
            total += weight * (float(gain) + (float(self.value(*nxt)) if nxt is not None else 0.0))
            count += weight
        return total / count if count else 0.0


@cache
def solver(stake: int, triple_diamond: bool = False, sweep_bonus: bool = False,
           chain_bonus: bool = False) -> TurnSolver:
    """A shared solver per stake and rule set (solving is exact and takes milliseconds)."""
    return TurnSolver(stake, TurnRules(triple_diamond, sweep_bonus, chain_bonus))


def plot(stakes: tuple[int, ...], edges: dict[str, dict[str, dict[str, Any]]], path: Path) -> Path:
    """Saves a PNG: the exact gain of continuing with an empty diamond chest by lit chests, per stake, and
    the Monte Carlo house edge by variant with its 95% interval, per policy (`edges[policy][variant]` as
    `HouseEdge.to_json()`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    lit = list(range(1, NON_DIAMOND_CHESTS + 1))
    for stake in stakes:
        solve = solver(stake)
        left.plot(lit, [float(solve.cont(k, 0)) for k in lit], marker="o", label=f"stake {stake}")
    left.axhline(0, color="grey", linewidth=0.8)
    left.set_xlabel("lit chests besides the diamond chest (k)")
    left.set_ylabel("expected gain of pressing again (diamonds)")
    left.set_title("Continue (>0) or pass: diamond chest empty, exact")
    left.legend(fontsize="small")
    policies = list(edges)
    variants = list(edges[policies[0]]) if policies else []
    width = 0.8 / max(len(policies), 1)
    for i, policy in enumerate(policies):
        rows = [edges[policy][v] for v in variants]
        centre = [100 * r["edge"] for r in rows]
        errors = [[max(0.0, c - 100 * r["edge_ci95"][0]) for c, r in zip(centre, rows, strict=True)],
                  [max(0.0, 100 * r["edge_ci95"][1] - c) for c, r in zip(centre, rows, strict=True)]]
        right.bar([x + i * width for x in range(len(variants))], centre, width=width, yerr=errors, capsize=3,
                  label=policy)
    right.set_xticks([x + width * (len(policies) - 1) / 2 for x in range(len(variants))], variants,
                     rotation=20, ha="right", fontsize="small")
    right.set_ylabel("house edge (% of diamonds paid on misses)")
    right.set_title("House edge by variant, Monte Carlo (95% intervals)")
    right.legend(fontsize="small")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
