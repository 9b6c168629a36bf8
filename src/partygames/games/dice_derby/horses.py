"""The six horses (dice), their gates, the fifteen quinella pairs, and money arithmetic."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

# Gate g (1-6) runs the die with FACES[g - 1] faces: 「4面体=1枠、6面体=2枠、…20面体=6枠」.
FACES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
GATES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
PAIRS: tuple[str, ...] = tuple(f"{a}-{b}" for a, b in combinations(GATES, 2))
UNIT = 100  # money moves in units of 100


def faces(gate: int) -> int:
    return FACES[gate - 1]


def die_name(gate: int) -> str:
    """'d4' for gate 1 ... 'd20' for gate 6 (also the chance labels' suffix)."""
    return f"d{FACES[gate - 1]}"


def pair_name(a: int, b: int) -> str:
    """The quinella pair of two gates, smaller gate first: '5-6'."""
    lo, hi = min(a, b), max(a, b)
    return f"{lo}-{hi}"


def odds_x10(probability: Fraction, payout_rate: Fraction, boost: Fraction = Fraction(1)) -> int:
    """Odds in tenths: payout_rate x boost / probability rounded down to 0.1, at least 1.0."""
    return max(10, int(payout_rate * boost * 10 / probability))


def payout(stake: int, odds_in_tenths: int) -> int:
    """What a winning ticket pays back (stake included), rounded down to the money unit."""
    return stake * odds_in_tenths // 10 // UNIT * UNIT
