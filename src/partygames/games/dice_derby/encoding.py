"""Dice Derby for learning agents: the observation vector of a seat's view and the action codec
(layout in docs/rules/dice-derby.md, Encoding)."""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from partygames.engine.actions import ActionSpec
from partygames.engine.encoding import (
    BOUND,
    ActionCodec,
    Encoder,
    Layout,
    Mask,
    Move,
    Vector,
    Writer,
    as_vector,
    one_hot,
)
from partygames.engine.match import Match
from partygames.engine.options import Options
from partygames.games.dice_derby.horses import GATES, PAIRS
from partygames.games.dice_derby.options import DiceDerbyOptions
from partygames.games.dice_derby.rules import DiceDerbyMatch

PHASES = ("auction", "betting", "over")
#: Amounts (bids and stakes) as fractions of the legal range: the minimum (100), a tenth, a quarter,
#: half and all of what the seat may stake.
LEVELS = (0.0, 0.1, 0.25, 0.5, 1.0)
ODDS_SCALE = 50.0


class DiceDerbyCodec(ActionCodec):
    """The codec, whose masks are worked out directly: each spec of Dice Derby (`DiceDerbyMatch.
    _legal_actions`) has at most one choice, and every amount is scaled, so a spec allows exactly the moves
    of its type that fix one of its offered values (or, with no choice, every move of its type).

    The generic mask is remembered by the specs' values, but the `cancel` spec lists the seat's tickets in
    the order bought and the others what is left to buy: a match meets tens of thousands of lists, more
    than a cache keeps. A spec of any other shape goes to the generic mask."""

    def __init__(self, moves: Iterable[Move]) -> None:
        super().__init__(moves)
        self._moves_of: dict[tuple[str, Any], list[int]] = {}  # (type, the value its moves fix, or None)
        for i, move in enumerate(self.moves):
            fixed = list(move.fixed.items())
            if len(fixed) > 1 or (fixed and type(fixed[0][1]) not in (int, str)):
                raise ValueError("a Dice Derby move fixes at most one parameter, to a number or a word")
            self._moves_of.setdefault((move.type, fixed[0][1] if fixed else None), []).append(i)
        self._choices = {move.type: next(iter(move.fixed), None) for move in self.moves}
        self._scaled = {move.type: tuple(move.scaled) for move in self.moves}

    def mask(self, specs: Sequence[ActionSpec]) -> Mask:
        moves_of, choices, scaled = self._moves_of, self._choices, self._scaled
        allowed: list[int] = []
        for spec in specs:
            kind = spec["type"]
            name = choices.get(kind, False)
            params = spec["params"]
            if name is None:  # a type without a choice: borrow, done, pass
                if params:
                    return super().mask(specs)
                allowed += moves_of[kind, None]
                continue
            if name is False:  # no move of this type
                continue
            param = params.get(name)
            values = None if param is None else param.get("choice")
            amounts = scaled[kind]
            if values is None or len(params) != len(amounts) + 1 or not all("min" in params.get(a, ()) for a in amounts):
                return super().mask(specs)
            for value in values:
                if type(value) is int or type(value) is str:
                    allowed += moves_of.get((kind, value), ())
                else:
                    return super().mask(specs)
        mask = np.zeros(len(self.moves), dtype=np.int8)
        mask[allowed] = 1
        return mask


class DiceDerbyEncoder(Encoder):
    def __init__(self, seats: int, options: Options) -> None:
        super().__init__(seats, options)
        assert isinstance(options, DiceDerbyOptions)
        self.start = options.starting_money
        n, g, q = seats, len(GATES), len(PAIRS)
        self.layout = Layout((
            ("me", n), ("phase", len(PHASES)), ("race", 1),
            ("owner_is_me", g), ("owned", g), ("price", g), ("win_odds", g), ("boost", g),
            ("quinella_odds", q), ("money", n), ("debt", n), ("prize", n), ("done", n),
            ("firsts", g), ("seconds", g),
            ("my_available", 1), ("my_win_stakes", g), ("my_quinella_stakes", q),
            ("my_pending_loans", 1), ("my_loans_taken", 1), ("my_bid_horse", g), ("my_bid_amount", 1),
        ))
        self._gate = {g: i for i, g in enumerate(GATES)}
        self._tickets = [*(f"win:{g}" for g in GATES), *(f"quinella:{p}" for p in PAIRS)]
        self._slots = self.layout.slices()
        wins, pairs = self._slots["my_win_stakes"].start, self._slots["my_quinella_stakes"].start
        self._ticket_place: dict[tuple[str, str], int] = {
            **{("win", str(g)): wins + i for i, g in enumerate(GATES)},
            **{("quinella", p): pairs + i for i, p in enumerate(PAIRS)}}
        self._memo: tuple[weakref.ref[DiceDerbyMatch], str, int, Vector] | None = None
        self.codec = DiceDerbyCodec([
            *(Move("bid", {"horse": h}, {"amount": f}) for h in GATES for f in LEVELS),
            Move("pass"),
            *(Move("bet_win", {"horse": h}, {"amount": f}) for h in GATES for f in LEVELS),
            *(Move("bet_quinella", {"pair": p}, {"amount": f}) for p in PAIRS for f in LEVELS),
            *(Move("cancel", {"ticket": f"win:{h}"}) for h in GATES),
            *(Move("cancel", {"ticket": f"quinella:{p}"}) for p in PAIRS),
            Move("borrow"),
            Move("done"),
        ])

    def observe(self, view: Mapping[str, Any]) -> Vector:
        w = Writer(self.layout)
        start, n, seat = self.start, self.seats, view["seat"]
        horses = view["horses"]
        w.put("me", one_hot(seat, n))
        w.put("phase", one_hot(PHASES.index(view["phase"]), len(PHASES)))
        w.put("race", [view["race"] / view["races"]])
        w.put("owner_is_me", [float(h["owner"] is not None and h["owner"] == seat) for h in horses])
        w.put("owned", [float(h["owner"] is not None) for h in horses])
        w.put("price", [h["price"] / start for h in horses])
        w.put("win_odds", [(h["win_odds"] or 0.0) / ODDS_SCALE for h in horses])
        w.put("boost", [h["boost"] / view["races"] for h in horses])
        odds = view["quinella_odds"]
        w.put("quinella_odds", [odds.get(p, 0.0) / ODDS_SCALE for p in PAIRS])
        w.put("money", [m / start for m in view["money"]])
        w.put("debt", [d / start for d in view["debt"]])
        w.put("prize", [p / start for p in view["prize"]])
        done = view["done"]
        w.put("done", [float(d) for d in done] if done else [0.0] * n)
        history = view["history"]
        w.put("firsts", [sum(r["first"] == g for r in history) / view["races"] for g in GATES])
        w.put("seconds", [sum(r["second"] == g for r in history) / view["races"] for g in GATES])
        me = view["me"] or {"available": 0, "tickets": [], "pending_loans": 0, "loans_taken": 0, "bid": None}
        w.put("my_available", [me["available"] / start])
        stakes = {f"{t['kind']}:{t['pick']}": t["stake"] for t in me["tickets"]}
        w.put("my_win_stakes", [stakes.get(f"win:{g}", 0) / start for g in GATES])
        w.put("my_quinella_stakes", [stakes.get(f"quinella:{p}", 0) / start for p in PAIRS])
        w.put("my_pending_loans", [float(me["pending_loans"])])
        w.put("my_loans_taken", [float(me["loans_taken"])])
        bid = me["bid"]
        w.put("my_bid_horse", one_hot(None if bid is None or bid["horse"] is None else bid["horse"] - 1, len(GATES)))
        w.put("my_bid_amount", [0.0 if bid is None else bid["amount"] / start])
        return w.done()

    def observe_match(self, match: Match, seat: int) -> Vector:
        """`observe(match.view(seat))` read straight from the state, operation by operation as there: the
        environments call it at every step. Of what is sealed the seat reads its own bid, tickets and
        pending loans (the latter two while betting, as its view).

        The public parts (owners, prices, odds, boosts, money, debts, prizes, past placings) change only
        when the auction is resolved or a race is run, which always changes the phase or the race: they
        are remembered per match, phase and race (`_public`), and a step writes the seat's own parts into
        a copy."""
        assert isinstance(match, DiceDerbyMatch)
        start = self.start
        betting, key, slots = match.phase == "betting", str(seat), self._slots
        v = self._public(match).copy()
        v[seat] = 1.0  # me
        owners = match.owners
        if seat in owners:  # owner_is_me
            mine = slots["owner_is_me"].start
            for i, o in enumerate(owners):
                if o == seat:
                    v[mine + i] = 1.0
        if betting and match.done:
            v[slots["done"]] = match.done
        v[slots["my_available"].start] = match.available(seat) / start
        tickets = match.tickets.get(key) if betting else None
        if tickets:
            place = self._ticket_place
            for t in tickets:
                v[place[t["kind"], t["pick"]]] = t["stake"] / start
        if betting:
            v[slots["my_pending_loans"].start] = float(match.pending_loans.get(key, 0))
        v[slots["my_loans_taken"].start] = float(match.loans_taken[seat])
        bid = match.sealed.get(key)
        if bid is not None:
            if bid["horse"] is not None:
                v[slots["my_bid_horse"].start + bid["horse"] - 1] = 1.0
            v[slots["my_bid_amount"].start] = bid["amount"] / start
        return v.clip(-BOUND, BOUND, out=v)

    def _public(self, match: DiceDerbyMatch) -> Vector:
        """The observation's public parts (clipped), every seat's own parts zero, remembered with the match
        (weakly: a clone or another match is another object), its phase and its race."""
        memo = self._memo
        if memo is not None and memo[0]() is match and memo[1] == match.phase and memo[2] == match.race:
            return memo[3]
        start, n, races = self.start, self.seats, match.options.races
        owners = match.owners
        v = [0.0] * (n + len(PHASES))
        v[n + PHASES.index(match.phase)] = 1.0
        v.append(match.race / races)
        v += [0.0] * len(GATES)  # owner_is_me
        v += [float(o is not None) for o in owners]
        v += [p / start for p in match.prices]
        v += [(x / 10 or 0.0) / ODDS_SCALE for x in match.win_odds] if match.win_odds else [0.0] * len(GATES)
        v += [b / races for b in match.boost]
        odds = match.quinella_odds
        v += [(odds[p] / 10 if p in odds else 0.0) / ODDS_SCALE for p in PAIRS]
        v += [m / start for m in match.money]
        v += [d / start for d in match.debt]
        v += [p / start for p in match.prize]
        v += [0.0] * n  # done
        firsts, seconds = [0] * len(GATES), [0] * len(GATES)  # per gate, races it won, came second in
        gate = self._gate
        for r in match.history:
            if r["first"] in gate:
                firsts[gate[r["first"]]] += 1
            if r["second"] in gate:
                seconds[gate[r["second"]]] += 1
        v += [count / races for count in firsts]
        v += [count / races for count in seconds]
        v += [0.0] * (self.layout.size - len(v))  # the seat's own parts
        public = as_vector(v, self.layout)
        self._memo = (weakref.ref(match), match.phase, match.race, public)
        return public
