"""Chat channels: `public` for everyone, plus the channels a game declares for teams or pairs.

A game declares them with `Game.extras["chat_channels"]`, a function `(seats, options) -> {channel:
[seats]}`; a seat posts to and reads only the channels that list it. Spectators have `public` only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from partygames.engine.game import Game
from partygames.engine.options import Options

PUBLIC = "public"
ChannelHook = Callable[[int, Options], Mapping[str, Sequence[int]]]


def channel_map(game: Game, seats: int, options: Options) -> dict[str, list[int]]:
    hook: ChannelHook | None = game.extras.get("chat_channels")
    if hook is None:
        return {}
    return {str(name): list(members) for name, members in hook(seats, options).items() if name != PUBLIC}


def channels_for(channels: Mapping[str, Sequence[int]], seat: int | None) -> list[str]:
    return [PUBLIC] + [name for name, members in channels.items() if seat is not None and seat in members]


def may_read(channels: Mapping[str, Sequence[int]], channel: str, seat: int | None) -> bool:
    return channel == PUBLIC or (seat is not None and seat in channels.get(channel, ()))


def readable(channels: Mapping[str, Sequence[int]], seat: int | None, log: Sequence[dict[str, Any]],
             per_channel: int) -> list[dict[str, Any]]:
    """The last `per_channel` messages of every channel `seat` may read, in order."""
    allowed = set(channels_for(channels, seat))
    picked: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    for entry in reversed(log):
        channel = entry["channel"]
        if channel in allowed and counts.get(channel, 0) < per_channel:
            counts[channel] = counts.get(channel, 0) + 1
            picked.append(entry)
    return picked[::-1]
