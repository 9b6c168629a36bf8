"""Analysis of the Pandemic Game: the exact posterior over a played match (public, and a seat's own), and
the pass rates of the bot strategies (heuristic, cautious, greedy, checker, random) over simulated matches."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from partygames.analysis.stats import error_bars, wilson_interval
from partygames.analysis.tournament import play_series
from partygames.engine.game import Game
from partygames.engine.log import MatchLog
from partygames.engine.session import replay
from partygames.engine.text import Text
from partygames.games.pandemic.odds import Worlds

STRATEGIES = ("heuristic", "cautious", "greedy", "checker", "random")

class Undetermined(ValueError):
    """A match whose public log does not determine the odds (`text`: why, in both languages)."""

    text = Text("contacts or presses were private in this match: the public log does not determine it",
                "この対戦では接触かスイッチが非公開だったため、公開ログだけでは感染確率が決まりません")

    def __init__(self) -> None:
        super().__init__(self.text.en)


@dataclass(frozen=True)
class Moment:
    """The probabilities that each seat is infected, after one entry of the log (None: before any)."""

    t: int
    entry: dict[str, Any] | None
    public: list[Fraction | None]
    own: list[Fraction | None] | None

    def to_json(self) -> dict[str, Any]:
        return {"t": self.t, "entry": self.entry, "public": _floats(self.public),
                "own": None if self.own is None else _floats(self.own)}


def _floats(values: list[Fraction | None]) -> list[float | None]:
    return [None if v is None else float(v) for v in values]


def posterior(game: Game, log: MatchLog, seat: int | None = None) -> list[Moment]:
    """The exact infection probabilities after every public contact and press of a saved match, from the
    public log alone, and (for `seat`) also given that seat's own readings. Needs public contacts and presses:
    otherwise raises Undetermined."""
    match = replay(game, log)
    view = match.view(seat)
    if view["odds"] is None:
        raise Undetermined
    worlds = Worlds(view["seats"], view["infected_at_start"])
    readings = sorted(view.get("readings", []) if seat is not None else [], key=lambda r: r["after"])
    moments = [Moment(0, None, worlds.probabilities(None), None if seat is None else worlds.probabilities(seat))]
    pending = 0
    for index, entry in enumerate(view["log"]):
        while pending < len(readings) and readings[pending]["after"] <= index:
            assert seat is not None
            worlds.check(seat, readings[pending]["infected"], readings[pending]["vaccines"])
            pending += 1
        worlds.apply(entry)
        moments.append(Moment(entry["t"], dict(entry), worlds.probabilities(None),
                              None if seat is None else worlds.probabilities(seat)))
    if seat is not None:
        for reading in readings[pending:]:
            worlds.check(seat, reading["infected"], reading["vaccines"])
        moments.append(Moment(view["time"], None, worlds.probabilities(None), worlds.probabilities(seat)))
    return moments


@dataclass(frozen=True)
class Rate:
    kind: str
    passed: int
    seats: int

    @property
    def share(self) -> float:
        return self.passed / self.seats if self.seats else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.passed, self.seats)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval()
        return {"strategy": self.kind, "passed": self.passed, "seats": self.seats, "pass_rate": self.share,
                "pass_rate_ci95": [low, high]}


def pass_rates(game: Game, matches: int, seats: int, kinds: tuple[str, ...] = STRATEGIES, seed: int = 0,
               options: dict[str, Any] | None = None, progress: Callable[[], None] | None = None) -> list[Rate]:
    """How often each strategy qualifies when they share tables (kinds cycle over the seats, shifted every
    match), in the rounds tempo unless `options` say otherwise. `progress` is called after each match."""
    counts = {kind: [0, 0] for kind in kinds}
    for played in play_series(game, matches, seats, kinds, seed, {"tempo": "rounds", **(options or {})}):
        for result in played.result.seats:
            entry = counts[played.kinds[result.seat]]
            entry[0] += result.is_winner
            entry[1] += 1
        if progress is not None:
            progress()
    return [Rate(kind, passed, total) for kind, (passed, total) in counts.items()]


def plot(rates: list[Rate], path: Path, title: str) -> Path:
    """Saves a bar chart of the pass rates with their 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(figsize=(7, 4))
    shares = [r.share for r in rates]
    axes.bar([r.kind for r in rates], shares, yerr=error_bars([(r.share, *r.interval()) for r in rates]), capsize=4,
             color="tab:green")
    axes.set_ylim(0, 1)
    axes.set_ylabel("share of seats that qualified")
    axes.set_title(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
