"""The generic conformance checks every registered game must pass (in the spirit of OpenSpiel's api_test).

`check_playout` plays one seeded random match to the end, moving time on at random steps, and checks at
every step: that every listed legal action is accepted (on a copy) and sampled illegal ones are refused
with the state unchanged; that to_act, is_over and result agree; that turns are awaited seats (none
only in real-time play); that a seat awaited always has a time limit whose defaults are legal, and that
the match never stalls; that views are JSON-ready and hold no seed; that no seat's view depends on another seat's secrets (via `Match.perturb_secrets`); that what
other seats are shown of an action (`Match.shown_action`) holds nothing they were not shown anyway;
that the state survives a JSON round trip; that a twin of the match played by the trusted `Match.apply_trusted`
(and `advance`) on the same actions at the same times gives the same events and state; that `Match.clone()` is equal to the match, round-trips, and is
independent of it both ways (steps played on the clone leave the match as it was, and the match's next
step leaves the clone as it was), and that the game's `CLONE_SHAPES` hold (a `SHARED` value or a `LOG`'s
item still the same object is unchanged since the last check); and at the end, that replaying the log gives
an identical state.
For a game that declares an encoding (`Game.encoding`), `check_encoding` checks at every deep step that
each seat's observation has its layout's size and bounds (and, when a game builds it from the state by
`Encoder.observe_match`, that it equals its view's encoding and ignores other seats' secrets), that an
awaited seat's action mask is not empty, that every index the mask allows decodes to a legal action
which encodes back to itself, and that a seat not awaited has an empty mask; for a game that keeps
records (`Encoder.recall`), each seat's, fed only the events it may see, gives an information state of
the same size and bounds.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from partygames.engine.actions import Action, ActionSpec, enumerate_actions, find_spec, sample
from partygames.engine.copying import Shape, copy_json, has_shape, is_atom
from partygames.engine.encoding import BOUND, Encoder, Recall, hear, start_recalls
from partygames.engine.errors import IllegalAction
from partygames.engine.game import Dynamics, Game
from partygames.engine.log import MatchLog
from partygames.engine.match import Event, Match
from partygames.engine.session import Session

# A seed whose digits are distinctive enough to search for in views and events.
DISTINCTIVE_SEED = 7_391_846_205_113


class ConformanceError(AssertionError):
    pass


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _fail(game: Game, step: int, message: str) -> ConformanceError:
    return ConformanceError(f"{game.id} step {step}: {message}")


def illegal_variants(specs: list[ActionSpec], rng: random.Random) -> list[Any]:
    """Actions close to legal ones that the specs do not allow."""
    bad: list[Any] = [None, 42, "pass", [], {}, {"type": 7}, {"type": "no-such-action-type"}]
    legal = sample(specs, rng)
    bad.append({**legal, "unexpected_field": 1})
    for name, param in next(s for s in specs if s["type"] == legal["type"])["params"].items():
        bad.append({k: v for k, v in legal.items() if k != name})
        if "choice" in param:
            bad.append({**legal, name: "not-a-choice-\u2603"})
            bad.append({**legal, name: True})
        elif "sequence" in param:
            bad.extend({**legal, name: v} for v in _bad_sequences(legal[name], param))
        else:
            bad.extend([
                {**legal, name: param["max"] + param["step"]},
                {**legal, name: param["min"] - param["step"]},
                {**legal, name: 10**30},
                {**legal, name: float(param["min"])},
                {**legal, name: str(param["min"])},
            ])
            if param["step"] > 1:
                bad.append({**legal, name: param["min"] + 1})
    # Keep only those that really match no spec (a variant can land on another legal spec).
    result = []
    for action in bad:
        try:
            find_spec(specs, action)
        except IllegalAction:
            result.append(action)
    return result


def _bad_sequences(order: list[Any], param: dict[str, Any]) -> list[Any]:
    """Values close to a legal list `order` that a sequence parameter refuses: another type, too short,
    too long, huge, with a repeated element, and with an element that is not among the values (a
    foreign value, and a legal one in another JSON type)."""
    values, lo, hi = param["sequence"], param["min_len"], param["max_len"]
    first = values[0]
    bad: list[Any] = [first, None, {"0": first}, " ".join(map(str, order)), [first] * 10_000, [order]]
    if lo > 0:
        bad.append(values[: lo - 1])
    bad.append((values * 2)[: hi + 1] if hi == len(values) else values[: hi + 1])
    if hi >= 2:
        bad.append([order[0], order[0]] if order else [first, first])  # repeated, at the start
        bad.append([*order[: hi - 1], order[-1]] if len(order) >= 2 else [first, first])  # repeated, at the end
    base = order if order else [first]
    for i in (0, len(base) - 1):
        item = base[i]
        twins: list[Any] = ["not-a-choice-\u2603", None, [item]]
        twins += [True, float(item), str(item)] if type(item) is int else [item + "\u2603"]
        bad.extend([*base[:i], twin, *base[i + 1:]] for twin in twins)
    return bad


def check_playout(game: Game, seats: int, seed: int, options: dict[str, Any] | None = None,
                  max_steps: int = 20_000, deep_every: int = 1, wake_chance: float = 0.1) -> Match:
    """Plays a random match and checks the contract at every step; returns the finished match.

    At each step a random awaited seat acts, or, with probability `wake_chance` (always, when nobody
    is awaited), time jumps to the match's next wake-up, so time limits expire and their defaults are
    applied. `deep_every` > 1 runs the costly checks (trying every legal action, perturbing secrets)
    on one step in n, for long games: steps drawn at random (from a source of their own, so the playout
    is the same), as a fixed stride can keep missing a short phase that recurs in step with it (a peek).
    """
    rng = random.Random(seed)
    deep_steps = random.Random(f"deep steps {seed}")
    session = Session.new(game, seats, options, DISTINCTIVE_SEED + seed)
    match = session.match
    seed_text = str(DISTINCTIVE_SEED + seed)
    encoder = game.encoder(seats, options) if game.encoding is not None else None
    recalls = start_recalls(encoder, match, range(match.seats)) if encoder is not None else {}
    kept: dict[str, dict[int, tuple[Any, str]]] = {}  # what CLONE_SHAPES promise is never changed in place
    twin: tuple[Match, str] | None = None  # a clone taken before the last step, with its state then
    trusted = match.clone()  # played by `Match.apply_trusted` and `advance` alongside: must stay equal, events too
    step = 0
    while True:
        if twin is not None and _dump(twin[0].to_json()) != twin[1]:
            raise _fail(game, step, "the match's step changed a clone taken before it")
        to_act = match.to_act()
        result = match.result()
        if match.is_over != (result is not None) or match._ended() != (result is not None):
            raise _fail(game, step, "is_over (or the game's _ended) disagrees with result()")
        if result is not None and to_act:
            raise _fail(game, step, f"the match is over but seats {to_act!r} are awaited")
        if any(not isinstance(s, int) or not 0 <= s < seats for s in to_act) or len(set(to_act)) != len(to_act):
            raise _fail(game, step, f"bad to_act {to_act!r}")
        turns = match.turns()
        if len(set(turns)) != len(turns) or not set(turns) <= set(to_act):
            raise _fail(game, step, f"turns {turns!r} are not distinct seats of to_act {to_act!r}")
        if to_act and not turns and game.dynamics is not Dynamics.REAL_TIME:
            raise _fail(game, step, f"seats {to_act!r} are awaited and nobody has a turn in a turn-based game")
        deep = deep_every == 1 or deep_steps.random() * deep_every < 1
        views = _check_views(game, match, step, seed_text, rng if deep else None, encoder)
        deadline = match.deadline()
        if encoder is not None and deep:
            check_encoding(game, match, encoder, step, recalls)
        if result is not None:
            break
        due = match.wake_at()
        if due is not None and (type(due) is not int or due < match.now):
            raise _fail(game, step, f"wake_at() is {due!r} at time {match.now}")
        if not to_act and due is None:
            raise _fail(game, step, "nobody is awaited and nothing is due: the match is stalled")
        if to_act and due is None:
            raise _fail(game, step, f"seats {to_act!r} are awaited without a time limit: one who leaves stalls the match")
        twin = _check_clone(game, match, step, random.Random(f"clone {seed} {step}"), kept) if deep else None
        _check_time_limit(game, match, step)
        roundtrip = game.from_json(json.loads(json.dumps(match.to_json())))
        if roundtrip != match:
            raise _fail(game, step, "JSON round trip changed the state")
        for seat in range(seats):
            if seat not in to_act and match.legal_actions(seat):
                raise _fail(game, step, f"seat {seat} is not awaited but has legal actions")
        if due is not None and (not to_act or rng.random() < wake_chance):
            events = session.wake(due)
            trusted_events = trusted.advance(due)
            actor, action = None, None
        else:
            actor = to_act[rng.randrange(len(to_act))]
            specs = match.legal_actions(actor)
            if not specs:
                raise _fail(game, step, f"seat {actor} is awaited but has no legal action")
            if deep:
                _check_every_legal_accepted(game, match, actor, specs, step)
                _check_illegal_refused(game, match, actor, specs, step, rng)
            action = sample(specs, rng)
            at = match.now + rng.randrange(3) * 500  # some time passes, never beyond what is due
            if due is not None:
                at = min(at, due)
            if trusted.legal_actions(actor) != specs:
                raise _fail(game, step, f"seat {actor}'s legal actions differ in the trusted twin")
            events = session.act(actor, action, at)
            trusted_events = trusted.apply_trusted(actor, copy_json(action), at)
        if _dump([e.to_json() for e in trusted_events]) != _dump([e.to_json() for e in events]):
            raise _fail(game, step, f"the trusted step's events differ from apply's (actor {actor}, {action!r}): "
                                    f"{_first_difference([e.to_json() for e in events], [e.to_json() for e in trusted_events])}")
        if _dump(trusted._state_json(copy=False)) != _dump(match._state_json(copy=False)):
            raise _fail(game, step, f"the trusted step's state differs from apply's (actor {actor}, {action!r}): "
                                    f"{_first_difference(match.to_json(), trusted.to_json())}")
        for event in events:
            if seed_text in _dump(event.to_json()):
                raise _fail(game, step, f"event {event.type} holds the seed")
        hear(recalls, events)
        _check_witnesses(game, session, actor, action, events, views, deadline, step)
        if actor is not None and action is not None:
            _check_shown_action(game, match, actor, action, events, step)
        step += 1
        if step > max_steps:
            raise _fail(game, step, "the match did not end")
    replayed = Session.replay(game, session.log).match
    if replayed != match:
        raise _fail(game, step, "replaying the log gave a different state")
    return match


def _check_clone(game: Game, match: Match, step: int, rng: random.Random,
                 kept: dict[str, dict[int, tuple[Any, str]]]) -> tuple[Match, str]:
    """`clone()` is equal, round-trips, and is independent of the match (a few random steps on a clone
    leave the match as it was); `CLONE_SHAPES` hold. Returns another clone and its state, to be checked
    after the match's next step."""
    before = _dump(match.to_json())
    copy = match.clone()
    if type(copy) is not type(match) or copy != match:
        raise _fail(game, step, "clone() is not equal to the match")
    if game.from_json(json.loads(json.dumps(copy.to_json()))) != match:
        raise _fail(game, step, "a clone's JSON round trip differs from the match")
    for _ in range(3):
        awaited = copy.to_act()
        due = copy.wake_at()
        if due is not None and (not awaited or rng.random() < 0.3):
            copy.advance(due)
        elif awaited:
            seat = awaited[rng.randrange(len(awaited))]
            with contextlib.suppress(IllegalAction):  # a listed action refused: the legality checks report it
                copy.apply(seat, sample(copy.legal_actions(seat), rng))
    if _dump(match.to_json()) != before:
        raise _fail(game, step, "steps played on a clone changed the match")
    state = vars(match)
    for key, shape in match.CLONE_SHAPES.items():
        value: Any = state.get(key)
        if is_atom(value):
            continue
        if not has_shape(value, shape):
            raise _fail(game, step, f"CLONE_SHAPES says {key} is {shape}, but it is {_dump(value)[:200]}")
        if shape is not Shape.SHARED and shape is not Shape.LOG:
            continue
        items = [value] if shape is Shape.SHARED else [v for v in (value if isinstance(value, list) else value.values())
                                                        if not is_atom(v)]
        earlier = kept.get(key, {})
        for item in items:
            seen = earlier.get(id(item))
            if seen is not None and seen[0] is item and _dump(item) != seen[1]:
                raise _fail(game, step, f"CLONE_SHAPES says {key} is {shape}, but {'it' if shape is Shape.SHARED else 'an item'}"
                                        f" was changed in place: {seen[1][:200]} became {_dump(item)[:200]}")
        kept[key] = {id(item): (item, _dump(item)) for item in items}
    twin = match.clone()
    return twin, _dump(twin.to_json())


def check_encoding(game: Game, match: Match, encoder: Encoder, step: int = 0,
                   recalls: Mapping[int | None, Recall] | None = None) -> None:
    """The encoding's contract on the match as it is now (see the module docstring); `recalls`: each
    seat's record, fed the events it may see (for a game that keeps them)."""
    to_act = match.to_act()
    codec = encoder.codec
    for seat in range(match.seats):
        view = match.view(seat)
        observation = encoder.observe(view)
        if encoder.observes_match and not np.array_equal(encoder.observe_match(match, seat), observation):
            raise _fail(game, step, f"seat {seat}'s observation from the match differs from its view's: "
                                    f"{np.flatnonzero(encoder.observe_match(match, seat) != observation)}")
        checked = [("observation", observation, encoder.size),
                   ("information state", encoder.information_state(view), encoder.information_layout.size)]
        if recalls:
            checked.append(("recalled information state", encoder.recalled_state(view, recalls.get(seat)),
                            encoder.information_layout.size))
        for name, vector, size in checked:
            if vector.shape != (size,) or vector.dtype != np.float32:
                raise _fail(game, step, f"seat {seat}'s {name} has shape {vector.shape} {vector.dtype}, "
                                        f"not ({size},) float32")
            if not np.all(np.isfinite(vector)) or np.any(np.abs(vector) > BOUND):
                raise _fail(game, step, f"seat {seat}'s {name} is not finite within +-{BOUND}")
        specs = match.legal_actions(seat)
        mask = codec.mask(specs)
        if seat not in to_act:
            if mask.any():
                raise _fail(game, step, f"seat {seat} is not awaited but its action mask allows {mask.nonzero()}")
            continue
        if not mask.any():
            raise _fail(game, step, f"seat {seat} is awaited but its action mask is empty: the codec cannot "
                                    f"express any of {[s['type'] for s in specs]}")
        for index in np.flatnonzero(mask):
            action = codec.decode(int(index), specs)
            if action is None:
                raise _fail(game, step, f"masked index {index} of seat {seat} decodes to nothing")
            try:
                find_spec(specs, action)
            except IllegalAction as error:
                raise _fail(game, step, f"masked index {index} of seat {seat} decodes to the illegal "
                                        f"{action!r}: {error}") from None
            back = codec.encode(action, specs)
            if back is None or codec.decode(back, specs) != action:
                raise _fail(game, step, f"{action!r} (index {index}) does not encode back to itself")


def _check_time_limit(game: Game, match: Match, step: int) -> None:
    """Every default of the current time limit is legal for its seat, and every awaited seat has one; none is
    a choice only the seat's person may make (`Match.PERSONAL`: an absent person's seat plays its defaults)."""
    limit = match.time_limit()
    if limit is None:
        return
    awaited = set(match.to_act())
    if not awaited <= set(limit.defaults):
        raise _fail(game, step, f"time limit {limit.phase} has no default for seats {sorted(awaited - set(limit.defaults))}")
    for seat, default in limit.defaults.items():
        if seat not in awaited:
            raise _fail(game, step, f"time limit {limit.phase} has a default for seat {seat}, who is not awaited")
        if default.get("type") in match.PERSONAL:
            raise _fail(game, step, f"time limit {limit.phase}: default {default!r} of seat {seat} is its person's own")
        try:
            match.clone().apply(seat, default)
        except IllegalAction as error:
            raise _fail(game, step, f"time limit {limit.phase}: default {default!r} of seat {seat} is refused: "
                                    f"{error}") from None


def _check_shown_action(game: Game, match: Match, actor: int, action: Action, events: list[Event],
                        step: int) -> None:
    """While the match runs, what another seat is shown of an action holds nothing it was not shown by
    the action's events or its own view anyway."""
    if match.shown_action(actor, action, actor) != action:
        raise _fail(game, step, "shown_action hides an action from the seat that took it")
    for viewer in [None, *range(match.seats)]:
        if viewer == actor:
            continue
        shown = match.shown_action(actor, action, viewer)
        if shown is None:  # hidden entirely (UNSEEN_FOREVER)
            continue
        if shown.get("type") != action["type"] or any(shown[k] != action.get(k) for k in shown):
            raise _fail(game, step, f"shown_action({actor}, {action!r}, {viewer}) is not a part of the action")
        if match.is_over or len(shown) == 1:  # the type alone (the usual case) shows nothing more
            continue
        seen = _values([e.data for e in events if e.is_visible_to(viewer)] + [match.view(viewer)])
        for key, value in shown.items():
            if key != "type" and _dump(value) not in seen:
                raise _fail(game, step, f"seat {viewer} is shown {key}={value!r} of seat {actor}'s action, "
                                        f"which nothing else showed it")


def _values(data: Any) -> set[str]:
    """Every value inside a JSON document, dumped (to test whether a value was shown at all)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        found.add(_dump(item))
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _check_witnesses(game: Game, session: Session, actor: int | None, action: Action | None, events: list[Event],
                     before: Mapping[int | None, dict[str, Any]], deadline: Any, step: int) -> None:
    """A step the game calls private (`Match.step_witnesses`) leaves no trace for anyone else: no event
    reaches them, and their views and the time limit are what they would be had only time passed (views
    apart from when they were made: `version` and the game's `VIEW_CLOCK_KEYS`)."""
    match = session.match
    witnesses = match.step_witnesses(actor, action, events)
    if witnesses is None:
        return
    if actor is not None and actor not in witnesses:
        raise _fail(game, step, f"seat {actor}'s private step is not witnessed by seat {actor}")
    stamps = {"version", *match.VIEW_CLOCK_KEYS}
    others = [seat for seat in [None, *range(match.seats)] if seat not in witnesses]
    for seat in others:
        seen = [e.type for e in events if e.is_visible_to(seat)]
        if seen:
            raise _fail(game, step, f"a step witnessed only by {sorted(witnesses)} sent seat {seat} {seen}")

    def content(views: Mapping[int | None, dict[str, Any]], seat: int | None) -> dict[str, Any]:
        return {k: v for k, v in views[seat].items() if k not in stamps}

    after = {seat: match.view(seat) for seat in others}
    changed = [seat for seat in others if _dump(content(before, seat)) != _dump(content(after, seat))]
    if not changed and match.deadline() == deadline:
        return
    # A view may change with time alone (a walker reaches the ballot box): compare with the match as it
    # was before the step, with only its clock moved to the step's time.
    log = session.log
    earlier = Session.replay(game, MatchLog(log.game, log.seats, log.options, log.seed, log.entries[:-1],
                                            bots=log.bots)).match
    earlier._move_clock(log.entries[-1].at)
    if earlier.deadline() != match.deadline():
        raise _fail(game, step, f"a step witnessed only by {sorted(witnesses)} changed the time limit")
    timed = {seat: earlier.view(seat) for seat in changed}
    for seat in changed:
        if _dump(content(timed, seat)) != _dump(content(after, seat)):
            raise _fail(game, step, f"a step witnessed only by {sorted(witnesses)} changed view({seat}): "
                                    f"{_first_difference(content(timed, seat), content(after, seat))}")


def _check_views(game: Game, match: Match, step: int, seed_text: str, rng: random.Random | None,
                 encoder: Encoder | None = None) -> dict[int | None, dict[str, Any]]:
    """Views are JSON-ready, hold no seed, list the legal actions, and (with `rng`) ignore other seats'
    secrets; so do the observations of an `encoder` that builds them from the state. Returns the views
    (serialised and read back: a view may share lists with the state, which the next step changes)."""
    views = {seat: match.view(seat) for seat in [None, *range(match.seats)]}
    copies: dict[int | None, dict[str, Any]] = {}
    for seat, view in views.items():
        text = _dump(view)
        copies[seat] = json.loads(text)
        if copies[seat] != view:
            raise _fail(game, step, f"view({seat}) is not JSON-ready")
        if seed_text in text or str(match.chance.state) in text:
            raise _fail(game, step, f"view({seat}) holds the seed or the random state")
        if seat is not None and view["legal_actions"] != match.legal_actions(seat):
            raise _fail(game, step, f"view({seat}) lists other legal actions than legal_actions()")
    if rng is None:
        return copies
    for owner in [None, *range(match.seats)]:
        other = match.perturb_secrets(owner, random.Random(rng.random()))
        if other is None:
            continue
        for seat in [None, *range(match.seats)]:
            if seat == owner and owner is not None:
                continue
            if _dump(other.view(seat)) != _dump(views[seat]):
                raise _fail(game, step, f"view({seat}) changes with a secret of seat {owner}: "
                                        f"{_first_difference(views[seat], other.view(seat))}")
            if (encoder is not None and encoder.observes_match and seat is not None
                    and not np.array_equal(encoder.observe_match(other, seat), encoder.observe_match(match, seat))):
                raise _fail(game, step, f"seat {seat}'s observation from the match changes with a secret of "
                                        f"seat {owner}")
    return copies


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path or '<root>'}: {a!r} != {b!r}"


def _check_every_legal_accepted(game: Game, match: Match, seat: int, specs: list[ActionSpec], step: int) -> None:
    for spec in specs:
        try:
            actions = enumerate_actions(spec, limit=64)
        except ValueError:
            actions = [sample([spec], random.Random(i)) for i in range(16)]
            first = {"type": spec["type"]} | {n: _edge(p, False) for n, p in spec["params"].items()}
            last = {"type": spec["type"]} | {n: _edge(p, True) for n, p in spec["params"].items()}
            actions += [first, last]
        for action in actions:
            trial = match.clone()
            try:
                trial.apply(seat, action)
            except IllegalAction as error:
                raise _fail(game, step, f"listed action {action!r} was refused: {error}") from None


def _edge(param: dict[str, Any], last: bool) -> Any:
    """A parameter's first or last value: for a sequence, the shortest list of the first values, or
    the longest of the last values, last first."""
    if "choice" in param:
        return param["choice"][-1 if last else 0]
    if "sequence" in param:
        values = param["sequence"]
        return values[::-1][: param["max_len"]] if last else values[: param["min_len"]]
    return param["max" if last else "min"]


def _check_illegal_refused(game: Game, match: Match, seat: int, specs: list[ActionSpec], step: int,
                           rng: random.Random) -> None:
    before = _dump(match.to_json())
    for action in illegal_variants(specs, rng):
        try:
            match.apply(seat, action)
        except IllegalAction as error:
            if not error.en or not error.ja:
                raise _fail(game, step, f"refusal of {action!r} has no reason in both languages") from None
        else:
            raise _fail(game, step, f"illegal action {action!r} was accepted")
        if _dump(match.to_json()) != before:
            raise _fail(game, step, f"refused action {action!r} changed the state")
    for other in range(match.seats):
        if other not in match.to_act():
            try:
                match.apply(other, sample(specs, rng))
            except IllegalAction:
                pass
            else:
                raise _fail(game, step, f"seat {other} acted out of turn")
    if _dump(match.to_json()) != before:
        raise _fail(game, step, "a refused action changed the state")

