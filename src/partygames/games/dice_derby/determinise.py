"""Dice Derby matches a seat cannot tell from its own (docs/rules/dice-derby.md, Determinisation): the
other seats' sealed bids and this race's tickets and loans, which only their owners see, drawn as a
random player would have made them; the dice of the races to come are the sample's own chance."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from partygames.engine.actions import sample
from partygames.engine.knowledge import Determiniser, SeatRecord, Template
from partygames.engine.match import Event, Match
from partygames.games.dice_derby.horses import GATES
from partygames.games.dice_derby.options import DiceDerbyOptions
from partygames.games.dice_derby.rules import DiceDerbyMatch

#: A random bettor declares done with probability at least 1/5 a step; this bound only stops a bug.
MAX_TICKET_ACTIONS = 1000


class AuctionHeard:
    """The auction's results as announced, die by die (`auction_result`: every bid, revealed)."""

    def __init__(self) -> None:
        self.results: list[dict[str, Any]] = []

    def see(self, view: Mapping[str, Any]) -> None:
        pass

    def hear(self, event: Event) -> None:
        if event.type == "auction_result":
            self.results.append(json.loads(json.dumps(event.data)))


class DiceDerbyDeterminiser(Determiniser):
    """Public and own parts from the view (and the auction's bids as heard); another seat's sealed bid,
    and its tickets and loans of this race, as the random bot would have chosen them."""

    def __init__(self, record: SeatRecord) -> None:
        super().__init__(record)
        view, me, seats = self.view, self.seat, record.seats
        options = record.options
        assert isinstance(options, DiceDerbyOptions)
        phase, mine = view["phase"], view["me"]
        horses = view["horses"]
        heard = record.memory.results if isinstance(record.memory, AuctionHeard) else []
        sealed: dict[str, dict[str, Any]] = {}
        auction: list[dict[str, Any]] = []
        if phase != "auction":
            if len(heard) == len(GATES):
                auction = heard
            else:  # not heard (a record begun later): the owners' prices, the losing bids unknown
                auction = [{"gate": h["gate"], "bids": [[h["owner"], h["price"]]] if h["by"] != "unbid_lot" else [],
                            "owner": h["owner"], "price": h["price"], "how": h["by"]} for h in horses]
            sealed = {str(s): {"horse": None, "amount": 0} for s in range(seats)}
            for entry in auction:
                for seat, amount in entry["bids"]:
                    sealed[str(seat)] = {"horse": entry["gate"], "amount": amount}
        if mine["bid"] is not None:
            sealed[str(me)] = mine["bid"]
        betting = phase == "betting"
        self.state = Template({
            "phase": phase,
            "money": view["money"],
            "house": view["house"],
            "debt": view["debt"],
            # A loan adds `loan_repay` to the debt, repaid only at the end.
            "loans_taken": [mine["loans_taken"] if s == me else view["debt"][s] // options.loan_repay
                            for s in range(seats)],
            "prize": view["prize"],
            "owners": [h["owner"] for h in horses],
            "prices": [h["price"] for h in horses],
            "sealed": sealed,
            "auction": auction,
            "race": view["race"],
            "boost": [h["boost"] for h in horses],
            "win_odds": [round(h["win_odds"] * 10) for h in horses] if horses[0]["win_odds"] is not None else [],
            "quinella_odds": {p: round(x * 10) for p, x in view["quinella_odds"].items()},
            "tickets": {str(me): mine["tickets"]} if betting and mine["tickets"] else {},
            "pending_loans": {str(me): mine["pending_loans"]} if betting and mine["pending_loans"] else {},
            "done": view["done"] if betting else [False] * seats,
            "history": view["history"],
            "last_race": view["last_race"],
        })
        to_act = view["to_act"]
        # Another seat's sealed bid (it has sealed: no longer awaited), or its tickets and loans so far.
        self.sealers = [s for s in range(seats) if phase == "auction" and s != me and s not in to_act]
        self.bettors = [s for s in range(seats) if betting and s != me]

    @classmethod
    def memory(cls, seat: int) -> AuctionHeard:
        return AuctionHeard()

    def sample(self, rng: random.Random) -> Match:
        state: dict[str, Any] = self.state.copy()
        return self.assemble(state, rng, lambda match: self._draw_sealed(match, rng))

    def _draw_sealed(self, drawn: Match, rng: random.Random) -> None:
        assert isinstance(drawn, DiceDerbyMatch)
        for seat in self.sealers:
            action = sample(drawn._legal_actions(seat), rng)
            drawn.sealed[str(seat)] = ({"horse": action["horse"], "amount": action["amount"]}
                                       if action["type"] == "bid" else {"horse": None, "amount": 0})
        for seat in self.bettors:
            # The random bot's tickets: actions drawn until it says done (a seat still betting has not yet).
            for _ in range(MAX_TICKET_ACTIONS):
                action = sample(drawn._legal_actions(seat), rng)
                if action["type"] == "done":
                    break
                drawn._apply(seat, action)
        drawn._waiting = None  # to_act() was not asked yet, but keep the cache honest
