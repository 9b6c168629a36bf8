"""One small game as a zero-sum game, solved by linear programming on a grid.

The smuggler's payoff is the change in (smuggling team's third-country total - inspecting team's):
pass: T; caught (0 < T <= X): -T; empty trunk doubted: +X (X/2 moves from one team to the other);
under-doubted (X < T): T + X. A pass is the doubt X = 0 (the formula gives T, and 0 for T = 0).
The smuggler picks T in [0, trunk cap], the inspector X in [0, doubt cap]; a doubt above the trunk cap
is never better than doubting the cap itself, so the inspector's grid stops there.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import linprog

from partygames.games.smuggling.settlement import TRUNK_CAP

DEFAULT_GRID = 1_000_000
#: The solution must leave neither side more than this fraction of the stake to gain by deviating.
TOLERANCE = 1e-6


@dataclass(frozen=True)
class Solution:
    """Both optimal mixed strategies of one small game, in yen. `doubts[0]` is 0: the pass."""

    trunks: tuple[int, ...]
    doubts: tuple[int, ...]
    smuggler: tuple[float, ...]
    inspector: tuple[float, ...]
    value: float  # the smuggler's expected payoff in yen
    exploitability: float  # best deviation gain of either side against the other's strategy, in yen
    stake: int  # the trunk cap

    def top(self, side: str, count: int = 10) -> list[tuple[int, float]]:
        """The most likely pure strategies of `side` ('smuggler' or 'inspector'), as (yen, probability)."""
        points, probs = (self.trunks, self.smuggler) if side == "smuggler" else (self.doubts, self.inspector)
        ranked = sorted(zip(points, probs, strict=True), key=lambda pair: (-pair[1], pair[0]))
        return [(x, p) for x, p in ranked[:count] if p > 1e-9]

    def to_json(self, count: int = 10) -> dict[str, object]:
        return {"value": self.value, "stake": self.stake, "exploitability": self.exploitability,
                "grid_points": {"smuggler": len(self.trunks), "inspector": len(self.doubts)},
                "smuggler": [{"trunk": x, "probability": p} for x, p in self.top("smuggler", count)],
                "inspector": [{"doubt": x, "declaration": "pass" if x == 0 else "doubt", "probability": p}
                              for x, p in self.top("inspector", count)]}


def grid_points(cap: int, step: int) -> tuple[int, ...]:
    """0, step, 2 step, ... up to cap, and cap itself (so the largest legal amount is always there)."""
    points = list(range(0, cap + 1, step))
    if points[-1] != cap:
        points.append(cap)
    return tuple(points)


def payoff_matrix(trunks: tuple[int, ...], doubts: tuple[int, ...]) -> NDArray[np.float64]:
    """The smuggler's payoff, rows the trunk T, columns the doubt X (0: pass)."""
    t = np.array(trunks, dtype=np.float64)[:, None]
    x = np.array(doubts, dtype=np.float64)[None, :]
    general = np.where(t <= x, -t, t + x)  # caught or under-doubted
    general = np.where(t == 0, x, general)  # empty trunk: the doubt's compensation, 0 on a pass
    return np.where(x == 0, np.broadcast_to(t, general.shape), general)


def _maximin(matrix: NDArray[np.float64]) -> NDArray[np.float64]:
    """The row player's optimal mix for a payoff matrix (row player maximises)."""
    rows, cols = matrix.shape
    # Variables: p_1..p_rows, v. Maximise v subject to (p^T A)_j >= v for every column, sum p = 1.
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    a_ub = np.hstack([-matrix.T, np.ones((cols, 1))])
    a_eq = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * rows + [(None, None)]
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(cols), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if not res.success:  # pragma: no cover - HiGHS solves every finite matrix game
        raise RuntimeError(f"linprog failed: {res.message}")
    mix = np.clip(res.x[:rows], 0.0, None)
    return np.asarray(mix / mix.sum(), dtype=np.float64)


@lru_cache(maxsize=4096)
def solve(max_trunk: int = TRUNK_CAP, max_doubt: int | None = None, grid: int = DEFAULT_GRID) -> Solution:
    """Solves the small game with these caps (a doubt cap of None: no cap from the inspector's balance)."""
    if grid < 1 or max_trunk < 0:
        raise ValueError("the grid step must be positive and the trunk cap non-negative")
    doubt_top = max_trunk if max_doubt is None else max(0, min(max_doubt, max_trunk))
    trunks = grid_points(max_trunk, grid)
    doubts = grid_points(doubt_top, grid)
    stake = max(max_trunk, 1)
    matrix = payoff_matrix(trunks, doubts) / stake  # scaled so that tolerances read as fractions of the stake
    smuggler = _maximin(matrix)
    inspector = _maximin(-matrix.T)
    guaranteed = float((smuggler @ matrix).min())  # the smuggler's worst case against any doubt
    conceded = float((matrix @ inspector).max())  # the best the smuggler can do against the inspector
    return Solution(trunks=trunks, doubts=doubts, smuggler=tuple(map(float, smuggler)),
                    inspector=tuple(map(float, inspector)), value=(guaranteed + conceded) / 2 * stake,
                    # Never below 0 (conceded >= guaranteed for any pair of strategies); the linear
                    # programs' rounding can leave it a few billionths of a yen below.
                    exploitability=max(0.0, (conceded - guaranteed) * stake), stake=max_trunk)


def doubt_limit(inspector_balance: int | None) -> int | None:
    """The doubt cap from an inspector's third-country balance (「2倍の金額までしかコールできません」)."""
    return None if inspector_balance is None else 2 * inspector_balance


def plot(solution: Solution, path: Path) -> Path:
    """Saves a PNG of both mixed strategies (bars over amounts in millions of yen)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    millions = 1_000_000
    width = max(0.6 * (solution.trunks[1] - solution.trunks[0]) / millions, 0.2) if len(solution.trunks) > 1 else 1
    top.bar([t / millions for t in solution.trunks], solution.smuggler, width=width, color="tab:red")
    top.set_ylabel("probability")
    top.set_title(f"Smuggler: trunk T (value {solution.value / millions:,.3f}M yen)")
    bottom.bar([x / millions for x in solution.doubts[1:]], solution.inspector[1:], width=width, color="tab:blue")
    bottom.set_ylabel("probability")
    bottom.set_xlabel("million yen")
    bottom.set_title(f"Inspector: doubt X (pass {solution.inspector[0]:.3f})")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
