"""Bots for the Smuggling Game. All read only their view and legal actions.

Both bots vote alike: the smuggling team sends the member with the most money in the opponent
country (the trunk cap is highest), the inspecting team the member with the most third-country money
(the doubt cap, 2x that balance, is highest); ties go to the lowest seat, so a team's bots agree.
"""

from __future__ import annotations

from random import Random
from typing import Any

from partygames.engine import Action, Bot, Match, Observation, search
from partygames.games.smuggling.analysis import DEFAULT_GRID, solve
from partygames.games.smuggling.rules import SmugglingMatch
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
    """The small game's solution in closed form, and the last small game played for the win.

    With a doubt cap that covers the trunk cap C, the small game's value is C/3 (docs/rules/smuggling.md,
    Analysis): the smuggler packs nothing two times in three and the whole cap otherwise; the inspector
    passes two times in three and doubts the cap otherwise. With a doubt cap below C the full trunk cannot
    be caught: the smuggler packs C and the inspector passes. In the last small game only the win counts:
    ahead or level, the smuggler packs nothing (a doubt can only help it) and the inspector passes; behind,
    the smuggler packs the cap and the inspector doubts it.
    """

    name = "heuristic"

    def act(self, obs: Observation) -> Action:
        kind = obs.legal[0]["type"]
        if kind == "vote":
            return _vote(obs)
        view = obs.view
        unit, trunk_max, doubt = _caps(view)
        last = view["small_game"] == view["small_games"]
        behind = _lead(view) < 0
        if kind == "pack":
            return {"type": "pack", "amount": heuristic_pack(trunk_max, doubt, unit, last, behind, self.rng)}
        amount = heuristic_doubt(trunk_max, doubt, unit, last, behind, self.rng)
        return {"type": "doubt", "amount": amount} if amount else {"type": "pass"}


def heuristic_pack(trunk_max: int, doubt: int, unit: int, last: bool, behind: bool, rng: Random) -> int:
    """The heuristic smuggler's trunk (`doubt`: the largest useful doubt, `_caps`)."""
    if last:
        return trunk_max if behind else 0
    covered = unit <= doubt >= trunk_max
    return trunk_max if not covered or rng.random() < 1 / 3 else 0


def heuristic_doubt(trunk_max: int, doubt: int, unit: int, last: bool, behind: bool, rng: Random) -> int:
    """The heuristic inspector's doubt (0: pass)."""
    if doubt < unit:
        return 0
    if last:
        return doubt if behind else 0
    return doubt if doubt >= trunk_max and rng.random() < 1 / 3 else 0


def _lead(view: dict[str, Any]) -> int:
    """The seat's team's third-country total minus the other team's."""
    totals = view["team_totals"]
    mine = view["my_team"]
    return int(totals[mine] - sum(total for team, total in totals.items() if team != mine))


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


class SearchBot(search.SearchBot):
    """The search bot (`engine/search.py`) with this game's heuristic as prior and rollout policy. The
    determiniser draws a trunk the seat has not seen uniformly; the search redraws it as the heuristic
    smuggler packs (`model`), so that an inspector weighs a doubt against the trunks a player packs."""

    own_memory = False

    def model(self, world: Match, rng: Random) -> None:
        assert isinstance(world, SmugglingMatch)
        smuggler, inspector = world.smuggler, world.inspector
        if world.phase != "inspect" or smuggler is None or inspector is None or smuggler == self.seat:
            return
        before = world.opp[smuggler] + world.trunk
        trunk_max = trunk_cap(before)
        unit = world.opts.unit
        doubt = min(trunk_max, doubt_cap(world.third[inspector], unit))
        totals = world.team_totals()
        team = "north" if smuggler % 2 == 0 else "south"
        behind = totals[team] < sum(total for name, total in totals.items() if name != team)
        last = world.small_game + 1 == world.opts.small_games
        world.trunk = heuristic_pack(trunk_max, doubt, unit, last, behind, rng)
        world.opp[smuggler] = before - world.trunk
