"""The game registry. Each subpackage of `partygames.games` is one game and exports `GAME`."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from partygames.engine.errors import UnknownGame
from partygames.engine.game import Game


@cache
def _registry() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            game = importlib.import_module(f"{__name__}.{module.name}").GAME
            games[game.id] = game
    return dict(sorted(games.items()))


def all_games() -> list[Game]:
    """Every registered game, by id."""
    return list(_registry().values())


def ids() -> list[str]:
    return list(_registry())


def get(game_id: str) -> Game:
    """The game with this id; raises UnknownGame."""
    try:
        return _registry()[game_id]
    except KeyError:
        known = ", ".join(_registry())
        raise UnknownGame(f"No game {game_id[:40]!r} (games: {known}).",
                          f"ゲーム「{game_id[:40]}」はありません(あるゲーム: {known})。") from None
