"""Last Man Standing for learning agents: the observation vector of a seat's view and the action codec
(layout in docs/rules/last-man-standing.md, Encoding)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from partygames.engine.encoding import (
    BOUND,
    ActionCodec,
    Encoder,
    Layout,
    Move,
    Vector,
    Writer,
    one_hot,
)
from partygames.engine.match import Match
from partygames.engine.options import Options
from partygames.games.last_man_standing.cards import DECK, MARKET_PRICES, ROUNDS
from partygames.games.last_man_standing.options import LastManStandingOptions
from partygames.games.last_man_standing.rules import LastManStandingMatch

PHASES = ("draft", "play", "over")
CARD_INDEX = {card: i for i, card in enumerate(DECK)}
CARDS = len(DECK)
HAND = 6


def cards(names: Iterable[str | None], offset: int = 0) -> list[int]:
    """Positions of these cards in a 52-card multi-hot starting at `offset` (None ignored)."""
    return [offset + CARD_INDEX[c] for c in names if c is not None]


class LastManStandingEncoder(Encoder):
    def __init__(self, seats: int, options: Options) -> None:
        super().__init__(seats, options)
        assert isinstance(options, LastManStandingOptions)
        self.start = options.starting_chips
        n, slots = seats, len(MARKET_PRICES)
        self.layout = Layout((
            ("me", n), ("phase", len(PHASES)), ("round", 1), ("start_player", n), ("drafter", n),
            ("chips", n), ("pot", 1), ("set_aside", 1), ("market", slots * CARDS), ("deck_count", 1),
            ("hand_counts", n), ("has_played", n), ("my_hand", CARDS), ("my_played", CARDS),
            ("known_cards", n * CARDS), ("arena", n * CARDS), ("discard", CARDS),
        ))
        self._at = self.layout.slices()
        # Where observe_match's figures go: round, chips, pot, set_aside, deck_count, hand_counts.
        self._places = [self._at["round"].start, *range(self._at["chips"].start, self._at["market"].start),
                        *range(self._at["deck_count"].start, self._at["has_played"].start)]
        self.codec = ActionCodec([
            *(Move("hire", {"slot": slot}) for slot in range(slots)),
            *(Move("play", {"card": card}) for card in DECK),
        ])

    def observe(self, view: Mapping[str, Any]) -> Vector:
        w = Writer(self.layout)
        n, money = self.seats, self.start * self.seats
        w.put("me", one_hot(view["seat"], n))
        w.put("phase", one_hot(PHASES.index(view["phase"]), len(PHASES)))
        w.put("round", [view["round"] / ROUNDS])
        w.put("start_player", one_hot(view["start_player"], n))
        w.put("drafter", one_hot(view["drafter"], n))
        w.put("chips", [c / self.start for c in view["chips"]])
        w.put("pot", [view["pot"] / money])
        w.put("set_aside", [view["set_aside"] / money])
        market = {m["slot"]: m["card"] for m in view["market"]}
        w.put_hot("market", [i for slot in range(len(MARKET_PRICES)) for i in cards([market.get(slot)], slot * CARDS)],
                  len(MARKET_PRICES) * CARDS)
        w.put("deck_count", [view["deck_count"] / CARDS])
        w.put("hand_counts", [c / HAND for c in view["hand_counts"]])
        w.put("has_played", [float(p) for p in view["has_played"]])
        w.put_hot("my_hand", cards(view["my_hand"] or []), CARDS)
        w.put_hot("my_played", cards([view["my_played"]]), CARDS)
        w.put_hot("known_cards", [i for s, known in enumerate(view["known_cards"]) for i in cards(known, s * CARDS)],
                  n * CARDS)
        arena: list[list[str]] = [[] for _ in range(n)]
        for fighter in view["arena"]:
            arena[fighter["owner"]].append(fighter["card"])
        w.put_hot("arena", [i for s, mine in enumerate(arena) for i in cards(mine, s * CARDS)], n * CARDS)
        w.put_hot("discard", cards(view["discard"]), CARDS)
        return w.done()

    def observe_match(self, match: Match, seat: int) -> Vector:
        """`observe(match.view(seat))` read straight from the state, part by part as there: the
        environments call it at every step. Of the cards, the seat reads its own hand and sealed card,
        and of the others only what the view shows (drafted from the face-up market and not yet played,
        fighting in the arena, killed)."""
        assert isinstance(match, LastManStandingMatch)
        at, money = self._at, self.start * self.seats
        hot = [seat, at["phase"].start + PHASES.index(match.phase)]
        if match.start_player is not None:
            hot.append(at["start_player"].start + match.start_player)
        if match.phase == "draft" and match.turn is not None:
            hot.append(at["drafter"].start + match.turn)
        hot += [at["has_played"].start + s for s, c in enumerate(match.sealed) if c is not None]
        values = [match.round / ROUNDS, *(c / self.start for c in match.chips), match.pot / money,
                  match.set_aside / money, len(match.deck) / CARDS, *(len(h) / HAND for h in match.hands)]
        market, known, arena = at["market"].start, at["known_cards"].start, at["arena"].start
        hot += [market + slot * CARDS + CARD_INDEX[c] for slot, c in enumerate(match.market[: len(MARKET_PRICES)])
               if c is not None]
        hot += cards(match.hands[seat], at["my_hand"].start)
        hot += cards([match.sealed[seat]], at["my_played"].start)
        for s, drafted in enumerate(match.drafted):
            played = {h["plays"][s] for h in match.history}
            hot += cards([c for c in drafted if c not in played], known + s * CARDS)
        hot += [arena + owner * CARDS + CARD_INDEX[c] for c, owner in zip(match.arena_cards, match.arena_owners, strict=True)]
        hot += cards([c for h in match.history for c in h["kills"][2::5]], at["discard"].start)
        vector = np.zeros(self.layout.size, dtype=np.float32)
        vector[hot] = 1.0
        vector[self._places] = values
        return vector.clip(-BOUND, BOUND, out=vector)
