"""Tournaments: several games played in one room by the same people, with a yen ledger across them
(engine/tournament.py). Each module declares one; `all_tournaments()` lists them."""

from __future__ import annotations

from partygames.engine.tournament import Tournament


def all_tournaments() -> dict[str, Tournament]:
    from partygames.tournaments import liar_game

    return {t.id: t for t in (liar_game.NIGHT,)}
