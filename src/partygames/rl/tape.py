"""Chance as explicit chance nodes: a random source whose draws come from a tape of outcomes chosen
outside the match (by OpenSpiel's chance player), and which stops the match at the first draw past it.

Every draw of the engine reduces to `below(n)` (uniform over 0..n-1: dice, choices, each step of a
shuffle) or `bernoulli(p)`; each is one chance node. A step that needs chance is tried on a copy of the
match with the outcomes chosen so far; the first draw past them raises `NeedChance` with its outcomes
and their probabilities, and the copy is thrown away.
"""

from __future__ import annotations

from fractions import Fraction

from partygames.engine.chance import Chance


class NeedChance(Exception):
    """The next draw's outcomes as `(outcome, probability)` pairs."""

    def __init__(self, outcomes: list[tuple[int, float]]) -> None:
        super().__init__(f"a chance node with {len(outcomes)} outcomes")
        self.outcomes = outcomes


class TapeChance(Chance):
    """Draws from `tape` in order; past its end, raises NeedChance. `largest` bounds `below(n)`."""

    __slots__ = ("largest", "position", "tape")

    def __init__(self, tape: list[int], largest: int) -> None:
        super().__init__(0)
        self.tape = tape
        self.position = 0
        self.largest = largest

    def _take(self, outcomes: list[tuple[int, float]]) -> int:
        if self.position < len(self.tape):
            value = self.tape[self.position]
            self.position += 1
            self.draws += 1
            return value
        raise NeedChance(outcomes)

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, got {n}")
        if n == 1:
            return 0  # no choice: not a chance node
        if n > self.largest:
            raise ValueError(f"a draw among {n} outcomes exceeds the declared {self.largest}")
        return self._take([(i, 1.0 / n) for i in range(n)])

    def bernoulli(self, label: str, p: float) -> bool:
        forced, value = self._forced(label)
        if forced:
            return bool(value)
        if p <= 0:
            return False
        if p >= 1:
            return True
        # The engine draws True with probability int(p * 2**64) / 2**64: the same here, exactly.
        exact = float(Fraction(int(p * (1 << 64)), 1 << 64))
        return self._take([(0, 1.0 - exact), (1, exact)]) == 1
