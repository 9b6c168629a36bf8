"""Settlement of one small game (小ゲーム), as the seed states it, and the prize at the end.

Pure functions on yen amounts, shared by the rules, the bots and the analysis.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Each player's third-country (第3国) and opponent-country (相手国) starting balances: a loan of 4億.
THIRD_START = 100_000_000
OPP_START = 300_000_000
LOAN = THIRD_START + OPP_START
TRUNK_CAP = 100_000_000


@dataclass(frozen=True, slots=True)
class Settlement:
    """Where the trunk goes and the compensation (慰謝料) paid, for one declaration.

    `outcome` is one of: passed, caught, empty_doubted, under_doubted.
    """

    outcome: str
    trunk_to_smuggler: int
    trunk_to_inspector: int
    compensation: int  # from the inspector's third-country account to the smuggler's

    @property
    def difference_change(self) -> int:
        """Change in (smuggling team's third-country total - inspecting team's)."""
        return self.trunk_to_smuggler - self.trunk_to_inspector + 2 * self.compensation


def compensation(doubt: int) -> int:
    """Half the doubted amount (「ダウトされた金額の半分」), in whole yen: an odd yen rounds down."""
    return doubt // 2


def settle(trunk: int, doubt: int | None) -> Settlement:
    """The seed's four cases; `doubt` None is a pass."""
    if doubt is None:
        return Settlement("passed", trunk, 0, 0)
    if trunk == 0:
        return Settlement("empty_doubted", 0, 0, compensation(doubt))
    if trunk <= doubt:
        return Settlement("caught", 0, trunk, 0)
    return Settlement("under_doubted", trunk, 0, compensation(doubt))


def payoff(trunk: int, doubt: int) -> int:
    """The smuggler's payoff in the analysis (doubt 0 is a pass): the change in the teams' difference.

    pass: T; caught: -T; empty trunk doubted: +X; under-doubted: T + X. Equals
    `settle(...).difference_change` whenever X is even (always on the analysis grid).
    """
    if doubt == 0:
        return trunk
    if trunk == 0:
        return doubt
    return -trunk if trunk <= doubt else trunk + doubt


def doubt_cap(third_balance: int, unit: int) -> int:
    """The largest legal doubt: 2x the inspector's third-country balance, in whole units (0: none)."""
    return (2 * third_balance // unit) * unit


def trunk_cap(opp_balance: int) -> int:
    """The largest legal trunk: 1億 or the smuggler's opponent-country balance, whichever is less."""
    return min(TRUNK_CAP, opp_balance)


def prize_shares(pool: int, members: int) -> tuple[int, int]:
    """An equal share of `pool` yen for each of `members`, and the remainder kept by the organiser."""
    return pool // members, pool % members
