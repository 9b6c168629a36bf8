"""Bots for the Pandemic Game.

The heuristic bot's belief comes from its view alone: it carries every initial infected set (`odds.Worlds`)
through the contacts and presses its view shows, keeping only the worlds its own room readings allow. That
belief is exact when contacts and presses are public. It then weighs each move by what it expects to hold
at the end: a watch is worth 1 + its vaccines when healthy, nothing when infected.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from partygames.engine import Action, Bot, Match, Observation, Text, search
from partygames.games.pandemic.odds import Worlds
from partygames.games.pandemic.rules import WAIT, PandemicMatch, parse_intent


@dataclass
class _Belief:
    """What the heuristic's choice reads from its belief: the chance that its seat is infected, that it is
    infected with a vaccine to press, each other seat's (gain, risk, vaccine) from a contact (`_gains`), and
    whether it holds a place (worked out only when asked: `_holds_place`)."""

    infected: float
    curable: float
    gains: dict[int, tuple[float, float, float]]
    holds_place: bool | None = None


class HeuristicBot(Bot):
    """Offers and accepts contact where it expects to gain, reads its watch when unsure of it, presses the
    switch when it may be infected with a vaccine, and takes no risk late while it holds a place."""

    name = "heuristic"
    title = Text("heuristic", "ヒューリスティック")

    #: Visit a room while the belief that it is infected lies between these.
    UNSURE = (0.1, 0.9)
    #: Press while the chance of being infected with a vaccine is above this.
    PRESS = 0.05
    #: In the last part of the game (this share of it) a seat holding a place avoids any risk above this.
    LATE, LATE_RISK = 0.25, 0.02
    #: A risk never taken, at any time (None: only late, as above).
    MAX_RISK: float | None = None
    #: Contact for vaccines, weighing only the chance of gaining one (not the risk), and never visit a room.
    GREEDY = False
    #: Read the watch again whenever the last reading is older than this (ms of game time; None: when unsure).
    CHECK_EVERY: int | None = None

    def __init__(self, seat: int, seed: int = 0) -> None:
        super().__init__(seat, seed)
        self.worlds: Worlds | None = None
        self.applied = 0  # log entries carried through
        self.read = 0  # own readings taken into account
        self.announced = 0  # announced counts taken into account
        self.acted_at: tuple[int, int] = (-1, 0)  # (time, actions at that time): real time, a few per moment
        # What the belief gives, kept while it is unchanged (most rounds carry no contact, press or reading),
        # with the (applied, read, announced) it was worked out at.
        self._memo: tuple[tuple[int, int, int], _Belief] | None = None

    def act(self, obs: Observation) -> Action | None:
        view = obs.view
        if view["phase"] != "play":
            return None
        rounds = view["tempo"] == "rounds"
        if not rounds:
            at, count = self.acted_at
            if at == obs.now and count >= 3:
                return None  # let time pass
        self._update(view)
        move = self._choose(view)
        if rounds:
            return {"type": "intend", "intent": move}
        if move == WAIT:
            return None
        at, count = self.acted_at
        self.acted_at = (obs.now, count + 1 if at == obs.now else 1)
        return parse_intent(move)

    # -- belief --------------------------------------------------------------------------------------
    def _update(self, view: dict[str, Any]) -> None:
        if self.worlds is None:
            self.worlds = Worlds(view["seats"], view["infected_at_start"])
        worlds, log = self.worlds, view["log"]
        news = sorted([(r["after"], 0, r) for r in view["readings"][self.read:]]
                      + [(a["after"], 1, a) for a in view["announcements"][self.announced:]],
                      key=lambda item: (item[0], item[1]))
        for after, kind, data in news:
            while self.applied < min(after, len(log)):
                worlds.apply(log[self.applied])
                self.applied += 1
            if kind == 1:
                worlds.announce(data["infected"])
                continue
            worlds.check(self.seat, data["infected"], data["vaccines"])
            allowed = worlds.allowed(self.seat)
            if allowed is not None and not allowed.any():
                # Only when contacts or presses are private (the log misses some): trust the reading alone.
                worlds.masks[self.seat] = worlds.infected[:, self.seat] == data["infected"]
                worlds.public = None
        self.read = len(view["readings"])
        self.announced = len(view["announcements"])
        while self.applied < len(log):
            worlds.apply(log[self.applied])
            self.applied += 1

    def _mask(self) -> Any:
        assert self.worlds is not None
        mask = self.worlds.allowed(self.seat)
        return slice(None) if mask is None or not mask.any() else mask

    # -- choice --------------------------------------------------------------------------------------
    def _choose(self, view: dict[str, Any]) -> str:
        legal = self._legal(view)
        belief = self._belief(view)
        me, p_me = self.seat, belief.infected
        inside = any(v["seat"] == me for v in view["inside"])
        if "press" in legal and belief.curable > self.PRESS:
            return "press"
        if inside:
            read_since = next(v["since"] for v in view["inside"] if v["seat"] == me)
            readings = view["readings"]
            if readings and readings[-1]["t"] >= read_since:
                return "leave"  # read: free the room for others
            return WAIT
        if me in view["queue"]:
            return WAIT
        late = view["time"] >= view["ends_at"] * (1 - self.LATE)
        values = belief.gains
        if self.MAX_RISK is not None:
            limit: float | None = self.MAX_RISK
        else:
            if p_me < 0.5 and late and belief.holds_place is None:
                belief.holds_place = self._holds_place(view, self._mask())
            limit = self.LATE_RISK if p_me < 0.5 and late and belief.holds_place else None
        offers = [o for o in view["offers_to_me"] if f"accept:{o['id']}" in legal]
        best_offer = max(offers, key=lambda o: self._key(values[o["from"]]), default=None)
        if best_offer is not None and self._worth(values[best_offer["from"]], limit):
            return f"accept:{best_offer['id']}"
        if "visit" in legal and self._wants_reading(view, p_me) and self._room_soon(view):
            return "visit"
        if view["my_offer"] is not None:
            return WAIT  # give the offer time to be answered
        # In seat order: `legal` is a set of strings, whose order changes from one process to the next, and
        # each target draws its tie-breaking number in turn.
        targets = sorted(int(i.split(":")[1]) for i in legal if i.startswith("offer:"))
        if not targets:
            return WAIT
        best = max(targets, key=lambda s: self._key(values[s]) + 0.01 * self.rng.random())
        return f"offer:{best}" if self._worth(values[best], limit) else WAIT

    def _belief(self, view: dict[str, Any]) -> _Belief:
        """The figures the choice reads from the belief, worked out again only when the belief changed."""
        key = (self.applied, self.read, self.announced)
        if self._memo is not None and self._memo[0] == key:
            return self._memo[1]
        assert self.worlds is not None
        me, mask = self.seat, self._mask()
        inf, vac = self.worlds.infected[mask], self.worlds.vaccines[mask]  # the worlds left, taken once
        n = inf.shape[0]
        mine = inf[:, me]
        curable = mine & (vac[:, me] > 0)
        belief = _Belief(int(np.count_nonzero(mine)) / n, int(np.count_nonzero(curable)) / n,
                         self._gains(view, mask, inf, vac))
        self._memo = (key, belief)
        return belief

    def _wants_reading(self, view: dict[str, Any], p_me: float) -> bool:
        if self.GREEDY:
            return False
        if self.CHECK_EVERY is not None:
            readings = view["readings"]
            return not readings or view["time"] - readings[-1]["t"] >= self.CHECK_EVERY
        return self.UNSURE[0] < p_me < self.UNSURE[1]

    def _key(self, value: tuple[float, float, float]) -> float:
        return value[2] if self.GREEDY else value[0]

    def _worth(self, value: tuple[float, float, float], limit: float | None) -> bool:
        gain, risk, vaccine = value
        return (vaccine if self.GREEDY else gain) > 0 and (limit is None or risk <= limit)

    def _gains(self, view: dict[str, Any], mask: Any, inf: Any, vac: Any) -> dict[int, tuple[float, float, float]]:
        """For every other seat: the expected change in this seat's worth from a contact now, the chance
        that the contact infects it, and the chance that it gains a vaccine (`watch.contact` from this
        seat's side, over its worlds: `mask`, and the watches in them, `inf` and `vac`)."""
        assert self.worlds is not None
        w, me, seats = self.worlds, self.seat, view["seats"]
        # Asked at every decision of every rollout of the search bot, over a few dozen worlds: few NumPy
        # operations, and sums divided in Python rather than `mean` (the same figures: the sums are exact).
        n = inf.shape[0]
        healthy = ~inf[:, me:me + 1]  # this seat healthy now, in each world (a column)
        va = vac[:, me:me + 1].astype(np.int32)
        other_healthy = ~inf
        meets_sick = healthy & inf
        gains_vaccine = healthy & other_healthy
        for other in range(seats):
            pair = w.pair(me, other) if other != me else None
            if pair is not None:
                gains_vaccine[:, other] &= ~pair[mask]
        # Healthy after a contact: the other is healthy, and this seat was too or the other cures it.
        healthy_after = other_healthy & (healthy | (vac > 0))
        vaccines_after = va + gains_vaccine - (meets_sick & (va > 0))
        after = (healthy_after * (1 + vaccines_after)).sum(axis=0).tolist()
        now = int((healthy * (1 + va)).sum()) / n
        risk, vaccine = meets_sick.sum(axis=0).tolist(), gains_vaccine.sum(axis=0).tolist()
        return {other: (after[other] / n - now, risk[other] / n, vaccine[other] / n)
                for other in range(seats) if other != me}

    def _holds_place(self, view: dict[str, Any], mask: Any) -> bool:
        """Whether this seat's expected vaccines reach the expected cut (the qualifiers-th best among the
        expected healthy seats)."""
        assert self.worlds is not None
        inf, vac = self.worlds.infected[mask], self.worlds.vaccines[mask]
        expected = ((~inf) * vac.astype(np.float64)).mean(axis=0)
        order = sorted(expected, reverse=True)
        cut = order[min(view["qualifiers"], len(order)) - 1]
        return bool(expected[self.seat] >= cut)

    @staticmethod
    def _room_soon(view: dict[str, Any]) -> bool:
        rooms: int = view["rooms"]
        return rooms == 0 or len(view["inside"]) + len(view["queue"]) <= rooms

    @staticmethod
    def _legal(view: dict[str, Any]) -> set[str]:
        """The moves open to the seat, as intents (in real time, made from the action specs)."""
        moves: set[str] = set()
        for spec in view["legal_actions"]:
            if spec["type"] == "intend":
                return set(spec["params"]["intent"]["choice"])
            params = spec["params"]
            if not params:
                moves.add(spec["type"])
            for name, param in params.items():
                moves.update(f"{spec['type']}:{v}" for v in param["choice"] if name in ("target", "offer"))
        return moves


class CautiousBot(HeuristicBot):
    """The heuristic bot that never takes a contact with more than a 2% chance of infecting it."""

    name = "cautious"
    title = Text("cautious", "慎重派")
    MAX_RISK = 0.02


class GreedyBot(HeuristicBot):
    """Contacts whoever is likeliest to give it a vaccine, whatever the risk; never visits a room."""

    name = "greedy"
    title = Text("greedy", "強欲派")
    GREEDY = True


class CheckerBot(HeuristicBot):
    """The heuristic bot that reads its watch again whenever its last reading is 30 s old."""

    name = "checker"
    title = Text("checker", "確認派")
    CHECK_EVERY = 30_000


class SearchBot(search.SearchBot):
    """The search bot (`engine/search.py`) with this game's heuristic as rollout policy and prior."""

    def model(self, world: Match, rng: random.Random) -> None:
        """The other seats' sealed intents of this round, redrawn as their heuristic would choose them in the
        drawn world (the determiniser draws them as a random player's, which makes an offer to a seat that
        then accepts at random look better than it is)."""
        assert isinstance(world, PandemicMatch)
        for seat in [int(k) for k in world.intents if int(k) != self.seat]:
            sealed = world.unseal(seat)
            bot = HeuristicBot(seat, rng.getrandbits(63))
            action = bot.act(Observation(seat, world.legal_actions(seat), partial(world.view, seat), world.now,
                                         world.deadline))
            world.reseal(seat, action["intent"] if action is not None else sealed)
