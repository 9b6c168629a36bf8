"""The game registry: each subpackage of `partygames.games` is one game, exports `GAME`, and is listed here."""

from __future__ import annotations

from functools import cache

from partygames.engine.errors import UnknownGame
from partygames.engine.game import Game
from partygames.engine.text import Text

PLANNED = 7
"""How many games the platform is for (one per seed in shared/seeds); `all_games()` are those playable now."""

@cache
def _registry() -> dict[str, Game]:
    # Imported on first use: importing any one game imports this package first, and should not load all.
    from partygames.games import (
        dice_derby,
        last_man_standing,
        lucky_nine,
        musical_chairs,
        pandemic,
        quiz,
        smuggling,
    )

    games = (dice_derby.GAME, last_man_standing.GAME, lucky_nine.GAME, musical_chairs.GAME, pandemic.GAME, quiz.GAME,
             smuggling.GAME)
    return {game.id: game for game in sorted(games, key=lambda game: game.id)}


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


def availability() -> Text:
    """What exists now, for help texts: "4 of the 7 games are playable: …"."""
    titles = [game.title for game in all_games()]
    return Text(f"{len(titles)} of the {PLANNED} games are playable now: {', '.join(t.en for t in titles)}.",
                f"全{PLANNED}種のうち現在遊べるのは{len(titles)}種: {'、'.join(t.ja for t in titles)}。")
