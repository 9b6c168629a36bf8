"""Exact race probabilities: who finishes first and second, as fractions.

A race is a Markov chain on the set of dice still running (a bit mask over the six gates). Each
furlong, every running die falls (落馬) independently with probability q (0 when the fall rule is
off); if every running die falls the furlong is run again, so that branch is divided out. If some fall
and two or more stay up, the fallen are out; if exactly one stays up it wins and the fallen decide
second place among themselves by the same rules (the seed's 3-runner case, generalised). If none
falls, the lowest roll is out, a tie putting out the die with more faces. The roll step is exact: a
die d at value v is the loser when every other die e rolls above v, or rolls v and has fewer faces.

Everything is memoised, so the engine can price odds for every race at no cost.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

from partygames.games.dice_derby.horses import FACES, GATES, PAIRS, die_name, pair_name

Placing = dict[tuple[int, int], Fraction]  # (first gate, second gate) -> probability
ALL = (1 << len(FACES)) - 1


def _members(mask: int) -> list[int]:
    return [i for i in range(len(FACES)) if mask >> i & 1]


@cache
def roll_loser(mask: int) -> tuple[tuple[int, Fraction], ...]:
    """For the dice in `mask` rolling once: (die index, probability it is the one put out)."""
    dice = _members(mask)
    out = []
    for d in dice:
        fd = FACES[d]
        total = Fraction(0)
        for v in range(1, fd + 1):
            term = Fraction(1, fd)
            for e in dice:
                if e == d:
                    continue
                fe = FACES[e]
                above = max(0, fe - v)
                level = 1 if v <= fe and fe < fd else 0  # a tie puts out the die with more faces
                term *= Fraction(above + level, fe)
                if not term:
                    break
            total += term
        out.append((d, total))
    return tuple(out)


@cache
def placings(fall: Fraction = Fraction(0), runners: tuple[int, ...] = GATES) -> dict[tuple[int, int], Fraction]:
    """P(first, second) over gates for a race of `runners` (default all six), with per-die fall
    probability `fall`."""
    if not 0 <= fall < 1:
        raise ValueError(f"fall probability must be in [0, 1), got {fall}")
    if len(set(runners)) < 2 or not set(runners) <= set(GATES):
        raise ValueError(f"a race needs two or more distinct gates, got {runners}")
    memo: dict[int, Placing] = {}

    def winner(mask: int) -> dict[int, Fraction]:
        if mask & (mask - 1) == 0:
            return {mask.bit_length() - 1: Fraction(1)}
        dist: dict[int, Fraction] = {}
        for (first, _), p in top_two(mask).items():
            dist[first] = dist.get(first, Fraction(0)) + p
        return dist

    def add(dist: Placing, key: tuple[int, int], p: Fraction) -> None:
        dist[key] = dist.get(key, Fraction(0)) + p

    def top_two(mask: int) -> Placing:
        if mask in memo:
            return memo[mask]
        dice = _members(mask)
        n = len(dice)
        dist: Placing = {}
        # Falls: every proper subset F of the runners (the empty one is the roll below).
        if fall:
            for sub in range(1, 1 << n):
                fallen = sum(1 << dice[i] for i in range(n) if sub >> i & 1)
                if fallen == mask:
                    continue  # everyone fell: run the furlong again (divided out below)
                k = bin(fallen).count("1")
                p = fall ** k * (1 - fall) ** (n - k)
                standing = mask & ~fallen
                if standing & (standing - 1):  # two or more still up: the fallen are out
                    for key, q in top_two(standing).items():
                        add(dist, key, p * q)
                else:  # one still up: it wins, the fallen race off for second
                    first = standing.bit_length() - 1
                    for second, q in winner(fallen).items():
                        add(dist, (first, second), p * q)
        upright = (1 - fall) ** n
        for loser, p in roll_loser(mask):
            rest = mask & ~(1 << loser)
            if rest & (rest - 1):
                for key, q in top_two(rest).items():
                    add(dist, key, upright * p * q)
            else:
                add(dist, (rest.bit_length() - 1, loser), upright * p)
        again = 1 - fall ** n
        result = {key: p / again for key, p in dist.items()}
        memo[mask] = result
        return result

    start = sum(1 << (g - 1) for g in set(runners))
    return {(a + 1, b + 1): p for (a, b), p in top_two(start).items()}


@cache
def win_probabilities(fall: Fraction = Fraction(0)) -> dict[int, Fraction]:
    """P(gate finishes first)."""
    win = {g: Fraction(0) for g in GATES}
    for (first, _), p in placings(fall).items():
        win[first] += p
    return win


@cache
def second_probabilities(fall: Fraction = Fraction(0)) -> dict[int, Fraction]:
    """P(gate finishes second)."""
    second = {g: Fraction(0) for g in GATES}
    for (_, runner_up), p in placings(fall).items():
        second[runner_up] += p
    return second


@cache
def quinella_probabilities(fall: Fraction = Fraction(0)) -> dict[str, Fraction]:
    """P(the pair finishes first and second, in either order), by pair name '1-2'."""
    pairs = {name: Fraction(0) for name in PAIRS}
    for (first, second), p in placings(fall).items():
        pairs[pair_name(first, second)] += p
    return pairs


def first_furlong_out(fall: Fraction = Fraction(0)) -> dict[int, Fraction]:
    """P(gate is put out by the roll of the first furlong) (no faller that furlong)."""
    upright = (1 - fall) ** len(FACES) / (1 - fall ** len(FACES))
    return {d + 1: upright * p for d, p in roll_loser(ALL)}


def as_fraction(value: float | str | Fraction) -> Fraction:
    """An option value as the exact decimal it was written as (0.05 -> 1/20)."""
    if isinstance(value, Fraction):
        return value
    return Fraction(str(value))


def plot(win: dict[int, Fraction], pairs: dict[str, Fraction], fall: Fraction, path: Path) -> Path:
    """Saves a PNG of the exact win probability of each horse and the quinella probability of each pair."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), gridspec_kw={"width_ratios": [2, 5]})
    left.bar([f"{g}\n{die_name(g)}" for g in win], [float(p) for p in win.values()], color="tab:blue")
    left.set_ylabel("probability")
    left.set_title("Win")
    right.bar(list(pairs), [float(p) for p in pairs.values()], color="tab:orange")
    right.set_title("Quinella (first and second, either order)")
    right.tick_params(axis="x", labelsize="small")
    fig.suptitle(f"Dice Derby: exact odds (fall probability {fall})")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
