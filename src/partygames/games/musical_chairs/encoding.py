"""Musical Chairs for learning agents: the observation vector of a seat's view and the action codec
(layout in docs/rules/musical-chairs.md, Encoding).

The research interfaces play the rounds tempo (sealed chair plans, time moves on actions); the codec also
covers the real-time actions (running, walking), which the conformance suite plays. A plan is an ordered
list of chairs, too many to enumerate: the codec names a plan by its first chair, and the plan it
decodes to tries that chair first, then the other allowed chairs in number order (`ChairsCodec`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any, NamedTuple

import numpy as np

from partygames.engine.actions import Action, ActionSpec
from partygames.engine.encoding import (
    BOUND,
    ActionCodec,
    Encoder,
    Layout,
    Move,
    Vector,
    Writer,
    one_hot,
)
from partygames.engine.match import Match
from partygames.engine.options import Options
from partygames.games.musical_chairs.island import distance, position
from partygames.games.musical_chairs.options import MusicalChairsOptions
from partygames.games.musical_chairs.race import PLAYER
from partygames.games.musical_chairs.rules import BLANK, PHASES, MusicalChairsMatch

#: A gift of medals: one, half of what is held (rounded down to a medal), all.
GIFT_FRACTIONS = (0.0, 0.5, 1.0)
#: Walking targets (real time): a 3 x 3 grid inside the island's box, as fractions of its width and height.
WALK_FRACTIONS = (0.25, 0.5, 0.75)


def _short_specs(specs: Sequence[ActionSpec]) -> list[ActionSpec]:
    """The specs with a plan's sequence of chairs replaced by the choice of its first chair."""
    out: list[ActionSpec] = []
    for spec in specs:
        if spec["type"] == "plan" and "chairs" in spec["params"]:
            spec = {**spec, "params": {"chair": {"choice": list(spec["params"]["chairs"]["sequence"])}}}
        out.append(spec)
    return out


def _short_action(action: Mapping[str, Any]) -> dict[str, Any]:
    short = dict(action)
    if short.get("type") == "plan" and isinstance(short.get("chairs"), list) and short["chairs"]:
        short["chair"] = short.pop("chairs")[0]
    return short


def _long_action(short: Action | None, specs: Sequence[ActionSpec]) -> Action | None:
    """A plan named by its first chair: that chair, then the other allowed ones in number order."""
    if short is None or short["type"] != "plan":
        return short
    for spec in specs:
        if spec["type"] == "plan" and "chairs" in spec["params"]:
            param = spec["params"]["chairs"]
            first = short["chair"]
            rest = sorted(c for c in param["sequence"] if c != first)
            return {"type": "plan", "chairs": [first, *rest][: param["max_len"]]}
    return None


class ChairsCodec(ActionCodec):
    """An `ActionCodec` whose plan moves name the plan's first chair (see the module docstring).

    `encode` looks the action's fixed parameters up instead of trying every move of its type: the
    conformance suite encodes every masked index back at every deep step, and the gifts alone are
    3 n^2 moves. The short specs are kept for the last specs seen (`ActionCodec.prepared`: a mask, then a
    decode and encode per index)."""

    def __init__(self, moves: Sequence[Move]) -> None:
        super().__init__(moves)
        self._fixed_names: dict[str, tuple[str, ...]] = {}
        self._by_fixed: dict[tuple[Any, ...], list[int]] = {}
        for i, move in enumerate(self.moves):
            names = self._fixed_names.setdefault(move.type, tuple(move.fixed))
            assert names == tuple(move.fixed), f"every {move.type} move fixes the same parameters"
            key = (move.type, *((type(v), v) for v in move.fixed.values()))
            self._by_fixed.setdefault(key, []).append(i)

    def _prepare(self, specs: Sequence[ActionSpec]) -> list[ActionSpec]:
        return _short_specs(specs)

    def decode(self, index: int, specs: Sequence[ActionSpec]) -> Action | None:
        return _long_action(super().decode(index, specs), specs)

    def encode(self, action: Mapping[str, Any], specs: Sequence[ActionSpec]) -> int | None:
        short = _short_action(action)
        names = self._fixed_names.get(str(short.get("type")))
        values = [short.get(name) for name in names or ()]
        if names is None or not all(type(v) in (int, str) for v in values):
            return None
        short_specs = self.prepared(specs)
        for i in self._by_fixed.get((short["type"], *((type(v), v) for v in values)), ()):
            if self.moves[i].resolve(short_specs) == short:
                return i
        return None

    def nearest(self, action: Mapping[str, Any], specs: Sequence[ActionSpec]) -> int | None:
        return super().nearest(_short_action(action), self.prepared(specs))


def moves(seats: int, chairs: int) -> list[Move]:
    """The codec's table: per chair a plan, a removal and a run; per chair and seat a hold; per seat a
    ballot, a showing of medals and gifts of each name; blank ballot, stop, pass, totem, walks."""
    numbers, people = range(1, chairs + 1), range(seats)
    return [
        *(Move("plan", {"chair": c}) for c in numbers),
        *(Move("hold", {"chair": c, "player": p}) for c in numbers for p in people),
        Move("stop"), Move("pass"),
        *(Move("vote", {"candidate": p}) for p in people), Move("vote", {"candidate": BLANK}),
        *(Move("remove_chair", {"chair": c}) for c in numbers),
        *(Move("give", {"to": s, "name": m}, {"count": f}) for s in people for m in people for f in GIFT_FRACTIONS),
        *(Move("show_medals", {"to": s}) for s in people),
        *(Move("run_to_chair", {"chair": c}) for c in numbers), Move("run_to_totem"),
        *(Move("walk_to", scaled={"x": fx, "y": fy}) for fx in WALK_FRACTIONS for fy in WALK_FRACTIONS),
    ]


#: What the people's and the chairs' parts read from each (values, never changed in place: a course is
#: replaced when a person sets off, a chair's place never moves).
_PERSON = itemgetter("out", "motion", "arrived", "role", "touched", "chair")
_CHAIR = itemgetter("at", "removed", "occupant", "holder", "for")


class _People(NamedTuple):
    key: list[tuple[Any, ...]]
    now: int
    settled: int  # when the last course ends: from then on, positions no longer move with time
    block: Vector  # out, on_island, x, y, arrived, touched, seated
    at: list[tuple[int, int] | None]  # where each person is
    remaining: list[int]
    remaining_hot: list[int]  # their positions in the vector (in the `remaining` part)


class _Chairs(NamedTuple):
    key: tuple[Any, ...]
    block: Vector  # chair_open, chair_occupied, chair_held
    held_for: dict[int, list[int]]  # per seat, the chairs held for it
    totem: Vector  # chair_totem
    places: list[list[int]]
    near: dict[tuple[int, int], Vector]  # chair_near per point


class MusicalChairsEncoder(Encoder):
    def __init__(self, seats: int, options: Options) -> None:
        super().__init__(seats, options)
        assert isinstance(options, MusicalChairsOptions)
        n, c = seats, options.chair_count
        self.chairs = c
        self.layout = Layout((
            ("me", n), ("phase", len(PHASES)), ("phase_time", 1), ("period", 1), ("rerun", 1),
            ("remaining", n), ("out", n), ("on_island", n), ("x", n), ("y", n), ("arrived", n),
            ("touched", n), ("seated", n), ("submitted", n), ("voted", n), ("candidates", n), ("parent", n),
            ("chair_open", c), ("chair_occupied", c), ("chair_held", c), ("chair_for_me", c),
            ("chair_totem", c), ("chair_near", c), ("my_chair", c), ("my_last_chair", c), ("my_hold", c),
            ("my_medals", n), ("my_plan", c), ("my_intent", c), ("my_ballot", n + 1), ("winner", n),
        ))
        self.codec = ChairsCodec(moves(n, c))
        self._at = self.layout.slices()
        self._start = {name: part.start for name, part in self._at.items()}
        self._people_memo: _People | None = None
        self._chairs_memo: _Chairs | None = None
        self._base: tuple[_People, _Chairs, Vector] | None = None  # their parts in a vector of zeros
        # The match's layout token (`IslandMatch.layout_token`) each memo was last found good for: while
        # the match gives the same one, nothing they read changed (kept alive here, so never another's).
        self._people_token: object | None = None
        self._chairs_token: object | None = None

    def observe(self, view: Mapping[str, Any]) -> Vector:
        n, c, seat = self.seats, self.chairs, view["seat"]
        w = Writer(self.layout)
        now, started, ends = view["now"], view["phase_started"], view["phase_ends"]
        island = view["island"]
        width, height = island["width"], island["height"]
        scale = max(width, height)
        people = view["people"]
        w.put("me", one_hot(seat, n))
        w.put("phase", one_hot(PHASES.index(view["phase"]), len(PHASES)))
        w.put("phase_time", [0.0 if ends is None or ends <= started else (now - started) / (ends - started)])
        w.put("period", [view["period"] / c])
        w.put("rerun", [float(view["rerun"])])
        w.put_hot("remaining", view["remaining"], n)
        w.put_hot("out", (s for s, p in enumerate(people) if p["out"] is not None), n)
        at = [None if p["motion"] is None else position(p["motion"], now) for p in people]
        w.put_hot("on_island", (s for s, a in enumerate(at) if a is not None), n)
        w.put("x", [0.0 if a is None else a[0] / width for a in at])
        w.put("y", [0.0 if a is None else a[1] / height for a in at])
        w.put("arrived", [float(p["arrived"]) for p in people])
        w.put("touched", [float(p["role"] == PLAYER and p["touched"]) for p in people])
        w.put("seated", [float(p["chair"] is not None) for p in people])
        w.put_hot("submitted", view["submitted"], n)
        w.put_hot("voted", view["voted"], n)
        w.put_hot("candidates", view["candidates"], n)
        w.put("parent", one_hot(view["parent"], n))
        chairs = view["chairs"]
        w.put("chair_open", [float(not ch["removed"]) for ch in chairs])
        w.put("chair_occupied", [float(ch["occupant"] is not None) for ch in chairs])
        w.put("chair_held", [float(ch["holder"] is not None) for ch in chairs])
        w.put("chair_for_me", [float(ch["holder"] is not None and ch["for"] == seat) for ch in chairs])
        totem = island["totem"]
        w.put("chair_totem", [distance(ch["at"], totem) / scale for ch in chairs])
        here = at[seat]
        w.put("chair_near", [0.0 if here is None else distance(ch["at"], here) / scale for ch in chairs])
        me = people[seat]
        w.put("my_chair", self._chair(me["chair"]))
        w.put("my_last_chair", self._chair(me["last_chair"]))
        w.put("my_hold", self._chair(me["holding"]))
        per_player = view["medals_per_player"]
        w.put("my_medals", [view["my_medals"].get(str(s), 0) / per_player for s in range(n)])
        plan = view["my_plan"]
        w.put("my_plan", self._chair(plan[0] if plan else None))
        intent = view["my_intent"]
        w.put("my_intent", self._chair(intent["chair"] if intent else None))
        ballot = view["my_ballot"]
        w.put("my_ballot", one_hot(None if ballot is None else n if ballot == BLANK else ballot, n + 1))
        w.put("winner", one_hot(view["winner"], n))
        return w.done()

    def observe_match(self, match: Match, seat: int) -> Vector:
        """`observe(match.view(seat))` read straight from the state: the view also lists the legal actions,
        works out the result, copies the island and the seat's medals and filters its transfers and shown
        medals, none of which this needs. What the seat may not know stays out as there: of the medals,
        plan, sealed intent and ballot it reads its own only.

        The people's parts (out to seated) and the chairs' (open, occupied, held; the distances to the
        totem and from where the seat stands) are remembered with the values they were read from
        (`_people`, `_chairs`): they change at a race, a hold or a removal, while most steps give medals,
        show them, plan or vote. The rest is a few positions set among zeros."""
        assert isinstance(match, MusicalChairsMatch)
        n, c, now = self.seats, self.chairs, match.now
        at = self._start  # each part's first position
        started, ends = match.phase_started, match.phase_ends
        people, chairs = self._people(match), self._chairs(match)
        base = self._base
        if base is None or base[0] is not people or base[1] is not chairs:
            block = np.zeros(self.layout.size, dtype=np.float32)
            block[at["out"]:at["submitted"]] = people.block
            block[at["chair_open"]:at["chair_for_me"]] = chairs.block
            block[at["chair_totem"]:at["chair_near"]] = chairs.totem
            block.clip(-BOUND, BOUND, out=block)
            base = self._base = (people, chairs, block)
        v = base[2].copy()
        here = people.at[seat]
        if here is not None:
            v[at["chair_near"]:at["my_chair"]] = self._near(chairs, here, match.island)
        # positions set to 1, then positions set to other values
        hot = [seat, at["phase"] + PHASES.index(match.phase)]
        hot += people.remaining_hot
        hot += [at["submitted"] + s for s in match.submitted]
        hot += [at["voted"] + s for s in match.voted()]
        hot += [at["candidates"] + s for s in match.candidates]
        if match.parent is not None:
            hot.append(at["parent"] + match.parent)
        hot += [at["chair_for_me"] + k for k in chairs.held_for.get(seat, ())]
        me = match.people[seat]
        for part, number in (("my_chair", me["chair"]), ("my_last_chair", me["last_chair"]),
                             ("my_hold", me["holding"])):
            if number is not None:
                hot.append(at[part] + number - 1)
        plan = match.plans.get(str(seat))
        if plan:
            hot.append(at["my_plan"] + plan[0] - 1)
        intent = match.intents.get(str(seat))
        if intent:
            hot.append(at["my_intent"] + intent["chair"] - 1)
        ballot = n if seat in match.abstained else match.ballots.get(str(seat))  # a blank ballot last
        if ballot is not None:
            hot.append(at["my_ballot"] + ballot)
        if match.winner is not None:
            hot.append(at["winner"] + match.winner)
        v[hot] = 1.0
        places = [at["phase_time"], at["period"], at["rerun"]]
        values = [0.0 if ends is None or ends <= started else (now - started) / (ends - started),
                  match.period / c, float(match.rerun)]
        per_player = match.options.medal_count
        medals = at["my_medals"]
        for name, count in match.medals[seat].items():  # a name is a player's seat
            places.append(medals + int(name))
            values.append(count / per_player)
        v[places] = values
        # Clipped to +-BOUND like every observation: the remembered parts are clipped when made (a clip is
        # elementwise), so only these values are left to look at (a clip costs more than the look).
        return v.clip(-BOUND, BOUND, out=v) if max(values) > BOUND or min(values) < -BOUND else v

    def _people(self, match: MusicalChairsMatch) -> _People:
        """The people's parts, remembered with what they read: each person's out, course, arrival, role,
        touch and chair (a course is replaced, never changed, when a person sets off), and the time while
        someone is still on the way."""
        now = match.now
        token = match.layout_token()  # the same: nobody changed since (the key is not even read)
        memo = self._people_memo
        if memo is not None and (memo.now == now or min(memo.now, now) >= memo.settled):
            if self._people_token is token:
                return memo
            if memo.key == list(map(_PERSON, match.people)):
                self._people_token = token
                return memo
        key = list(map(_PERSON, match.people))
        self._people_token = token
        island = match.island
        width, height = island.width, island.height
        people = match.people
        where = [None if p["motion"] is None else position(p["motion"], now) for p in people]
        values = [float(p["out"] is not None) for p in people]
        values += [float(a is not None) for a in where]
        values += [0.0 if a is None else a[0] / width for a in where]
        values += [0.0 if a is None else a[1] / height for a in where]
        values += [float(p["arrived"]) for p in people]
        values += [float(p["role"] == PLAYER and p["touched"]) for p in people]
        values += [float(p["chair"] is not None) for p in people]
        settled = max((p["motion"]["arrive"] for p in people if p["motion"] is not None), default=0)
        remaining = [s for s, p in enumerate(people) if p["role"] == PLAYER]
        memo = self._people_memo = _People(key, now, settled, np.array(values, dtype=np.float32), where, remaining,
                                           [self._start["remaining"] + s for s in remaining])
        return memo

    def _chairs(self, match: MusicalChairsMatch) -> _Chairs:
        """The chairs' parts, remembered with what they read: each chair's place, removal, occupant,
        holder and whom it is held for, and the totem."""
        island = match.island
        totem, scale = island.totem, max(island.width, island.height)
        token = match.layout_token()
        memo = self._chairs_memo
        if memo is not None and self._chairs_token is token:
            return memo
        key = (totem, scale, list(map(_CHAIR, match.chairs)))
        self._chairs_token = token
        if memo is not None and memo.key == key:
            return memo
        chairs = match.chairs
        values = [float(not ch["removed"]) for ch in chairs]
        values += [float(ch["occupant"] is not None) for ch in chairs]
        values += [float(ch["holder"] is not None) for ch in chairs]
        held_for: dict[int, list[int]] = {}
        for k, ch in enumerate(chairs):
            if ch["holder"] is not None:
                held_for.setdefault(ch["for"], []).append(k)
        totem_distances = np.array([distance(ch["at"], totem) / scale for ch in chairs], dtype=np.float32)
        places = [ch["at"] for ch in chairs]
        near = memo.near if memo is not None and memo.key[1] == scale and memo.places == places else {}
        memo = self._chairs_memo = _Chairs(key, np.array(values, dtype=np.float32), held_for, totem_distances,
                                           places, near)
        return memo

    @staticmethod
    def _near(chairs: _Chairs, here: tuple[int, int], island: Any) -> Vector:
        """Each chair's distance from `here` over the island's scale, remembered per point (people stand
        at a few places: the totem, the chairs, where they started)."""
        near = chairs.near.get(here)
        if near is None:
            if len(chairs.near) >= 4096:
                chairs.near.clear()
            scale = max(island.width, island.height)
            near = np.array([distance(place, here) / scale for place in chairs.places], dtype=np.float32)
            chairs.near[here] = near = near.clip(-BOUND, BOUND, out=near)
        return near

    def _chair(self, number: int | None) -> list[float]:
        return one_hot(None if number is None else number - 1, self.chairs)
