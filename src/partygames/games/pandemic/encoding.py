"""The Pandemic Game for learning agents: the observation vector of a seat's view and the action codec
(layout in docs/rules/pandemic.md, Encoding).

The codec follows the table's tempo: `intend` with one intent per move in rounds (the tempo the research
interfaces play), the real-time actions otherwise. An offer is named by its id (`"<seat>@<ms>"`), which
changes with the moment it was made; a seat has at most one open offer, so the codec names it by the
seat that made it and translates both ways (`PandemicCodec`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from partygames.engine.actions import Action, ActionSpec
from partygames.engine.encoding import (
    BOUND,
    ActionCodec,
    Encoder,
    Layout,
    Mask,
    Move,
    Vector,
    Writer,
    one_hot,
)
from partygames.engine.match import Match
from partygames.engine.options import Options
from partygames.games.pandemic.odds import Worlds
from partygames.games.pandemic.options import PandemicOptions
from partygames.games.pandemic.rules import WAIT, PandemicMatch, SeenCounts

PHASES = ("play", "break", "over")
#: Counts (contacts, presses, vaccines) are divided by this: a match rarely passes it, and the clip is ±100.
COUNT_SCALE = 10.0
#: Actions whose parameter names an offer by its id, and intents that do.
OFFER_ACTIONS = ("accept", "decline")


def _offerer(offer_id: str) -> int:
    """The seat that made the offer `"<seat>@<ms>"`."""
    return int(offer_id.partition("@")[0])


def _short_intent(intent: str) -> str:
    """`accept:3@5000` -> `accept:3`; every other intent as it is."""
    kind, _, arg = intent.partition(":")
    return f"{kind}:{_offerer(arg)}" if kind in OFFER_ACTIONS else intent


def _short_intents(intents: Sequence[str]) -> list[str]:
    """`_short_intent` of each (only an acceptance or a decline names an offer id, `<seat>@<ms>`)."""
    return [_short_intent(v) if "@" in v else v for v in intents]


def _short_action(action: Mapping[str, Any]) -> dict[str, Any]:
    short = dict(action)
    if short.get("type") in OFFER_ACTIONS and isinstance(short.get("offer"), str):
        short["offer"] = _offerer(short["offer"])
    elif short.get("type") == "intend" and isinstance(short.get("intent"), str):
        short["intent"] = _short_intent(short["intent"])
    return short


def _short_specs(specs: Sequence[ActionSpec]) -> list[ActionSpec]:
    """The specs with every offer id replaced by its offerer (real time: the seat; rounds: in the intent)."""
    out: list[ActionSpec] = []
    for spec in specs:
        params = spec["params"]
        if spec["type"] in OFFER_ACTIONS and "offer" in params:
            params = {**params, "offer": {**params["offer"], "choice": [_offerer(v) for v in params["offer"]["choice"]]}}
        elif spec["type"] == "intend" and "intent" in params:
            params = {**params, "intent": {**params["intent"], "choice": _short_intents(params["intent"]["choice"])}}
        out.append({**spec, "params": params})
    return out


def _long_action(short: Action | None, specs: Sequence[ActionSpec]) -> Action | None:
    """The action of `specs` that `short` (an offer named by its offerer) stands for."""
    if short is None:
        return None
    for spec in specs:
        if spec["type"] != short["type"]:
            continue
        params = spec["params"]
        if short["type"] in OFFER_ACTIONS and "offer" in params:
            ids = [v for v in params["offer"]["choice"] if _offerer(v) == short["offer"]]
            return {**short, "offer": ids[0]} if ids else None
        if short["type"] == "intend" and "intent" in params:
            target, choices = short["intent"], params["intent"]["choice"]
            if target.partition(":")[0] not in OFFER_ACTIONS:  # an intent that names no offer is itself
                return short if target in choices else None
            intents = [v for v in choices if "@" in v and _short_intent(v) == target]
            return {**short, "intent": intents[0]} if intents else None
    return short


class PandemicCodec(ActionCodec):
    """An `ActionCodec` whose moves name an offer by the seat that made it (see the module docstring)."""

    def _prepare(self, specs: Sequence[ActionSpec]) -> list[ActionSpec]:
        return _short_specs(specs)

    def _key(self, spec: ActionSpec) -> tuple[Any, ...]:
        # A rounds intent's share of the mask is decided by the intents as the moves name them (an offer
        # by its offerer): keyed so, a mask is found again whenever the same seats have offered, whatever
        # the moments the offers were made at (their ids).
        if spec["type"] == "intend":
            return ("intend", tuple(_short_intents(spec["params"]["intent"]["choice"])))
        return super()._key(spec)

    # The rounds tempo's one spec, a choice of intents, is read straight (it is every step of the research
    # interfaces): a move's intent is allowed when it is one of the spec's, an offer named by its offerer.
    # What the base class works out for any spec, without its keys, preparing and resolving.
    _intent_moves: dict[str, int] | None = None

    def _intent_index(self) -> dict[str, int]:
        """Per intent a move names, its index."""
        index = self._intent_moves
        if index is None:
            index = self._intent_moves = {m.fixed["intent"]: i for i, m in enumerate(self.moves) if m.type == "intend"}
        return index

    def mask(self, specs: Sequence[ActionSpec]) -> Mask:
        if len(specs) == 1 and specs[0]["type"] == "intend":
            index = self._intent_index()
            intents = specs[0]["params"]["intent"]["choice"]
            if set(map(type, intents)) == {str}:
                positions = [index.get(_short_intent(v) if "@" in v else v, -1) for v in intents]
                if -1 not in positions:
                    mask = np.zeros(len(self.moves), dtype=np.int8)
                    mask[positions] = 1
                    return mask
        return super().mask(specs)

    def decode(self, index: int, specs: Sequence[ActionSpec]) -> Action | None:
        move = self.moves[int(index)]
        if move.type == "intend" and len(specs) == 1 and specs[0]["type"] == "intend":
            target, intents = move.fixed["intent"], specs[0]["params"]["intent"]["choice"]
            if target.partition(":")[0] not in OFFER_ACTIONS:  # an intent that names no offer is itself
                return {"intent": target, "type": "intend"} if target in intents else None
            for intent in intents:
                if "@" in intent and _short_intent(intent) == target:
                    return {"intent": intent, "type": "intend"}
            return None
        return _long_action(super().decode(index, specs), specs)

    def encode(self, action: Mapping[str, Any], specs: Sequence[ActionSpec]) -> int | None:
        return super().encode(_short_action(action), self.prepared(specs))

    def nearest(self, action: Mapping[str, Any], specs: Sequence[ActionSpec]) -> int | None:
        return super().nearest(_short_action(action), self.prepared(specs))


def _tally(log: Iterable[Mapping[str, Any]], seat: int | None, seats: int) -> SeenCounts:
    """Per seat its contacts and its presses in `log`, and the seats `seat` has touched."""
    counts = SeenCounts([0] * seats, [0] * seats)
    for entry in log:
        counts.count(entry, seat)
    return counts


def moves(seats: int, tempo: str) -> list[Move]:
    """The codec's table for a tempo: per seat an offer, an acceptance and a decline, and the rest."""
    others = range(seats)
    if tempo == "rounds":
        intents = [WAIT, *(f"offer:{s}" for s in others), *(f"accept:{s}" for s in others),
                   *(f"decline:{s}" for s in others), "withdraw", "visit", "leave", "press"]
        return [Move("intend", {"intent": i}) for i in intents]
    return [*(Move("offer", {"target": s}) for s in others), *(Move("accept", {"offer": s}) for s in others),
            *(Move("decline", {"offer": s}) for s in others), Move("withdraw"), Move("visit"), Move("leave"),
            Move("press")]


class PandemicEncoder(Encoder):
    def __init__(self, seats: int, options: Options) -> None:
        super().__init__(seats, options)
        assert isinstance(options, PandemicOptions)
        n = seats
        self.layout = Layout((
            ("me", n), ("phase", len(PHASES)), ("time", 1), ("period", 1), ("period_left", 1),
            ("in_room", n), ("stay", n), ("queue", n), ("busy", n),
            ("contacts", n), ("presses", n), ("met", n),
            ("my_offer", n), ("offers_to_me", n), ("submitted", n), ("my_intent", 1),
            ("reading", 3), ("reading_age", 1), ("since_reading", 1),
            ("odds_exact", 1), ("infected_odds", n), ("announced", 3),
            ("watch_infected", n), ("watch_vaccines", n), ("passed", n),
        ))
        self.codec = PandemicCodec(moves(n, options.tempo))
        self._at = {name: part.start for name, part in self.layout.slices().items()}
        self._submitted = {str(s): self._at["submitted"] + s for s in range(n)}
        # Memos of `observe_match`: the `contacts` and `presses` parts by the counts (every seat counts the
        # same while contacts and presses are public), and the options' clock per period (with the options
        # read).
        self._counted: dict[tuple[int, ...], Vector] = {}
        self._clock_memo: tuple[PandemicOptions, dict[tuple[int, bool], tuple[int, int]]] | None = None
        self._odds_memo: dict[int, tuple[Worlds | None, tuple[int, int, int], Vector]] = {}

    def observe(self, view: Mapping[str, Any]) -> Vector:
        n, seat = self.seats, view["seat"]
        w = Writer(self.layout)
        now, end = view["time"], view["ends_at"]
        w.put("me", one_hot(seat, n))
        w.put("phase", one_hot(PHASES.index(view["phase"]), len(PHASES)))
        w.put("time", [now / end])
        w.put("period", [view["period"] / view["periods"]])
        w.put("period_left", [max(0, view["period_ends_at"] - now) / end])
        inside = {v["seat"]: v for v in view["inside"]}
        w.put_hot("in_room", inside, n)
        w.put("stay", [(now - inside[s]["since"]) / (view["stay_seconds"] * 1000) if s in inside else 0.0
                       for s in range(n)])
        queue = view["queue"]
        w.put("queue", [(queue.index(s) + 1) / n if s in queue else 0.0 for s in range(n)])
        w.put("busy", [float(b > now) for b in view["busy_until"]])
        counts = _tally(view["log"], seat, n)
        w.put("contacts", [c / COUNT_SCALE for c in counts.contacts])
        w.put("presses", [c / COUNT_SCALE for c in counts.presses])
        w.put_hot("met", counts.met, n)
        own = view.get("my_offer")
        w.put("my_offer", one_hot(None if own is None else own["to"], n))
        w.put_hot("offers_to_me", (o["from"] for o in view.get("offers_to_me", ())), n)
        w.put_hot("submitted", view.get("submitted", ()), n)
        w.put("my_intent", [float(view.get("my_intent") is not None)])
        self._reading(w, view, seat)
        odds = view.get("my_odds")
        exact = odds is not None and odds["worlds"] > 0
        w.put("odds_exact", [float(exact)])
        w.put("infected_odds", [c / odds["worlds"] for c in odds["infected"]] if odds and exact else [0.0] * n)
        last = view["announcements"][-1] if view["announcements"] else None
        w.put("announced", [0.0, 0.0, 0.0] if last is None else [1.0, last["healthy"] / n, last["infected"] / n])
        watches = view.get("watches")
        w.put("watch_infected", [float(x["infected"]) for x in watches] if watches else [0.0] * n)
        w.put("watch_vaccines", [x["vaccines"] / COUNT_SCALE for x in watches] if watches else [0.0] * n)
        w.put_hot("passed", view.get("passed", ()), n)
        return w.done()

    def observe_match(self, match: Match, seat: int) -> Vector:
        """`observe(match.view(seat))` read straight from the state, part by part as there: the view copies
        the log, its offers and readings and works out the public odds, none of which this needs. What the
        seat may not know stays out as there: log entries it did not see, other seats' readings, offers
        and intents, and the watches until the end.

        Most entries are zeros (a seat is in a room, queued, busy, offered to only now and then): the
        vector is the nonzero entries set among zeros, at their positions (`_at`: each part's start)."""
        assert isinstance(match, PandemicMatch)
        n, opts, now = self.seats, match.options, match.t
        at = self._at
        end, period_ends = self._clock(opts, match.period, match.on_break)
        # positions set to 1, then positions set to other values
        hot = [seat, at["phase"] + PHASES.index("over" if match.over else "break" if match.on_break else "play")]
        places = [at["time"], at["period"], at["period_left"]]
        values = [now / end, match.period / opts.periods, max(0, period_ends - now) / end]
        inside = match.inside
        if inside:
            stay_ms = opts.stay_seconds * 1000
            in_room, stay = at["in_room"], at["stay"]
            for key, room in inside.items():
                s = int(key)
                hot.append(in_room + s)
                places.append(stay + s)
                values.append((now - room["since"]) / stay_ms)
        queue = match.queue
        if queue:
            queued = at["queue"]
            for s in set(queue):
                places.append(queued + s)
                values.append((queue.index(s) + 1) / n)
        busy_until = match.busy_until
        if max(busy_until) > now:  # (seldom: for a step after a contact)
            busy, public = at["busy"], opts.public_contacts
            hot += [busy + s for s, b in enumerate(busy_until) if b > now and (public or s == seat)]
        vector = np.zeros(self.layout.size, dtype=np.float32)
        counts = match.seen_counts(seat)  # the entries this seat saw, as its view holds them
        tallies = (*counts.contacts, *counts.presses)
        counted = self._counted.get(tallies)
        if counted is None:
            if len(self._counted) >= 4096:
                self._counted.clear()
            counted = np.array([c / COUNT_SCALE for c in tallies], dtype=np.float32)
            counted = self._counted[tallies] = counted.clip(-BOUND, BOUND, out=counted)
        vector[at["contacts"]:at["met"]] = counted  # contacts, then presses
        if counts.met:
            met = at["met"]
            hot += [met + s for s in counts.met]
        offers_to_me = at["offers_to_me"]
        own = None
        for offer in match.offers.values():
            if offer["from"] == seat and own is None:
                own = offer
            if offer["to"] == seat:
                hot.append(offers_to_me + offer["from"])
        if own is not None:
            hot.append(at["my_offer"] + own["to"])
        if match.is_rounds:
            intents = match.intents
            submitted = self._submitted  # per seat key, its position
            hot += [submitted[k] for k in intents]
            if intents.get(str(seat)) is not None:
                hot.append(at["my_intent"])
        readings = match.readings[seat]
        if readings:
            last = readings[-1]
            # the entries involving the seat since (each seen by it), from their positions in the log
            mine = len(counts.mine) - bisect_left(counts.mine, last["seq"])
            start = at["reading"]
            places += [start, start + 1, start + 2, start + 3, start + 4]
            values += [1.0, float(last["infected"]), last["vaccines"] / COUNT_SCALE, (now - last["t"]) / end,
                       mine / COUNT_SCALE]
        odds = self._odds(match, seat)
        if odds[0]:
            vector[at["odds_exact"]:at["announced"]] = odds  # odds_exact, then infected_odds
        last_news = match.announcements[-1] if match.announcements else None
        if last_news is not None:
            start = at["announced"]
            places += [start, start + 1, start + 2]
            values += [1.0, last_news["healthy"] / n, last_news["infected"] / n]
        if match.over:
            places += range(at["watch_infected"], at["watch_infected"] + n)
            values += [float(x) for x in match.infected]
            places += range(at["watch_vaccines"], at["watch_vaccines"] + n)
            values += [x / COUNT_SCALE for x in match.vaccines]
            passed = at["passed"]
            hot += [passed + s for s in match.passed]
        vector[hot] = 1.0
        vector[places] = values
        # clipped to +-BOUND like every observation: the remembered parts were clipped when made (a clip
        # is elementwise), every value here is at least 0, and a clip costs more than the look
        return vector.clip(-BOUND, BOUND, out=vector) if max(values) > BOUND else vector

    def _clock(self, opts: PandemicOptions, period: int, on_break: bool) -> tuple[int, int]:
        """The game's end and the current period's (the next one's start in a break), in game ms: read
        from the options once per period (`period_end` and `end_ms` work them out at every call)."""
        memo = self._clock_memo
        if memo is None or memo[0] is not opts:
            memo = self._clock_memo = (opts, {})
        found = memo[1].get((period, on_break))
        if found is None:
            ends = opts.period_start(period + 1) if on_break else opts.period_end(period)
            found = memo[1][(period, on_break)] = (opts.end_ms, ends)
        return found

    def _odds(self, match: PandemicMatch, seat: int) -> Vector:
        """`odds_exact` and `infected_odds`, remembered per seat with the worlds they were counted in and
        what changes those in place (an entry logged, a reading, an announcement: each only appends); a
        match rebuilding its worlds (a clone, a restored snapshot) makes new ones. A seat without readings
        sees the public odds, remembered once for all of them (as seat -1); when one seat with readings
        finds its odds out of date, every such seat's are counted at once (one product of their worlds
        and the watches), as the log has usually grown for all of them."""
        worlds = match.worlds() if match.odds_are_exact() else None
        readings = len(match.readings[seat])
        memo_seat = seat if readings else -1
        key = (len(match.log), readings, len(match.announcements))
        memo = self._odds_memo.get(memo_seat)
        if memo is not None and memo[0] is worlds and memo[1] == key:
            return memo[2]
        if worlds is None or not readings:
            odds = None if worlds is None else worlds.odds(None)
            self._odds_memo[memo_seat] = (worlds, key, self._odds_values(odds))
            return self._odds_memo[memo_seat][2]
        stale = []
        for other in range(self.seats):
            count = len(match.readings[other])
            other_key = (key[0], count, key[2])
            found = self._odds_memo.get(other)
            if count and (other == seat or found is None or found[0] is not worlds or found[1] != other_key):
                stale.append((other, other_key))
        allowed = []
        for other, _ in stale:
            mask = worlds.allowed(other)
            if mask is None:  # (a seat with readings has its own worlds: not met)
                self._odds_memo[seat] = (worlds, key, self._odds_values(worlds.odds(seat)))
                return self._odds_memo[seat][2]
            allowed.append(mask)
        masks = np.stack(allowed)
        counts = np.matmul(masks, worlds.infected, dtype=np.int64)  # exact: whole numbers
        totals = masks.sum(axis=1)
        exact = totals > 0
        # as `_odds_values` writes each: 1 and every count over the worlds left (float64, the quotient of
        # two whole numbers correctly rounded as Python's is, then float32), or all zeros when none is left
        table = np.zeros((len(stale), self.seats + 1), dtype=np.float32)
        table[:, 0] = exact
        table[:, 1:] = counts / np.where(exact, totals, 1)[:, None]
        table[~exact] = 0.0
        table.clip(-BOUND, BOUND, out=table)
        for (other, other_key), row in zip(stale, table, strict=True):
            self._odds_memo[other] = (worlds, other_key, row)
        return self._odds_memo[seat][2]

    def _odds_values(self, odds: dict[str, Any] | None) -> Vector:
        """`odds_exact` and `infected_odds` of `Worlds.odds` (None: the odds are not exact), as float32
        clipped to +-BOUND."""
        exact = odds is not None and odds["worlds"] > 0
        values = [float(exact)]
        values += [c / odds["worlds"] for c in odds["infected"]] if odds and exact else [0.0] * self.seats
        vector = np.array(values, dtype=np.float32)
        return vector.clip(-BOUND, BOUND, out=vector)

    def _reading(self, w: Writer, view: Mapping[str, Any], seat: int | None) -> None:
        """My last reading: read, infected, vaccines; how long ago; and what touched me since (my entries
        of the log after it, as I saw them)."""
        readings = view.get("readings") or []
        if not readings:
            w.put("reading", [0.0, 0.0, 0.0])
            w.put("reading_age", [0.0])
            w.put("since_reading", [0.0])
            return
        last = readings[-1]
        w.put("reading", [1.0, float(last["infected"]), last["vaccines"] / COUNT_SCALE])
        w.put("reading_age", [(view["time"] - last["t"]) / view["ends_at"]])
        mine = sum(1 for e in view["log"][last["after"]:]
                   if seat in ((e["a"], e["b"]) if e["kind"] == "contact" else (e["seat"],)))
        w.put("since_reading", [mine / COUNT_SCALE])
