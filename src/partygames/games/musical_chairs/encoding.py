"""Musical Chairs for learning agents: the observation vector of a seat's view and the action codec
(layout in docs/rules/musical-chairs.md, Encoding).

The research interfaces play the rounds tempo (sealed chair plans, time moves on actions); the codec also
covers the real-time actions (running, walking), which the conformance suite plays. A plan is an ordered
list of chairs, too many to enumerate: the codec names a plan by its first chair, and the plan it
decodes to tries that chair first, then the other allowed chairs in number order (`ChairsCodec`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from partygames.engine.actions import Action, ActionSpec
from partygames.engine.encoding import (
    ActionCodec,
    Encoder,
    Layout,
    Move,
    Vector,
    Writer,
    as_vector,
    many_hot,
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
        """`observe(match.view(seat))` read straight from the state, part by part as there: the view also
        lists the legal actions, works out the result, copies the island and the seat's medals and filters
        its transfers and shown medals, none of which this needs. What the seat may not know stays out as
        there: of the medals, plan, sealed intent and ballot it reads its own only."""
        assert isinstance(match, MusicalChairsMatch)
        n, c, now = self.seats, self.chairs, match.now
        started, ends = match.phase_started, match.phase_ends
        island = match.island
        width, height = island.width, island.height
        scale = max(width, height)
        people, chairs = match.people, match.chairs
        v = one_hot(seat, n)
        v += one_hot(PHASES.index(match.phase), len(PHASES))
        v += (0.0 if ends is None or ends <= started else (now - started) / (ends - started),
              match.period / c, float(match.rerun))
        v += many_hot(match.remaining(), n)
        v += [float(p["out"] is not None) for p in people]
        at = [None if p["motion"] is None else position(p["motion"], now) for p in people]
        v += [float(a is not None) for a in at]
        v += [0.0 if a is None else a[0] / width for a in at]
        v += [0.0 if a is None else a[1] / height for a in at]
        v += [float(p["arrived"]) for p in people]
        v += [float(p["role"] == PLAYER and p["touched"]) for p in people]
        v += [float(p["chair"] is not None) for p in people]
        v += many_hot(match.submitted, n)
        v += many_hot(match.voted(), n)
        v += many_hot(match.candidates, n)
        v += one_hot(match.parent, n)
        v += [float(not ch["removed"]) for ch in chairs]
        v += [float(ch["occupant"] is not None) for ch in chairs]
        v += [float(ch["holder"] is not None) for ch in chairs]
        v += [float(ch["holder"] is not None and ch["for"] == seat) for ch in chairs]
        totem = island.totem
        v += [distance(ch["at"], totem) / scale for ch in chairs]
        here = at[seat]
        v += [0.0] * c if here is None else [distance(ch["at"], here) / scale for ch in chairs]
        me = people[seat]
        v += self._chair(me["chair"])
        v += self._chair(me["last_chair"])
        v += self._chair(me["holding"])
        per_player = match.options.medal_count
        medals = [0.0] * n  # a name is a player's seat
        for name, count in match.medals[seat].items():
            medals[int(name)] = count / per_player
        v += medals
        plan = match.plans.get(str(seat))
        v += self._chair(plan[0] if plan else None)
        intent = match.intents.get(str(seat))
        v += self._chair(intent["chair"] if intent else None)
        v += one_hot(n if seat in match.abstained else match.ballots.get(str(seat)), n + 1)  # a blank ballot last
        v += one_hot(match.winner, n)
        return as_vector(v, self.layout)

    def _chair(self, number: int | None) -> list[float]:
        return one_hot(None if number is None else number - 1, self.chairs)
