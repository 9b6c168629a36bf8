"""Last Man Standing matches a seat cannot tell from its own (docs/rules/last-man-standing.md,
Determinisation): the other seats' dealt cards and the deck's order drawn uniformly from the cards the
seat has not seen, and each face-down card of another seat drawn uniformly from the cards it held."""

from __future__ import annotations

import random
from typing import Any

from partygames.engine.knowledge import Determiniser, SeatRecord, Template
from partygames.engine.match import Match
from partygames.games.last_man_standing.cards import DEALT_CARDS, DECK, HAND_SIZE, ORDER
from partygames.games.last_man_standing.options import LastManStandingOptions


class LastManStandingDeterminiser(Determiniser):
    """Public and own parts from the view; unseen cards dealt at random (see the module docstring)."""

    def __init__(self, record: SeatRecord) -> None:
        super().__init__(record)
        view, me, seats, options = self.view, self.seat, record.seats, record.options
        assert isinstance(options, LastManStandingOptions)
        known: list[list[str]] = view["known_cards"]
        counts, played = view["hand_counts"], view["has_played"]
        drafting = view["phase"] == "draft"
        history = [{"round": h["round"], "plays": h["plays"],
                    "kills": [x for k in h["kills"] for x in (k["killer"]["card"], k["killer"]["owner"],
                                                                k["victim"]["card"], k["victim"]["owner"], k["paid"])]}
                   for h in view["history"]]
        picks = sum(counts) - DEALT_CARDS * seats if drafting else seats * (HAND_SIZE - DEALT_CARDS)
        self.state = Template({
            "hands": [view["my_hand"] if s == me else [] for s in range(seats)],
            "market": [m["card"] for m in view["market"]],
            "deck": [],
            "entry_fee": view["entry_fee"],
            "chips": view["chips"],
            "pot": view["pot"],
            "set_aside": view["set_aside"],
            "payments_to_pot": options.draft_payments_to_pot,
            "unawarded": view["unawarded"],
            "start_player": view["start_player"],
            # After the last hire the turn stays with the last drafter.
            "turn": view["drafter"] if drafting else (view["start_player"] + picks - 1) % seats,
            "picks": picks,
            "drafted": known,  # drafted cards not yet revealed: all that the views read of it
            "phase": view["phase"],
            "round": view["round"],
            "sealed": [view["my_played"] if s == me else None for s in range(seats)],
            "arena_cards": [f["card"] for f in view["arena"]],
            "arena_owners": [f["owner"] for f in view["arena"]],
            "waiting": [] if drafting else [s for s in range(seats) if not played[s]],
            "history": history,
            "termination": None,
        })
        seen = {*view["my_hand"], *([view["my_played"]] if view["my_played"] else []),
                *(m["card"] for m in view["market"]), *(c for cards in known for c in cards),
                *(c for h in history for c in h["plays"])}
        self.unseen = [c for c in DECK if c not in seen]
        # Another seat holds its known cards and `unknown[s]` dealt cards nobody else has seen: in its
        # hand, and one of them face down once it has played this round.
        self.unknown = [0 if s == me else counts[s] + played[s] - len(known[s]) for s in range(seats)]
        self.deck_count: int = view["deck_count"]
        assert sum(self.unknown) + self.deck_count == len(self.unseen), "the cards do not add up"

    def sample(self, rng: random.Random) -> Match:
        state: dict[str, Any] = self.state.copy()
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands, sealed, known = state["hands"], state["sealed"], state["drafted"]
        taken = 0
        for seat, count in enumerate(self.unknown):
            if seat == self.seat:
                continue
            cards = known[seat] + pool[taken:taken + count]
            taken += count
            if sealed[seat] is None and self.view["has_played"][seat]:
                sealed[seat] = cards.pop(rng.randrange(len(cards)))  # as the random bot plays
            hands[seat] = sorted(cards, key=ORDER.__getitem__)
        state["deck"] = pool[taken:]
        return self.assemble(state, rng)
