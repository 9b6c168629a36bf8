"""Pandemic Game matches a seat cannot tell from its own (docs/rules/pandemic.md, Determinisation).

With contacts and presses public, every watch follows from the initial infected set through the log,
so a sample draws one initial set among those the seat's information allows (the public odds'
worlds, narrowed by its own readings and the announcements: equally likely), and carries it through
the log by the seed's rules; other seats' readings are where their visits to the rooms put them, and
their sealed intents are drawn as a random player would choose them."""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations, islice
from typing import Any

import numpy as np

from partygames.engine.knowledge import Determiniser, SeatRecord, Template
from partygames.engine.match import Event, Match
from partygames.games.pandemic.odds import Worlds
from partygames.games.pandemic.options import PandemicOptions
from partygames.games.pandemic.rules import PandemicMatch, pair_key
from partygames.games.pandemic.watch import Watch, contact, press


class VisitsHeard:
    """Every visit to a room, as announced (`entered`, `left`: public): seat, since, until and why it
    ended (None while it lasts). A watch is read `read_seconds` into a visit that lasts that long."""

    def __init__(self) -> None:
        self.visits: list[list[Any]] = []

    def see(self, view: Mapping[str, Any]) -> None:
        pass

    def hear(self, event: Event) -> None:
        data = event.data
        if event.type == "entered":
            self.visits.append([data["seat"], data["t"], None, None])
        elif event.type == "left":
            for visit in reversed(self.visits):
                if visit[0] == data["seat"] and visit[2] is None:
                    visit[2], visit[3] = data["t"], data["reason"]
                    break


class PandemicDeterminiser(Determiniser):
    """See the module docstring. `worlds`: the initial infected sets a sample is drawn from, each equally
    likely (those the public log, the seat's readings and the announcements allow)."""

    def __init__(self, record: SeatRecord) -> None:
        super().__init__(record)
        view, me, seats = self.view, self.seat, record.seats
        options = record.options
        assert isinstance(options, PandemicOptions)
        self.options = options
        t = view["time"]
        rounds = options.tempo == "rounds"
        log: list[dict[str, Any]] = view["log"]
        read_ms = options.read_seconds * 1000
        mine = view["readings"]
        # Another seat's visit read its watch `read_seconds` in if it lasted that long. At that very moment
        # (what the seat cannot tell apart) the reading is taken to come first, as when its host wakes the
        # match at every moment something falls due (`Session.catch_up`, the server) and in the rounds
        # tempo: before the entries logged at that moment and before leaving then (not before a break).
        inside = {str(v["seat"]): {"room": v["room"], "since": v["since"],
                                   "read": any(r["t"] >= v["since"] for r in mine) if v["seat"] == me
                                   else v["since"] + read_ms <= t}
                  for v in view["inside"]}
        heard = record.memory.visits if isinstance(record.memory, VisitsHeard) else []
        visits = [v for v in heard if v[2] is not None] + [[int(k), v["since"], None, None] for k, v in inside.items()]
        self.others: list[tuple[int, int, int]] = []  # (seq, seat, t)
        for seat, since, until, reason in visits:
            at = since + read_ms
            if seat == me or not (at <= t if until is None else at < until or (at == until and reason != "break")):
                continue
            self.others.append((sum(e["t"] < at for e in log), seat, at))
        self.others.sort()
        self.log = log
        offers = [view["my_offer"]] if view["my_offer"] else []
        offers += view["offers_to_me"]
        self.state = Template({
            "t": t,
            "over": False,
            "log": log,
            "offers": {o["id"]: o for o in offers},
            "busy_until": view["busy_until"],
            "inside": inside,
            "queue": view["queue"],
            "passed": [],
            "cut_lot": None,
            "step": view.get("step", 0),
            "intents": {str(me): view["my_intent"]} if rounds and view["my_intent"] is not None else {},
            "period": view["period"],
            "on_break": view["phase"] == "break",
            "announcements": [{**{k: a[k] for k in ("period", "t", "healthy", "infected")}, "seq": a["after"]}
                              for a in view["announcements"]],
        })
        self.mine = [{"t": r["t"], "infected": r["infected"], "vaccines": r["vaccines"], "seq": r["after"]}
                     for r in mine]
        worlds = Worlds(seats, options.infected)
        worlds.replay(log, [(r["seq"], me, r) for r in self.mine],
                      [(a["after"], a["infected"]) for a in view["announcements"]])
        allowed = worlds.allowed(me)
        indices = np.flatnonzero(allowed) if allowed is not None and allowed.any() else np.arange(len(worlds))
        self.worlds: list[int] = [int(i) for i in indices]
        self.voters = [s for s in view.get("submitted", ()) if s != me] if rounds else []
        self._carried: dict[int, Template] = {}

    @classmethod
    def memory(cls, seat: int) -> VisitsHeard:
        return VisitsHeard()

    def initial_set(self, world: int) -> tuple[int, ...]:
        """The initial infected seats of world `world` (the worlds' order: `odds.Worlds`)."""
        return next(islice(combinations(range(self.record.seats), self.options.infected), world, None))

    def sample(self, rng: random.Random) -> Match:
        world = self.worlds[rng.randrange(len(self.worlds))]
        carried = self._carried.get(world)
        if carried is None:
            carried = self._carried[world] = Template(self._carry(self.initial_set(world)))
        state: dict[str, Any] = self.state.copy()
        state.update(carried.copy())
        return self.assemble(state, rng, lambda match: self._draw_intents(match, rng))

    def _carry(self, initial: tuple[int, ...]) -> dict[str, Any]:
        """The watches of one initial infected set carried through the log by the seed's rules, with their
        history and the other seats' readings along the way."""
        seats = self.record.seats
        infected = [s in initial for s in range(seats)]
        vaccines = [0] * seats
        paired: dict[str, bool] = {}
        history = [{"t": 0, "seat": s, "infected": infected[s], "vaccines": 0, "cause": "start"} for s in range(seats)]
        readings: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
        readings[self.seat] = self.mine
        others = iter(self.others)
        pending = next(others, None)

        def change(seat: int, watch: Watch, at: int, cause: str) -> None:
            if watch != (infected[seat], vaccines[seat]):
                infected[seat], vaccines[seat] = watch.infected, watch.vaccines
                history.append({"t": at, "seat": seat, "infected": watch.infected, "vaccines": watch.vaccines,
                                "cause": cause})

        for index in range(len(self.log) + 1):
            while pending is not None and pending[0] == index:
                _, seat, at = pending
                readings[seat].append({"t": at, "infected": infected[seat], "vaccines": vaccines[seat], "seq": index})
                pending = next(others, None)
            if index == len(self.log):
                break
            entry = self.log[index]
            if entry["kind"] == "contact":
                a, b = entry["a"], entry["b"]
                key = pair_key(a, b)
                outcome = contact(Watch(infected[a], vaccines[a]), Watch(infected[b], vaccines[b]), paired.get(key, False))
                if outcome.gained:
                    paired[key] = True
                change(a, outcome.first, entry["t"], "contact")
                change(b, outcome.second, entry["t"], "contact")
            else:
                seat = entry["seat"]
                change(seat, press(Watch(infected[seat], vaccines[seat])), entry["t"], "press")
        return {"initial_infected": sorted(initial), "infected": infected, "vaccines": vaccines, "paired": paired,
                "history": history, "readings": readings}

    def _draw_intents(self, match: Match, rng: random.Random) -> None:
        """Another seat's sealed intent of this round: any it could submit, equally likely."""
        assert isinstance(match, PandemicMatch)
        for seat in self.voters:
            intents = match.legal_intents(seat)
            match.intents[str(seat)] = intents[rng.randrange(len(intents))]
