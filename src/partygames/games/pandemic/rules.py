"""The Pandemic Game (感染ゲーム) state machine, in real time or in rounds of sealed intents.

Every seat wears a watch holding its status and vaccine count, both secret. Seats offer contact to each
other, visit private rooms to read their own watch, and press the switch; when the game time is up the
healthy seats with most vaccines pass. docs/rules/pandemic.md gives every rule with its seed sentence.

Time: in the `real-time` tempo the game time is the match's clock (`now`, ms); offers lapse, watches are
read and stays end at their own moments (`wake_at`/`advance`). In the `rounds` tempo the game time moves
in steps of `step_seconds`: every seat submits one sealed intent per step, and the intents are carried
out by the same rule functions, in an order drawn by lot, at the step's time.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any, ClassVar

from partygames.engine import (
    Action,
    ActionSpec,
    Event,
    IllegalAction,
    Match,
    Result,
    SeatResult,
    choice,
    spec,
)
from partygames.engine.actions import find_spec
from partygames.engine.copying import Shape
from partygames.engine.match import TimeLimit, audience
from partygames.engine.options import Options
from partygames.games.pandemic.odds import Worlds
from partygames.games.pandemic.options import PandemicOptions
from partygames.games.pandemic.view import seat_view
from partygames.games.pandemic.watch import Watch, contact, press

#: Chance labels: each seat infected at the start (one draw per infected seat, among those not yet drawn),
#: the order of a round's intents, and the lot among seats tied at the cut.
INFECTED_LABEL = "infected"
ORDER_LABEL = "order"
CUT_LABEL = "cut"

WAIT = "wait"


class Termination(StrEnum):
    """How a match of the Pandemic Game ends (`Result.termination`)."""

    TIME_UP = "time_up"
    """The game time ran out: the only way a match ends."""


def pair_key(a: int, b: int) -> str:
    return f"{min(a, b)}-{max(a, b)}"


def parse_intent(intent: str) -> Action:
    """The real-time action a rounds-tempo intent stands for ("offer:3", "accept:3@5000", "press")."""
    kind, _, arg = intent.partition(":")
    if kind == "offer":
        return {"type": "offer", "target": int(arg)}
    if kind in ("accept", "decline"):
        return {"type": kind, "offer": arg}
    return {"type": kind}


def intent_of(action: Action) -> str:
    """The intent string of a real-time action (the inverse of `parse_intent`)."""
    if action["type"] == "offer":
        return f"offer:{action['target']}"
    if action["type"] in ("accept", "decline"):
        return f"{action['type']}:{action['offer']}"
    return str(action["type"])


# The actions of a contact: between the two seats alone when contacts are not public.
CONTACT_ACTIONS = frozenset({"offer", "accept", "decline", "withdraw"})


class PandemicMatch(Match):
    # a contact, offered or accepted: a deal between two people (docs/rules/pandemic.md, Stand-ins)
    PERSONAL = frozenset({"offer", "accept"})
    game_id = "pandemic"
    options_class = PandemicOptions
    seat_counts = tuple(range(4, 25))
    # The view's `time` is the moment of the latest step: a step others may not see (a private contact)
    # changes only it, so the server tells them nothing (docs/rules/pandemic.md, What others notice).
    VIEW_CLOCK_KEYS = frozenset({"time"})
    # `readings` stays a deep copy: `perturb_secrets` changes a reading in place.
    CLONE_SHAPES: ClassVar[dict[str, Shape]] = {
        **dict.fromkeys(("initial_infected", "infected", "vaccines", "paired", "busy_until", "queue", "passed",
                         "cut_lot", "intents"), Shape.FLAT),
        **dict.fromkeys(("offers", "inside"), Shape.ROWS),
        **dict.fromkeys(("history", "log", "announcements"), Shape.LOG)}
    # A cache (not stored): every initial infected set carried through the public log, built on first use.
    _worlds: Worlds | None = None
    # The game time before the latest step (not stored: `step_witnesses` reads it right after the step).
    _step_from: int = 0
    # A cache (not stored): per seat, the log as it saw it, counted (`seen_counts`).
    _seen: dict[int, SeenCounts] | None = None
    # A cache (not stored): `to_act()`, asked several times a step; dropped wherever the intents, the
    # break or the end change (`_awaited_changed`).
    _waiting: tuple[int, ...] | None = None
    # A cache (not stored): every seat's legal actions in the rounds tempo (`_step_specs`), for the step
    # they were worked out in: dropped by its resolution (`_resolve_step`, the only place the step moves).
    _specs: list[list[ActionSpec]] | None = None
    # A cache (not stored): the time limit of the rounds tempo, for the step and awaited seats it was made
    # for (asked at every step by hosts and the environments, whose clock moves at every step).
    _limit: tuple[int, tuple[int, ...], TimeLimit] | None = None
    # A cache (not stored): the options' moments in game ms (`_times`; the options never change).
    _timing: Timing | None = None

    @classmethod
    def allowed_seat_counts(cls, options: Options) -> tuple[int, ...]:
        assert isinstance(options, PandemicOptions)
        return tuple(n for n in cls.seat_counts if n > options.infected)

    options: PandemicOptions

    @property
    def opts(self) -> PandemicOptions:
        assert isinstance(self.options, PandemicOptions)
        return self.options

    @property
    def is_rounds(self) -> bool:
        return self.opts.tempo == "rounds"

    def step_witnesses(self, actor: int | None, action: Action | None,
                       events: Sequence[Event]) -> frozenset[int] | None:
        """A contact's steps (offers, acceptances, declines, withdrawals) when contacts are not public, and a
        press when presses are not: witnessed by those involved, whom their events reach (docs/rules/pandemic.md,
        What others notice). Time passing that only lapses offers, reads a watch in a room or ends a private
        busy time is witnessed by those it concerns; any public event makes a step public."""
        public_contacts = self.opts.public_contacts
        if actor is None:
            if not events and public_contacts:
                return None
            seen = audience(events)
        else:
            assert action is not None
            kind = action.get("type")
            if not ((kind in CONTACT_ACTIONS and not public_contacts) or (kind == "press" and not self.opts.public_presses)):
                return None
            seen = audience(events, actor)
        # A busy time that ended with this step (at a wake-up, or at an action at the very moment it was
        # due) changes the views of those who see it: everyone's with public contacts, else the two's
        # alone. Told to the public, it would let everyone count the private contacts (issue 29).
        ended = [s for s, until in enumerate(self.busy_until) if self._step_from < until <= self.t]
        if seen is None or not ended:
            return seen
        return None if public_contacts else seen | frozenset(ended)

    # -- set-up ------------------------------------------------------------------------------------
    def _setup(self) -> None:
        n = self.seats
        pool = list(range(n))
        initial = []
        for _ in range(self.options.infected):
            seat = self.chance.choice(INFECTED_LABEL, pool)
            pool.remove(seat)
            initial.append(seat)
        self.initial_infected = sorted(initial)
        self.infected = [s in initial for s in range(n)]
        self.vaccines = [0] * n
        self.paired: dict[str, bool] = {}
        self.history: list[dict[str, Any]] = [
            {"t": 0, "seat": s, "infected": self.infected[s], "vaccines": 0, "cause": "start"} for s in range(n)]
        self.t = 0  # the game time in ms
        self.over = False
        # Contacts and presses in order (each public, or told only to those involved: `is_public`).
        self.log: list[dict[str, Any]] = []
        self.offers: dict[str, dict[str, Any]] = {}  # id -> {"id", "from", "to", "at"}
        self.busy_until = [0] * n
        self.inside: dict[str, dict[str, Any]] = {}  # seat -> {"room", "since", "read"}
        self.queue: list[int] = []
        self.readings: list[list[dict[str, Any]]] = [[] for _ in range(n)]  # {"t", "infected", "vaccines", "seq"}
        self.passed: list[int] = []
        self.cut_lot: list[int] | None = None
        self.step = 0
        self.intents: dict[str, str] = {}
        self.period = 0
        self.on_break = False
        self.announcements: list[dict[str, Any]] = []  # {"period", "t", "healthy", "infected", "seq"}

    # -- the contract ------------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        waiting = self._waiting
        if waiting is None:
            if self.over or self.on_break:
                waiting = ()
            elif self.options.tempo == "rounds":
                intents = self.intents
                waiting = tuple([s for s, key in enumerate(_keys(self.seats)) if key not in intents])
            else:
                waiting = tuple(range(self.seats))
            self._waiting = waiting
        return waiting

    def _awaited_changed(self) -> None:
        self._waiting = None

    def turns(self) -> tuple[int, ...]:
        # Real time: anyone may act at any moment and nothing waits for anyone. Rounds: each step waits
        # for every awaited seat's sealed intent, a turn.
        return self.to_act() if self.is_rounds else ()

    def _legal_actions(self, seat: int) -> list[ActionSpec]:
        if self.options.tempo != "rounds":
            return self._rule_actions(seat)
        specs = self._specs  # `_step_specs`' kept answer, read here: asked for every seat at every step
        return (self._step_specs() if specs is None else specs)[seat]

    def stand_in_actions(self, seat: int) -> list[ActionSpec]:
        """A stand-in neither offers nor accepts a contact, in real time (`PERSONAL`) or as a round's intent
        (`offer:…`, `accept:…`)."""
        specs = super().stand_in_actions(seat)
        if self.options.tempo != "rounds":
            return specs
        intents = [i for i in self._intents(seat) if i.split(":")[0] not in self.PERSONAL]
        return [{"type": "intend", "params": {"intent": {"choice": intents}}}] if specs else []

    def _intents(self, seat: int) -> list[str]:
        """The intents `seat` may submit: `wait`, then the intent of every action `_rule_actions` allows, in
        its order (rounds tempo; `_step_specs` writes them)."""
        specs = self._specs
        return list((self._step_specs() if specs is None else specs)[seat][0]["params"]["intent"]["choice"])

    def _step_specs(self) -> list[list[ActionSpec]]:
        """Every seat's legal actions in the rounds tempo, one choice of intents each (`_intents`), written
        straight from the state for every seat at once and kept for the step (`_specs`: nothing but the
        sealed intents changes between two steps' resolutions, and every seat is asked at every step). A
        free seat's list starts with `wait` and its offers (shared per set of rooms taken), then the
        acceptances and declines of the offers it was made, oldest first; a seat in a room or busy has
        `wait` and the declines; then `withdraw` for a seat with an open offer, `leave` (in a room or
        queued) or `visit`, `press`. Each list is shared for the step: read, never changed."""
        seats = self.seats
        inside, busy, t, queue = self.inside, self.busy_until, self.t, self.queue
        heads = _open_offer_heads(seats, frozenset(inside)) if inside else _offer_heads(seats)
        incoming: dict[int, list[dict[str, Any]]] = {}
        offering: set[int] = set()
        for offer in self.offers.values():
            incoming.setdefault(offer["to"], []).append(offer)
            offering.add(offer["from"])
        answers: dict[int, tuple[list[str], list[str]]] = {}
        for target, made in incoming.items():
            if len(made) > 1:
                made.sort(key=lambda o: (o["at"], o["from"]))
                answers[target] = [f"accept:{o['id']}" for o in made], [f"decline:{o['id']}" for o in made]
            else:  # (most seats are made one offer: no comprehension, which is a call of its own)
                offer_id = made[0]["id"]
                answers[target] = [f"accept:{offer_id}"], [f"decline:{offer_id}"]
        specs: list[list[ActionSpec]] = []
        for seat, key in enumerate(_keys(seats)):
            in_room = key in inside
            answer = answers.get(seat)
            if not in_room and busy[seat] <= t:  # free to make or accept a contact
                intents = [*heads[seat]]
                if answer is not None:
                    intents += answer[0]
                    intents += answer[1]
            else:
                intents = [WAIT]
                if answer is not None:
                    intents += answer[1]
            intents += _TAILS[seat in offering, in_room or seat in queue]
            specs.append([{"type": "intend", "params": {"intent": {"choice": intents}}}])
        if self.options.tempo == "rounds":  # (in real time the state moves at every step)
            self._specs = specs
        return specs

    def _intent_allowed(self, seat: int, intent: str) -> bool:
        """Whether `_rule_actions(seat)` allows the action of a submitted intent (one of `_intents` at
        its step), decided without listing them: `_resolve_step` asks it of every seat at every step."""
        kind, _, arg = intent.partition(":")
        inside = self.inside
        in_room = str(seat) in inside
        if kind == "offer":
            target = int(arg)
            return (not in_room and self.busy_until[seat] <= self.t and target != seat and 0 <= target < self.seats
                    and str(target) not in inside)
        if kind == "accept" or kind == "decline":
            offer = self.offers.get(arg)
            return (offer is not None and offer["to"] == seat
                    and (kind == "decline" or (not in_room and self.busy_until[seat] <= self.t)))
        if kind == "withdraw":
            return self.own_offer(seat) is not None
        if kind == "leave":
            return in_room or seat in self.queue
        if kind == "visit":
            return not (in_room or seat in self.queue)
        return kind == "press"

    def _rule_actions(self, seat: int) -> list[ActionSpec]:
        """What the rules allow `seat` now (the real-time actions; a rounds intent names one of them)."""
        key = str(seat)
        specs: list[ActionSpec] = []
        in_room = key in self.inside
        free = not in_room and self.busy_until[seat] <= self.t
        if free:
            targets = [s for s in range(self.seats) if s != seat and str(s) not in self.inside]
            if targets:
                specs.append(spec("offer", target=choice(targets)))
        incoming = sorted((o for o in self.offers.values() if o["to"] == seat), key=lambda o: (o["at"], o["from"]))
        if incoming and free:
            specs.append(spec("accept", offer=choice([o["id"] for o in incoming])))
        if incoming:
            specs.append(spec("decline", offer=choice([o["id"] for o in incoming])))
        if self.own_offer(seat) is not None:
            specs.append(spec("withdraw"))
        if in_room or seat in self.queue:
            specs.append(spec("leave"))
        else:
            specs.append(spec("visit"))
        specs.append(spec("press"))
        return specs

    def own_offer(self, seat: int) -> dict[str, Any] | None:
        """The open offer `seat` made, if any."""
        for offer in self.offers.values():  # a loop: a generator with next() costs twice as much here
            if offer["from"] == seat:
                return offer
        return None

    def _apply(self, seat: int, action: Action) -> list[Event]:
        self._step_from = self.t
        if self.options.tempo == "rounds":  # the seat's sealed intent (written here: every action of the tempo)
            intents = self.intents
            intents[_KEYS[seat]] = action["intent"]
            waiting = self._waiting  # the seat is no longer awaited (the step's resolution drops the rest)
            if waiting is not None and seat in waiting:
                at = waiting.index(seat)
                self._waiting = waiting[:at] + waiting[at + 1:]
            events = [Event("intent_submitted", {"seat": seat, "step": self.step})]
            if len(intents) < self.seats:
                return events
            return events + self._resolve_step()
        now = self.clock.now
        due = self._next_due()
        if due is None or due >= now:  # what falls due at `now` itself happens after the action
            self.t = now
            return self._carry_out(seat, action)
        # Something fell due before this action (its host did not wake the match first): it happens
        # first, and the action must still be legal after it, else everything is put back.
        saved = self._snapshot()
        events = self._settle(now, inclusive=False)
        try:
            if self.over:
                raise IllegalAction("The game time is up.", "ゲーム時間は終了しました。", code="action/match_over")
            if self.on_break:
                raise IllegalAction("Nobody acts during the break.", "休憩中は誰も行動できません。",
                                    code="action/not_your_turn")
            find_spec(self._rule_actions(seat), action)
        except IllegalAction:
            self._restore(saved)
            raise
        return events + self._carry_out(seat, action)

    def _snapshot(self) -> str:
        state = {k: v for k, v in vars(self).items() if k not in self._BASE_ATTRS and not k.startswith("_")}
        return json.dumps({"state": state, "chance": self.chance.to_json()})

    def _restore(self, saved: str) -> None:
        data = json.loads(saved)
        for key, value in data["state"].items():
            setattr(self, key, value)
        self.chance = type(self.chance).from_json(data["chance"])
        self._worlds = None
        self._seen = None
        self._waiting = None

    # -- rounds ------------------------------------------------------------------------------------
    def _resolve_step(self) -> list[Event]:
        """Carries out every intent of the step at its time, in an order drawn by lot, then lets the game
        time run to the next step."""
        seats, t = self.seats, self.t
        order = list(range(seats))
        self.chance.shuffle(ORDER_LABEL, order)
        events = [Event("step_order", {"step": self.step, "t": t, "order": order})]
        intents, keys = self.intents, _KEYS
        for seat in order:
            intent = intents[keys[seat]]
            if intent == WAIT:
                continue
            if not self._intent_allowed(seat, intent):
                # An earlier intent of the step made this one impossible (the offer lapsed, a room filled).
                events.append(Event("intent_void", {"step": self.step, "intent": intent}, (seat,)))
                continue
            events += self._carry_out(seat, parse_intent(intent))
        self.intents = {}
        self._waiting = _all_seats(seats)  # every seat again (the break and the end drop it)
        self._specs = None
        self.step += 1
        timing = self._timing or self._times()
        events += self._settle(min(self.t + timing.step_ms, timing.end_ms))
        if self.on_break:  # nobody acts in a break: the next round begins with the next period
            events += self._settle(timing.starts[self.period + 1])
        return events

    def time_limit(self) -> TimeLimit | None:
        if self.options.tempo != "rounds":
            return None
        waiting = self.to_act()
        if not waiting:
            return None
        kept = self._limit
        if kept is not None and kept[0] == self.step and kept[1] == waiting:
            return kept[2]
        # every awaited seat's default is to wait: one action for all (defaults are read, never changed)
        limit = TimeLimit(f"step:{self.step}", float(self.options.intent_seconds),
                          dict.fromkeys(waiting, {"type": "intend", "intent": WAIT}))  # noqa: RUF024
        self._limit = (self.step, waiting, limit)
        return limit

    # -- real time ---------------------------------------------------------------------------------
    def wake_at(self) -> int | None:
        if self.options.tempo == "rounds":
            return self.time_limit_due()
        due = self._next_due()
        limit = self.time_limit_due()
        return due if limit is None else limit if due is None else min(due, limit)

    def advance(self, now: int) -> list[Event]:
        self._step_from = self.t
        events = super().advance(now)
        if self.options.tempo != "rounds":
            events += self._settle(now)
            self._legal_cache.clear()
        return events

    def _times(self) -> Timing:
        """The options' moments and lengths in game ms (`_timing`, worked out on first use)."""
        timing = self._timing
        if timing is None:
            timing = self._timing = Timing(self.options)
        return timing

    def _next_due(self) -> int | None:
        """The game time at which something next happens by itself (None: the match is over)."""
        if self.over:
            return None
        timing = self._timing or self._times()
        if self.on_break:
            return timing.starts[self.period + 1]
        due = timing.ends[self.period]
        offer_ms = timing.offer_ms
        for offer in self.offers.values():
            lapses = offer["at"] + offer_ms
            if lapses < due:
                due = lapses
        if self.inside:
            read_ms, stay_ms = timing.read_ms, timing.stay_ms
            for visit in self.inside.values():
                since = visit["since"]
                if not visit["read"] and since + read_ms < due:
                    due = since + read_ms
                if since + stay_ms < due:
                    due = since + stay_ms
        t, busy = self.t, self.busy_until
        if max(busy) > t:  # (most steps nobody is busy: one look instead of a loop)
            for until in busy:
                if t < until < due:
                    due = until  # contacts become possible again: a change clients must see
        return due

    def _settle(self, until: int, inclusive: bool = True) -> list[Event]:
        """Lets the game time run to `until`: offers lapse, watches are read, stays end, and the game ends
        (what falls due at `until` itself only if `inclusive`)."""
        events: list[Event] = []
        while not self.over:
            due = self._next_due()
            if due is None or due > until or (due == until and not inclusive):
                break
            self.t = due
            events += self._fire(due)
        if not self.over:
            self.t = max(self.t, until)
        return events

    def _fire(self, t: int) -> list[Event]:
        if self.on_break:
            self.on_break = False
            self._awaited_changed()
            self.period += 1
            return [Event("period_started", {"period": self.period, "t": t})]
        timing = self._timing or self._times()
        if t >= timing.ends[self.period]:
            return self._end() if self.period == self.options.periods - 1 else self._break()
        events: list[Event] = []
        inside = self.inside
        if inside:
            # (a reading changes no stay, and a stay that ends lets in only seats not yet inside)
            read_ms, stay_ms = timing.read_ms, timing.stay_ms
            for seat_key in sorted((k for k, v in inside.items() if not v["read"] and v["since"] + read_ms <= t),
                                   key=int):
                events += self._read(int(seat_key))
            for seat_key in sorted((k for k, v in inside.items() if v["since"] + stay_ms <= t), key=int):
                events += self._leave(int(seat_key), "stay_over")
        if self.offers:
            # (a lapse removes only its own offer)
            offer_ms = timing.offer_ms
            due = [o for o in self.offers.values() if o["at"] + offer_ms <= t]
            for offer in sorted(due, key=lambda o: (o["at"], o["from"])) if len(due) > 1 else due:
                events.append(self._lapse(offer, "expired"))
        return events

    # -- the rules ---------------------------------------------------------------------------------
    def _carry_out(self, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        if kind == "offer":
            return self._offer(seat, action["target"])
        if kind == "accept":
            offer = self.offers[action["offer"]]
            return self._contact(offer["from"], seat)
        if kind == "decline":
            offer = self.offers.pop(action["offer"])
            return [Event("declined", {"offer": offer["id"], "from": offer["from"], "to": seat},
                          to=(offer["from"], seat))]
        if kind == "withdraw":
            own = self.own_offer(seat)
            assert own is not None
            return [self._lapse(own, "withdrawn")]
        if kind == "visit":
            return self._visit(seat)
        if kind == "leave":
            return self._leave(seat, "left")
        if kind == "press":
            return self._press(seat)
        raise AssertionError(f"unknown action {kind!r}: checked against the specs before")

    def _offer(self, seat: int, target: int) -> list[Event]:
        # The offers `_lapse_all(seat, ...)` would lapse, and among them `own_offer(target)` if it is made to
        # `seat` (a seat has one open offer at most: each new one lapses the others), found in one pass.
        # (Loops, not comprehensions: each comprehension is a call of its own, and this runs at most steps.)
        offers = self.offers
        mine = []
        for offer in offers.values():
            sender = offer["from"]
            if sender == seat or offer["to"] == seat:
                if sender == target:
                    return self._contact(target, seat)  # an offer to a seat that offers to you is an acceptance
                mine.append(offer)
        events = []
        if mine:
            for offer in sorted(mine, key=lambda o: (o["at"], o["from"])) if len(mine) > 1 else mine:
                events.append(self._lapse(offer, "other_contact"))
        t = self.t
        offer_id = f"{seat}@{t}"
        offer = offers[offer_id] = {"id": offer_id, "from": seat, "to": target, "at": t}
        events.append(Event("offered", dict(offer), (seat, target)))  # (`to` given by position: cheaper)
        return events

    def _lapse(self, offer: dict[str, Any], reason: str) -> Event:
        del self.offers[offer["id"]]
        return Event("offer_lapsed", {"offer": offer["id"], "from": offer["from"], "to": offer["to"],
                                      "reason": reason}, (offer["from"], offer["to"]))

    def _lapse_all(self, seat: int, reason: str, keep: str | None = None) -> list[Event]:
        """Every open offer from or to `seat` lapses (it starts another contact or enters a room)."""
        events: list[Event] = []
        # The seat's own offers picked out first, then put in order: the same order, fewer to sort (a loop,
        # not a comprehension, which is a call of its own: most lists are empty).
        mine = []
        for offer in self.offers.values():
            if (offer["from"] == seat or offer["to"] == seat) and offer["id"] != keep:
                mine.append(offer)
        if mine:
            for offer in sorted(mine, key=lambda o: (o["at"], o["from"])) if len(mine) > 1 else mine:
                events.append(self._lapse(offer, reason))
        return events

    def _contact(self, offerer: int, accepter: int) -> list[Event]:
        offer = self.own_offer(offerer)
        events = self._lapse_all(offerer, "other_contact", keep=None if offer is None else offer["id"])
        events += self._lapse_all(accepter, "other_contact", keep=None if offer is None else offer["id"])
        if offer is not None:
            del self.offers[offer["id"]]
        a, b = sorted((offerer, accepter))
        key = pair_key(a, b)
        outcome = contact(Watch(self.infected[a], self.vaccines[a]), Watch(self.infected[b], self.vaccines[b]),
                          self.paired.get(key, False))
        if outcome.gained:
            self.paired[key] = True
        self._set(a, outcome.first, "contact")
        self._set(b, outcome.second, "contact")
        until = self.t + self.options.busy_seconds * 1000
        self.busy_until[a] = self.busy_until[b] = until
        public = self.options.public_contacts
        self._log({"t": self.t, "kind": "contact", "a": a, "b": b})
        return [*events, Event("contact", {"t": self.t, "a": a, "b": b, "busy_until": until},
                                None if public else (a, b))]

    def _press(self, seat: int) -> list[Event]:
        self._set(seat, press(Watch(self.infected[seat], self.vaccines[seat])), "press")
        public = self.options.public_presses
        self._log({"t": self.t, "kind": "press", "seat": seat})
        return [Event("pressed", {"t": self.t, "seat": seat}, None if public else (seat,))]

    def _set(self, seat: int, watch: Watch, cause: str) -> None:
        if watch != (self.infected[seat], self.vaccines[seat]):
            self.infected[seat], self.vaccines[seat] = watch.infected, watch.vaccines
            self.history.append({"t": self.t, "seat": seat, "infected": watch.infected, "vaccines": watch.vaccines,
                                 "cause": cause})

    def _log(self, entry: dict[str, Any]) -> None:
        self.log.append(entry)
        if self._worlds is not None and self.is_public(entry):
            self._worlds.apply(entry)

    def _visit(self, seat: int) -> list[Event]:
        if self.options.rooms and len(self.inside) >= self.options.rooms:
            self.queue.append(seat)
            return [Event("queued", {"seat": seat, "position": len(self.queue)})]
        return self._enter(seat)

    def _enter(self, seat: int) -> list[Event]:
        events = self._lapse_all(seat, "room")
        taken = {v["room"] for v in self.inside.values()}
        room = next(r for r in range(1, len(taken) + 2) if r not in taken)
        self.inside[str(seat)] = {"room": room, "since": self.t, "read": False}
        return [*events, Event("entered", {"seat": seat, "room": room, "t": self.t})]

    def _leave(self, seat: int, reason: str) -> list[Event]:
        if seat in self.queue:
            self.queue.remove(seat)
            return [Event("left_queue", {"seat": seat})]
        visit = self.inside.pop(str(seat))
        events = [Event("left", {"seat": seat, "room": visit["room"], "reason": reason, "t": self.t})]
        if self.queue:
            events += self._enter(self.queue.pop(0))
        return events

    def _read(self, seat: int) -> list[Event]:
        """The room reads the watch: the seat alone sees its status and vaccines as of now."""
        self.inside[str(seat)]["read"] = True
        reading: dict[str, Any] = {"t": self.t, "infected": self.infected[seat], "vaccines": self.vaccines[seat],
                                   "seq": len(self.log)}
        self.readings[seat].append(reading)
        if self._worlds is not None:
            self._worlds.check(seat, reading["infected"], reading["vaccines"])
        return [Event("watch_read", {"seat": seat, "t": self.t, "infected": reading["infected"],
                                     "vaccines": reading["vaccines"]}, to=(seat,))]

    def _break(self) -> list[Event]:
        """A period ends: offers lapse, rooms empty without a reading, the counts may be announced, and
        nobody acts until the next period."""
        events = [self._lapse(offer, "break")
                  for offer in sorted(self.offers.values(), key=lambda o: (o["at"], o["from"]))]
        for seat_key in sorted(self.inside, key=int):
            visit = self.inside.pop(seat_key)
            events.append(Event("left", {"seat": int(seat_key), "room": visit["room"], "reason": "break", "t": self.t}))
        self.queue = []
        self.on_break = True
        self._awaited_changed()
        data: dict[str, Any] = {"period": self.period, "t": self.t}
        if self.options.announce_counts:
            infected = sum(self.infected)
            data |= {"healthy": self.seats - infected, "infected": infected}
            self.announcements.append({**data, "seq": len(self.log)})
            if self._worlds is not None:
                self._worlds.announce(infected)
        return [*events, Event("period_over", data)]

    def _end(self) -> list[Event]:
        """Time is up: offers are void, visits give no reading, and the healthy with most vaccines pass (or,
        with a vaccine threshold, every healthy seat that reaches it)."""
        self.t = self.options.end_ms
        self.over = True
        self._awaited_changed()
        self.offers = {}
        self.inside = {}
        self.queue = []
        self.intents = {}
        healthy = sorted((s for s in range(self.seats) if not self.infected[s]), key=lambda s: -self.vaccines[s])
        slots = self.options.qualifiers
        threshold = self.options.vaccine_threshold
        if threshold is not None:
            self.passed = [s for s in healthy if self.vaccines[s] >= threshold]
        elif len(healthy) <= slots:
            self.passed = healthy
        else:
            cut = self.vaccines[healthy[slots - 1]]
            above = [s for s in healthy if self.vaccines[s] > cut]
            tied = [s for s in healthy if self.vaccines[s] == cut]
            if self.options.cut_ties == "all" or len(above) + len(tied) <= slots:
                self.passed = above + tied
            else:
                lot = sorted(tied)
                self.chance.shuffle(CUT_LABEL, lot)
                self.cut_lot = lot
                self.passed = above + lot[: slots - len(above)]
        self.passed.sort()
        return [Event("time_up", {"t": self.t, "passed": list(self.passed), "cut_lot": self.cut_lot})]

    # -- the end -----------------------------------------------------------------------------------
    def score(self, seat: int) -> int:
        """Vaccines for a healthy seat, -1 for an infected one."""
        return -1 if self.infected[seat] else self.vaccines[seat]

    def _ended(self) -> bool:
        return self.over

    def result(self) -> Result | None:
        if not self.over:
            return None
        passed = set(self.passed)
        keys = [(s in passed, self.score(s)) for s in range(self.seats)]
        seats = tuple(
            SeatResult(seat=s, rank=1 + sum(k > keys[s] for k in keys), is_winner=s in passed,
                       score=float(self.score(s)),
                       holdings={"status": "infected" if self.infected[s] else "healthy",
                                 "vaccines": self.vaccines[s], "passed": s in passed,
                                 "infected_at_start": s in self.initial_infected})
            for s in range(self.seats))
        detail = {"passed": list(self.passed), "cut_lot": self.cut_lot, "initial_infected": list(self.initial_infected),
                  "healthy": sum(not i for i in self.infected)}
        return Result(seats, Termination.TIME_UP, detail)

    # -- views -------------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        return seat_view(self, seat)

    def is_public(self, entry: dict[str, Any]) -> bool:
        """Whether everyone saw this log entry (else only the seats it involves)."""
        return self.options.public_contacts if entry["kind"] == "contact" else self.options.public_presses

    def is_visible(self, entry: dict[str, Any], seat: int | None) -> bool:
        """Whether `seat` (None: a spectator) saw this log entry."""
        return self.is_public(entry) or (seat is not None and seat in involved(entry))

    def seen_counts(self, seat: int) -> SeenCounts:
        """What `seat` saw of the log, counted: brought up to date from the entries logged since the last
        call (the log only grows), so that an observation does not walk the whole log every step."""
        if self._seen is None:
            self._seen = {}
        counts = self._seen.get(seat)
        if counts is None:
            counts = self._seen[seat] = SeenCounts([0] * self.seats, [0] * self.seats)
        log = self.log
        if counts.upto == len(log):
            return counts
        # `is_visible`, `involved` and `SeenCounts.count` written out: this runs at every observation
        public_contacts, public_presses = self.options.public_contacts, self.options.public_presses
        for index in range(counts.upto, len(log)):
            entry = log[index]
            if entry["kind"] == "contact":
                a, b = entry["a"], entry["b"]
                mine = seat in (a, b)
                if not (public_contacts or mine):
                    continue
                counts.contacts[a] += 1
                counts.contacts[b] += 1
                if mine:
                    counts.met.add(b if a == seat else a)
            else:
                mine = seat == entry["seat"]
                if not (public_presses or mine):
                    continue
                counts.presses[entry["seat"]] += 1
            if mine:
                counts.mine.append(index)
        counts.upto = len(log)
        return counts

    def odds_are_exact(self) -> bool:
        """Whether the public log determines the state given the initial infected set (docs: Odds)."""
        return self.options.public_contacts and self.options.public_presses

    def worlds(self) -> Worlds:
        """Every initial infected set carried through the public log (kept up to date once built)."""
        worlds = self._worlds
        if worlds is None:
            worlds = Worlds(self.seats, self.options.infected)
            readings = sorted(((r["seq"], s, r) for s in range(self.seats) for r in self.readings[s]),
                              key=lambda x: (x[0], x[1]))
            worlds.replay([e for e in self.log if self.is_public(e)], readings,
                          [(a["seq"], a["infected"]) for a in self.announcements])
            self._worlds = worlds
        return worlds

    def exact_odds(self, seat: int | None) -> dict[str, Any] | None:
        """The world counts for everyone (None) or for a seat given its readings; None when not exact."""
        return self.worlds().odds(seat) if self.odds_are_exact() else None

    def clone(self) -> PandemicMatch:
        other = super().clone()
        assert isinstance(other, PandemicMatch)
        if self._worlds is not None:
            other._worlds = self._worlds.copy()  # rebuilding it replays the whole log
        return other

    # -- secrets -----------------------------------------------------------------------------------
    def perturb_secrets(self, owner: int | None, rng: random.Random) -> Match | None:
        if self.over:
            return None  # the results show every watch
        other = self.clone()
        assert isinstance(other, PandemicMatch)
        if owner is None:
            # Nobody knows the watches as they are now: another status and count for one seat.
            seat = rng.randrange(self.seats)
            other.infected[seat] = not other.infected[seat]
            other.vaccines[seat] = rng.randrange(4)
            other.paired[pair_key(seat, (seat + 1) % self.seats)] = True
            return other
        changed = False
        other._worlds = None  # the owner's readings change: its odds are rebuilt
        if other.readings[owner]:
            last = other.readings[owner][-1]
            last["infected"] = not last["infected"]
            last["vaccines"] += 1
            changed = True
        if str(owner) in other.intents:
            options = [i for i in self.legal_intents(owner) if i != other.intents[str(owner)]]
            if options:
                other.intents[str(owner)] = rng.choice(options)
                changed = True
        return other if changed else None

    def legal_intents(self, seat: int) -> list[str]:
        """The intents a seat could submit this step (rounds tempo), submitted or not."""
        return list(self._legal_actions(seat)[0]["params"]["intent"]["choice"])

    def unseal(self, seat: int) -> str:
        """Takes `seat`'s sealed intent of this step back, as if it had not submitted it yet, and returns it.
        For a search's drawn world only (the bots redraw there the intents their seat cannot see): no event,
        and `reseal` must put one back before the match goes on."""
        intent = self.intents.pop(str(seat))
        self._awaited_changed()
        self._legal_cache.clear()
        return intent

    def reseal(self, seat: int, intent: str) -> None:
        """Puts back a sealed intent taken by `unseal` (the step is not resolved: it was not complete)."""
        self.intents[str(seat)] = intent
        self._awaited_changed()
        self._legal_cache.clear()


@cache
def _keys(seats: int) -> tuple[str, ...]:
    """Each seat's key in the state's dicts (`str(seat)`), made once per seat count."""
    return tuple(str(s) for s in range(seats))


#: Every seat's key in the state's dicts, up to the largest table (a key is the same at any table size).
_KEYS = _keys(max(PandemicMatch.seat_counts))


@cache
def _all_seats(seats: int) -> tuple[int, ...]:
    """Every seat, awaited at the start of a round."""
    return tuple(range(seats))


@cache
def _offer_intents(seats: int) -> tuple[str, ...]:
    """The intents to offer contact to each seat, made once per seat count."""
    return tuple(f"offer:{t}" for t in range(seats))


@cache
def _offer_heads(seats: int) -> tuple[tuple[str, ...], ...]:
    """Per seat, the first intents of a free seat when no room is taken: `wait`, then an offer of contact
    to every other seat."""
    every = _offer_intents(seats)
    return tuple((WAIT, *(every[t] for t in range(seats) if t != s)) for s in range(seats))


#: The last intents of a seat's list, by (it has an open offer, it is in a room or queued).
_TAILS = {(False, False): ("visit", "press"), (False, True): ("leave", "press"),
          (True, False): ("withdraw", "visit", "press"), (True, True): ("withdraw", "leave", "press")}


@lru_cache(maxsize=4096)
def _open_offer_heads(seats: int, taken: frozenset[str]) -> tuple[tuple[str, ...], ...]:
    """Per seat, the first intents of a free seat while some rooms are taken (`taken`: the keys of the seats
    inside): `wait`, then an offer of contact to every other seat not in a room, for each set of rooms taken
    (a table meets the same ones again and again)."""
    every = _offer_intents(seats)
    free = [s for s, key in enumerate(_keys(seats)) if key not in taken]
    return tuple((WAIT, *(every[t] for t in free if t != s)) for s in range(seats))


class Timing:
    """A table's moments and lengths in game ms, worked out once from its options: when each period starts
    (and when the one after the last would) and ends, the game's end, and the offers', readings', stays'
    and rounds' lengths."""

    __slots__ = ("end_ms", "ends", "offer_ms", "read_ms", "starts", "stay_ms", "step_ms")

    def __init__(self, opts: PandemicOptions) -> None:
        self.starts = tuple(opts.period_start(p) for p in range(opts.periods + 1))
        self.ends = tuple(opts.period_end(p) for p in range(opts.periods))
        self.end_ms = opts.end_ms
        self.offer_ms = opts.offer_seconds * 1000
        self.read_ms = opts.read_seconds * 1000
        self.stay_ms = opts.stay_seconds * 1000
        self.step_ms = opts.step_seconds * 1000


@dataclass
class SeenCounts:
    """The log entries one seat saw, counted: per seat its contacts and its presses, and the seats this
    one has touched; `upto` is how many entries of the log have been looked at; `mine`, where they were
    counted by `PandemicMatch.seen_counts`, the positions in the log of the entries involving the seat."""

    contacts: list[int]
    presses: list[int]
    met: set[int] = field(default_factory=set)
    upto: int = 0
    mine: list[int] = field(default_factory=list)

    def count(self, entry: Mapping[str, Any], seat: int | None) -> None:
        """Counts one entry `seat` saw."""
        if entry["kind"] == "contact":
            a, b = entry["a"], entry["b"]
            self.contacts[a] += 1
            self.contacts[b] += 1
            if seat in (a, b):
                self.met.add(b if a == seat else a)
        else:
            self.presses[entry["seat"]] += 1


def involved(entry: dict[str, Any]) -> tuple[int, ...]:
    """The seats a log entry involves."""
    return (entry["a"], entry["b"]) if entry["kind"] == "contact" else (entry["seat"],)
