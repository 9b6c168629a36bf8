"""Monte Carlo house edge of whole Lucky Nine games, by variant.

A whole game is far too large to solve exactly (every player's holdings, all nine chests, the
round and turn position), so the house edge is estimated by playing seeded games through the real
rules engine, every seat playing the heuristic policy (optionally never dropping out).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from partygames.games.lucky_nine.bots import continue_value, should_drop_out
from partygames.games.lucky_nine.rules import LuckyNineMatch

VARIANTS: dict[str, dict[str, Any]] = {
    "none": {},
    "a: triple diamond": {"triple_diamond": True},
    "b: sweep bonus": {"sweep_bonus": True},
    "c: no repeat": {"no_repeat": True},
    "d: chain bonus": {"chain_bonus": True},
}
Z95 = 1.959964


@dataclass(frozen=True)
class HouseEdge:
    """The house's result per game and per diamond the players paid on misses, with 95% intervals."""

    games: int
    net_per_game: float
    net_half_width: float
    paid_per_game: float
    edge: float  # house net / diamonds paid on misses
    edge_half_width: float

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "house_net_per_game": self.net_per_game,
                "house_net_ci95": [self.net_per_game - self.net_half_width, self.net_per_game + self.net_half_width],
                "paid_on_misses_per_game": self.paid_per_game, "edge": self.edge,
                "edge_ci95": [self.edge - self.edge_half_width, self.edge + self.edge_half_width]}


def _policy_view(match: LuckyNineMatch) -> dict[str, Any]:
    """The few view fields the heuristic policy reads, built straight from the state (fast)."""
    o = match.options
    return {"variants": {"triple_diamond": o.triple_diamond, "sweep_bonus": o.sweep_bonus,
                         "no_repeat": o.no_repeat, "chain_bonus": o.chain_bonus},
            "chests": match.chests, "stake": match.stake, "chain": match.chain, "last_draw": match.last_draw,
            "lap": match.lap + 1, "laps": match.laps, "round": match.round + 1, "rounds": o.rounds,
            "stakes": list(o.stakes)}


def play_house_game(seats: int, options: dict[str, Any], seed: int, drop_out: bool = True) -> tuple[int, int]:
    """Plays one game with every seat on the heuristic policy; returns (house net, paid on misses)."""
    match = LuckyNineMatch(seats, options, seed)
    paid = 0
    while match.phase != "over":
        seat = match.turn_seat
        phase = match.phase
        if phase == "press":
            action = {"type": "press"}
        elif phase == "decide":
            action = {"type": "continue" if continue_value(_policy_view(match)) > 0 else "pass"}
        elif phase == "dropout":
            leave = drop_out and should_drop_out(_policy_view(match), seat)
            action = {"type": "drop_out" if leave else "stay"}
        else:
            action = {"type": "claim", "kind": match.diamond_chest_kinds()[0]}
        for event in match.apply(seat, action):
            if event.type == "pay":
                paid += sum(event.data["paid"].values())
    return match.house, paid


def house_edge(seats: int, options: dict[str, Any], games: int, seed: int = 0, drop_out: bool = True,
               progress: Callable[[], None] | None = None) -> HouseEdge:
    """Estimates the house edge over `games` seeded games (seeds seed, seed+1, ...)."""
    nets: list[float] = []
    paids: list[float] = []
    for i in range(games):
        net, paid = play_house_game(seats, options, seed + i, drop_out)
        nets.append(net)
        paids.append(paid)
        if progress is not None:
            progress()
    n = len(nets)
    mean_net = sum(nets) / n
    mean_paid = sum(paids) / n
    net_var = sum((x - mean_net) ** 2 for x in nets) / max(1, n - 1)
    edge = mean_net / mean_paid if mean_paid else math.nan
    # Delta method for a ratio of means: the residuals net - edge * paid.
    resid = [x - edge * p for x, p in zip(nets, paids, strict=True)]
    resid_var = sum(r * r for r in resid) / max(1, n - 1)
    edge_half = Z95 * math.sqrt(resid_var / n) / mean_paid if mean_paid else math.nan
    return HouseEdge(n, mean_net, Z95 * math.sqrt(net_var / n), mean_paid, edge, edge_half)
