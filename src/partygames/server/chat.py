"""Chat channels: `public` for everyone, plus the channels a game declares for teams, pairs or moments.

A game declares them in `Game.chat` (`engine.game.ChatRules`):

- `fixed`: `(seats, options) -> {channel: [seats]}`, fixed for the room (teams, pairs).
  Always open: a member may post and read.
- `during_match`: `(match) -> {channel: {"members": [seats], "open": bool}}`, evaluated on
  the match's current state whenever a message is posted, history is read or the match moves (for
  example a room two players share during one phase). Members read the channel, its history
  included; they may post only while `open` is true. A channel the hook no longer lists is gone.
- `direct`: private messages between any two seats, on the channel `dm:<i>:<j>` (i < j). It exists
  once someone posts to it: nothing is listed or computed per pair beforehand.

Spectators have `public` only. A room's `RoomChat` holds its channels and the messages kept.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from partygames.engine.game import Game
from partygames.engine.match import Match
from partygames.engine.options import Options
from partygames.server import storage as db
from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.storage import Write
from partygames.server.text import escape

log = logging.getLogger(__name__)

PUBLIC = "public"
DIRECT = re.compile(r"dm:(0|[1-9][0-9]?):(0|[1-9][0-9]?)")
ChannelHook = Callable[[int, Options], Mapping[str, Sequence[int]]]
MatchChannelHook = Callable[[Match], Mapping[str, Mapping[str, Any]]]


@dataclass(frozen=True)
class Channel:
    """Who reads a channel (`members`) and whether they may post to it now."""

    members: tuple[int, ...]
    open: bool = True


@dataclass(frozen=True)
class Channels:
    """A room's channels besides `public` now: the named ones (fixed and the match's), and, when the
    game allows private messages, a direct channel for each pair of its `direct_seats` seats."""

    named: Mapping[str, Channel] = field(default_factory=dict)
    direct_seats: int = 0  # 0: no private messages

    def get(self, name: str) -> Channel | None:
        found = self.named.get(name)
        if found is None and self.direct_seats:
            pair = DIRECT.fullmatch(name)
            if pair is not None:
                i, j = int(pair[1]), int(pair[2])
                if i < j < self.direct_seats:
                    return Channel((i, j))
        return found


def direct_channel(a: int, b: int) -> str:
    """The private channel of two seats."""
    return f"dm:{min(a, b)}:{max(a, b)}"


def channel_map(game: Game, seats: int, options: Options) -> dict[str, Channel]:
    """The room's fixed channels (`ChatRules.fixed`)."""
    hook: ChannelHook | None = game.chat.fixed
    if hook is None:
        return {}
    return {str(name): Channel(tuple(members)) for name, members in hook(seats, options).items() if name != PUBLIC}


def has_match_channels(game: Game) -> bool:
    return game.chat.during_match is not None


def current_channels(game: Game, seats: int, fixed: Mapping[str, Channel], match: Match | None) -> Channels:
    """The fixed channels plus the ones the match's state gives now (none before the match starts),
    and the direct ones when the game has them."""
    direct = seats if game.chat.direct else 0
    hook: MatchChannelHook | None = game.chat.during_match
    if hook is None or match is None:
        return Channels(fixed, direct)
    channels = dict(fixed)
    try:
        for name, spec in hook(match).items():
            if name != PUBLIC and name not in fixed:
                channels[str(name)] = Channel(tuple(int(s) for s in spec["members"]), bool(spec.get("open", True)))
    except Exception:
        # A game bug here must not stall the room (this runs before every commit batch): without the
        # match's channels nobody reads or posts to them, which keeps their talk private.
        log.exception("%s: the match's chat channels failed", game.id)
        return Channels(fixed, direct)
    return Channels(channels, direct)


def channels_for(channels: Channels, seat: int | None) -> list[str]:
    """The named channels `seat` may post to now: `public` and every open channel listing it (direct
    channels are not listed: the client offers one per other seat when the room has them)."""
    return [PUBLIC] + [name for name, channel in channels.named.items()
                       if seat is not None and channel.open and seat in channel.members]


def may_post(channels: Channels, channel: str, seat: int | None) -> bool:
    if channel == PUBLIC:
        return True
    found = channels.get(channel)
    return seat is not None and found is not None and found.open and seat in found.members


def may_read(channels: Channels, channel: str, seat: int | None) -> bool:
    if channel == PUBLIC:
        return True
    found = channels.get(channel)
    return seat is not None and found is not None and seat in found.members


def readable(channels: Channels, seat: int | None, log: Sequence[dict[str, Any]],
             per_channel: int) -> list[dict[str, Any]]:
    """The last `per_channel` messages of every channel `seat` may read (open or closed), in order."""
    picked: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    for entry in reversed(log):
        channel = entry["channel"]
        if counts.get(channel, 0) < per_channel and may_read(channels, channel, seat):
            counts[channel] = counts.get(channel, 0) + 1
            picked.append(entry)
    return picked[::-1]


def chat_frame(channel: str, seat: int | None, name: str, text: str, at: float) -> dict[str, Any]:
    """A message as clients get it, its name and text escaped. `spectator`: it comes from someone without a
    seat, whose name is their own choice and may be a player's (issue #31, item 12): clients mark it."""
    return {"type": "chat", "channel": channel, "seat": seat, "spectator": seat is None, "name": escape(name),
            "text": escape(text), "at": at}


def message_write(room: str, channel: str, seat: int | None, name: str, text: str, at: float) -> Write:
    """The write that stores a message of room `room` as it was sent (it is escaped again when loaded)."""
    return Write(inserts=[(db.chat_messages, {"room": room, "channel": channel, "seat": seat, "name": name,
                                              "text": text, "at": at})])


class RoomChat:
    """A room's chat: its game's channels and the messages kept (escaped, as they were sent)."""

    def __init__(self, game: Game, seats: int, options: Options, per_channel: int) -> None:
        self.seats = seats
        self.per_channel = per_channel  # messages of each channel shown to someone arriving
        self.log: list[dict[str, Any]] = []
        self.follow(game, options)

    def follow(self, game: Game, options: Options) -> None:
        """The channels of the room's (next) game; the messages stay."""
        self.game = game
        self.fixed = channel_map(game, self.seats, options)
        self.follows_match = has_match_channels(game)  # whether the match opens and closes channels

    def channels(self, match: Match | None) -> Channels:
        """Every channel besides `public` as of the match's current state."""
        return current_channels(self.game, self.seats, self.fixed, match)

    def post(self, channels: Channels, channel: str, seat: int | None, name: str, text: str,
             at: float) -> dict[str, Any]:
        """Keeps a message and returns its frame; refused when `seat` may not post to `channel` now."""
        if not may_post(channels, channel, seat):
            raise ServerError(Code.CHAT_CHANNEL, f"You cannot post to {channel[:64]!r} now.",
                              f"チャンネル「{channel[:64]}」には今は投稿できません。", 403)
        entry = chat_frame(channel, seat, name, text, at)
        self.log.append(entry)
        return entry

    def kept_for(self, channels: Channels, seat: int | None) -> list[dict[str, Any]]:
        """The last messages of every channel `seat` may read, for someone arriving."""
        return readable(channels, seat, self.log, self.per_channel)
