"""Bots for the Smuggling Game. All read only their view and legal actions.

Both bots vote alike: the smuggling team sends the member with the most money in the opponent
country (the trunk cap is highest), the inspecting team the member with the most third-country money
(the doubt cap, 2x that balance, is highest); ties go to the lowest seat, so a team's bots agree.
"""

from __future__ import annotations

from typing import Any

from partygames.engine import Action, Bot, Observation
from partygames.games.smuggling.analysis import DEFAULT_GRID, solve
from partygames.games.smuggling.settlement import doubt_cap, trunk_cap


def _vote(obs: Observation) -> Action:
    view = obs.view
    candidates: list[int] = obs.legal[0]["params"]["candidate"]["choice"]
    smuggling = view["my_team"] == view["smuggling_team"]
    key = "opp" if smuggling else "third"
    best = max(candidates, key=lambda s: (view["accounts"][s][key], -s))
    return {"type": "vote", "candidate": best}


def _caps(view: dict[str, Any]) -> tuple[int, int, int]:
    """The unit, the trunk cap and the largest useful doubt of this small game (all public before
    packing). A doubt above the trunk cap catches nothing more, so the doubt is capped at both."""
    accounts = view["accounts"]
    smuggler, inspector = view["smuggler"], view["inspector"]
    # The smuggler's own view shows the balance after packing; others see it as before packing.
    trunk = view["trunk"] or 0
    trunk_max = trunk_cap(accounts[smuggler]["opp"] + trunk)
    return view["unit"], trunk_max, min(trunk_max, doubt_cap(accounts[inspector]["third"], view["unit"]))


def _on_unit(amount: int, unit: int) -> int:
    return amount // unit * unit


class HeuristicBot(Bot):
    """A plain player: go big or play it safe when smuggling, doubt everything or nothing when inspecting.

    Smuggler: half the time the full trunk cap, otherwise half of it (never an empty trunk: it pays only
    when doubted). Inspector: half the time doubts the trunk cap (catches any trunk), otherwise passes.
    """

    name = "heuristic"

    def act(self, obs: Observation) -> Action:
        kind = obs.legal[0]["type"]
        if kind == "vote":
            return _vote(obs)
        unit, trunk_max, doubt = _caps(obs.view)
        if kind == "pack":
            amount = trunk_max if self.rng.random() < 0.5 else _on_unit(trunk_max // 2, unit)
            return {"type": "pack", "amount": amount}
        if doubt >= unit and self.rng.random() < 0.5:
            return {"type": "doubt", "amount": doubt}
        return {"type": "pass"}


class EquilibriumBot(Bot):
    """Samples from the small game's optimal mixed strategies (LP on a grid, cached per pair of caps)."""

    name = "equilibrium"
    grid = DEFAULT_GRID

    def act(self, obs: Observation) -> Action:
        kind = obs.legal[0]["type"]
        if kind == "vote":
            return _vote(obs)
        unit, trunk_max, doubt_max = _caps(obs.view)
        grid = max(unit, _on_unit(self.grid, unit))  # every grid point must be a legal amount
        solution = solve(trunk_max, doubt_max, grid)
        if kind == "pack":
            amount = self.rng.choices(solution.trunks, weights=solution.smuggler)[0]
            return {"type": "pack", "amount": amount}
        doubt = self.rng.choices(solution.doubts, weights=solution.inspector)[0]
        return {"type": "doubt", "amount": doubt} if doubt else {"type": "pass"}
