"""Test-only games served through `create_app(..., games=GAMES)` or `--games-module tests.server.games:GAMES`.

- `toy`: the engine's toy game (sealed bids, one round, a 30 s deadline).
- `toy-final`: follows toy (and cautious-toy), with the coins its winners bring.
- `cautious-toy`: the toy game with a bot kind (`cautious`) that toy-final lacks (its bots are replaced).
- `secret-toy`: the same with distinctive card values (7001, 7013, ...), so raw frames can be searched.
- `team-toy`: the toy game declaring team chat channels (even and odd seats).
- `clock-toy`: moves with time (a `tick` event every 500 ms of match time; the view shows the last).
- `rounds-toy`: the toy game for 1,000 rounds (a stream of actions for durability tests).
- `leaver-toy`: `rounds-toy` with a time limit of its own in every round (for leavers timing out).
- `reveal-toy`: `rounds-toy` announcing each round, whose reveal of the bids takes a second to show.
- `buggy-toy`: an engine bug on purpose (a bid of 7 changes the state and then crashes).
- `whisper-toy`: the toy game where a seat still bidding may whisper a number to another seat: a private
  step (`UNSEEN_FOREVER`) that only the two witness.
- `last-man-standing`: the real game (hidden hands, sealed simultaneous plays), from the registry.
- `smuggling`: the real game, whose team size follows the seat count a room is created with.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from partygames import games
from partygames.engine.actions import ActionSpec, choice, int_range, spec
from partygames.engine.game import ChatRules, Game
from partygames.engine.match import Event, Result, TimeLimit
from partygames.engine.options import Options
from partygames.engine.reveals import Reveals
from tests.toy_game import GAME as TOY
from tests.toy_game import ToyMatch

SECRET_CARDS = [7001, 7013, 7027, 7039, 7043, 7057, 7069, 7079, 7093, 7103]


class SecretToyMatch(ToyMatch):
    def _setup(self) -> None:
        super()._setup()
        self.cards = [SECRET_CARDS[c - 1] for c in self.cards]
        self.deck = [SECRET_CARDS[c - 1] for c in self.deck]


class BuggyToyMatch(ToyMatch):
    """Breaks the engine contract on purpose: a bid of 7 changes the state, then crashes."""

    def _apply(self, seat: int, action: dict[str, Any]) -> list[Event]:
        if action["amount"] == 7:
            self.bids[str(seat)] = 7
            raise RuntimeError("engine bug")
        return super()._apply(seat, action)


class ClockToyMatch(ToyMatch):
    """Moves with time, as a real-time game does: while the bidding lasts, a `tick` event every half
    second of match time (its own wake-ups, besides the bidding's time limit); the view shows the time
    of the last tick."""

    TICK_MS = 500

    def _setup(self) -> None:
        super()._setup()
        self.ticked = 0

    def wake_at(self) -> int | None:
        limit = self.time_limit_due()
        if self.done:
            return limit
        tick = self.ticked + self.TICK_MS
        return tick if limit is None else min(tick, limit)

    def advance(self, now: int) -> list[Event]:
        tick = not self.done and now >= self.ticked + self.TICK_MS
        events = super().advance(now)
        if tick:
            self.ticked = now
            events.append(Event("tick", {"now": now}))
        return events

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {**super()._view(seat), "ticked": self.ticked}


class RoundsToyMatch(ToyMatch):
    """The toy game played for 1,000 rounds: after every reveal the bidding starts again."""

    def _setup(self) -> None:
        super()._setup()
        self.round = 1

    def _apply(self, seat: int, action: dict[str, Any]) -> list[Event]:
        events = super()._apply(seat, action)
        if self.done and self.round < 1000:
            self.round += 1
            self.done = False
            self.bids = {}
        return events


class RevealToyMatch(RoundsToyMatch):
    """`rounds-toy` with a `round` event when a round's bidding opens (the chapter of its reveals)."""

    def _apply(self, seat: int, action: dict[str, Any]) -> list[Event]:
        events = super()._apply(seat, action)
        if not self.bids:
            events.append(Event("round", {"round": self.round}))
        return events


class LeaverToyMatch(RoundsToyMatch):
    """`rounds-toy` whose every round has its own 30 s limit (a phase named after the round), so a seat
    that left times out round after round, as in a real game."""

    def time_limit(self) -> TimeLimit | None:
        limit = super().time_limit()
        return None if limit is None else TimeLimit(f"bidding:{self.round}", limit.seconds, limit.defaults)


class WhisperToyMatch(ToyMatch):
    """The toy game with a private step: a seat still bidding may `whisper` a number (0..9) to another seat;
    only the two learn that it happened (`UNSEEN_FOREVER`), and the listener's view keeps what it heard."""

    UNSEEN_FOREVER = frozenset({"whisper"})

    def _setup(self) -> None:
        super()._setup()
        self.heard: list[list[int]] = [[] for _ in range(self.seats)]

    def _legal_actions(self, seat: int) -> list[ActionSpec]:
        others = [s for s in range(self.seats) if s != seat]
        return [*super()._legal_actions(seat), spec("whisper", to=choice(others), number=int_range(0, 9))]

    def _apply(self, seat: int, action: dict[str, Any]) -> list[Event]:
        if action["type"] == "whisper":
            self.heard[action["to"]].append(action["number"])
            return [Event("whispered", {"from": seat, "number": action["number"]}, to=(seat, action["to"]))]
        return super()._apply(seat, action)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {**super()._view(seat), "heard": self.heard[seat] if seat is not None else []}


def _teams(seats: int, options: Options) -> Mapping[str, Sequence[int]]:
    return {"team:even": list(range(0, seats, 2)), "team:odd": list(range(1, seats, 2))}


def _after_toy(result: Result, options: Options, seats: int) -> dict[str, Any]:
    """toy-final follows toy: each winner of the toy match brings 100 coins to the pot's limit."""
    return {"coins": options.to_json()["coins"] + 100 * len(result.winners)}


GAMES: dict[str, Game] = {
    "toy": TOY,
    "secret-toy": dataclasses.replace(TOY, id="secret-toy", match_class=SecretToyMatch),
    "team-toy": dataclasses.replace(TOY, id="team-toy", chat=ChatRules(fixed=_teams)),
    "dm-toy": dataclasses.replace(TOY, id="dm-toy", chat=ChatRules(direct=True)),
    "toy-final": dataclasses.replace(TOY, id="toy-final", follows={"toy": _after_toy, "cautious-toy": _after_toy}),
    "cautious-toy": dataclasses.replace(TOY, id="cautious-toy", bots={**TOY.bots, "cautious": TOY.bots["random"]}),
    "clock-toy": dataclasses.replace(TOY, id="clock-toy", match_class=ClockToyMatch),
    "rounds-toy": dataclasses.replace(TOY, id="rounds-toy", match_class=RoundsToyMatch),
    "leaver-toy": dataclasses.replace(TOY, id="leaver-toy", match_class=LeaverToyMatch),
    "reveal-toy": dataclasses.replace(TOY, id="reveal-toy", match_class=RevealToyMatch,
                                      reveals=Reveals({"revealed": 1000, "bid_sealed": 0, "round": 0},
                                                      chapters=frozenset({"round"}))),
    "buggy-toy": dataclasses.replace(TOY, id="buggy-toy", match_class=BuggyToyMatch),
    "whisper-toy": dataclasses.replace(TOY, id="whisper-toy", match_class=WhisperToyMatch),
    "last-man-standing": games.get("last-man-standing"),
    "smuggling": games.get("smuggling"),
}
