"""Server-side bots: each bot seat acts after a think delay, seeing only what its seat may see."""

from __future__ import annotations

import hashlib
import logging
import random
from functools import partial
from typing import TYPE_CHECKING

from partygames.engine.actions import Action, sample
from partygames.engine.bots import Bot, Observation
from partygames.engine.game import Game

if TYPE_CHECKING:
    from partygames.server.rooms import Room

log = logging.getLogger(__name__)


def bot_seed(room_seed: object, seat: int) -> int:
    """A bot's seed, derived from the match seed so a restarted server builds the same bot."""
    digest = hashlib.sha256(f"{room_seed!r}:bot:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def make_bots(game: Game, kinds: dict[int, str], room_seed: object) -> dict[int, Bot]:
    return {seat: game.make_bot(kind, seat, bot_seed(room_seed, seat)) for seat, kind in kinds.items()}


def choose(bot: Bot, room: Room, seat: int) -> Action:
    """The bot's action; a bot that crashes is replaced by a random legal action (the room does the
    same for an illegal one, so a bot bug never stalls a match)."""
    match = room.match
    assert match is not None
    legal = match.legal_actions(seat)
    try:
        return bot.act(Observation(seat, legal, partial(match.view, seat)))
    except Exception:
        log.exception("bot %s at seat %d of room %s failed; playing a random legal action", bot.name, seat, room.code)
        return fallback(room, seat)


def fallback(room: Room, seat: int) -> Action:
    match = room.match
    assert match is not None
    return sample(match.legal_actions(seat), random.Random(bot_seed(room.seed, seat) + match.version))
