"""The match's own seeded random source, with a public hook to script outcomes.

Every die, card order and dropper result of a match is drawn here, so that seed plus action log
replays to the same state. The generator is SplitMix64: its whole state is one integer, so a match
serialises to small JSON, and its output does not depend on the Python version.

Tests and analysis script outcomes through :meth:`Chance.script` (no monkey-patching)::

    match.chance.script("die:d6", 3, 5)   # the next two d6 rolls are 3 then 5
    match.chance.script("deck", order)    # the next shuffle of the deck gives exactly `order`
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_LIMITS: dict[int, int] = {}


#: Shuffles of at least this many items draw with NumPy (`Chance._shuffle_vectorised`): below it the
#: arrays cost more than the draws.
VECTOR_SHUFFLE = 24
_C1, _C2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_S27, _S30, _S31 = np.uint64(27), np.uint64(30), np.uint64(31)


@functools.cache
def _vector_tables(length: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """For a shuffle of `length` items: the generator's steps from its state (k times the increment, modulo
    2**64), the range of each draw (length down to 2) and the highest value each accepts (`below`'s
    rejection bound less one, which fits in 64 bits)."""
    count = length - 1
    steps = np.arange(1, count + 1, dtype=np.uint64) * np.uint64(_GOLDEN)  # wraps, as `& _MASK` does
    sizes = np.arange(length, 1, -1, dtype=np.uint64)
    highest = np.array([(_MASK + 1) // n * n - 1 for n in range(length, 1, -1)], dtype=np.uint64)
    return steps, sizes, highest


def seed_to_int(seed: int | str) -> int:
    """Maps any int or string seed to a 64-bit integer."""
    if isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed <= _MASK:
        return seed
    digest = hashlib.sha256(repr(seed).encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Chance:
    """A deterministic random source. Draws are labelled so that tests can script them by label."""

    __slots__ = ("_scripted", "draws", "state")

    def __init__(self, seed: int | str = 0) -> None:
        self.state = seed_to_int(seed)
        self.draws = 0
        self._scripted: dict[str, list[Any]] = {}

    # -- the generator -------------------------------------------------------------------------
    def _next(self) -> int:
        self.state = s = (self.state + _GOLDEN) & _MASK
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        self.draws += 1
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        limit = _LIMITS.get(n)
        if limit is None:
            if n <= 0:
                raise ValueError(f"below() needs n >= 1, got {n}")
            limit = ((_MASK + 1) // n) * n
            if n <= 4096:  # dice, decks and small choices: remember their rejection bound
                _LIMITS[n] = limit
        # `_next` written out (the hot draw of every shuffle and die): the same numbers, one call fewer.
        s = self.state
        while True:
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            self.draws += 1
            if z < limit:
                self.state = s
                return z % n
            self.state = s

    # -- labelled draws ------------------------------------------------------------------------
    def script(self, label: str, *outcomes: Any) -> None:
        """Forces the next draws with this label to give these outcomes, in order.

        A scripted outcome must be one the draw could give; otherwise the draw raises ValueError.
        Scripted draws do not advance the generator.
        """
        self._scripted.setdefault(label, []).extend(outcomes)

    def _forced(self, label: str) -> tuple[bool, Any]:
        queue = self._scripted.get(label)
        if queue:
            value = queue.pop(0)
            if not queue:
                del self._scripted[label]
            return True, value
        return False, None

    def choice(self, label: str, outcomes: Sequence[T]) -> T:
        """One of `outcomes`, each equally likely."""
        forced, value = self._forced(label)
        if forced:
            if value not in outcomes:
                raise ValueError(f"scripted outcome {value!r} for {label!r} is not one of {list(outcomes)!r}")
            return value  # type: ignore[no-any-return]
        return outcomes[self.below(len(outcomes))]

    def randint(self, label: str, low: int, high: int) -> int:
        """A uniform integer in [low, high]."""
        if self._scripted:  # checked inline: this is the hot draw of dice games
            forced, value = self._forced(label)
            if forced:
                if not (isinstance(value, int) and low <= value <= high):
                    raise ValueError(f"scripted outcome {value!r} for {label!r} is not in [{low}, {high}]")
                return value
        return low + self.below(high - low + 1)

    def dice(self, labels: Sequence[str], faces: Sequence[int]) -> list[int]:
        """`randint(labels[i], 1, faces[i])` for each die in turn (a cup of dice thrown together): the same
        outcomes and draws, in one call. Scripted outcomes and another source's draws (a subclass's
        `below`: rl.tape's chance nodes) go die by die through `randint`."""
        if self._scripted or type(self) is not Chance:
            return [self.randint(label, 1, n) for label, n in zip(labels, faces, strict=True)]
        # `below(n)` for each die written out (a dice game's hot draw: a call per die costs more than it). A
        # die whose bound is not known yet, or whose draw `below` would reject (a chance below n / 2**64),
        # and the dice after it, go through `below`.
        s = self.state
        values: list[int] = []
        for n in faces:
            limit = _LIMITS.get(n)
            t = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            z = ((t ^ (t >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            z ^= z >> 31
            if limit is None or z >= limit:
                self.state, self.draws = s, self.draws + len(values)
                return values + [1 + self.below(n) for n in faces[len(values):]]
            s = t
            values.append(1 + z % n)
        self.state, self.draws = s, self.draws + len(values)
        return values

    def bernoulli(self, label: str, p: float) -> bool:
        """True with probability p."""
        if self._scripted:  # checked inline, as in randint: a fall is drawn for every die of every furlong
            forced, value = self._forced(label)
            if forced:
                if not isinstance(value, bool):
                    raise ValueError(f"scripted outcome {value!r} for {label!r} is not a bool")
                return value
        if p <= 0:
            return False
        if p >= 1:
            return True
        return self._next() < int(p * (_MASK + 1))

    def shuffle(self, label: str, items: list[T]) -> None:
        """Shuffles `items` in place (Fisher-Yates). A scripted outcome is the full resulting order."""
        forced, value = self._forced(label)
        if forced:
            if sorted(map(repr, value)) != sorted(map(repr, items)):
                raise ValueError(f"scripted order for {label!r} is not a permutation of the items")
            items[:] = list(value)
            return
        if type(self).below is not Chance.below:  # a source of other draws (rl.tape's chance nodes)
            for i in range(len(items) - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        if len(items) >= VECTOR_SHUFFLE and self._shuffle_vectorised(items):
            return
        # `below(i + 1)` for each i, written out (a deck's shuffle is most of a short match's set-up): the
        # same draws, without a call per card.
        s, draws = self.state, self.draws
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS.get(n)
            if limit is None:
                limit = ((_MASK + 1) // n) * n
                if n <= 4096:
                    _LIMITS[n] = limit
            while True:
                s = (s + _GOLDEN) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                draws += 1
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state, self.draws = s, draws

    def _shuffle_vectorised(self, items: list[Any]) -> bool:
        """`shuffle`'s draws computed at once with NumPy's wrapping 64-bit integers: the same numbers,
        about twice as fast for a deck of 52 (a draw in Python integers costs about 0.4 µs). False, with
        nothing changed, when a draw would be rejected (a chance below n / 2**64 per draw): the loop then
        draws them one by one."""
        steps, sizes, highest = _vector_tables(len(items))
        s = steps + np.uint64(self.state)
        z = (s ^ (s >> _S30)) * _C1
        z = (z ^ (z >> _S27)) * _C2
        z ^= z >> _S31
        if not (z <= highest).all():
            return False
        for i, j in zip(range(len(items) - 1, 0, -1), (z % sizes).tolist(), strict=True):
            items[i], items[j] = items[j], items[i]
        self.state = int(s[-1])
        self.draws += len(items) - 1
        return True

    def copy(self) -> Chance:
        """An independent copy: the same state, draws and scripted outcomes."""
        other = Chance.__new__(Chance)
        other.state, other.draws = self.state, self.draws
        other._scripted = {k: list(v) for k, v in self._scripted.items()} if self._scripted else {}
        return other

    # -- serialisation -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "draws": self.draws, "scripted": {k: list(v) for k, v in self._scripted.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Chance:
        chance = cls(0)
        chance.state = int(data["state"])
        chance.draws = int(data["draws"])
        chance._scripted = {k: list(v) for k, v in data.get("scripted", {}).items()}
        return chance
