"""Musical Chairs (イス取りゲーム) state machine: periods of break, race, parent vote and chair removal.

Phases: `break` (talk, medals, free movement; in the rounds tempo sealed chair plans and holds),
`race` (GO: touch the totem, then sit), `gather` (real time, option `gather_seconds`: free movement
until the vote, 「着座確定の5分後に行われ」), `vote` and `runoff` (the secret parent vote), `remove` (the
parent names a chair), `over`. Medals may change hands in every phase. docs/rules/musical-chairs.md
gives the seed sentence behind each rule.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any, ClassVar

from partygames.engine import Action, ActionSpec, Deadline, Event, IllegalAction, Match, Result, SeatResult
from partygames.engine.actions import MAX_SEQUENCE_LEN, choice, find_spec, int_range, sequence, spec
from partygames.engine.copying import Shape
from partygames.games.musical_chairs.island import TEST_CHAIRS, course, distance, draw_chairs, draw_start
from partygames.games.musical_chairs.options import MEDAL_YEN, MusicalChairsOptions
from partygames.games.musical_chairs.race import GALLERY, KEYS, PLAYER, IslandMatch

#: Chance labels: the rounds tempo's order for arrivals at the same moment, the run-off's lot, and the
#: chair removed by lot when the parent names none (besides the set-up's, island.py).
RACE_ORDER = "race_order"
PARENT_LOT = "parent_lot"
REMOVED_CHAIR = "removed_chair"

#: The blank ballot: an abstention cast before the deadline.
BLANK = "blank"

PHASES = ("break", "race", "gather", "vote", "runoff", "remove", "over")


class Termination(StrEnum):
    """How a match of Musical Chairs ends (`Result.termination`)."""

    LAST_PLAYER = "last_player"
    """One player is left (「最後の1人が決定した時点でゲームは終了」): their medals pay 1億 yen each."""
    NOBODY_SAT = "nobody_sat"
    """Every remaining player failed to sit in a race and in its re-run: nobody wins, every medal is void."""


@cache
def _others(seats: int) -> tuple[tuple[dict[str, list[int]], ActionSpec], ...]:
    """Per seat, the choice of every other seat (a gift's `to`) and the spec of showing medals to one."""
    table = []
    for seat in range(seats):
        others = choice([s for s in range(seats) if s != seat])
        table.append((others, {"type": "show_medals", "params": {"to": others}}))
    return tuple(table)


@lru_cache(maxsize=4096)
def _give(seats: int, seat: int, name: str, count: int) -> ActionSpec:
    """The spec of a gift of up to `count` medals named `name` (a str key of `medals`) to another seat."""
    return {"type": "give", "params": {"to": _others(seats)[seat][0], "name": {"choice": [int(name)]},
                                       "count": {"min": 1, "max": count, "step": 1}}}


# Specs without a part that varies, shared by every call (specs are read-only).
_STOP: ActionSpec = spec("stop")
_PASS: ActionSpec = spec("pass")
_VOTE_BLANK: ActionSpec = spec("vote", candidate=choice([BLANK]))

#: Actions after which the same seats are awaited (a gift or a showing changes only medals and records).
_KEEPS_AWAITED = frozenset({"give", "show_medals"})
#: Sealed actions of the rounds tempo's break and of a vote: the seat leaves `to_act` (if the phase goes on).
_SEALS = frozenset({"plan", "pass", "stop", "hold", "vote"})


class MusicalChairsMatch(IslandMatch):
    # a medal given away: the person's own (docs/rules/musical-chairs.md, Stand-ins)
    PERSONAL = frozenset({"give"})
    game_id = "musical-chairs"
    options_class = MusicalChairsOptions
    seat_counts = tuple(range(2, 55))
    SECRET_FOREVER = frozenset({"vote"})  # a ballot: who voted is no secret (a blank one is an abstention)
    # A gift and a showing of medals are private to the two (or the chosen): nobody else learns they happened.
    UNSEEN_FOREVER = frozenset({"give", "show_medals"})
    # The view's `now` is the moment of the latest step: a step others may not see (a gift) changes only it.
    VIEW_CLOCK_KEYS = frozenset({"now"})
    # A gift and a showing are recorded once (`history` is not a log: a vote's tally is added to its entry).
    CLONE_SHAPES: ClassVar[dict[str, Shape]] = {
        **dict.fromkeys(("submitted", "ballots", "abstained", "candidates"), Shape.FLAT),
        **dict.fromkeys(("medals", "plans", "intents"), Shape.ROWS),
        **dict.fromkeys(("transfers", "shown"), Shape.LOG)}

    options: MusicalChairsOptions
    # Caches (not stored): `to_act()`, dropped after every step that may change it (`_apply`, `advance`,
    # catch-up); the time of this object's last step, by which nothing is left due (None: not known, e.g.
    # after a clone); and the parts of the specs that only a new phase changes, with the rounds tempo's
    # specs per seat (`_legal_actions`). The next item due is kept by `IslandMatch` (`_next`, `_queue`).
    _waiting: tuple[int, ...] | None = None
    _settled_at: int | None = None
    _parts: dict[Any, Any] | None = None
    # A cache (not stored): per seat, its medals' specs (`_medal_specs`), None where not built; dropped
    # wherever medals change (`_give` for its two seats, a knock-out and a void race for all).
    _tails: list[list[ActionSpec] | None] | None = None

    @classmethod
    def allowed_seat_counts(cls, options: Any) -> tuple[int, ...]:
        assert isinstance(options, MusicalChairsOptions)
        return (options.participants,)

    # -- set-up ------------------------------------------------------------------------------------
    def _setup(self) -> None:
        o = self.options
        players = set(o.players_list)
        island = self.island
        if o.island == "test":
            spots = list(TEST_CHAIRS[: o.chair_count])
        else:
            spots = draw_chairs(island, o.chair_count, self.chance)
        self.chairs = [{"number": i + 1, "at": [x, y], "removed": False, "occupant": None, "holder": None,
                        "for": None, "waiting": []} for i, (x, y) in enumerate(spots)]
        self.people = []
        for seat in range(self.seats):
            player = seat in players
            on_island = player or o.gallery_on_island
            start = island.totem if o.island == "test" else draw_start(island, self.chance)
            self.people.append({
                "role": PLAYER if player else GALLERY, "out": None,
                "motion": course(start, start, 0, o.speed) if on_island else None, "target": None,
                "arrived": True, "seq": 0, "touched": False, "chair": None, "grace_until": None,
                "last_chair": None, "holding": None, "hold_for": None, "start": list(start) if on_island else None,
            })
        self.medals: list[dict[str, int]] = [{str(s): o.medal_count} if s in players else {}
                                             for s in range(self.seats)]
        self.transfers: list[dict[str, Any]] = []
        self.shown: list[dict[str, Any]] = []
        self.plans = {}
        self.intents: dict[str, dict[str, int] | None] = {}
        self.submitted: list[int] = []
        self.seq = 1
        self.period = 1
        self.rerun = False
        self.ballots: dict[str, int] = {}
        self.abstained: list[int] = []
        self.candidates: list[int] = []
        self.parent: int | None = None
        self.history: list[dict[str, Any]] = []
        self.outcome: str | None = None
        self.winner: int | None = None
        self.phase = "break"
        self.phase_started = 0
        self.phase_ends = o.first_break_seconds * 1000

    @property
    def is_rounds(self) -> bool:
        return self.options.tempo == "rounds"

    # -- phases ------------------------------------------------------------------------------------
    def _start_break(self, at: int) -> list[Event]:
        """Every break but the very first (set up in `_setup`): before a later period's race, and before
        the re-run of a race nobody sat in, the first period's included."""
        seconds = self.options.break_seconds
        self.phase, self.phase_started, self.phase_ends = "break", at, at + seconds * 1000
        self._parts = None  # a new phase instance: its specs are new
        self.plans, self.intents, self.submitted = {}, {}, []
        return [Event("break", {"period": self.period, "rerun": self.rerun, "at": at, "ends": self.phase_ends})]

    def _start_race(self, at: int) -> list[Event]:
        """GO: everyone remaining must touch the totem, then sit (a player standing at the totem at GO
        touches it at once)."""
        self.phase, self.phase_started, self.phase_ends = "race", at, at + self.options.race_ms
        self._parts = None  # a new phase instance: its specs are new
        events = [Event("race_started", {"period": self.period, "rerun": self.rerun, "at": at,
                                         "ends": self.phase_ends})]
        totem = self.island.totem
        people = self.people
        remaining = self.remaining()
        for seat in remaining:
            person = people[seat]
            person["touched"] = self.where(seat, at) == totem
            if person["touched"]:
                events.append(Event("touched", {"seat": seat, "at": at}))
        rounds = self.is_rounds
        if rounds:
            plans = self.plans
            for seat in remaining:
                if KEYS[seat] not in plans:
                    plans[KEYS[seat]] = self.default_plan(seat)
            # every seat with a sealed intent: a remaining player's plan, or an island ガヤ's intent
            order = [s for s, p in enumerate(people)
                     if p["role"] == PLAYER or (p["role"] == GALLERY and p["motion"] is not None)]
            self.chance.shuffle(RACE_ORDER, order)  # the lot for arrivals at the same moment
        else:
            order = [int(s) for s in self.plans]  # in the order the plans were given
        for seat in order:
            if people[seat]["role"] == PLAYER:  # is_remaining(seat)
                events += self._autopilot(seat, at)
            elif rounds:
                events += self._carry_out_intent(seat, self.intents.get(KEYS[seat]), at)
        return events

    def _carry_out_intent(self, seat: int, intent: dict[str, int] | None, at: int) -> list[Event]:
        """A ガヤ's sealed intent in the rounds tempo: hold a chair for a player, or stand aside."""
        if intent is None:
            here = self.where(seat, at)
            assert here is not None
            return self.set_course(seat, {"kind": "point", "point": list(here)}, at)  # a hold ends
        return self._hold(seat, intent["chair"], intent["for"], at)

    def _hold(self, seat: int, number: int, player: int, at: int) -> list[Event]:
        if self.people[seat]["holding"] == number:
            return self.set_hold_for(seat, player, at)
        events = self.set_course(seat, {"kind": "chair", "chair": number}, at)
        self.people[seat]["hold_for"] = player
        return events

    def _race_may_end(self, at: int) -> list[Event]:
        if self.phase != "race":
            return []
        for person in self.people:
            if person["role"] == PLAYER and person["chair"] is None:  # a remaining player not seated
                return []
        return self._end_race(at)

    def _end_race(self, at: int) -> list[Event]:
        """「イスに座れなかった者は敗退」: the unseated are out and become ガヤ; the chairs empty."""
        remaining = self.remaining()
        seated = {p: self.people[p]["chair"] for p in remaining if self.people[p]["chair"] is not None}
        for chair in self.chairs:
            chair["occupant"], chair["waiting"] = None, []
        for person in self.people:
            person["touched"], person["chair"], person["grace_until"] = False, None, None
        self.plans = {}
        events = [Event("race_ended", {"period": self.period, "at": at,
                                       "seated": {str(p): c for p, c in seated.items()}})]
        if not seated and not self.rerun:
            self.history.append({"period": self.period, "rerun": False, "void": True, "seated": {}, "out": []})
            self.rerun = True
            return events + self._start_break(at)
        out = [p for p in remaining if p not in seated]
        for player in out:
            events += self._knock_out(player, at)
        for player, number in seated.items():
            self.people[player]["last_chair"] = number
        self.history.append({"period": self.period, "rerun": self.rerun, "void": False,
                             "seated": {str(p): c for p, c in seated.items()}, "out": out})
        if not seated:
            for holding in self.medals:
                holding.clear()
            self._tails = None
            return events + self._finish(Termination.NOBODY_SAT, None, at)
        if len(seated) == 1:
            return events + self._finish(Termination.LAST_PLAYER, next(iter(seated)), at)
        if self.options.gather_ms:
            return events + self._start_gather(at)
        return events + self._open_vote(sorted(seated), "vote", at)

    def _start_gather(self, at: int) -> list[Event]:
        """「着座確定の5分後に行われ」: seating is settled when the race ends; the vote opens `gather_seconds`
        later, everyone moving freely meanwhile (to the voting place at the totem, or anywhere)."""
        self.phase, self.phase_started = "gather", at
        self._parts = None  # a new phase instance: its specs are new
        self.phase_ends = at + self.options.gather_ms
        return [Event("gather", {"period": self.period, "at": at, "ends": self.phase_ends})]

    def _knock_out(self, player: int, at: int) -> list[Event]:
        """Out: a ガヤ at once, and the medals with their name void in every hand."""
        person = self.people[player]
        person["role"], person["out"] = GALLERY, self.period
        if not self.options.gallery_on_island:
            person["motion"], person["target"], person["arrived"] = None, None, True
        name = KEYS[player]
        for holding in self.medals:
            holding.pop(name, None)
        self._tails = None
        return [Event("out", {"seat": player, "period": self.period, "at": at}),
                Event("medals_void", {"name": player})]

    def _finish(self, termination: Termination, winner: int | None, at: int) -> list[Event]:
        self.phase, self.phase_ends = "over", None
        self._parts = None  # a new phase instance: its specs are new
        self.outcome, self.winner = termination.value, winner
        self.plans, self.intents = {}, {}
        return [Event("game_over", {"termination": termination.value, "winner": winner, "at": at})]

    def _open_vote(self, candidates: list[int], phase: str, at: int) -> list[Event]:
        self.phase, self.phase_started = phase, at
        self._parts = None  # a new phase instance: its specs are new
        self.phase_ends = at + self.options.vote_seconds * 1000
        self.candidates, self.ballots, self.abstained = candidates, {}, []
        return [Event("vote_opened", {"phase": phase, "candidates": candidates, "at": at, "ends": self.phase_ends})]

    def _tally(self, at: int) -> list[Event]:
        """Plurality of the ballots cast (no ballot: abstention); a tie has one run-off, then a lot."""
        votes = {str(c): 0 for c in self.candidates}
        for candidate in self.ballots.values():
            votes[KEYS[candidate]] += 1
        tally = {"candidates": list(self.candidates), "votes": votes, "abstained": self.seats - len(self.ballots)}
        entry = self.history[-1]
        entry[self.phase] = tally
        self.ballots, self.abstained = {}, []
        events = [Event("tally", {"phase": self.phase, **tally})]
        top = max(votes.values())
        tied = [c for c in self.candidates if votes[str(c)] == top]
        if len(tied) > 1 and self.phase == "vote":
            return events + self._open_vote(tied, "runoff", at)
        parent = tied[0] if len(tied) == 1 else self.chance.choice(PARENT_LOT, tied)
        entry["parent"], entry["parent_by_lot"] = parent, len(tied) > 1
        self.parent = parent
        self.phase, self.phase_started = "remove", at
        self._parts = None  # a new phase instance: its specs are new
        self.phase_ends = at + self.options.remove_seconds * 1000
        return [*events, Event("parent", {"seat": parent, "by_lot": len(tied) > 1, "at": at})]

    def _remove(self, number: int, by_lot: bool, at: int) -> list[Event]:
        """「指定した番号のイスを一つだけゲームから除外」, then the next period."""
        chair = self.chair(number)
        events: list[Event] = []
        if chair["holder"] is not None:
            events += self._end_hold(chair["holder"], at)
        chair["removed"], chair["waiting"] = True, []
        entry = self.history[-1]
        entry["removed"], entry["removed_by_lot"] = number, by_lot
        events.append(Event("chair_removed", {"chair": number, "by": self.parent, "by_lot": by_lot, "at": at}))
        self.parent, self.candidates = None, []
        self.period += 1
        self.rerun = False
        return events + self._start_break(at)

    def _end_phase(self, at: int) -> list[Event]:
        if self.phase == "break":
            return self._start_race(at)
        if self.phase == "race":
            return self._end_race(at)
        if self.phase == "gather":
            return self._open_vote(self.remaining(), "vote", at)  # nobody is out in between: the seated
        if self.phase in ("vote", "runoff"):
            return self._tally(at)
        assert self.phase == "remove"
        return self._remove(self.chance.choice(REMOVED_CHAIR, self.open_chairs()), True, at)

    # -- time --------------------------------------------------------------------------------------
    def wake_at(self) -> int | None:
        # Phases end at `phase_ends`, one of the items `next_due` looks at: the game sets no `time_limit`.
        if self.phase == "over":
            return None
        item = self._next if self._next is not None else self._next_item()  # `next_due()`
        return None if item is None else item[0]

    def advance(self, now: int) -> list[Event]:
        # The base class's `advance` (a fifth of the steps of random play) without its time limit, as the
        # game sets none: the clock moves and the step counts; then what fell due happens.
        self._move_clock(now)
        self.version += 1
        item = self._next if self._next is not None else self._next_item()
        if item is not None and item[0] <= now and self.phase != "over":
            events = self.run_until(now)
            self._waiting = None
        else:
            events = []  # nothing happened but time: the same seats are awaited
        self._legal_cache.clear()
        self._settled_at = now
        return events

    def deadline(self) -> Deadline | None:
        if self.phase_ends is None:
            return None
        return Deadline(f"{self.phase}:{self.period}", self.phase_ends, (self.phase_ends - self.phase_started) / 1000)

    # -- the contract ------------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        """Real time: everyone, always (anyone may move or give medals at any moment). Rounds: the seats
        whose sealed intent, ballot or chair is still due in this phase (they may give medals first)."""
        # Asked several times per step by hosts and the environments: kept until the state changes (a
        # cache dropped after every `_apply`, `advance` and catch-up).
        waiting = self._waiting
        if waiting is None:
            waiting = self._waiting = self._awaited()
        return waiting

    def _awaited(self) -> tuple[int, ...]:
        phase, rounds = self.phase, self.options.tempo == "rounds"
        if phase == "over" or (phase in ("race", "gather") and rounds):  # (rounds skip the gathering)
            return ()
        if not rounds:
            return tuple(range(self.seats))
        if phase == "break":
            submitted = set(self.submitted)  # a set: asked for every seat, at every step
            return tuple([s for s in range(self.seats) if s not in submitted])
        if phase == "remove":
            return () if self.parent is None else (self.parent,)
        ballots, abstained = self.ballots, self.abstained  # ballots are keyed by str(seat)
        return tuple([s for s in range(self.seats) if KEYS[s] not in ballots and s not in abstained])

    def voted(self) -> list[int]:
        """The seats that have voted in the current vote, a ballot or a blank one, in seat order."""
        return sorted([*map(int, self.ballots), *self.abstained])  # ballots are keyed by str(seat)

    def turns(self) -> tuple[int, ...]:
        # Real time: anyone may act at any moment and nothing waits for anyone. Rounds: each step waits
        # for every awaited seat's sealed intent, a turn.
        return self.to_act() if self.is_rounds else ()

    def allowed_chairs(self, seat: int) -> list[int]:
        """Open chairs other than the one the player held when the previous race ended."""
        last = self.people[seat]["last_chair"]
        return [n for n in self.open_chairs() if n != last]

    def default_plan(self, seat: int) -> list[int]:
        """The plan of a player who gave none: the allowed chairs, nearest the totem first."""
        totem = self.island.totem
        chairs = sorted(self.allowed_chairs(seat), key=lambda n: (distance(totem, self.chair_at(n)), n))
        return chairs[:MAX_SEQUENCE_LEN]

    def _legal_actions(self, seat: int) -> list[ActionSpec]:
        # Asked after nearly every step, for up to 54 seats: the parts that depend on the phase alone are
        # built once per phase and kept in a memo of parts every seat shares (`_parts`: the open chairs,
        # the remaining players and the candidates change only as a phase ends, a race, a vote or a
        # removal; the memo is dropped whenever (phase, period, re-run), the phase instance, changes:
        # every method that starts a phase drops it, and so does the catch-up; specs are read-only, so
        # they are shared). In the rounds tempo a seat's whole list is kept there too: within a phase
        # only its medals can change it (a gift drops the giver's and the receiver's lists,
        # `_medals_changed`), as nobody moves in a way that matters to it (roles, the island, last
        # chairs, chairs and candidates change with the phase). The list is the phase's specs for the
        # seat ("heads", in the rounds tempo built for every awaited seat at the phase's first call, as
        # nearly every one acts once in it), then its medals' specs: its gifts (one per name of medal it
        # holds) and the showing of its medals, kept per seat across phases (`_tails`) until its medals
        # change.
        memo = self._parts
        if memo is None:
            memo = self._parts = {}
        specs: list[ActionSpec] | None = memo.get(seat)  # (kept in the rounds tempo only)
        if specs is not None:
            return specs
        tails = self._tails
        if tails is None:
            tails = self._tails = [None] * self.seats
        tail = tails[seat]
        if tail is None:
            tail = tails[seat] = self._medal_specs(seat)
        heads = memo.get("heads")  # (the rounds tempo's only)
        if heads is None:
            if self.options.tempo != "rounds":
                return self._phase_specs((seat,), memo)[seat] + tail
            heads = memo["heads"] = self._phase_specs(self.to_act(), memo)
        head = heads.get(seat)
        if head is None:  # (not awaited at the phase's first call: never, in the rounds tempo)
            head = heads[seat] = self._phase_specs((seat,), memo)[seat]
        specs = memo[seat] = head + tail
        return specs

    def _medal_specs(self, seat: int) -> list[ActionSpec]:
        """A seat's gifts, one per name of medal it holds, and the showing of its medals."""
        seats = self.seats
        specs = []
        for name, count in self.medals[seat].items():  # (a loop, not a comprehension: no frame of its own)
            specs.append(_give(seats, seat, name, count))
        specs.append(_others(seats)[seat][1])
        return specs

    def _medals_changed(self, giver: int, to: int) -> None:
        """After a gift: the two seats' kept specs (rounds tempo) list other gifts."""
        memo = self._parts
        if memo is not None:
            memo.pop(giver, None)
            memo.pop(to, None)

    def _phase_specs(self, seats: Iterable[int], memo: dict[Any, Any]) -> dict[int, list[ActionSpec]]:
        """Each seat's specs but its medals' (`_medal_specs`): the same list for every seat of the phase
        alike in what it reads of the seat (a memo keyed by that; read-only, as every spec)."""
        people = self.people
        phase = self.phase
        voting_phase = phase == "vote" or phase == "runoff"
        moving_phase = phase == "break" or phase == "race"
        # the rounds tempo plans in the break, one sealed plan or intent each; real time at any moment
        sealing = phase == "break" if self.options.tempo == "rounds" else None
        ballots, abstained, submitted = self.ballots, self.abstained, self.submitted
        heads = {}
        for seat in seats:
            person = people[seat]
            player = person["role"] == PLAYER
            island = person["motion"] is not None  # on_island(seat)
            # key: (player, island, planning, the last chair if planning, voting, may vote, the parent to remove)
            if voting_phase:
                voting = KEYS[seat] not in ballots and seat not in abstained
                key = (player, island, False, None, voting, voting and self._may_vote(seat), False)
            elif moving_phase:
                planning = True if sealing is None else sealing and seat not in submitted
                key = (player, island, planning, person["last_chair"] if player and planning else None,
                       False, False, False)
            else:
                key = (player, island, False, None, False, False, phase == "remove" and seat == self.parent)
            specs: list[ActionSpec] | None = memo.get(key)
            if specs is None:
                specs = memo[key] = self._build_phase_specs(memo, *key)
            heads[seat] = specs
        return heads

    def _build_phase_specs(self, memo: dict[Any, Any], player: bool, island: bool, planning: bool,
                           last: int | None, voting: bool, may_vote: bool, parent: bool) -> list[ActionSpec]:
        chairs: list[int] | None = memo.get("chairs")
        if chairs is None:
            chairs = memo["chairs"] = self.open_chairs()
        rounds = self.options.tempo == "rounds"
        specs: list[ActionSpec] = []
        if not rounds and island:
            moves = memo.get("moves")
            if moves is None:
                moves = memo["moves"] = [
                    spec("run_to_chair", chair=choice(chairs)), spec("run_to_totem"),
                    spec("walk_to", x=int_range(0, self.island.width), y=int_range(0, self.island.height)),
                    spec("stop")]
            specs += moves
        plan: ActionSpec | None = None
        if player and planning:
            key = ("plan", last)
            if key in memo:
                plan = memo[key]
            else:
                allowed = [n for n in chairs if n != last]  # allowed_chairs(seat)
                # none: the only chair left is the one this player held last time
                plan = memo[key] = spec("plan", chairs=sequence(allowed, 1, min(MAX_SEQUENCE_LEN, len(allowed)))) if allowed else None
            if plan is not None:
                specs.append(plan)
        if not player and island and (not rounds or planning):
            hold = memo.get("hold")
            if hold is None:
                hold = memo["hold"] = spec("hold", chair=choice(chairs), player=choice(self.remaining()))
            specs.append(hold)
            if rounds:
                specs.append(_STOP)
        if rounds and planning and plan is None and not (not player and island):
            specs.append(_PASS)  # nothing to plan: an off-island ガヤ, or no chair open to this player
        if voting:
            # A blank ballot abstains at once; it is as secret as any ballot.
            if may_vote:
                vote = memo.get("vote")
                if vote is None:
                    vote = memo["vote"] = spec("vote", candidate=choice([*self.candidates, BLANK]))
            else:
                vote = _VOTE_BLANK
            # First: what the phase asks of the seat leads its list (a phone shows it above the moves).
            specs.insert(0, vote)
        if parent:
            remove = memo.get("remove")
            if remove is None:
                remove = memo["remove"] = spec("remove_chair", chair=choice(chairs))
            specs.insert(0, remove)
        return specs

    def _may_vote(self, seat: int) -> bool:
        """「その時間に投票会場に居なかった者は棄権」 (option `vote_at_totem`, real time only)."""
        if not self.options.vote_at_totem or self.is_rounds or not self.on_island(seat):
            return True
        here = self.where(seat)
        assert here is not None
        return distance(here, self.island.totem) <= self.options.totem_reach

    def _apply(self, seat: int, action: Action) -> list[Event]:
        now = self.clock.now
        kind = action["type"]
        settled = self._settled_at == now
        if settled and kind in _KEEPS_AWAITED:
            # Most steps (random play: about two in five): a showing or a gift at the moment of the
            # previous step. Nothing is due before it (that step caught up), no phase ends, nobody moves
            # and the same seats are awaited: every cache stays, but the gift's two seats' specs.
            if kind == "show_medals":
                return self._show(seat, action["to"], now)
            to = action["to"]
            events = self._give(seat, to, action["name"], action["count"], now)
            memo = self._parts
            if memo is not None:  # `_medals_changed(seat, to)`
                memo.pop(seat, None)
                memo.pop(to, None)
            return events
        waiting = self._waiting
        self._waiting = None
        # After a step at `now` nothing is due before `now` (an action catches up on what was due
        # before it, `advance` on all that was due by then): at the same moment, no need to look.
        caught_up: list[Event] = []
        if not settled:
            due = self.next_due()
            if due is not None and due < now:
                caught_up = self._catch_up_before(seat, action, now - 1)
                waiting, self._parts = None, None
        parts = self._parts
        if parts is not None:
            # every method that starts a phase (a new phase, period or re-run) drops the memo
            events = self._act(seat, action, now)
            new_phase = self._parts is None
        else:
            phase, period, rerun = self.phase, self.period, self.rerun
            events = self._act(seat, action, now)
            new_phase = phase != self.phase or period != self.period or rerun != self.rerun
        if caught_up:
            events = caught_up + events
        self._settled_at = now
        if new_phase:
            # a new phase: every cache may be out of date
            self._may_have_moved()  # (the phase's start dropped the specs' memo)
            return events
        # In the same phase, caches kept where the step cannot have changed them (`to_act()` is asked
        # several times a step): a gift or a showing moves nobody and changes nobody's turn; in the rounds
        # tempo a sealed intent or a ballot moves nobody and takes its seat out; real time awaits everyone
        # in every phase but the end, but any other action may move someone.
        rounds = self.options.tempo == "rounds"
        if rounds and kind in _SEALS:  # the rounds tempo's usual step, on its own
            if waiting is not None and seat in waiting:  # (in seat order, each seat once)
                i = waiting.index(seat)
                waiting = waiting[:i] + waiting[i + 1:]
            self._waiting = waiting
            if parts is not None:
                parts.pop(seat, None)
            return events
        if kind in _KEEPS_AWAITED:
            self._waiting = waiting
        elif not rounds:
            self._waiting = waiting
            self._may_have_moved()
        else:
            self._may_have_moved()
        if rounds and self._parts is not None:
            # the seats' kept specs (`_legal_actions`): a gift changes the two seats' medals; a sealed
            # intent or ballot takes its seat out of this phase (above); anything else, to be safe,
            # drops them all
            if kind == "give":
                self._medals_changed(seat, action["to"])
            elif kind != "show_medals":
                self._parts = None
        return events

    def _catch_up_before(self, seat: int, action: Action, until: int) -> list[Event]:
        """What fell due before an action happens first (for a host that did not wake first; what falls
        due at the action's own moment comes after it); if the action is then no longer legal, it is
        refused with the state as it was."""
        snapshot = self.to_json()
        events = self.run_until(until)
        self._legal_cache.clear()
        self._waiting = self._parts = None
        try:
            find_spec(self.legal_actions(seat), action)
        except IllegalAction:
            restored = type(self).from_json(snapshot)
            self.__dict__.clear()
            self.__dict__.update(restored.__dict__)
            raise
        return events

    def _act(self, seat: int, action: Action, now: int) -> list[Event]:
        kind = action["type"]
        if kind == "vote":
            if action["candidate"] == BLANK:
                self.abstained.append(seat)
            else:
                self.ballots[KEYS[seat]] = action["candidate"]
            events = [Event("ballot_cast", {"seat": seat, "at": now})]
            if len(self.ballots) + len(self.abstained) == self.seats:
                events += self._tally(now)
            return events
        if kind == "stop":
            if self.is_rounds:
                self.intents[KEYS[seat]] = None
                return self._submit(seat, now)
            here = self.where(seat, now)
            assert here is not None
            return self.set_course(seat, {"kind": "point", "point": list(here)}, now)
        if kind == "plan":
            return self._plan(seat, list(action["chairs"]), now)
        if kind == "hold":
            if self.is_rounds:
                intent = {"chair": action["chair"], "for": action["player"]}
                self.intents[KEYS[seat]] = intent
                return self._submit(seat, now)
            return self._hold(seat, action["chair"], action["player"], now)
        if kind == "run_to_chair":
            return self.set_course(seat, {"kind": "chair", "chair": action["chair"]}, now)
        if kind == "run_to_totem":
            return self.set_course(seat, {"kind": "totem"}, now)
        if kind == "walk_to":
            x, y = self.island.clamp((action["x"], action["y"]))
            return self.set_course(seat, {"kind": "point", "point": [x, y]}, now)
        if kind == "pass":
            return self._submit(seat, now)
        if kind == "remove_chair":
            return self._remove(action["chair"], False, now)
        if kind == "give":
            return self._give(seat, action["to"], action["name"], action["count"], now)
        if kind == "show_medals":
            return self._show(seat, action["to"], now)
        raise AssertionError(f"unknown action {kind!r}: the base class checked it against the specs")

    def _plan(self, seat: int, chairs: list[int], now: int) -> list[Event]:
        if self.is_rounds:
            self.plans[KEYS[seat]] = chairs
            return self._submit(seat, now)
        self.plans.pop(str(seat), None)  # re-inserted last: plans start at GO in the order given
        self.plans[str(seat)] = chairs
        events = [Event("planned", {"seat": seat, "at": now})]
        if self.phase == "race":
            events += self._autopilot(seat, now)
        return events

    def _submit(self, seat: int, now: int) -> list[Event]:
        """A sealed intent of the rounds tempo (stored by the caller); the race starts once every one is in."""
        self.submitted.append(seat)
        events = [Event("planned", {"seat": seat, "at": now})]
        if len(self.submitted) == self.seats:
            events += self._start_race(now)
        return events

    def _give(self, giver: int, to: int, name: int, count: int, now: int) -> list[Event]:
        """A binding transfer of medals; only giver and receiver learn of it."""
        held, key = self.medals[giver], KEYS[name]
        held[key] -= count
        if not held[key]:
            del held[key]
        received = self.medals[to]
        received[key] = received.get(key, 0) + count
        tails = self._tails
        if tails is not None:  # the two seats' medals' specs
            tails[giver] = tails[to] = None
        transfer = {"from": giver, "to": to, "name": name, "count": count, "at": now}
        self.transfers.append(transfer)
        # (`to` passed by position: a named argument costs the named tuple's constructor a third more)
        return [Event("medals_given", transfer, (giver, to))]

    def _show(self, seat: int, to: int, now: int) -> list[Event]:
        shown = {"from": seat, "to": to, "medals": dict(self.medals[seat]), "at": now}
        self.shown.append(shown)
        return [Event("medals_shown", shown, (seat, to))]  # (`to` by position, as above)

    # -- views -------------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        mine = seat is not None
        return {
            "tempo": self.options.tempo,
            "phase": self.phase,
            "period": self.period,
            "rerun": self.rerun,
            "now": self.now,
            "phase_started": self.phase_started,
            "phase_ends": self.phase_ends,
            "island": self.island.to_json(),
            "speed": self.options.speed,
            "totem_reach": self.options.totem_reach,
            "vote_at_totem": self.options.vote_at_totem,
            "chairs": self.chairs,
            "people": self.people,
            "players": self.options.players_list,
            "remaining": self.remaining(),
            "candidates": self.candidates,
            "voted": self.voted(),
            "parent": self.parent,
            "submitted": self.submitted,
            "history": self.history,
            "medals_per_player": self.options.medal_count,
            "medal_yen": MEDAL_YEN,
            "my_medals": dict(self.medals[seat]) if seat is not None else None,
            "my_transfers": [t for t in self.transfers if seat in (t["from"], t["to"])] if mine else [],
            "shown_to_me": [s for s in self.shown if s["to"] == seat] if mine else [],
            "my_ballot": (BLANK if seat in self.abstained else self.ballots.get(str(seat))) if mine else None,
            "my_plan": self.plans.get(str(seat)) if mine else None,
            "my_intent": self.intents.get(str(seat)) if mine else None,
            "winner": self.winner,
            "outcome": self.outcome,
        }

    def perturb_secrets(self, owner: int | None, rng: random.Random) -> Match | None:
        """A ballot in an open vote, and a plan or a sealed intent, are their owner's alone. (Medal holdings
        are shared with whoever traded with the holder: tests/games/test_musical_chairs_properties.py.)"""
        if owner is None:
            return None
        key = str(owner)
        other = self.clone()
        assert isinstance(other, MusicalChairsMatch)
        if key in self.ballots:  # another name, or a blank ballot
            choices = [c for c in self.candidates if c != self.ballots[key]]
            if not choices or rng.random() < 0.3:
                del other.ballots[key]
                other.abstained.append(owner)
            else:
                other.ballots[key] = rng.choice(choices)
            return other
        if owner in self.abstained:
            other.abstained.remove(owner)
            other.ballots[key] = rng.choice(self.candidates)
            return other
        plan = self.plans.get(key)
        if plan is not None:
            options = self.allowed_chairs(owner)
            new = rng.sample(options, min(len(options), MAX_SEQUENCE_LEN))
            if new == plan:
                new = new[:-1] if len(new) > 1 else [c for c in options if c not in new][:1]
            if not new or new == plan:
                return None
            other.plans[key] = new
            return other
        if key in self.intents:
            intent = self.intents[key]
            chairs = self.open_chairs()
            new_intent = None if intent is not None else {"chair": rng.choice(chairs),
                                                           "for": rng.choice(self.remaining())}
            other.intents[key] = new_intent
            return other
        return None

    # -- the end -----------------------------------------------------------------------------------
    def payouts(self) -> list[int]:
        """Yen each seat is paid: 1億 per medal with the winner's name (none without a winner)."""
        if self.winner is None:
            return [0] * self.seats
        return [held.get(str(self.winner), 0) * MEDAL_YEN for held in self.medals]

    def _ended(self) -> bool:
        return self.phase == "over"

    @property
    def is_over(self) -> bool:
        # `not to_act() and _ended()` (asked at every step): nobody is awaited once the phase is "over"
        return self.phase == "over"

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        pay = self.payouts()
        # The winner first, then by payout. Without a winner (`nobody_sat`) nobody wins: every seat ranks
        # the same, at zero, and none is a winner. Ranks as in every game (`Result`): 1 + the seats ahead.
        seats = []
        for s in range(self.seats):
            rank = 1 if self.winner is None or s == self.winner else 2 + sum(
                1 for t in range(self.seats) if t != self.winner and pay[t] > pay[s])
            person = self.people[s]
            held = self.medals[s].get(str(self.winner), 0) if self.winner is not None else 0
            seats.append(SeatResult(seat=s, rank=rank, is_winner=s == self.winner, score=float(pay[s]),
                                    holdings={"winner_medals": held, "payout": pay[s],
                                              "out_in_period": person["out"]}))
        detail = {"winner": self.winner, "periods": self.period, "payouts": pay,
                  "players": self.options.players_list}
        return Result(tuple(seats), Termination(self.outcome or Termination.LAST_PLAYER), detail)
