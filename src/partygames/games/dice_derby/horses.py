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


#: The simplified odds' mantissas, in tenths: 1, 1.5, 2, 2.5, 3, 4, ..., 9 times a power of ten.
SIMPLE_MANTISSAS: tuple[int, ...] = (10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90)


def simple_odds_x10(odds_in_tenths: int) -> int:
    """The seed's 簡易版のオッズ (「倍率を簡略化した簡易版のオッズ」, option `simple_odds`): odds in tenths
    rounded down to an easy value, 1, 1.5, 2, 2.5 or 3-9 times a power of ten (1, 1.5, 2, 2.5, 3, ..., 9,
    10, 15, 20, 25, 30, ..., 90, 100, 150, ...), so that a payout is a stake times one digit (or 1.5,
    2.5). Down, as the odds' 0.1 is: a ticket never pays more than its exact odds."""
    scale = 1
    while odds_in_tenths >= 100 * scale:
        scale *= 10
    mantissa = max(m for m in SIMPLE_MANTISSAS if m * scale <= odds_in_tenths)
    return mantissa * scale


def payout(stake: int, odds_in_tenths: int) -> int:
    """What a winning ticket pays back (stake included), rounded down to the money unit."""
    return stake * odds_in_tenths // 10 // UNIT * UNIT
