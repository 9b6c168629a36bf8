"""Last Man Standing (seed 001): hire fighters from a market, then five rounds of sealed fights.

Phases: "draft" (one seat at a time, clockwise from a random start player) then "play" (every seat
seals one card at once; the fight is resolved when the last card is in) then "over".
The rules, each with its seed sentence, are in docs/rules/last-man-standing.md.
"""

from __future__ import annotations

import bisect
import functools
import random
from enum import StrEnum
from typing import Any, ClassVar

from partygames.engine import Action, ActionSpec, Event, Match, Result, choice, spec
from partygames.engine.copying import Shape
from partygames.engine.match import TimeLimit
from partygames.engine.options import Options
from partygames.games.last_man_standing.cards import (
    DEALT_CARDS,
    DECK,
    ENTRY_FEE,
    HAND_SIZE,
    MARKET_PRICES,
    ORDER,
    RANK,
    ROUNDS,
    by_rank,
)
from partygames.games.last_man_standing.combat import payouts
from partygames.games.last_man_standing.options import LastManStandingOptions

# The hire specs by how many slots, from the cheapest, a seat may pay for (read-only, shared by every call).
assert list(MARKET_PRICES) == sorted(MARKET_PRICES), "hire specs below list the affordable slots as a prefix"
_DEAREST = MARKET_PRICES[-1]
_AFFORDABLE = [sum(price <= chips for price in MARKET_PRICES) for chips in range(_DEAREST + 1)]
_HIRES: list[ActionSpec] = [spec("hire", slot=choice(range(max(k, 1)))) for k in range(len(MARKET_PRICES) + 1)]


@functools.cache
def _seat_counts(starting_chips: int) -> tuple[int, ...]:
    """The seat counts whose entry fee every player can pay (asked by every new match)."""
    return tuple(n for n in LastManStandingMatch.seat_counts if ENTRY_FEE[n] <= starting_chips)


class Termination(StrEnum):
    """How a match of Last Man Standing ends (`Result.termination`)."""

    POT_EMPTY = "pot_empty"
    """A round's bounties emptied the pot: the match ends at once, whatever the round."""
    FIVE_ROUNDS = "five_rounds"
    """All five rounds were fought: the surviving fighters share the pot."""


class LastManStandingMatch(Match):
    CLONE_SHAPES: ClassVar[dict[str, Shape]] = {
        **dict.fromkeys(("market", "deck", "chips", "sealed", "arena_cards", "arena_owners", "waiting"), Shape.FLAT),
        "hands": Shape.ROWS, "drafted": Shape.ROWS, "history": Shape.LOG}
    game_id = "last-man-standing"
    options_class = LastManStandingOptions
    seat_counts = (4, 5, 6, 7, 8)

    @classmethod
    def allowed_seat_counts(cls, options: Options) -> tuple[int, ...]:
        assert isinstance(options, LastManStandingOptions)
        return _seat_counts(options.starting_chips)

    # -- set-up ------------------------------------------------------------------------------------
    def _setup(self) -> None:
        opts = self.opts
        n = self.seats
        deck = list(DECK)
        self.chance.shuffle("deck", deck)
        # Dealt one card at a time round the table from seat 0, twice; then four cards face up.
        # Kept sorted (by_rank of the two cards, written out: this is most of a short match's set-up).
        self.hands: list[list[str]] = [[a, b] if ORDER[a] < ORDER[b] else [b, a] for a, b in zip(deck[:n], deck[n:n + n], strict=True)]
        self.market: list[str] = deck[DEALT_CARDS * n: DEALT_CARDS * n + len(MARKET_PRICES)]
        self.deck: list[str] = deck[DEALT_CARDS * n + len(MARKET_PRICES):]  # deck[0] is the top card
        self.entry_fee = ENTRY_FEE[n]
        self.chips: list[int] = [opts.starting_chips - self.entry_fee] * n
        self.pot = self.entry_fee * n
        self.set_aside = 0
        self.payments_to_pot = opts.draft_payments_to_pot
        self.unawarded = 0
        self.start_player = self.chance.randint("start_player", 0, n - 1)
        self.turn = self.start_player
        self.picks = 0
        self.drafted: list[list[str]] = [[] for _ in range(n)]
        self.phase = "draft"
        self.round = 0
        self.sealed: list[str | None] = [None] * n
        # The living fighters, oldest first (then by seat): their cards and their players.
        self.arena_cards: list[str] = []
        self.arena_owners: list[int] = []
        self.waiting: list[int] = []  # seats still to play a card this round
        self.history: list[dict[str, Any]] = []
        self.termination: str | None = None

    @property
    def opts(self) -> LastManStandingOptions:
        assert isinstance(self.options, LastManStandingOptions)
        return self.options

    # -- turns and legal actions -------------------------------------------------------------------
    # A cache (derived state, never stored): to_act() between actions (asked several times a step).
    _awaited: tuple[int, ...] | None = None

    def to_act(self) -> tuple[int, ...]:
        awaited = self._awaited
        if awaited is None:
            awaited = self._awaited = (self.turn,) if self.phase == "draft" else tuple(self.waiting)
        return awaited

    def _legal_actions(self, seat: int) -> list[ActionSpec]:
        # The specs of spec(...) and choice(...), written out: asked at every step of every simulation.
        if self.phase == "draft":
            chips, slots = self.chips[seat], len(self.market)
            affordable = min(_AFFORDABLE[min(chips, _DEAREST)], slots) if chips >= 0 else 0  # cheap slots first
            return [_HIRES[affordable] if affordable else spec("hire", slot=choice(()))]  # (none: a ValueError)
        return [{"type": "play", "params": {"card": {"choice": list(self.hands[seat])}}}]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        self._awaited = None
        if action["type"] == "hire":
            return self._hire(seat, action["slot"])
        return self._play(seat, action["card"])

    # -- the draft ---------------------------------------------------------------------------------
    def _hire(self, seat: int, slot: int) -> list[Event]:
        price = MARKET_PRICES[slot]
        card = self.market.pop(slot)  # the cards beyond it slide one slot away from the deck
        self.chips[seat] -= price
        if self.payments_to_pot:
            self.pot += price
        else:
            self.set_aside += price
        bisect.insort(self.hands[seat], card, key=ORDER.__getitem__)
        self.drafted[seat].append(card)
        refill = self.deck.pop(0) if self.deck else None
        if refill is not None:
            self.market.append(refill)  # the new card takes the $6 slot, nearest the deck
        self.picks += 1
        events = [Event("hired", {"seat": seat, "card": card, "slot": slot, "price": price, "refill": refill})]
        if self.picks == self.seats * (HAND_SIZE - DEALT_CARDS):
            self.phase = "play"
            self.round = 1
            self.waiting = list(range(self.seats))
            events.append(Event("round_started", {"round": 1}))
        else:
            self.turn = (self.turn + 1) % self.seats  # clockwise: to the left-hand neighbour
        return events

    # -- the rounds --------------------------------------------------------------------------------
    def _play(self, seat: int, card: str) -> list[Event]:
        self.hands[seat].remove(card)
        self.sealed[seat] = card
        self.waiting.remove(seat)
        events = [Event("played_face_down", {"seat": seat})]
        if not self.waiting:
            events.extend(self._fight())
        return events

    def _fight(self) -> list[Event]:
        # Plain loops rather than comprehensions: a comprehension is a call of its own, which costs more
        # than the few fighters it would walk.
        plays: list[str] = []
        for card in self.sealed:
            if card is not None:
                plays.append(card)
        cards = self.arena_cards + plays
        owners = self.arena_owners + list(range(self.seats))
        ranks = []
        for card in cards:
            ranks.append(RANK[card])
        pot, chips = self.pot, self.chips
        alive = [True] * len(cards)
        kills: list[Any] = []  # flat, five entries a kill: killer card, killer seat, victim card, victim seat, paid
        for killer, victim, paid in payouts(ranks, pot):
            pot -= paid
            chips[owners[killer]] += paid
            alive[victim] = False
            kills += (cards[killer], owners[killer], cards[victim], owners[victim], paid)
        self.pot = pot
        if kills:
            living_cards, living_owners = [], []
            for card, owner, living in zip(cards, owners, alive, strict=True):
                if living:
                    living_cards.append(card)
                    living_owners.append(owner)
            self.arena_cards, self.arena_owners = living_cards, living_owners
        else:
            self.arena_cards, self.arena_owners = cards, owners
        self.sealed = [None] * self.seats
        record = {"round": self.round, "plays": plays, "kills": kills}
        self.history.append(record)
        fight = _round_view(record)
        fight["pot"] = pot
        events = [Event("fight", fight)]
        if pot == 0:  # 「テーブルの中央のチップがなくなったら、ゲームは即終了」
            events.append(self._finish(Termination.POT_EMPTY))
        elif self.round == ROUNDS:
            events.append(self._split_pot())
        else:
            self.round += 1
            self.waiting = list(range(self.seats))
            events.append(Event("round_started", {"round": self.round}))
        return events

    def _split_pot(self) -> Event:
        survivors = len(self.arena_owners)
        share = self.pot // survivors if survivors else 0
        for owner in self.arena_owners:
            self.chips[owner] += share
        self.pot -= share * survivors
        self.unawarded = self.pot  # the remainder of an uneven split stays on the table
        event = self._finish(Termination.FIVE_ROUNDS)
        event.data.update({"survivors": survivors, "share": share, "unawarded": self.unawarded})
        return event

    def _finish(self, termination: Termination) -> Event:
        self.phase = "over"
        self.termination = termination
        return Event("game_over", {"termination": termination, "chips": list(self.chips)})

    # -- views and result --------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "round": self.round,
            "rounds": ROUNDS,
            "start_player": self.start_player,
            "drafter": self.turn if self.phase == "draft" else None,
            "chips": list(self.chips),
            "pot": self.pot,
            "set_aside": self.set_aside,
            "unawarded": self.unawarded,
            "entry_fee": self.entry_fee,
            "market": [{"slot": i, "card": c, "price": MARKET_PRICES[i]} for i, c in enumerate(self.market)],
            "deck_count": len(self.deck),
            "hand_counts": [len(h) for h in self.hands],
            "has_played": [c is not None for c in self.sealed],
            # Cards taken from the face-up market and not yet revealed in a fight: everyone saw them.
            "known_cards": [by_rank([c for c in d if c not in played])
                            for s, d in enumerate(self.drafted) for played in (self._played_by(s),)],
            "arena": self._fighters(),
            "discard": [c for h in self.history for c in h["kills"][2::5]],
            "history": [_round_view(h) for h in self.history],
            "my_hand": list(self.hands[seat]) if seat is not None else None,
            "my_played": self.sealed[seat] if seat is not None else None,
        }

    def _played_by(self, seat: int) -> set[str]:
        return {h["plays"][seat] for h in self.history}

    def _fighters(self) -> list[dict[str, Any]]:
        return [{"card": c, "owner": o} for c, o in zip(self.arena_cards, self.arena_owners, strict=True)]

    def _ended(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        assert self.termination is not None
        return Result.ranked(
            [float(c) for c in self.chips], self.termination,
            holdings=[{"chips": c} for c in self.chips],
            detail={"pot": self.pot, "set_aside": self.set_aside, "unawarded": self.unawarded,
                    "rounds_played": len(self.history), "survivors": self._fighters()},
        )

    def time_limit(self) -> TimeLimit | None:
        """On timeout a drafter hires the free ($0) card and a player plays their lowest card."""
        if self.phase == "draft":
            return TimeLimit(f"draft:{self.picks}", float(self.opts.draft_seconds),
                             {self.turn: {"type": "hire", "slot": 0}})
        if self.phase == "play":
            return TimeLimit(f"round:{self.round}", float(self.opts.play_seconds),
                             {s: {"type": "play", "card": self.hands[s][0]} for s in self.to_act()})
        return None

    # -- secrets -----------------------------------------------------------------------------------
    def perturb_secrets(self, owner: int | None, rng: random.Random) -> Match | None:
        other = self.clone()
        assert isinstance(other, LastManStandingMatch)
        if owner is None:
            rng.shuffle(other.deck)  # the order of the undrawn cards
            return other
        hand = other.hands[owner]
        sealed = other.sealed[owner]
        if sealed is not None and hand and rng.random() < 0.5:
            # Which card lies face down is the owner's secret.
            other.sealed[owner] = hand.pop(rng.randrange(len(hand)))
            bisect.insort(hand, sealed, key=ORDER.__getitem__)
        # The dealt cards still unrevealed (in hand or face down) could have been any undrawn cards.
        secret = [c for c in [*hand, other.sealed[owner]] if c is not None and c not in other.drafted[owner]]
        for card in secret:
            if not other.deck or rng.random() < 0.3:
                continue
            j = rng.randrange(len(other.deck))
            swap, other.deck[j] = other.deck[j], card
            if card in hand:
                hand.remove(card)
                bisect.insort(hand, swap, key=ORDER.__getitem__)
            else:
                other.sealed[owner] = swap
        return other


def _round_view(record: dict[str, Any]) -> dict[str, Any]:
    """A round of the history as shown to players: who played what, and each kill with its bounty."""
    k = record["kills"]
    return {"round": record["round"], "plays": list(record["plays"]),
            "kills": [{"killer": {"card": k[i], "owner": k[i + 1]}, "victim": {"card": k[i + 2], "owner": k[i + 3]},
                       "bounty": i // 5 + 1, "paid": k[i + 4]} for i in range(0, len(k), 5)]}
