"""Layouts that follow the terminal's width, so that money and names are never cut: `Fit` draws the first of
its layouts that fits the width (two tables side by side, else one above the other)."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement


class Fit:
    """The first of `layouts` whose natural width fits the space it is drawn in (a column's `max_width`
    caps it: words wrap there); the last one where none does (the narrowest: stacked, one column of
    tables)."""

    def __init__(self, *layouts: RenderableType) -> None:
        self.layouts = layouts

    def _choose(self, console: Console, options: ConsoleOptions) -> RenderableType:
        wide = options.update(width=10_000)  # measured at ease: its natural width
        for layout in self.layouts[:-1]:
            if Measurement.get(console, wide, layout).maximum <= options.max_width:
                return layout
        return self.layouts[-1]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._choose(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._choose(console, options))
