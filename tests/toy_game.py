"""A tiny test-only game that exercises every part of the engine contract.

Sealed high card: each seat is dealt one card from 1..10 (secret), then all seats bid 0..coins at
once (sealed), then the highest bid wins the pot; ties split. Not registered: tests only.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import Field

from partygames.engine import (
    Action,
    ActionSpec,
    Event,
    Game,
    Match,
    Options,
    RandomBot,
    Result,
    Text,
    int_range,
    spec,
)
from partygames.engine.match import TimeLimit


class ToyOptions(Options):
    coins: int = Field(10, ge=1, le=1000, title="Coins")


class ToyMatch(Match):
    game_id = "toy"
    options_class = ToyOptions
    seat_counts = (2, 3, 4)

    def _setup(self) -> None:
        deck = list(range(1, 11))
        self.chance.shuffle("deck", deck)
        self.cards = deck[: self.seats]
        self.deck = deck[self.seats:]
        self.bids: dict[str, int] = {}
        self.done = False

    def to_act(self) -> tuple[int, ...]:
        if self.done:
            return ()
        return tuple(s for s in range(self.seats) if str(s) not in self.bids)

    def _legal_actions(self, seat: int) -> list[ActionSpec]:
        assert isinstance(self.options, ToyOptions)
        return [spec("bid", amount=int_range(0, self.options.coins))]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        self.bids[str(seat)] = action["amount"]
        events = [Event("bid_sealed", {"seat": seat})]
        if len(self.bids) == self.seats:
            self.done = True
            events.append(Event("revealed", {"bids": [self.bids[str(s)] for s in range(self.seats)]}))
        return events

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "my_card": self.cards[seat] if seat is not None else None,
            "my_bid": self.bids.get(str(seat)),
            "has_bid": [str(s) in self.bids for s in range(self.seats)],
            "bids": [self.bids[str(s)] for s in range(self.seats)] if self.done else None,
        }

    def result(self) -> Result | None:
        if not self.done:
            return None
        return Result.ranked([float(self.bids[str(s)]) for s in range(self.seats)], "all_bid")

    def time_limit(self) -> TimeLimit | None:
        return None if self.done else TimeLimit("bidding", 30.0, {s: {"type": "bid", "amount": 0} for s in self.to_act()})

    def perturb_secrets(self, owner: int | None, rng: random.Random) -> Match | None:
        other = self.clone()
        assert isinstance(other, ToyMatch)
        if owner is None:
            rng.shuffle(other.deck)
            return other
        other.cards[owner] = other.deck.pop()
        if str(owner) in other.bids and not other.done:
            other.bids[str(owner)] = rng.randint(0, 10)
        return other


GAME = Game(id="toy", title=Text("Toy", "トイ"), match_class=ToyMatch,
            summary=Text("A test game.", "テスト用ゲーム。"), bots={"random": RandomBot, "heuristic": RandomBot})
