"""The set-ups a game is sampled with: its golden playthrough, the conformance suite and the benchmark."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Setup:
    """A seat count and options (only those that differ from the defaults) for a sample match."""

    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Conformance:
    """How the conformance suite plays a game: `seeds` random matches at each of `seats` with `options`,
    and again with each of `variants` (option sets that change how the game is played, such as a tempo:
    the label test then sees every action they offer).

    `deep_every` > 1 runs the costly checks (every legal action tried, secrets perturbed) only on one step
    in n, drawn at random, for long games.
    """

    seats: Sequence[int] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    seeds: int = 2
    deep_every: int = 1
    variants: Sequence[Mapping[str, Any]] = ()

    def option_sets(self) -> list[dict[str, Any]]:
        """`options`, then each of `variants`."""
        return [dict(self.options), *(dict(v) for v in self.variants)]

    def seat_counts(self, allowed: Sequence[int]) -> list[int]:
        """`seats`, or else the smallest, a middle and the largest of the `allowed` counts."""
        if self.seats:
            return list(self.seats)
        counts = sorted(allowed)
        return sorted({counts[0], counts[len(counts) // 2], counts[-1]})


@dataclass(frozen=True)
class Samples:
    """A game's sample set-ups.

    `golden`: a short match for `tests/golden/` (None: the smallest seat count, default options).
    `benchmark`: a typical table for `benchmarks/engine_bench.py` (None: the smallest seat count the
    default options allow).
    `rl`: the table of the PettingZoo and OpenSpiel tests and OpenSpiel's default parameters (None: the
    golden one); a real-time game gives its `rounds` tempo here.
    """

    golden: Setup | None = None
    conformance: Conformance = Conformance()
    benchmark: Setup | None = None
    rl: Setup | None = None

    @property
    def research(self) -> Setup | None:
        """The table for the research interfaces: `rl`, else `golden`."""
        return self.rl if self.rl is not None else self.golden
