"""Musical Chairs matches a seat cannot tell from its own (docs/rules/musical-chairs.md,
Determinisation). The island (chairs, courses, seats, holds), the phases, votes' tallies and the history
are public; hidden are other seats' ballots, chair plans and sealed intents, drawn as a random player
would have made them, and the medals they hold, put where the seat last knew them."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from partygames.engine.actions import MAX_SEQUENCE_LEN, sample, sequence, spec
from partygames.engine.knowledge import Determiniser, SeatRecord, Template
from partygames.engine.match import Event, Match
from partygames.games.musical_chairs.options import MusicalChairsOptions
from partygames.games.musical_chairs.race import GALLERY
from partygames.games.musical_chairs.rules import BLANK, MusicalChairsMatch


class PlansHeard:
    """Who is following a chair plan, in real time: a plan is announced (`planned`, public) but not what it
    holds, and it ends when its player sits, steers by hand (a course the plan did not set) or the race
    ends. A course the autopilot sets follows at the same moment as what sets it off: the plan given in
    the race, GO, touching the totem, arriving, or a chair taken or held (the lamp seen from afar)."""

    def __init__(self) -> None:
        self.planning: list[int] = []  # in the order the plans were given (GO follows it)
        self.triggered: dict[int, int] = {}  # seat -> the moment its autopilot may set a course
        self.racing = False

    def see(self, view: Mapping[str, Any]) -> None:
        pass

    def hear(self, event: Event) -> None:
        kind, data = event.type, event.data
        if kind == "planned":
            seat = data["seat"]
            if seat in self.planning:
                self.planning.remove(seat)
            self.planning.append(seat)
            if self.racing:
                self.triggered[seat] = data["at"]
        elif kind == "race_started":
            self.racing = True
            self._trigger(self.planning, data["at"])
        elif kind in ("touched", "arrived"):
            self.triggered[data["seat"]] = data["at"]
        elif kind in ("seated", "held"):
            if kind == "seated" and data["seat"] in self.planning:
                self.planning.remove(data["seat"])
            self._trigger(self.planning, data["at"])
        elif kind == "course":
            seat, target = data["seat"], data["target"]
            autopilot = self.triggered.get(seat) == data["motion"]["start"] and target["kind"] in ("chair", "totem")
            if seat in self.planning and not autopilot:
                self.planning.remove(seat)
        elif kind in ("race_ended", "break", "game_over"):
            self.planning, self.triggered, self.racing = [], {}, False

    def _trigger(self, seats: list[int], at: int) -> None:
        for seat in seats:
            self.triggered[seat] = at


def estimate_medals(view: Mapping[str, Any], seats: int, medals: int) -> list[dict[str, int]]:
    """Every seat's medals as the seat of `view` last knew them: each player starts with its own set;
    the gifts it saw (its own) move medals, a showing (to it) tells a holding exactly, void names drop;
    each name's medals are then made to add up to the set (what is missing goes back to its player, or,
    for the seat's own name, to whoever it last gave some to; what is too many is taken from its player
    first, then from the seats never shown to it, then from those shown, the longest ago first)."""
    me, players, remaining = view["seat"], view["players"], view["remaining"]
    held: list[dict[str, int]] = [{str(s): medals} if s in players else {} for s in range(seats)]
    steps = [(t["at"], 0, t) for t in view["my_transfers"]] + [(s["at"], 1, s) for s in view["shown_to_me"]]
    for _, kind, item in sorted(steps, key=lambda x: (x[0], x[1])):
        if kind == 0:
            name = str(item["name"])
            held[item["from"]][name] = held[item["from"]].get(name, 0) - item["count"]
            held[item["to"]][name] = held[item["to"]].get(name, 0) + item["count"]
        else:
            held[item["from"]] = dict(item["medals"])
    shown = list(dict.fromkeys(s["from"] for s in sorted(view["shown_to_me"], key=lambda s: -s["at"])))[::-1]
    held[me] = dict(view["my_medals"])  # in its order: the order of the seat's `give` actions
    alive = {str(p) for p in remaining}
    held = [{n: max(0, c) for n, c in h.items() if n in alive} for h in held]
    for name in sorted(alive):
        missing = medals - sum(h.get(name, 0) for h in held)
        owner = int(name)
        if missing > 0:
            given = [t["to"] for t in view["my_transfers"] if t["from"] == me and str(t["name"]) == name]
            keeper = owner if owner != me else given[-1] if given else min(s for s in range(seats) if s != me)
            held[keeper][name] = held[keeper].get(name, 0) + missing
        # Too many: taken first from what is likeliest stale (the name's player, then seats never shown
        # to the seat), a holding shown recently last.
        order = [owner] * (owner != me) + [s for s in range(seats) if s not in (me, owner, *shown)]
        order += [s for s in shown if s not in (me, owner)]
        for seat in order:
            if missing >= 0:
                break
            take = min(held[seat].get(name, 0), -missing)
            held[seat][name] = held[seat].get(name, 0) - take
            missing += take
    return [{n: c for n, c in h.items() if c} for h in held]


class MusicalChairsDeterminiser(Determiniser):
    """The island and every public part from the view; the seat's own medals, gifts, ballot, plan and
    intent; the rest drawn (see the module docstring)."""

    def __init__(self, record: SeatRecord) -> None:
        super().__init__(record)
        view, me, seats = self.view, self.seat, record.seats
        options = record.options
        assert isinstance(options, MusicalChairsOptions)
        self.rounds = options.tempo == "rounds"
        people = view["people"]
        ballot = view["my_ballot"]
        plans = {str(me): view["my_plan"]} if view["my_plan"] is not None else {}
        # A sealed intent of an island ガヤ (None: it stands aside), once submitted.
        gallery_on_island = people[me]["role"] == GALLERY and people[me]["motion"] is not None
        intents = {str(me): view["my_intent"]} if me in view["submitted"] and gallery_on_island else {}
        self.state = Template({
            "chairs": view["chairs"],
            "people": people,
            "medals": estimate_medals(view, seats, options.medal_count),
            "transfers": view["my_transfers"],
            "shown": view["shown_to_me"],
            "plans": plans,
            "intents": intents,
            "submitted": view["submitted"],
            "seq": max(p["seq"] for p in people) + 1,
            "period": view["period"],
            "rerun": view["rerun"],
            "ballots": {str(me): ballot} if ballot is not None and ballot != BLANK else {},
            "abstained": [me] if ballot == BLANK else [],
            "candidates": view["candidates"],
            "parent": view["parent"],
            "history": view["history"],
            "outcome": view["outcome"],
            "winner": view["winner"],
            "phase": view["phase"],
            "phase_started": view["phase_started"],
            "phase_ends": view["phase_ends"],
        })
        phase = view["phase"]
        self.voters = [s for s in view["voted"] if s != me] if phase in ("vote", "runoff") else []
        # Sealed in the rounds tempo's break: another seat's plan, hold or stand-aside.
        self.sealed = [s for s in view["submitted"] if s != me] if self.rounds and phase == "break" else []
        # Following a plan now, in the order given: in the rounds tempo every player still running (a plan,
        # or the default one, from GO); in real time those that announced one and have not left it since.
        if phase == "race":
            running = [s for s, p in enumerate(people) if p["role"] != GALLERY and p["chair"] is None and s != me]
            heard = record.memory.planning if isinstance(record.memory, PlansHeard) else []
            self.planners = running if self.rounds else [s for s in heard if s in running]
        elif phase == "break" and not self.rounds:
            heard = record.memory.planning if isinstance(record.memory, PlansHeard) else []
            self.planners = [s for s in heard if s != me and people[s]["role"] != GALLERY]
        else:
            self.planners = []
        self.submitted = set(view["submitted"])

    @classmethod
    def memory(cls, seat: int) -> PlansHeard:
        return PlansHeard()

    def sample(self, rng: random.Random) -> Match:
        state: dict[str, Any] = self.state.copy()
        return self.assemble(state, rng, lambda match: self._draw(match, rng))

    def _draw(self, match: Match, rng: random.Random) -> None:
        assert isinstance(match, MusicalChairsMatch)
        for seat in self.voters:  # a ballot as a random voter casts it: a candidate or blank, equally likely
            choices = len(match.candidates) + 1 if match._may_vote(seat) else 1
            pick = rng.randrange(choices)
            if pick == choices - 1:
                match.abstained.append(seat)
            else:
                match.ballots[str(seat)] = match.candidates[pick]
        for seat in self.sealed:
            self._seal(match, seat, rng)
        for seat in self.planners:
            match.plans[str(seat)] = self._plan_left(match, seat, rng)

    @staticmethod
    def _seal(match: MusicalChairsMatch, seat: int, rng: random.Random) -> None:
        """A rounds tempo's sealed intent, as the random bot chooses among the closing actions it had."""
        person = match.people[seat]
        if person["role"] != GALLERY:
            allowed = match.allowed_chairs(seat)
            if allowed:  # else it could only pass
                plan = sample([spec("plan", chairs=sequence(allowed, 1, min(MAX_SEQUENCE_LEN, len(allowed))))], rng)
                match.plans[str(seat)] = plan["chairs"]
        elif match.on_island(seat):
            hold = rng.random() < 0.5  # `hold` or `stop`, one spec each
            match.intents[str(seat)] = ({"chair": rng.choice(match.open_chairs()), "for": rng.choice(match.remaining())}
                                        if hold else None)

    def _plan_left(self, match: MusicalChairsMatch, seat: int, rng: random.Random) -> list[int]:
        """What is left of a plan being followed: a random one (as the random bot plans), or in the rounds
        tempo the default plan of a player that gave none; past the chair it is running to, once it has
        touched the totem."""
        allowed = match.allowed_chairs(seat)
        if self.rounds and seat not in self.submitted:
            plan = match.default_plan(seat)
        elif allowed:
            plan = list(sample([spec("plan", chairs=sequence(allowed, 1, min(MAX_SEQUENCE_LEN, len(allowed))))],
                               rng)["chairs"])
        else:
            plan = []
        person = match.people[seat]
        target = person["target"]
        if person["touched"] and target is not None and target["kind"] == "chair":
            chair = target["chair"]
            plan = plan[plan.index(chair) + 1:] if chair in plan else [c for c in plan if c != chair]
        return plan
