"""Tiny test-only games that exercise every part of the engine contract. Not registered: tests only.

`GAME`, sealed high card: each seat is dealt one card from 1..10 (secret), then all seats bid
0..coins at once (sealed), then the highest bid wins the pot; ties split.

`ORDER_GAME`, guess the ranking: the five fruits are ranked in secret, then all seats at once (sealed)
name up to `picks` of them in the order they guess, best first (a `sequence` parameter); a seat
scores one point per fruit named at its true place.
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
    sequence,
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


FRUITS = ["apple", "kiwi", "lemon", "mango", "peach"]


class OrderOptions(Options):
    picks: int = Field(3, ge=1, le=len(FRUITS), title="Fruits to rank")


class OrderMatch(Match):
    game_id = "order-toy"
    options_class = OrderOptions
    seat_counts = (1, 2, 3)

    def _setup(self) -> None:
        self.ranking = list(FRUITS)
        self.chance.shuffle("ranking", self.ranking)
        self.guesses: dict[str, list[str]] = {}
        self.done = False

    def to_act(self) -> tuple[int, ...]:
        if self.done:
            return ()
        return tuple(s for s in range(self.seats) if str(s) not in self.guesses)

    def _legal_actions(self, seat: int) -> list[ActionSpec]:
        assert isinstance(self.options, OrderOptions)
        return [spec("guess", order=sequence(FRUITS, max_len=self.options.picks))]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        self.guesses[str(seat)] = list(action["order"])  # a copy: the action is the log's
        events = [Event("guess_sealed", {"seat": seat})]
        if len(self.guesses) == self.seats:
            self.done = True
            events.append(Event("revealed", {"ranking": self.ranking, "guesses": self._all_guesses()}))
        return events

    def _all_guesses(self) -> list[list[str]]:
        return [self.guesses[str(s)] for s in range(self.seats)]

    def score(self, seat: int) -> int:
        return sum(1 for place, fruit in enumerate(self.guesses[str(seat)]) if self.ranking[place] == fruit)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "my_guess": self.guesses.get(str(seat)),
            "has_guessed": [str(s) in self.guesses for s in range(self.seats)],
            "ranking": self.ranking if self.done else None,
            "guesses": self._all_guesses() if self.done else None,
        }

    def result(self) -> Result | None:
        if not self.done:
            return None
        return Result.ranked([float(self.score(s)) for s in range(self.seats)], "all_guessed")

    def time_limit(self) -> TimeLimit | None:
        if self.done:
            return None
        return TimeLimit("guessing", 30.0, {s: {"type": "guess", "order": [FRUITS[0]]} for s in self.to_act()})

    def perturb_secrets(self, owner: int | None, rng: random.Random) -> Match | None:
        if self.done:
            return None
        other = self.clone()
        assert isinstance(other, OrderMatch)
        if owner is None:
            rng.shuffle(other.ranking)
        elif str(owner) in other.guesses:
            other.guesses[str(owner)] = rng.sample(FRUITS, rng.randint(1, len(FRUITS)))
        return other


ORDER_GAME = Game(id="order-toy", title=Text("Guess the ranking", "順位当て"), match_class=OrderMatch,
                  summary=Text("A test game: guess the secret order of the fruits.",
                               "テスト用ゲーム: 果物の秘密の順位を当てます。"),
                  bots={"random": RandomBot, "heuristic": RandomBot})
# The order toy alone, for a server started with `--games-module tests.toy_game:ORDER_GAMES`.
ORDER_GAMES = {"order-toy": ORDER_GAME}
