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

# A quick decision takes people about as long whatever its limit (issue 29: Lucky Nine was estimated at 24 min
# and played in 4-6 with people acting within a second, Last Man Standing 11 min against 1): a game counts
# those at these paces instead (`quick`), and the limit only caps them. The model, as no clock measures people
# here: a click with nothing to weigh (a press, staying in) takes a couple of seconds; a choice among a few
# things in sight (continue or pass, a fighter of four to hire, a card of a hand to play) a few more; talk,
# negotiation and memory stay at half their limits (`decisions`). A bot match, whose decisions take no time, is
# the floor (`tests/test_length.py` holds each estimate above it).
CLICK_SECONDS = 2.0
"""A decision with nothing to weigh: a press, staying in."""
CHOICE_SECONDS = 6.0
"""A choice among a few things in sight: continue or pass, a fighter to hire, a card to play."""


def decisions(count: float, limit_seconds: float) -> float:
    """Seconds that `count` decisions take, each with a time limit of `limit_seconds`."""
    return count * limit_seconds * DECISION_SHARE


def quick(count: float, pace_seconds: float, limit_seconds: float) -> float:
    """Seconds that `count` quick decisions take at `pace_seconds` each (`CLICK_SECONDS`, `CHOICE_SECONDS`),
    never more than `decisions` counts for their limit."""
    return count * min(pace_seconds, limit_seconds * DECISION_SHARE)


def reveals(count: float, seconds: float) -> float:
    """Seconds that `count` races, rounds or small games are held for their reveals, `seconds` each."""
    return count * seconds


def whole_minutes(seconds: float) -> int:
    """An estimate in seconds as the lobby says it: whole minutes, rounded half up, at least 1."""
    return max(1, math.floor(seconds / 60 + 0.5))
