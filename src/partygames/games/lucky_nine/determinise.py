"""Lucky Nine matches a seat cannot tell from its own (docs/rules/lucky-nine.md, Determinisation).

Nothing is hidden but the dropper's future: every view shows the whole table, so a sample is the
match rebuilt from the seat's view, with a chance source of its own."""

from __future__ import annotations

import random
from typing import Any

from partygames.engine.knowledge import Determiniser, SeatRecord, Template
from partygames.engine.match import Match


class LuckyNineDeterminiser(Determiniser):
    """The match as the view shows it; only the future draws differ (the sample's own chance)."""

    def __init__(self, record: SeatRecord) -> None:
        super().__init__(record)
        view = self.view
        claim = view["claim"]
        players = view["players"]
        self.state = Template({
            "holdings": [p["diamonds"] for p in players],
            "claimed": [p["prizes"] for p in players],
            "status": [p["status"] for p in players],
            "chests": view["chests"],
            "prizes": view["prizes"],
            "house": view["house"],
            "round": view["round"] - 1,
            "lap": view["lap"] - 1,
            "turn_seat": view["turn_seat"],
            "phase": view["phase"],
            "claim_mode": None if claim is None else claim["mode"],
            "last_draw": view["last_draw"],
            "turn_draws": view["turn_draws"],
            "chain": view["chain"],
            "turn_number": view["turn_number"],
            "termination": None,
            "collected": 0,
        })

    def sample(self, rng: random.Random) -> Match:
        state: dict[str, Any] = self.state.copy()
        return self.assemble(state, rng)
