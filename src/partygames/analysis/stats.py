"""Small statistics helpers for simulation reports."""

from __future__ import annotations

import math
from collections.abc import Sequence


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float], z: float = 1.959964) -> tuple[float, float, float]:
    """Mean and a normal-approximation confidence interval (mean, low, high)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def ratio_interval(numerators: list[float], denominators: list[float],
                   z: float = 1.959964) -> tuple[float, float, float]:
    """The ratio of sums Σa / Σb over independent units (one pair a, b per unit, e.g. per match) and a
    normal-approximation confidence interval by the delta method (ratio, low, high)."""
    n = len(numerators)
    total = sum(denominators)
    if n == 0 or total == 0:
        return (math.nan, math.nan, math.nan)
    ratio = sum(numerators) / total
    if n == 1:
        return (ratio, ratio, ratio)
    mean_b = total / n
    # Each unit's influence on the ratio: (a - ratio * b) / mean(b).
    residuals = [(a - ratio * b) / mean_b for a, b in zip(numerators, denominators, strict=True)]
    var = sum(r * r for r in residuals) / (n - 1)
    half = z * math.sqrt(var / n)
    return (ratio, ratio - half, ratio + half)


def error_bars(intervals: Sequence[tuple[float, float, float]]) -> list[list[float]]:
    """matplotlib's `yerr` for (value, low, high) intervals: the distances below and above each value,
    never negative (at a rate of 0 or 1 a bound can miss the value by a rounding error, which matplotlib
    refuses)."""
    return [[max(0.0, v - lo) for v, lo, _ in intervals], [max(0.0, hi - v) for v, _, hi in intervals]]
