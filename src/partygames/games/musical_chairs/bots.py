"""Bots for Musical Chairs (placeholder, replaced below)."""

from __future__ import annotations

from partygames.engine import Action, Bot, Observation
from partygames.engine.actions import sample


class HeuristicBot(Bot):
    name = "heuristic"

    def act(self, obs: Observation) -> Action | None:
        return sample(obs.legal, self.rng)
