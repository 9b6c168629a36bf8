"""Bots for the Pandemic Game (placeholder replaced below)."""

from __future__ import annotations

from partygames.engine import RandomBot


class HeuristicBot(RandomBot):
    pass
