"""Who wins Musical Chairs: win rates by starting spot and by bribery budget over simulated matches.

Every seat plays the heuristic bot in the rounds tempo. A player's starting spot is ranked by its
distance from the totem (1: nearest), since every race begins with a run to the totem; the bribery
budget is how many of its own medals a player gives to ガヤ each break (`HeuristicBot.budget`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from partygames.analysis.stats import error_bars, wilson_interval
from partygames.engine import Bot
from partygames.engine.session import play
from partygames.games.musical_chairs.bots import HeuristicBot
from partygames.games.musical_chairs.island import distance
from partygames.games.musical_chairs.rules import MusicalChairsMatch

DEFAULT_OPTIONS: dict[str, Any] = {"tempo": "rounds"}


@dataclass(frozen=True)
class Rate:
    """Wins out of matches for one group, with its 95% Wilson interval."""

    group: int
    wins: int
    played: int

    @property
    def rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = wilson_interval(self.wins, self.played)
        return {"group": self.group, "wins": self.wins, "played": self.played, "rate": self.rate,
                "ci95": [low, high]}


def _bot(budget: int) -> type[Bot]:
    return type(f"HeuristicBot{budget}", (HeuristicBot,), {"budget": budget})


def _play(seed: int, options: dict[str, Any], budgets: Sequence[int]) -> MusicalChairsMatch:
    from partygames.games import get

    game = get("musical-chairs")
    seats = game.options_class.parse(options).participants  # type: ignore[attr-defined]
    bots = [_bot(budgets[s % len(budgets)])(s, seed * 1000 + s) for s in range(seats)]
    match, _ = play(game, seats, bots, options, seed)
    assert isinstance(match, MusicalChairsMatch)
    return match


def win_rates(matches: int, options: dict[str, Any] | None = None, budgets: Sequence[int] = (0, 1, 2, 4),
              seed: int = 0, progress: Callable[[], None] | None = None) -> tuple[list[Rate], list[Rate]]:
    """(by starting-spot rank, by budget) over `matches` seeded matches; budgets rotate over the seats.
    `progress` is called after each match."""
    options = {**DEFAULT_OPTIONS, **(options or {})}
    spots: dict[int, list[int]] = {}
    by_budget: dict[int, list[int]] = {b: [0, 0] for b in budgets}
    for i in range(matches):
        rotated = [budgets[(k + i) % len(budgets)] for k in range(len(budgets))]
        match = _play(seed + i, options, rotated)
        players = match.options.players_list
        totem = match.island.totem
        ranked = sorted(players, key=lambda p: (distance(match.people[p]["start"], totem), p))
        for rank, player in enumerate(ranked, 1):
            won = int(match.winner == player)
            spot = spots.setdefault(rank, [0, 0])
            spot[0] += won
            spot[1] += 1
            budget = rotated[player % len(rotated)]
            by_budget[budget][0] += won
            by_budget[budget][1] += 1
        if progress is not None:
            progress()
    return ([Rate(r, w, n) for r, (w, n) in sorted(spots.items())],
            [Rate(b, w, n) for b, (w, n) in sorted(by_budget.items())])


def plot(spots: list[Rate], budgets: list[Rate], path: Path) -> Path:
    """Saves a PNG: win rate by starting-spot rank and by bribery budget, with 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for axis, rates, title, xlabel in ((left, spots, "by starting spot", "distance rank from the totem (1 nearest)"),
                                       (right, budgets, "by bribery budget", "own medals given to the gallery per break")):
        errors = error_bars([(r.rate, *r.to_json()["ci95"]) for r in rates])
        axis.bar([str(r.group) for r in rates], [r.rate for r in rates], yerr=errors, color="tab:orange", capsize=4)
        axis.set_title(f"Win rate {title}")
        axis.set_xlabel(xlabel)
        axis.set_ylabel("win rate")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
