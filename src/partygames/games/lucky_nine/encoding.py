"""Lucky Nine for learning agents: the observation vector of a seat's view and the action codec
(layout in docs/rules/lucky-nine.md, Encoding)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from partygames.engine.encoding import ActionCodec, Encoder, Layout, Move, Vector, Writer, as_vector, one_hot
from partygames.engine.match import Match
from partygames.engine.options import Options
from partygames.games.lucky_nine.options import LuckyNineOptions
from partygames.games.lucky_nine.rules import ACTIVE, CHESTS, DIAMOND, DISQUALIFIED, DROPPED, LuckyNineMatch

PHASES = ("press", "claim", "decide", "dropout", "over")
STATUSES = (ACTIVE, DROPPED, DISQUALIFIED)
MAX_STAKE = 9
MAX_PRIZES = 64


class LuckyNineEncoder(Encoder):
    def __init__(self, seats: int, options: Options) -> None:
        super().__init__(seats, options)
        assert isinstance(options, LuckyNineOptions)
        self.prizes = [p.name for p in options.special_prizes]
        self.start = options.start_diamonds
        n, p = seats, len(self.prizes)
        self.layout = Layout((
            ("me", n), ("phase", len(PHASES)), ("round", 1), ("stake", 1), ("second_lap", 1),
            ("turn_seat", n), ("chests", len(CHESTS)), ("lit", len(CHESTS)), ("prizes_left", p),
            ("claim_mode", 2), ("last_draw", len(CHESTS)), ("turn_draws", 1), ("chain", 1),
            ("diamonds", n), ("status", len(STATUSES) * n), ("claimed", n * p), ("house", 1),
        ))
        kinds = [DIAMOND, *self.prizes]
        self.codec = ActionCodec([
            Move("press"), Move("continue"), Move("pass"), Move("stay"), Move("drop_out"),
            *(Move("claim", {"kind": kind}) for kind in kinds),
        ])

    def observe(self, view: Mapping[str, Any]) -> Vector:
        w = Writer(self.layout)
        start, n = self.start, self.seats
        w.put("me", one_hot(view["seat"], n))
        w.put("phase", one_hot(PHASES.index(view["phase"]), len(PHASES)))
        w.put("round", [(view["round"] - 1) / max(1, view["rounds"] - 1)])
        w.put("stake", [view["stake"] / MAX_STAKE])
        w.put("second_lap", [float(view["lap"] == 2)])
        w.put("turn_seat", one_hot(view["turn_seat"], n))
        w.put("chests", [view["chests"][c] / start for c in CHESTS])
        lit = view["lit"]
        w.put("lit", [float(c in lit) for c in CHESTS])
        w.put("prizes_left", [view["prizes"].get(p, 0) / MAX_PRIZES for p in self.prizes])
        claim = view["claim"]
        w.put("claim_mode", [float(claim is not None and claim["mode"] == m) for m in ("kind", "slot")])
        last = view["last_draw"]
        w.put("last_draw", one_hot(None if last is None else CHESTS.index(last), len(CHESTS)))
        w.put("turn_draws", [len(view["turn_draws"]) / 10])
        w.put("chain", [view["chain"] / 5])
        players = view["players"]
        w.put("diamonds", [p["diamonds"] / start for p in players])
        w.put("status", [float(p["status"] == s) for p in players for s in STATUSES])
        w.put("claimed", [p["prizes"].get(k, 0) / MAX_PRIZES for p in players for k in self.prizes])
        w.put("house", [view["house"] / (start * n)])
        return w.done()

    def observe_match(self, match: Match, seat: int) -> Vector:
        """`observe(match.view(seat))` read straight from the state, part by part as there, in a third of
        the time (the environments call it at every step). Nothing in it is hidden from any seat: Lucky
        Nine hides only the future draws."""
        assert isinstance(match, LuckyNineMatch)
        start, n, rounds = self.start, self.seats, match.options.rounds
        over, claim = match.phase == "over", match.phase == "claim"
        v = one_hot(seat, n)
        v += one_hot(PHASES.index(match.phase), len(PHASES))
        v += (min(match.round, rounds - 1) / max(1, rounds - 1), match.stake / MAX_STAKE, float(match.lap == 1))
        v += one_hot(None if over else match.turn_seat, n)
        v += [match.chests[c] / start for c in CHESTS]
        v += [float(match.is_lit(c)) for c in CHESTS]
        v += [match.prizes.get(p, 0) / MAX_PRIZES for p in self.prizes]
        v += (float(claim and match.claim_mode == "kind"), float(claim and match.claim_mode == "slot"))
        v += one_hot(None if match.last_draw is None else CHESTS.index(match.last_draw), len(CHESTS))
        v += (len(match.turn_draws) / 10, match.chain / 5)
        v += [d / start for d in match.holdings]
        v += [float(status == s) for status in match.status for s in STATUSES]
        v += [claimed.get(k, 0) / MAX_PRIZES for claimed in match.claimed for k in self.prizes]
        v.append(match.house / (start * n))
        return as_vector(v, self.layout)
