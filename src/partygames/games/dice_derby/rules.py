"""Dice Derby: the state machine (owners' auction, then per race: sealed betting and the race).

Phases: ``auction`` (every seat seals one bid or passes), then per race ``betting`` (every seat
buys tickets in secret and declares done; the last `done` closes betting and runs the race), then
``over``. Money: sum(money) + house is constant (loans and repayments are transfers with the house).
"""

from __future__ import annotations

import random
from enum import StrEnum
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, ClassVar

from partygames.engine.actions import Action, ActionSpec
from partygames.engine.copying import Shape
from partygames.engine.match import Event, Match, Result, TimeLimit
from partygames.games.dice_derby import analysis
from partygames.games.dice_derby.horses import GATES, PAIRS, UNIT, die_name, odds_x10, payout, simple_odds_x10
from partygames.games.dice_derby.options import DiceDerbyOptions
from partygames.games.dice_derby.race import run_race

# Read-only parts of the betting specs, shared by every call (specs are never mutated by consumers).
_ALL_HORSES: dict[str, Any] = {"choice": list(GATES)}
_ALL_PAIRS: dict[str, Any] = {"choice": list(PAIRS)}
_BORROW: ActionSpec = {"type": "borrow", "params": {}}
_DONE: ActionSpec = {"type": "done", "params": {}}
_PASS: ActionSpec = {"type": "pass", "params": {}}

MOST_SEATS = 30
# A seat's `betting_done` and `bid_sealed` events (asked at every such step): made once and shared, as
# events are read-only.
_BETTING_DONE = tuple(Event("betting_done", {"seat": seat}) for seat in range(MOST_SEATS))
_BID_SEALED = tuple(Event("bid_sealed", {"seat": seat}) for seat in range(MOST_SEATS))
_KEYS = tuple(str(seat) for seat in range(MOST_SEATS))  # a seat's key in the state's dicts, at every step
_DIE_NAMES = tuple(die_name(g) for g in GATES)  # every view shows them
_TIE_LABELS = tuple(f"auction_tie:{name}" for name in _DIE_NAMES)  # the auction's lots, by gate - 1
_UNBID_LABELS = tuple(f"unbid:{name}" for name in _DIE_NAMES)

BOOST = Fraction(3, 2)  # 「最初の1ハロンで脱落した馬の倍率は1.5倍づつ上がる」


class Termination(StrEnum):
    """How a match of Dice Derby ends (`Result.termination`)."""

    ALL_RACES_RUN = "all_races_run"
    """The last race was run and the loans repaid: the only way a match ends."""


# Asked at every race's opening; a match's boosts take few values (none without `loser_boost`): bounded.
@lru_cache(maxsize=1024)
def odds_table(fall: float, rate: float, boost: tuple[int, ...],
               simple: bool = False) -> tuple[tuple[int, ...], tuple[tuple[str, int], ...]]:
    """Win odds per gate and quinella odds per pair, in tenths, for these option values (taken as the
    decimals they were written as) and boosts; with `simple`, the simplified odds (`simple_odds_x10`)."""
    win = tuple(_win_odds(fall, rate, g, boost[g - 1]) for g in GATES)
    pairs = _quinella_odds(fall, rate)
    if simple:
        return tuple(simple_odds_x10(o) for o in win), tuple((p, simple_odds_x10(o)) for p, o in pairs)
    return win, pairs


# Memoised per gate and boost rather than per table of boosts: a match's boosts make ever new tables, each
# priced in exact fractions, while a gate's boost takes only a few values.
@cache
def _win_odds(fall: float, rate: float, gate: int, boost: int) -> int:
    win = analysis.win_probabilities(analysis.as_fraction(fall))
    return odds_x10(win[gate], analysis.as_fraction(rate), BOOST ** boost)


@cache
def _quinella_odds(fall: float, rate: float) -> tuple[tuple[str, int], ...]:
    pairs = analysis.quinella_probabilities(analysis.as_fraction(fall))
    return tuple((p, odds_x10(pairs[p], analysis.as_fraction(rate))) for p in PAIRS)


@lru_cache(maxsize=1024)
def _betting_open(race: int, fall: float, rate: float, boost: tuple[int, ...], simple: bool) -> Event:
    """The event opening a race's betting, with `odds_table`'s odds as shown (in units, not tenths): made once
    per race and odds and shared (events are read-only; every race's opening asks it)."""
    win, pairs = odds_table(fall, rate, boost, simple)
    return Event("betting_open", {"race": race, "win_odds": [o / 10 for o in win],
                                  "quinella_odds": {p: o / 10 for p, o in pairs}})


class DiceDerbyMatch(Match):
    # a loan taken: the person's own (docs/rules/dice-derby.md, Stand-ins)
    PERSONAL = frozenset({"borrow"})
    game_id = "dice-derby"
    options_class = DiceDerbyOptions
    seat_counts: ClassVar[tuple[int, ...]] = tuple(range(6, MOST_SEATS + 1))
    # `auction` and `last_race` are replaced whole (once per match, once per race), `history` only grows.
    CLONE_SHAPES: ClassVar[dict[str, Shape]] = {
        **dict.fromkeys(("money", "debt", "loans_taken", "prize", "owners", "prices", "boost", "win_odds",
                         "quinella_odds", "pending_loans", "done"), Shape.FLAT),
        "sealed": Shape.ROWS, "history": Shape.LOG, "auction": Shape.SHARED, "last_race": Shape.SHARED}

    options: DiceDerbyOptions
    # Caches (derived state, never stored): to_act() between actions, and the time limit with the awaited
    # seats it was made for (it changes only with them: a phase, a race, a seat done).
    _waiting: tuple[int, ...] | None = None
    _limit: tuple[tuple[int, ...], TimeLimit | None] | None = None

    # -- set-up ----------------------------------------------------------------------------------
    def _setup(self) -> None:
        o = self.options
        self.phase = "auction"
        self.money: list[int] = [o.starting_money] * self.seats
        self.house = 0  # the house's net takings: bids + stakes + repayments - payouts - prizes - loans
        self.debt: list[int] = [0] * self.seats
        self.loans_taken: list[int] = [0] * self.seats
        self.prize: list[int] = [0] * self.seats
        self.owners: list[int | None] = [None] * len(GATES)
        self.prices: list[int] = [0] * len(GATES)
        self.sealed: dict[str, dict[str, Any]] = {}
        self.auction: list[dict[str, Any]] = []
        self.race = 0
        self.boost: list[int] = [0] * len(GATES)
        self.win_odds: list[int] = []
        self.quinella_odds: dict[str, int] = {}
        self.tickets: dict[str, list[dict[str, Any]]] = {}
        self.pending_loans: dict[str, int] = {}
        self.done: list[bool] = [False] * self.seats
        self.history: list[dict[str, Any]] = []
        self.last_race: dict[str, Any] | None = None

    # -- whose turn ------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        # The base test (nobody awaited, then `_ended()`) answered from the phase: a seat is awaited in
        # every other phase. Asked before every step of a simulation.
        return self.phase == "over"

    def to_act(self) -> tuple[int, ...]:
        waiting = self._waiting
        if waiting is None:
            if self.phase == "betting":
                waiting = tuple(s for s, done in enumerate(self.done) if not done)
            elif self.phase == "auction":
                # Recounted after every sealed bid: a list comprehension, quicker than a generator here.
                sealed = self.sealed
                waiting = tuple([s for s in range(self.seats) if _KEYS[s] not in sealed])
            else:
                waiting = ()
            self._waiting = waiting
        return waiting

    def available(self, seat: int) -> int:
        """What a seat may still stake now: money plus this phase's loans minus this phase's stakes."""
        if self.phase != "betting":
            return self.money[seat]
        return self._left(seat, self.tickets.get(_KEYS[seat]))

    def _left(self, seat: int, mine: list[dict[str, Any]] | None) -> int:
        """`available(seat)` in betting, given the seat's tickets (None: none; a purchase has them at hand)."""
        stakes = 0
        if mine:
            for t in mine:
                stakes += t["stake"]
        left = self.money[seat] - stakes
        loans = self.pending_loans.get(str(seat), 0) if self.pending_loans else 0
        # The options are read only when needed: a pydantic model's attributes are slow to read.
        return left + loans * self.options.loan_amount if loans else left

    def _legal_actions(self, seat: int) -> list[ActionSpec]:
        if self.phase == "auction":
            cash = self.money[seat] // UNIT * UNIT
            if cash < UNIT:
                return [_PASS]
            return [{"type": "bid", "params": {"horse": _ALL_HORSES, "amount": {"min": UNIT, "max": cash, "step": UNIT}}},
                    _PASS]
        # Hot path of every simulation: plain dicts and loops, no helper calls, read-only parts shared (the
        # specs are those of the table in docs/rules/dice-derby.md).
        o = self.options
        key = _KEYS[seat]
        mine = self.tickets.get(key)
        loans = self.pending_loans.get(key, 0) if self.pending_loans else 0
        cash = self.money[seat] + loans * o.loan_amount
        if not mine:  # the commonest case (a seat's first look at each race): everything is on offer
            cash = cash // UNIT * UNIT
            if cash >= UNIT:
                amount = {"min": UNIT, "max": cash, "step": UNIT}
                specs: list[ActionSpec] = [{"type": "bet_win", "params": {"horse": _ALL_HORSES, "amount": amount}},
                                           {"type": "bet_quinella", "params": {"pair": _ALL_PAIRS, "amount": amount}}]
            else:
                specs = []
        else:
            # One pass over the tickets for the stakes, the picks and the tickets' names.
            wins: list[str] = []
            bought: list[str] = []
            names: list[str] = []  # the cancel spec's tickets, named 'win:3' or 'quinella:1-2'
            for t in mine:
                cash -= t["stake"]
                pick = t["pick"]
                if t["kind"] == "win":
                    wins.append(pick)
                    names.append("win:" + pick)
                else:
                    bought.append(pick)
                    names.append("quinella:" + pick)
            cash = cash // UNIT * UNIT
            specs = []
            if cash >= UNIT:
                amount = {"min": UNIT, "max": cash, "step": UNIT}
                if len(wins) < o.win_limit:
                    horse = _ALL_HORSES
                    if wins:  # what is not backed yet, in gate order: the copy less a few, not a filter
                        left = list(GATES)
                        for pick in wins:
                            left.remove(int(pick))
                        horse = {"choice": left}
                    specs.append({"type": "bet_win", "params": {"horse": horse, "amount": amount}})
                if len(bought) < o.quinella_limit:
                    pair = _ALL_PAIRS
                    if bought:
                        rest = list(PAIRS)
                        for pick in bought:
                            rest.remove(pick)
                        pair = {"choice": rest}
                    specs.append({"type": "bet_quinella", "params": {"pair": pair, "amount": amount}})
            specs.append({"type": "cancel", "params": {"ticket": {"choice": names}}})
        if o.loans and self.loans_taken[seat] + loans < o.loan_limit:
            specs.append(_BORROW)
        specs.append(_DONE)
        return specs

    # -- actions ---------------------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        if self.phase == "auction":
            self._waiting = None  # a sealed bid changes who is awaited
            return self._seal(seat, action)
        kind = action["type"]
        if kind == "done":  # the commonest action of a simulation: first
            self.done[seat] = True
            self._waiting = None  # only a `done` changes who is awaited in betting (buying, cancelling do not)
            events = [_BETTING_DONE[seat]]
            if all(self.done):
                events += self._close_betting_and_run()
            return events
        key = _KEYS[seat]
        if kind == "bet_win" or kind == "bet_quinella":
            stake = action["amount"]
            ticket = ({"kind": "win", "pick": str(action["horse"]), "stake": stake} if kind == "bet_win"
                      else {"kind": "quinella", "pick": action["pair"], "stake": stake})
            mine = self.tickets.get(key)
            if mine is None:
                mine = self.tickets[key] = [ticket]
            else:
                mine.append(ticket)
            return [Event("ticket_bought", {"seat": seat, "kind": ticket["kind"], "pick": ticket["pick"],
                                            "stake": stake, "available": self._left(seat, mine)}, (seat,))]
        if kind == "cancel":
            mine = self.tickets[key]
            # The ticket named 'kind:pick' (a kind has no colon), found without writing out every ticket's name.
            named, _, pick = action["ticket"].partition(":")
            index = 0
            while mine[index]["kind"] != named or mine[index]["pick"] != pick:
                index += 1
            ticket = mine.pop(index)
            return [Event("ticket_cancelled", {"seat": seat, **ticket, "available": self._left(seat, mine)}, (seat,))]
        if kind == "borrow":
            self.pending_loans[key] = self.pending_loans.get(key, 0) + 1
            return [Event("loan_taken", {"seat": seat, "amount": self.options.loan_amount,
                                         "repay": self.options.loan_repay, "available": self.available(seat)},
                          (seat,))]
        raise AssertionError(f"unknown action {kind!r}: the base class checked it against the specs")

    def _seal(self, seat: int, action: Action) -> list[Event]:
        if action["type"] == "bid":
            bid = {"horse": action["horse"], "amount": action["amount"]}
        else:
            bid = {"horse": None, "amount": 0}
        self.sealed[_KEYS[seat]] = bid
        events = [_BID_SEALED[seat], Event("my_bid", {"seat": seat, **bid}, (seat,))]
        if len(self.sealed) == self.seats:
            events += self._resolve_auction()
            events += self._open_betting()
        return events

    def _resolve_auction(self) -> list[Event]:
        """「各ダイス毎に金額を公表し、最も高い金額を記入した人がそのダイスを落札」; ties by lot, unbid dice
        to a random non-owner for 0 once every bid die is settled (so a winner never gets a second die)."""
        # Each die's bids from one pass over the sealed ones, as (-amount, seat): sorted, highest first, then
        # the lower seat.
        bids_on: dict[int, list[tuple[int, int]]] = {}
        for s, b in self.sealed.items():
            if b["horse"] is not None:
                bids_on.setdefault(b["horse"], []).append((-b["amount"], int(s)))
        results: list[dict[str, Any]] = []
        for gate in GATES:
            bids = bids_on.get(gate)
            if bids:
                bids.sort()
            entry: dict[str, Any] = {"gate": gate, "bids": [[s, -a] for a, s in bids] if bids else []}
            if bids:
                top = -bids[0][0]
                tied = [s for a, s in bids if -a == top]
                winner = tied[0] if len(tied) == 1 else self.chance.choice(_TIE_LABELS[gate - 1], tied)
                entry["owner"], entry["price"], entry["how"] = winner, top, "highest" if len(tied) == 1 else "tie_lot"
                self.owners[gate - 1] = winner
                self.prices[gate - 1] = top
                self.money[winner] -= top
                self.house += top
            results.append(entry)
        free: list[int] | None = None  # the seats owning no die, in seat order (each lot's winner leaves it)
        for entry in results:
            if "owner" not in entry:
                if free is None:
                    free = [s for s in range(self.seats) if s not in self.owners]
                winner = self.chance.choice(_UNBID_LABELS[entry["gate"] - 1], free)
                free.remove(winner)
                entry["owner"], entry["price"], entry["how"] = winner, 0, "unbid_lot"
                self.owners[entry["gate"] - 1] = winner
        self.auction = results
        return [Event("auction_result", dict(entry)) for entry in results]

    def _open_betting(self) -> list[Event]:
        self.phase = "betting"
        self.race += 1
        self.tickets = {}
        self.pending_loans = {}
        self.done = [False] * self.seats
        return [self._price_odds()]

    def _price_odds(self) -> Event:
        """Odds from the exact probabilities: 「倍率の通常版はある程度まで確率を反映した倍率」; returns the event
        that opens the betting with them."""
        o = self.options
        priced = (o.fall_probability if o.fall_rule else 0.0, o.payout_rate, tuple(self.boost), o.simple_odds)
        win, pairs = odds_table(*priced)
        self.win_odds = list(win)
        self.quinella_odds = dict(pairs)
        return _betting_open(self.race, *priced)

    # -- closing the betting and running the race ---------------------------------------------------
    def _close_betting_and_run(self) -> list[Event]:
        o = self.options
        # Stakes and loans move now. Only seats with tickets are kept, in seat order (how payouts list winners);
        # the ticket lists are revealed as they are: betting's next opening replaces them.
        tickets: dict[int, list[dict[str, Any]]] = {}
        revealed: dict[str, list[dict[str, Any]]] = {}
        loans: dict[str, int] = {}
        money, pending, held = self.money, self.pending_loans, self.tickets
        staked = 0
        for s in range(self.seats):
            key = _KEYS[s]
            mine = held.get(key)
            if mine:
                stakes = 0
                for t in mine:
                    stakes += t["stake"]
                money[s] -= stakes
                staked += stakes
                tickets[s] = revealed[key] = mine
            taken = pending.get(key, 0) if pending else 0
            if taken:
                lent = taken * o.loan_amount
                money[s] += lent
                self.house -= lent
                self.debt[s] += taken * o.loan_repay
                self.loans_taken[s] += taken
                loans[key] = taken
        self.house += staked
        events = [Event("betting_closed", {"race": self.race, "tickets": revealed, "loans": loans})]
        run = run_race(self.chance, float(o.fall_probability) if o.fall_rule else None, self.race)
        paid: dict[str, int] = {}
        # The quinella is paid where the race decided it: 「4ハロン目が終わった時点で連複は確定します」.
        decided = run.quinella_at
        events += run.events
        if decided:  # after the race's first `decided` events (the list held one event before them)
            events.insert(1 + decided, self._settle("quinella", f"{run.quinella[0]}-{run.quinella[1]}", tickets, paid))
        events.append(Event("race_result", {"race": self.race, "first": run.first, "second": run.second}))
        events.append(self._settle("win", str(run.first), tickets, paid))
        prizes = []
        for gate, amount in ((run.first, o.prize_first), (run.second, o.prize_second)):
            owner = self.owners[gate - 1]
            assert owner is not None
            self.money[owner] += amount
            self.prize[owner] += amount
            self.house -= amount
            prizes.append({"gate": gate, "owner": owner, "amount": amount})
        events.append(Event("prizes", {"race": self.race, "prizes": prizes}))
        if o.loser_boost:
            for gate in run.first_furlong_out:
                self.boost[gate - 1] += 1
        self.last_race = {"race": self.race, "first": run.first, "second": run.second, "tickets": revealed,
                          "payouts": paid, "loans": dict(loans), "furlongs": run.furlongs}
        self.history.append({"race": self.race, "first": run.first, "second": run.second,
                             "first_furlong_out": run.first_furlong_out})
        events += self._open_betting() if self.race < o.races else self._finish()
        return events

    def _settle(self, kind: str, pick: str, tickets: dict[int, list[dict[str, Any]]],
                paid: dict[str, int]) -> Event:
        odds = self.win_odds[int(pick) - 1] if kind == "win" else self.quinella_odds[pick]
        winners = []
        for s, mine in tickets.items():
            for t in mine:
                if t["kind"] == kind and t["pick"] == pick:
                    amount = payout(t["stake"], odds)
                    self.money[s] += amount
                    self.house -= amount
                    key = _KEYS[s]
                    paid[key] = paid.get(key, 0) + amount
                    winners.append({"seat": s, "stake": t["stake"], "payout": amount})
        return Event(f"{kind}_paid", {"race": self.race, "pick": pick, "odds": odds / 10, "winners": winners})

    def _finish(self) -> list[Event]:
        self.phase = "over"
        self.tickets = {}
        self.pending_loans = {}
        repaid = {}
        for s in range(self.seats):
            if self.debt[s]:
                # 「1万円貸しで返済は1万5千円」: the debt is repaid from the final money, even below zero.
                self.money[s] -= self.debt[s]
                self.house += self.debt[s]
                repaid[str(s)] = self.debt[s]
                self.debt[s] = 0
        return [Event("loans_repaid", {"repaid": repaid}), Event("match_over", {"money": list(self.money)})]

    # -- views -----------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        betting = self.phase == "betting"
        o = self.options
        view: dict[str, Any] = {
            "phase": self.phase,
            "race": self.race,
            "races": o.races,
            "horses": [{"gate": g, "die": _DIE_NAMES[g - 1], "owner": self.owners[g - 1], "price": self.prices[g - 1],
                        "by": self.auction[g - 1]["how"] if self.auction else None,
                        "win_odds": self.win_odds[g - 1] / 10 if self.win_odds else None,
                        "boost": self.boost[g - 1]} for g in GATES],
            "quinella_odds": {p: x / 10 for p, x in self.quinella_odds.items()},
            "money": list(self.money),
            "debt": list(self.debt),
            "prize": list(self.prize),
            "house": self.house,
            "done": list(self.done) if betting else [],
            "history": self.history,
            "last_race": self.last_race,
            # What bots and UIs need of the options (the rest shows in the legal actions).
            "rules": {"prizes": [o.prize_first, o.prize_second], "payout_rate": o.payout_rate,
                      "fall_probability": o.fall_probability if o.fall_rule else None,
                      "loan": [o.loan_amount, o.loan_repay] if o.loans else None},
            "me": None,
        }
        if seat is not None:
            key = str(seat)
            view["me"] = {
                "money": self.money[seat],
                "available": self.available(seat),
                "tickets": [dict(t) for t in self.tickets.get(key, [])] if betting else [],
                "pending_loans": self.pending_loans.get(key, 0) if betting else 0,
                "loans_taken": self.loans_taken[seat],
                "bid": self.sealed.get(key),
                "horse": self.owners.index(seat) + 1 if seat in self.owners else None,  # gates are 1-6 in order
            }
        return view

    # -- result, time, secrets ----------------------------------------------------------------------
    def _ended(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        holdings = [{"money": self.money[s], "prize": self.prize[s], "loans": self.loans_taken[s],
                     "horse": next((g for g in GATES if self.owners[g - 1] == s), None),
                     "price": next((self.prices[g - 1] for g in GATES if self.owners[g - 1] == s), 0)}
                    for s in range(self.seats)]
        return Result.ranked([float(m) for m in self.money], Termination.ALL_RACES_RUN, holdings,
                             {"owners_award": self.owners_award(), "house": self.house,
                              "races": [{"race": h["race"], "first": h["first"], "second": h["second"]}
                                        for h in self.history]})

    def owners_award(self) -> dict[str, Any]:
        """馬主賞 by both of the seed's definitions: most prize money, and most prize minus the price paid."""
        owners = [s for s in self.owners if s is not None]
        by_total = {s: self.prize[s] for s in owners}
        by_net = {s: self.prize[s] - self.prices[self.owners.index(s)] for s in owners}
        award: dict[str, Any] = {}
        for name, score in (("prize_total", by_total), ("prize_minus_price", by_net)):
            best = max(score.values())
            award[name] = {"amount": best, "seats": sorted(s for s in owners if score[s] == best)}
        return award

    def time_limit(self) -> TimeLimit | None:
        # Asked at every step that moves the clock (hosts, the environments): kept while the awaited seats,
        # the very tuple `to_act()` keeps, are the same (a new phase or race makes a new one).
        waiting = self.to_act()
        cached = self._limit
        if cached is not None and cached[0] is waiting:
            return cached[1]
        limit = None
        if self.phase == "auction":
            limit = TimeLimit("auction", float(self.options.bidding_seconds), {s: {"type": "pass"} for s in waiting})
        elif self.phase == "betting":
            limit = TimeLimit(f"race-{self.race}-betting", float(self.options.betting_seconds),
                              {s: {"type": "done"} for s in waiting})
        self._limit = (waiting, limit)
        return limit

    def perturb_secrets(self, owner: int | None, rng: random.Random) -> Match | None:
        if owner is None or self.phase == "over":
            return None
        key = str(owner)
        other = self.clone()
        assert isinstance(other, DiceDerbyMatch)
        if self.phase == "auction":
            if key not in self.sealed:
                return None
            old = self.sealed[key]
            gate = rng.choice([g for g in GATES if g != old["horse"]])
            other.sealed[key] = {"horse": gate, "amount": UNIT} if self.money[owner] >= UNIT else old
            return other
        if self.tickets.get(key):
            other.tickets[key] = []
        elif self.available(owner) >= UNIT:
            other.tickets[key] = [{"kind": "win", "pick": str(rng.choice(GATES)), "stake": UNIT}]
        if self.options.loans:
            pending = self.pending_loans.get(key, 0)
            other.pending_loans[key] = 0 if pending else 1
        return other

