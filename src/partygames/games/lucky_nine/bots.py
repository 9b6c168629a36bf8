"""The heuristic bot: the exact optimal stop rule of one turn, and dropping out only with the lead."""

from __future__ import annotations

from typing import Any

from partygames.engine import Action, Bot, Observation, search
from partygames.games.lucky_nine.analysis import solver

NON_DIAMOND = ("wood", "stone", "coal", "iron", "lapis", "redstone", "gold", "emerald")


def lit_count(chests: dict[str, int]) -> int:
    """Lit chests besides the diamond chest."""
    return sum(1 for c in NON_DIAMOND if chests[c] > 0)


def continue_value(view: dict[str, Any]) -> float:
    """Expected gain of pressing now and stopping optimally afterwards (exact without variant c)."""
    variants = view["variants"]
    chests = view["chests"]
    solve = solver(view["stake"], variants["triple_diamond"], variants["sweep_bonus"], variants["chain_bonus"])
    k, d, chain = lit_count(chests), chests["diamond"], view["chain"]
    last = view["last_draw"]
    if variants["no_repeat"] and last is not None:
        excluded = "diamond" if last == "diamond" else ("lit" if chests[last] > 0 else "empty")
        return solve.cont_excluding(k, d, excluded, chain)
    return float(solve.cont(k, d, chain))


def next_stake(view: dict[str, Any]) -> int:
    """The stake of this seat's next turn."""
    last_lap_of_round = view["lap"] == view["laps"]
    if last_lap_of_round and view["round"] < view["rounds"]:
        return int(view["stakes"][view["round"]])
    return int(view["stake"])


def should_drop_out(view: dict[str, Any], seat: int) -> bool:
    """Drops out when a turn started on the present board would lose at the next turn's stake:
    every turn starts with a forced press, so staying in on a poor board only gives diamonds away."""
    variants = view["variants"]
    chests = view["chests"]
    solve = solver(next_stake(view), variants["triple_diamond"], variants["sweep_bonus"], variants["chain_bonus"])
    return solve.cont(lit_count(chests), chests["diamond"]) < 0


class HeuristicBot(Bot):
    """Continues exactly when the turn model says continuing beats passing; claims the most valuable
    kind; stays in while another player holds as much as it does (only the most diamonds win, and a
    player who drops out can no longer catch up); with the lead, drops out when nobody else is still
    playing (the lead is then final) or when a fresh turn on the present board loses on average."""

    name = "heuristic"

    def act(self, obs: Observation) -> Action:
        types = [s["type"] for s in obs.legal]
        if types == ["press"]:
            return {"type": "press"}
        view = obs.view
        if "continue" in types:
            return {"type": "continue" if continue_value(view) > 0 else "pass"}
        if "drop_out" in types:
            return {"type": "drop_out" if self._drop_out(view) else "stay"}
        return {"type": "claim", "kind": best_claim(view, obs.legal[0]["params"]["kind"]["choice"])}

    def _drop_out(self, view: dict[str, Any]) -> bool:
        scores = player_scores(view)
        others = [p for p in view["players"] if p["seat"] != self.seat]
        if scores[self.seat] <= max(scores[p["seat"]] for p in others):
            return False  # behind or level: only staying in can still win
        if all(p["status"] != "active" for p in others):
            return True  # the lead is final
        return should_drop_out(view, self.seat)


def player_scores(view: dict[str, Any]) -> dict[int, float]:
    """Each player's score as the result ranks it: diamonds plus the value of claimed prizes."""
    values: dict[str, int] = view.get("prize_values", {})
    return {p["seat"]: p["diamonds"] + sum(values.get(k, 0) * n for k, n in p["prizes"].items())
            for p in view["players"]}


def best_claim(view: dict[str, Any], kinds: list[str]) -> str:
    """The kind worth the most diamonds (prizes count at their set value)."""
    slot = view["claim"] is not None and view["claim"]["mode"] == "slot"
    values = {p: 0 for p in kinds}
    prize_values: dict[str, int] = view.get("prize_values", {})
    for kind in kinds:
        if kind == "diamond":
            d = view["chests"]["diamond"]
            values[kind] = min(64, d) if slot else d
        else:
            count = 1 if slot else view["prizes"][kind]
            values[kind] = prize_values.get(kind, 0) * count
    return max(kinds, key=lambda kind: values[kind])


class SearchBot(search.SearchBot):
    """The search bot (`engine/search.py`) with this game's heuristic as rollout policy and prior."""
