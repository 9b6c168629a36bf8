"""A room's series of matches: what the next match is, once one is over.

The same seats, people and bots play again with a new seed: the same game with the same options, a
game that follows the finished one (`Game.follows`) with the options it derives from that result, or any
other game that seats them, with its default options fitted to the seat count. A bot
kind the next game lacks becomes its heuristic bot (or its first); the room says so (`bots_replaced`, from
what the seat stores: `seats.bot_was`). Stand-ins
end with the match: the next one begins without them. The finished match is kept in
`matches` in the same write that starts the next one. Pure: the seed and the time are passed in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from partygames.engine.errors import InvalidOptions
from partygames.engine.game import Game
from partygames.engine.match import Match
from partygames.engine.options import Options
from partygames.engine.text import Text
from partygames.server import storage as db
from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.frames import dumps
from partygames.server.seats import SeatInfo, bot_kinds
from partygames.server.storage import Write


@dataclass(frozen=True)
class Finished:
    """A room's match that is over, as the room holds it."""

    room: str  # the room's code
    number: int  # the room's matches are numbered 1, 2, ...
    game: Game
    options: Options
    match: Match
    started_at: float
    last_seq: int  # the stored `seq` of its last log entry


@dataclass(frozen=True)
class NextMatch:
    options: Options
    bots: dict[int, str]  # seat -> the bot kind it plays from now on, where it changes
    bot_was: dict[int, str]  # those seats -> what they played before, stored as `seats.bot_was`
    write: Write


def next_games(current: Game, games: Mapping[str, Game], seats: int | None = None) -> list[str]:
    """The games the same people may play next: this one again, then those that declare they follow it, then
    (given the room's `seats`) every other game whose default options, fitted to the seat count, seat them
    ("next game, same people")."""
    following = [g.id for g in games.values() if current.id in g.follows and g.id != current.id]
    others = [] if seats is None else [g.id for g in games.values() if g.id != current.id and g.id not in following
                                       and seats in _default_counts(g)]
    return [current.id, *following, *others]


def unseatable(current: Game, games: Mapping[str, Game], seats: int) -> list[tuple[str, Text]]:
    """The games a room of `seats` cannot go on to, each with why (what its seat counts are)."""
    return [(g.id, why) for g in games.values() if g.id != current.id and current.id not in g.follows
            and seats not in _default_counts(g) and (why := _refusal(g, seats)) is not None]


_COUNTS: dict[str, frozenset[int]] = {}
_REFUSALS: dict[tuple[str, int], Text | None] = {}


def _refusal(game: Game, seats: int) -> Text | None:
    """`Game.seats_refusal`, worked out once per game and seat count."""
    key = (game.id, seats)
    if key not in _REFUSALS:
        _REFUSALS[key] = game.seats_refusal(seats)
    return _REFUSALS[key]


def _default_counts(game: Game) -> frozenset[int]:
    """The seat counts `game`'s default options take (each fitted to the count), worked out once per game: a
    finished room's JSON asks for every game's."""
    counts = _COUNTS.get(game.id)
    if counts is None:
        counts = _COUNTS[game.id] = frozenset(game.room_seat_counts(None))
    return counts


def replacement_bots(game: Game, seats: Sequence[SeatInfo]) -> dict[int, str]:
    """The bot seats whose kind `game` lacks, each with the kind it plays there instead."""
    lacking = [seat for seat, kind in bot_kinds(seats).items() if kind not in game.bots]
    if not lacking:
        return {}
    instead = "heuristic" if "heuristic" in game.bots else next(iter(game.bots))
    return dict.fromkeys(lacking, instead)


def plan_next(finished: Finished, game: Game, seats: Sequence[SeatInfo], seed: int, now: float,
              given: Mapping[str, Any] | None = None) -> NextMatch:
    """The next match of `game` after `finished`, and the write that keeps one and starts the other;
    refused (ServerError) when `game` cannot be played by these seats. `given`: options a tournament's stage
    sets besides (`Game.options_after`)."""
    result = finished.match.result()
    assert result is not None, "the match is not over"
    try:
        options = game.options_after(finished.game, result, finished.options, finished.match.seats, given)
    except InvalidOptions as error:
        raise ServerError(Code.OPTIONS_INVALID, error.en, error.ja, 422) from None
    bots = replacement_bots(game, seats)
    bot_was = {seat: dumps({"bot": seats[seat].bot, "game": finished.game.id}) for seat in bots}
    write = Write(inserts=[(db.matches, {
        "room": finished.room, "number": finished.number, "game": finished.game.id,
        "options": dumps(finished.options.to_json()), "seed": dumps(finished.match.seed),
        "bots": dumps(list(finished.match.bot_seats)), "started_at": finished.started_at,
        "result": dumps(result.to_json()), "last_seq": finished.last_seq})],
        updates=[(db.rooms, {"code": finished.room}, {
            "game": game.id, "options": dumps(options.to_json()), "status": "playing", "seed": dumps(seed),
            "started_at": now, "result": None})]
        + [(db.seats, {"room": finished.room, "seat": seat}, {"bot": kind, "bot_was": bot_was[seat]})
           for seat, kind in bots.items()]
        # What a seat played before is said for the match that replaced it only.
        + [(db.seats, {"room": finished.room, "seat": seat}, {"bot_was": None})
           for seat, info in enumerate(seats) if info.bot_was is not None and seat not in bots]
        # The next match starts without stand-ins: its people have its grace to come back (docs/server.md).
        + [(db.seats, {"room": finished.room, "seat": seat}, {"standin": None})
           for seat, info in enumerate(seats) if info.standin is not None])
    return NextMatch(options, bots, bot_was, write)
