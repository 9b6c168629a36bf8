"""How long a match takes, estimated from its options for the lobby ("about 40 min").

Each game counts its own phases (`Options.estimated_seconds`); the rule of thumb is shared: a decision
with a time limit takes `DECISION_SHARE` of it (people decide before the clock runs out, and a
phase that waits for everyone ends when the last one is in), a fixed duration (a break, a memorising
time, a game clock) all of it, and the reveals as long as the server holds the match for them
(`reveals`: docs/server.md, Reveals; a game's figure per race, round or small game is what its bots'
matches at its default table are held, `tests/test_length.py` measures it)."""

from __future__ import annotations

import math

DECISION_SHARE = 0.5


def decisions(count: float, limit_seconds: float) -> float:
    """Seconds that `count` decisions take, each with a time limit of `limit_seconds`."""
    return count * limit_seconds * DECISION_SHARE


def reveals(count: float, seconds: float) -> float:
    """Seconds that `count` races, rounds or small games are held for their reveals, `seconds` each."""
    return count * seconds


def whole_minutes(seconds: float) -> int:
    """An estimate in seconds as the lobby says it: whole minutes, rounded half up, at least 1."""
    return max(1, math.floor(seconds / 60 + 0.5))
