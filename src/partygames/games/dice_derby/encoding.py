"""Dice Derby for learning agents: the observation vector of a seat's view and the action codec
(layout in docs/rules/dice-derby.md, Encoding)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from partygames.engine.encoding import ActionCodec, Encoder, Layout, Move, Vector, Writer, as_vector, one_hot
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
        self.codec = ActionCodec([
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
        """`observe(match.view(seat))` read straight from the state, part by part and operation by
        operation as there: the environments call it at every step. Of what is sealed the seat reads its
        own bid, tickets and pending loans (the latter two while betting, as its view)."""
        assert isinstance(match, DiceDerbyMatch)
        start, n, races = self.start, self.seats, match.options.races
        betting, key, owners = match.phase == "betting", str(seat), match.owners
        v = one_hot(seat, n)
        v += one_hot(PHASES.index(match.phase), len(PHASES))
        v.append(match.race / races)
        v += [float(o is not None and o == seat) for o in owners]
        v += [float(o is not None) for o in owners]
        v += [p / start for p in match.prices]
        v += [(x / 10 or 0.0) / ODDS_SCALE for x in match.win_odds] if match.win_odds else [0.0] * len(GATES)
        v += [b / races for b in match.boost]
        odds = match.quinella_odds
        v += [(odds[p] / 10 if p in odds else 0.0) / ODDS_SCALE for p in PAIRS]
        v += [m / start for m in match.money]
        v += [d / start for d in match.debt]
        v += [p / start for p in match.prize]
        v += [float(d) for d in match.done] if betting and match.done else [0.0] * n
        firsts, seconds = [0] * len(GATES), [0] * len(GATES)  # per gate, races it won, came second in
        gate = self._gate
        for r in match.history:
            if r["first"] in gate:
                firsts[gate[r["first"]]] += 1
            if r["second"] in gate:
                seconds[gate[r["second"]]] += 1
        v += [count / races for count in firsts]
        v += [count / races for count in seconds]
        v.append(match.available(seat) / start)
        tickets = match.tickets.get(key) if betting else None
        if tickets:
            stakes = {f"{t['kind']}:{t['pick']}": t["stake"] for t in tickets}
            v += [stakes.get(ticket, 0) / start for ticket in self._tickets]  # win, then quinella tickets
        else:
            v += [0.0] * len(self._tickets)
        v += (float(match.pending_loans.get(key, 0) if betting else 0), float(match.loans_taken[seat]))
        bid = match.sealed.get(key)
        v += one_hot(None if bid is None or bid["horse"] is None else bid["horse"] - 1, len(GATES))
        v.append(0.0 if bid is None else bid["amount"] / start)
        return as_vector(v, self.layout)
