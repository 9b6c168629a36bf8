"""Movement and chairs: the part of Musical Chairs that runs on time (docs/rules/musical-chairs.md, The race).

`IslandMatch` keeps everyone's course on the island and the chairs' state, and processes what falls due
in time order: seat releases (10 s after a seated player walks away), arrivals (ties: the earlier
command first), then the end of the phase. Phases, votes and medals live in `rules.py`.

A person (one per seat, public): role, course (`motion`: from, to, start ms, arrival ms), target,
whether it arrived, the command order `seq`, for players `touched` (the totem in this race), `chair`
(the chair whose seat is theirs), `grace_until` (when that seat is released), `last_chair` (the chair
held when the previous race ended), and for the gallery `holding` and `hold_for`.
A chair (public): number, position, removed, `occupant` (a player; the lamp), `holder` (a ガヤ) and
`for` (the only player the holder lets sit), and `waiting` (players standing at it, in arrival order).
"""

from __future__ import annotations

from heapq import heapify, heappop, heappush
from typing import Any

from partygames.engine import Event, Match
from partygames.games.musical_chairs.island import DRAWN, TEST, Island, Point, course, position
from partygames.games.musical_chairs.options import MusicalChairsOptions

#: 「イスから右手が10秒以上離れると判定が取り消され」: a seat is kept this long after its player leaves.
SEAT_GRACE_MS = 10_000

PLAYER, GALLERY = "player", "gallery"

#: `str(seat)` for every seat a match may have (seat counts go up to 54), the keys of the per-seat dicts
#: (plans, intents, ballots, medals): read on most steps, and a table look-up is cheaper than `str()`.
KEYS: tuple[str, ...] = tuple(str(seat) for seat in range(64))


class IslandMatch(Match):
    """Courses, arrivals, seats and holds; subclasses say when races start and end (`_end_phase`)."""

    options: MusicalChairsOptions
    phase: str
    phase_ends: int | None
    people: list[dict[str, Any]]
    chairs: list[dict[str, Any]]
    plans: dict[str, list[int]]
    seq: int

    # -- hooks for rules.py ----------------------------------------------------------------------
    def _end_phase(self, at: int) -> list[Event]:
        raise NotImplementedError

    def _race_may_end(self, at: int) -> list[Event]:
        """Called after someone sits: ends the race if every remaining player is seated."""
        raise NotImplementedError

    # -- the map -----------------------------------------------------------------------------------
    @property
    def island(self) -> Island:
        return TEST if self.options.island == "test" else DRAWN

    def chair(self, number: int) -> dict[str, Any]:
        return self.chairs[number - 1]

    def chair_at(self, number: int) -> Point:
        at = self.chair(number)["at"]
        return at[0], at[1]

    def open_chairs(self) -> list[int]:
        """The chair numbers still in the game."""
        return [c["number"] for c in self.chairs if not c["removed"]]

    def where(self, seat: int, now: int | None = None) -> Point | None:
        """Where a seat is at `now` (None: the match time); None when off the island."""
        motion = self.people[seat]["motion"]
        return None if motion is None else position(motion, self.now if now is None else now)

    def is_remaining(self, seat: int) -> bool:
        return bool(self.people[seat]["role"] == PLAYER)

    def remaining(self) -> list[int]:
        return [s for s, p in enumerate(self.people) if p["role"] == PLAYER]

    def on_island(self, seat: int) -> bool:
        return self.people[seat]["motion"] is not None

    def may_sit(self, seat: int, number: int) -> bool:
        """Whether a player at chair `number` sits now: in the race, after touching the totem, and the
        chair open to them (`_open_to`)."""
        person = self.people[seat]
        return (self.phase == "race" and person["role"] == PLAYER and person["touched"]
                and self._open_to(seat, number))

    def _open_to(self, seat: int, number: int) -> bool:
        """Not removed, not the chair the player held when the previous race ended, its seat nobody
        else's, and not held by a ガヤ for someone else."""
        chair = self.chairs[number - 1]  # self.chair(number)
        if chair["removed"] or number == self.people[seat]["last_chair"] or chair["occupant"] not in (None, seat):
            return False
        return chair["holder"] is None or chair["for"] == seat

    def is_at_chair(self, seat: int, number: int) -> bool:
        person = self.people[seat]
        target = person["target"]
        return bool(person["arrived"] and target is not None and target["kind"] == "chair"
                    and target["chair"] == number)

    # -- courses -----------------------------------------------------------------------------------
    def set_course(self, seat: int, target: dict[str, Any], now: int, keep_plan: bool = False) -> list[Event]:
        """Sends a seat toward a target ({"kind": "chair"|"totem"|"point", ...}) from where it is now.
        Walking away ends a ガヤ's hold; a seated player who walks away keeps the seat 10 s."""
        # (Every course of a race goes through here, two dozen at each GO: written out for speed.)
        person = self.people[seat]
        if not keep_plan:
            self.plans.pop(KEYS[seat], None)
        motion = person["motion"]
        assert motion is not None
        # `position(motion, now)`, read inline for one who got there (most)
        if now >= motion["arrive"]:
            to = motion["to"]
            here = to[0], to[1]
        else:
            here = position(motion, now)
        number = target.get("chair")  # (a chair's number is never None)
        if number is not None:  # the target's point: a chair (most), the totem, or a point
            at = self.chairs[number - 1]["at"]
            point = at[0], at[1]
        elif target["kind"] == "totem":
            point = self.island.totem
        else:
            at = target["point"]
            point = at[0], at[1]
        stays = here == point  # (and heading for the chair it is at, if `number` is that chair)
        events: list[Event] = []
        if person["touched"] and person["role"] == PLAYER:  # only such ever wait at a chair (`_arrive`)
            for chair in self.chairs:
                waiting = chair["waiting"]
                if seat in waiting and not (number == chair["number"] and stays):
                    waiting.remove(seat)
        holding = person.get("holding")
        keeps_hold = False
        if holding is not None:
            if number == holding and stays:
                keeps_hold = True
            else:
                events += self._end_hold(seat, now)
        seat_chair = person.get("chair")
        if (seat_chair is not None and person["grace_until"] is None
                and not (number == seat_chair and stays)):
            until: int = now + SEAT_GRACE_MS
            person["grace_until"] = until
            if self._queue is not None:
                heappush(self._queue, (until, 0, seat, seat))
            events.append(Event("stood", {"seat": seat, "chair": seat_chair, "at": now, "until": until}))
        if not keeps_hold:
            person["hold_for"] = None  # a new walk; `hold` names the player again after this
        motion = person["motion"] = course(here, point, now, self.options.speed)
        person["target"] = target
        person["arrived"] = False
        seq: int = self.seq
        person["seq"] = seq
        self.seq = seq + 1
        queue = self._queue
        if queue is not None:
            heappush(queue, (motion["arrive"], 1, seq, seat))
        events.append(Event("course", {"seat": seat, "motion": motion, "target": target}))
        return events

    # -- time --------------------------------------------------------------------------------------
    # A cache (not stored): the next item due (`_next_item`), or None when not known. Asked two or three
    # times a step (`wake_at`, `advance`, an action's catch-up), each a walk over every person: kept until
    # something may have moved, that is after every item processed (`run_until`) and every action but
    # the few that move nobody (`MusicalChairsMatch._apply`).
    _next: tuple[int, int, int, int] | None = None
    # A cache (not stored): the object `layout_token()` gives, None once someone may have moved.
    _token: object | None = None
    # A cache (not stored): the releases and arrivals to come, a heap of `_next_item`'s tuples that may
    # also hold some that no longer hold (dropped as they reach the top); None: not built yet.
    _queue: list[tuple[int, int, int, int]] | None = None

    def _may_have_moved(self) -> None:
        """Drops what is kept of where people and chairs stand (`_next`, the layout token)."""
        self._next = self._token = None

    def layout_token(self) -> object:
        """An object that stays the same for as long as no person's and no chair's state changes, for
        observers that remember what they read from them (the encoding): a new one after every step
        that may move someone (a dropped cache, as after a clone, gives a new one too)."""
        token = self._token
        if token is None:
            token = self._token = object()
        return token

    def next_due(self) -> int | None:
        """The earliest moment something is due: a seat release, an arrival, or the phase's end."""
        item = self._next if self._next is not None else self._next_item()
        return None if item is None else item[0]

    def _next_item(self) -> tuple[int, int, int, int] | None:
        """(time, kind, order, seat) of the next due item: kind 0 a release, 1 an arrival (order: the
        command order), 2 the phase's end (releases at a moment come first: 「10秒以上」 means at 10 s the
        seat is gone; arrivals at the race's last moment count)."""
        item = self._next
        if item is not None:
            return item
        queue = self._queue
        if queue is None:
            queue = self._queue = self._due_items()
        people = self.people
        while queue:  # items that no longer hold (a course changed, an arrival or a release done) go
            item = queue[0]
            person = people[item[3]]
            if item[1]:  # an arrival: still this course's, not yet arrived
                if person["seq"] == item[2] and not person["arrived"] and person["motion"] is not None:
                    break
            elif person.get("grace_until") == item[0]:  # a release: still this grace
                break
            heappop(queue)
        else:
            item = None
        ends = self.phase_ends
        if ends is not None and (item is None or ends < item[0]):  # `(ends, 2, 0, -1) < item`: kind 2 is last
            item = (ends, 2, 0, -1)
        self._next = item
        return item

    def _due_items(self) -> list[tuple[int, int, int, int]]:
        """Every seat release and arrival to come, as a heap (the queue `_next_item` keeps: after that,
        `set_course`, the one place where either begins, pushes each new one)."""
        items = []
        for seat, person in enumerate(self.people):
            grace = person.get("grace_until")
            if grace is not None:
                items.append((grace, 0, seat, seat))
            if not person["arrived"] and person["motion"] is not None:
                items.append((person["motion"]["arrive"], 1, person["seq"], seat))
        heapify(items)
        return items

    def run_until(self, now: int) -> list[Event]:
        """Processes everything due by `now`, each at its own moment, in order."""
        events: list[Event] = []
        while self.phase != "over":
            item = self._next
            if item is None:
                item = self._next_item()
                if item is None:
                    break
            at, kind, _, seat = item
            if at > now:
                break
            self._next = self._token = None  # whatever it does may move someone (`_may_have_moved`)
            if kind == 2:
                events += self._end_phase(at)
                continue
            # An arrival or a release no longer holds once done: off the queue now rather than at the
            # next look (it is at the top, unless it is an equal twin of another).
            queue = self._queue
            if queue and queue[0] is item:
                heappop(queue)
            if kind:
                events += self._arrive(seat, at)
            else:
                events += self._release(seat, at)
        return events

    # -- arrivals, seats and holds -------------------------------------------------------------------
    def _arrive(self, seat: int, at: int) -> list[Event]:
        person = self.people[seat]
        person["arrived"] = True
        target = person["target"]
        events: list[Event] = [Event("arrived", {"seat": seat, "at": at, "target": target})]
        kind = target["kind"]
        if kind == "totem":
            if person["role"] == PLAYER and self.phase == "race" and not person["touched"]:
                person["touched"] = True
                events.append(Event("touched", {"seat": seat, "at": at}))
                events += self._autopilot(seat, at)
            return events
        if kind != "chair":
            return events
        number = target["chair"]
        chair = self.chairs[number - 1]  # self.chair(number)
        if chair["removed"]:
            return events
        if person["role"] == GALLERY:
            if chair["holder"] is None and chair["occupant"] is None:
                chair["holder"], chair["for"] = seat, person.get("hold_for")
                person["holding"] = number
                events.append(Event("held", {"seat": seat, "chair": number, "for": chair["for"], "at": at}))
                events += self._retarget_runners(number, at)
                events += self._chair_freed(number, at)
            return events
        if self.phase != "race":
            return events
        if self.may_sit(seat, number):
            return events + self._sit(seat, number, at)
        if person["touched"] and number != person["last_chair"]:
            chair["waiting"].append(seat)  # sits as soon as the chair is free for them
        if KEYS[seat] in self.plans:
            events += self._autopilot(seat, at)
        return events

    def _sit(self, seat: int, number: int, at: int) -> list[Event]:
        person, chair = self.people[seat], self.chair(number)
        events: list[Event] = []
        old = person["chair"]
        if old is not None and old != number:
            events += self._free_seat(seat, old, at)
        chair["occupant"] = seat
        person["chair"] = number
        person["grace_until"] = None
        self.plans.pop(KEYS[seat], None)
        for other in self.chairs:
            waiting = other["waiting"]
            if seat in waiting:
                waiting.remove(seat)
        events.append(Event("seated", {"seat": seat, "chair": number, "at": at}))
        events += self._retarget_runners(number, at)
        return events + self._race_may_end(at)

    def _retarget_runners(self, number: int, at: int) -> list[Event]:
        """Runners on autopilot heading to a chair that just became closed to them pick their next one
        (the lamp is seen from afar)."""
        events: list[Event] = []
        people = self.people
        # Only a seat with a plan may be on autopilot: those that have one now, in seat order, rather
        # than every person (nothing below gives a seat a plan; each is asked again when its turn comes).
        for seat in sorted(map(int, self.plans)):
            person = people[seat]
            target = person["target"]
            if (KEYS[seat] in self.plans and not person["arrived"] and target is not None
                    and target.get("chair") == number and person["touched"] and not self._open_to(seat, number)):
                events += self._autopilot(seat, at)
        return events

    def _release(self, seat: int, at: int) -> list[Event]:
        """The 10 s are up: the seat is no longer the player's."""
        person = self.people[seat]
        number = person["chair"]
        person["grace_until"] = None
        if number is None:
            return []
        return self._free_seat(seat, number, at)

    def _free_seat(self, seat: int, number: int, at: int) -> list[Event]:
        person, chair = self.people[seat], self.chair(number)
        person["chair"] = None
        person["grace_until"] = None
        chair["occupant"] = None
        return [Event("released", {"seat": seat, "chair": number, "at": at}), *self._chair_freed(number, at)]

    def _end_hold(self, seat: int, at: int) -> list[Event]:
        person = self.people[seat]
        number = person["holding"]
        person["holding"] = None
        chair = self.chair(number)
        chair["holder"] = chair["for"] = None
        return [Event("hold_ended", {"seat": seat, "chair": number, "at": at}), *self._chair_freed(number, at)]

    def _chair_freed(self, number: int, at: int) -> list[Event]:
        """The first player waiting at the chair who may sit there now, sits."""
        for seat in list(self.chair(number)["waiting"]):
            if self.is_at_chair(seat, number) and self.may_sit(seat, number):
                return self._sit(seat, number, at)
        return []

    def set_hold_for(self, seat: int, player: int, at: int) -> list[Event]:
        """A holding ガヤ names the player it lets sit; that player sits at once if waiting there."""
        number = self.people[seat]["holding"]
        self.people[seat]["hold_for"] = player
        chair = self.chair(number)
        chair["for"] = player
        events = [Event("held", {"seat": seat, "chair": number, "for": player, "at": at})]
        return events + self._chair_freed(number, at)

    # -- autopilot (chair plans) ---------------------------------------------------------------------
    def _autopilot(self, seat: int, at: int) -> list[Event]:
        """A player following a chair plan: to the totem first, then the first chair of the plan still
        open to them (plans are consumed as they go); nothing left: stay put."""
        plan = self.plans.get(KEYS[seat])
        if plan is None:
            return []
        person = self.people[seat]
        if not person["touched"]:
            return self.set_course(seat, {"kind": "totem"}, at, keep_plan=True)
        while plan:
            number = plan.pop(0)
            if self._open_to(seat, number):
                return self.set_course(seat, {"kind": "chair", "chair": number}, at, keep_plan=True)
        self.plans.pop(KEYS[seat], None)
        return []

