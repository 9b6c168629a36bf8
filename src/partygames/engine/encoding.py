"""Fixed-size numeric encodings of a game for learning agents: an observation vector built from one
seat's view (never the match), and an action codec between the legal-action specs and one `Discrete(n)`.

A game declares `Game.encoding`, a callable `(seats, options) -> Encoder`: the sizes may depend on the
table (seat count, options) but never change during a match. `partygames.rl` builds the PettingZoo and
OpenSpiel interfaces on it, and the conformance suite checks every declared encoder at every step.

The action codec is a table of `Move`s, fixed for the table. A move is an action type, parameters with
fixed values and integer parameters given as a fraction of the legal range (a discretisation of large
ranges such as amounts of money). Move i is legal when the current specs hold an action it resolves to;
`decode(i, specs)` is that action, so a masked sample is always a legal action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, product
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from partygames.engine.actions import Action, ActionSpec
from partygames.engine.match import Event, Match
from partygames.engine.options import Options

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

#: Every observation entry lies in [-BOUND, BOUND]: encoders scale their figures to about [-1, 1]
#: (money by the starting money, counts by their maximum) and clip what a match could push further.
BOUND = 100.0
#: Masks an action codec remembers (a table meets some hundreds of distinct offers in a match).
MASK_CACHE = 4096


@dataclass(frozen=True)
class Move:
    """One entry of an action codec: `type`, parameters with `fixed` values, and integer parameters
    `scaled` to a fraction (0 = the spec's min, 1 = its max, rounded down to a step)."""

    type: str
    fixed: Mapping[str, Any] = field(default_factory=dict)
    scaled: Mapping[str, float] = field(default_factory=dict)

    def resolve(self, specs: Sequence[ActionSpec]) -> Action | None:
        """The action this move stands for under `specs`, or None when no spec allows it."""
        for spec in specs:
            if spec["type"] != self.type:
                continue
            params: dict[str, Any] = spec["params"]
            if len(params) != len(self.fixed) + len(self.scaled):
                continue
            action = _resolve_params(params, self.fixed, self.scaled)
            if action is not None:
                action["type"] = self.type
                return action
        return None

    def label(self) -> str:
        """A short name: 'bet_win horse=3 amount=50%'."""
        parts = [self.type, *(f"{k}={v}" for k, v in self.fixed.items()),
                 *(f"{k}={round(100 * f)}%" for k, f in self.scaled.items())]
        return " ".join(parts)


def _resolve_params(params: dict[str, Any], fixed: Mapping[str, Any],
                    scaled: Mapping[str, float]) -> dict[str, Any] | None:
    action: dict[str, Any] = {}
    for name, value in fixed.items():
        param = params.get(name)
        if param is None or not _allows(param, value):
            return None
        action[name] = value
    for name, fraction in scaled.items():
        param = params.get(name)
        if param is None or "min" not in param:
            return None
        lo, hi, step = param["min"], param["max"], param["step"]
        action[name] = lo + int(fraction * ((hi - lo) // step)) * step
    return action


#: The types of plain JSON values (a list or an object never equals one of them).
_PLAIN = frozenset({int, str, bool, float, type(None)})


def _hashable(value: Any) -> bool:
    return type(value) in _PLAIN


def _typed(values: list[Any]) -> frozenset[Any] | None:
    """A choice's values as (type, value) pairs (so that True is not 1), or None when some value is a
    list or an object (checked one by one then)."""
    if not all(type(v) in _PLAIN for v in values):
        return None
    return frozenset((type(v), v) for v in values)


def _typed_item(value: Any) -> tuple[type, Any]:
    return type(value), value


def _allows(param: dict[str, Any], value: Any) -> bool:
    if "choice" in param:
        values = param["choice"]
        try:
            first = values.index(value)  # the first equal value, found in C (a decode at every step)
        except ValueError:
            return False
        return type(values[first]) is type(value) or any(v == value and type(v) is type(value) for v in values)
    if "sequence" in param:
        values = param["sequence"]
        return (type(value) is list and param["min_len"] <= len(value) <= param["max_len"]
                and len(set(value)) == len(value) and all(v in values for v in value))
    return (type(value) is int and param["min"] <= value <= param["max"]
            and (value - param["min"]) % param["step"] == 0)


def _in_sequence(param: dict[str, Any], value: Any, values: frozenset[Any]) -> bool:
    """`_allows` for a sequence parameter whose values are `values`, typed (one set lookup per item, where
    `_allows` searches the list: the Quiz's 120 swaps of two cards among a dozen)."""
    return (type(value) is list and param["min_len"] <= len(value) <= param["max_len"]
            and all(_hashable(v) and (type(v), v) in values for v in value) and len(set(value)) == len(value))


#: A keyed type looks each combination of offered values up while there are at most this many, and
#: selects among its moves with NumPy beyond (a tie-break call: 100 cards by 30 words).
LOOKUPS = 24


class _Keyed(NamedTuple):
    """The moves of a type that all fix the same parameters to plain values (a card; a chair and a seat),
    with the same scaled parameters if any (a horse and an amount)."""

    names: tuple[str, ...]
    scaled: tuple[str, ...]
    table: dict[tuple[Any, ...], list[int]]  # per combination of typed values: the moves fixing it
    codes: tuple[dict[tuple[type, Any], int], ...]  # per name: each typed value's number
    numbers: tuple[npt.NDArray[np.intp], ...]  # per name: each move's value number
    indices: npt.NDArray[np.intp]  # the moves, in the order of `numbers`


class _Listed(NamedTuple):
    """The moves of a type that each fix one parameter, the same, to a list of plain values (the Quiz's
    swaps of two cards, its answers of one or two words), and nothing else."""

    name: str
    codes: dict[tuple[type, Any], int]  # each typed item's number
    items: npt.NDArray[np.intp]  # per move, its items' numbers, padded with len(codes)
    lengths: npt.NDArray[np.intp]
    distinct: npt.NDArray[np.bool_]
    indices: npt.NDArray[np.intp]


class ActionCodec:
    """Legal-action specs <-> indices of one `Discrete(len(moves))` space."""

    def __init__(self, moves: Iterable[Move]) -> None:
        self.moves: tuple[Move, ...] = tuple(moves)
        if not self.moves:
            raise ValueError("an action codec needs at least one move")
        self._by_type: dict[str, list[int]] = {}
        for i, move in enumerate(self.moves):
            self._by_type.setdefault(move.type, []).append(i)
        # Keyed types: their moves are found by their offered values rather than by checking every move
        # (Musical Chairs has 3 n^2 gifts, the Quiz 3,000 tie-break calls).
        self._keyed: dict[str, _Keyed] = {}
        for kind, indices in self._by_type.items():
            names = {tuple(self.moves[i].fixed) for i in indices}
            scaled = {tuple(self.moves[i].scaled) for i in indices}
            if len(names) != 1 or len(scaled) != 1 or not next(iter(names)):
                continue
            keys = [tuple((type(v), v) for v in self.moves[i].fixed.values()) for i in indices]
            if all(_hashable(v) for key in keys for _, v in key):
                table: dict[tuple[Any, ...], list[int]] = {}
                for key, i in zip(keys, indices, strict=True):
                    table.setdefault(key, []).append(i)
                fixed = next(iter(names))
                codes = tuple({typed: n for n, typed in enumerate(dict.fromkeys(key[k] for key in keys))}
                              for k in range(len(fixed)))
                numbers = tuple(np.array([codes[k][key[k]] for key in keys], dtype=np.intp) for k in range(len(fixed)))
                self._keyed[kind] = _Keyed(fixed, next(iter(scaled)), table, codes, numbers,
                                           np.array(indices, dtype=np.intp))
        # Moves fixing a list (the Quiz's swaps of two cards): its length, whether its items are distinct,
        # and its items typed, worked out once.
        self._lists: dict[tuple[int, str], tuple[int, bool, frozenset[Any]] | None] = {
            (i, name): (len(value), len(set(map(_typed_item, value))) == len(value), frozenset(map(_typed_item, value)))
            if all(_hashable(v) for v in value) else None
            for i, move in enumerate(self.moves) for name, value in move.fixed.items() if type(value) is list}
        self._listed: dict[str, _Listed] = {}
        for kind, indices in self._by_type.items():
            fixes = [self.moves[i].fixed for i in indices]
            if any(self.moves[i].scaled or len(f) != 1 for i, f in zip(indices, fixes, strict=True)):
                continue
            param_names = {next(iter(f)) for f in fixes}
            lists = [next(iter(f.values())) for f in fixes]
            if len(param_names) != 1 or not all(type(x) is list and all(type(v) in _PLAIN for v in x) for x in lists):
                continue
            item_codes = {typed: n for n, typed in enumerate(dict.fromkeys(map(_typed_item, chain.from_iterable(lists))))}
            items = np.full((len(lists), max(map(len, lists))), len(item_codes), dtype=np.intp)
            for row, x in enumerate(lists):
                items[row, :len(x)] = [item_codes[_typed_item(v)] for v in x]
            self._listed[kind] = _Listed(
                next(iter(param_names)), item_codes, items, np.array([len(x) for x in lists], dtype=np.intp),
                np.array([len(set(map(_typed_item, x))) == len(x) for x in lists], dtype=np.bool_),
                np.array(indices, dtype=np.intp))
        # Per type, the parameters some move fixes: a range's bounds matter to the mask only for those (a
        # scaled parameter resolves within any range).
        self._bounded: dict[str, frozenset[str]] = {
            kind: frozenset(name for i in indices for name in self.moves[i].fixed)
            for kind, indices in self._by_type.items()}
        self._masks: dict[tuple[Any, ...], Mask] = {}  # per list of spec keys
        self._parts: dict[tuple[Any, ...], npt.NDArray[np.intp]] = {}  # per spec key: the indices it allows
        self._last: tuple[Sequence[ActionSpec], Sequence[ActionSpec]] | None = None

    def __len__(self) -> int:
        return len(self.moves)

    def mask(self, specs: Sequence[ActionSpec]) -> Mask:
        """1 for every index that decodes to a legal action under `specs`, else 0 (a new array each call).

        Masks are remembered by what decides them (`_key`), whole and spec by spec (a mask is the union of
        its specs' shares): a table meets the same offers again and again (a seat's vote, its gifts, the
        bets on a race among ever-changing tickets to cancel), and looking one up costs a fraction of
        working it out."""
        try:
            keys = tuple([self._key(spec) for spec in specs])
            mask = self._masks.get(keys)
        except TypeError:  # a choice of lists or objects: not remembered
            return self._mask(self.prepared(specs))
        if mask is None:
            mask = np.zeros(len(self.moves), dtype=np.int8)
            parts = self._parts
            prepared: Sequence[ActionSpec] | None = None
            for i, key in enumerate(keys):
                part = parts.get(key)
                if part is None:
                    if prepared is None:
                        prepared = self.prepared(specs)
                    part = np.asarray(self._allowed(prepared[i]), dtype=np.intp)
                    if len(parts) >= MASK_CACHE:
                        parts.clear()
                    parts[key] = part
                mask[part] = 1
            if len(self._masks) >= MASK_CACHE:
                self._masks.clear()
            self._masks[keys] = mask
        return mask.copy()

    def _key(self, spec: ActionSpec) -> tuple[Any, ...]:
        """What decides a spec's share of the mask: its type and its parameters' values (with their types:
        True is not 1); a range's bounds only where a move of the type fixes that parameter."""
        kind = spec["type"]
        bounded = self._bounded.get(kind)
        if bounded is None:
            return (kind,)  # no move of this type
        key: list[Any] = [kind]
        for name, param in spec["params"].items():
            values = param.get("choice")
            if values is None:
                values = param.get("sequence")
                if values is not None:
                    key += (name, tuple(values), tuple(map(type, values)), param["min_len"], param["max_len"])
                elif name in bounded:
                    key += (name, None, param["min"], param["max"], param["step"])
                else:
                    key += (name, None)
            else:
                key += (name, tuple(values), tuple(map(type, values)))
        return tuple(key)

    def prepared(self, specs: Sequence[ActionSpec]) -> Sequence[ActionSpec]:
        """`specs` as this codec's moves read them (`_prepare`), kept for the last list seen: a mask and
        then a decode read the same list (`Match.legal_actions` keeps it until the match changes)."""
        if type(self)._prepare is ActionCodec._prepare:
            return specs
        last = self._last
        if last is None or last[0] is not specs:
            last = self._last = (specs, self._prepare(specs))
        return last[1]

    def _prepare(self, specs: Sequence[ActionSpec]) -> Sequence[ActionSpec]:
        """The specs as the moves read them: a codec that names a parameter otherwise (a plan by its first
        chair) rewrites them here, one spec for one, in order, keeping every integer range as it is (`_key`
        reads the specs as they come)."""
        return specs

    def _mask(self, specs: Sequence[ActionSpec]) -> Mask:
        """`mask` worked out (`specs` prepared)."""
        allowed = np.zeros(len(self.moves), dtype=np.int8)
        for spec in specs:
            allowed[np.asarray(self._allowed(spec), dtype=np.intp)] = 1
        return allowed

    def _allowed(self, spec: ActionSpec) -> Sequence[int] | npt.NDArray[np.intp]:
        """The indices one (prepared) spec allows."""
        indices = self._by_type.get(spec["type"])
        if not indices:
            return ()
        params: dict[str, Any] = spec["params"]
        keyed = self._keyed.get(spec["type"])
        if keyed is not None:
            found = self._allowed_keyed(keyed, params)
            if found is not None:
                return found
        listed = self._listed.get(spec["type"])
        if listed is not None:
            param = params.get(listed.name)
            if param is None or len(params) != 1:
                return ()
            if "sequence" in param:
                return self._allowed_listed(listed, param)
        return self._allowed_each(indices, params)

    @staticmethod
    def _allowed_listed(listed: _Listed, param: dict[str, Any]) -> npt.NDArray[np.intp]:
        """The moves of a listed type that a sequence parameter allows: as many distinct items as it asks
        for, each offered (by value and type), selected with NumPy."""
        codes = listed.codes
        offered = np.zeros(len(codes) + 1, dtype=np.bool_)
        offered[[codes[typed] for typed in map(_typed_item, param["sequence"]) if typed in codes]] = True
        offered[len(codes)] = True  # the padding
        lengths = listed.lengths
        allowed = (offered[listed.items].all(axis=1) & listed.distinct
                   & (lengths >= param["min_len"]) & (lengths <= param["max_len"]))
        found: npt.NDArray[np.intp] = listed.indices[allowed]
        return found

    @staticmethod
    def _allowed_keyed(keyed: _Keyed, params: dict[str, Any]) -> Sequence[int] | npt.NDArray[np.intp] | None:
        """The moves of a keyed type that `params` allows: each combination of offered values looked up,
        or, past `LOOKUPS` combinations, the moves whose every value is offered selected with NumPy. None
        when a fixed parameter is not a choice (each move is then checked)."""
        choices = []
        combinations = 1
        for name in keyed.names:
            param = params.get(name)
            if param is None or "choice" not in param:
                return None
            values = [(type(v), v) for v in param["choice"] if type(v) in _PLAIN]  # a list never equals a plain value
            choices.append(values)
            combinations *= len(values)
        scaled = keyed.scaled
        if len(params) != len(keyed.names) + len(scaled) or not all(name in params and "min" in params[name]
                                                                    for name in scaled):
            return ()  # no move of this type fits the spec's parameters
        if combinations <= LOOKUPS:
            table = keyed.table
            return [i for key in product(*choices) for i in table.get(key, ())]
        selected: npt.NDArray[np.bool_] | None = None
        for values, codes, numbers in zip(choices, keyed.codes, keyed.numbers, strict=True):
            offered = np.zeros(len(codes) + 1, dtype=np.bool_)  # the last: values no move fixes
            offered[[codes.get(typed, len(codes)) for typed in values]] = True
            offered[len(codes)] = False
            chosen = offered[numbers]
            selected = chosen if selected is None else selected & chosen
        assert selected is not None
        return keyed.indices[selected]

    def _allowed_each(self, indices: list[int], params: dict[str, Any]) -> list[int]:
        """The moves among `indices` that `params` allows, checking each."""
        moves, lists = self.moves, self._lists
        choices: dict[str, frozenset[Any] | None] = {}  # per choice or sequence parameter: its values, typed
        allowed = []
        for i in indices:
            move = moves[i]
            if len(params) != len(move.fixed) + len(move.scaled):
                continue
            for name, value in move.fixed.items():
                param = params.get(name)
                if param is None:
                    break
                if name not in choices:
                    listed = param.get("choice", param.get("sequence"))
                    choices[name] = None if listed is None else _typed(listed)
                values = choices[name]
                if values is None:
                    if not _allows(param, value):
                        break
                elif "sequence" in param:
                    known = lists.get((i, name))
                    if known is None:
                        if not _in_sequence(param, value, values):
                            break
                    elif not (known[1] and param["min_len"] <= known[0] <= param["max_len"] and known[2] <= values):
                        break
                elif (type(value), value) not in values if _hashable(value) else not _allows(param, value):
                    break
            else:
                if all(name in params and "min" in params[name] for name in move.scaled):
                    allowed.append(i)
        return allowed

    def decode(self, index: int, specs: Sequence[ActionSpec]) -> Action | None:
        """The action index `index` stands for under `specs` (None: not legal now)."""
        return self.moves[int(index)].resolve(self.prepared(specs))

    def encode(self, action: Mapping[str, Any], specs: Sequence[ActionSpec]) -> int | None:
        """An index that decodes to exactly `action` under `specs` (None: the codec cannot express it,
        e.g. an amount between two of its levels)."""
        for i in self._by_type.get(str(action.get("type")), ()):
            if self.moves[i].resolve(specs) == dict(action):
                return i
        return None


    def nearest(self, action: Mapping[str, Any], specs: Sequence[ActionSpec]) -> int | None:
        """The legal index closest to `action`: itself when the codec expresses it, else one of the same
        type whose integer parameters are nearest (for a bot that chose an amount between two levels)."""
        exact = self.encode(action, specs)
        if exact is not None:
            return exact
        best: tuple[float, int] | None = None
        for i in self._by_type.get(str(action.get("type")), ()):
            decoded = self.moves[i].resolve(specs)
            if decoded is None:
                continue
            distance = 0.0
            for name, value in decoded.items():
                other = action.get(name)
                if type(value) is int and type(other) is int:
                    distance += abs(value - other)
                elif value != other:
                    distance += float("inf")
            if best is None or distance < best[0]:
                best = (distance, i)
        return None if best is None or best[0] == float("inf") else best[1]


@dataclass(frozen=True)
class Layout:
    """The named parts of an observation vector, in order: `(name, size)`."""

    parts: tuple[tuple[str, int], ...]

    @cached_property
    def size(self) -> int:
        return sum(size for _, size in self.parts)

    @cached_property
    def names(self) -> list[str]:
        return [name for name, _ in self.parts]

    def slices(self) -> dict[str, slice]:
        out, start = {}, 0
        for name, size in self.parts:
            out[name] = slice(start, start + size)
            start += size
        return out

    def split(self, vector: Vector) -> dict[str, Vector]:
        """The vector cut into its named parts (for reading and debugging)."""
        return {name: vector[part] for name, part in self.slices().items()}


class Writer:
    """Builds one observation in layout order; `done()` checks that every part was written, in order, at
    its size (checked once at the end: this runs at every step of every environment).

    Values gather in Python lists and reach NumPy in one conversion per run of dense parts (a slice
    assignment per part costs about as much as a whole run's), and the hot positions in one indexed
    assignment: an observation is a few hundred floats, made at every step."""

    __slots__ = ("buffer", "ends", "hot", "layout", "names", "run", "start")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.buffer = np.zeros(layout.size, dtype=np.float32)
        self.run: list[float] = []  # the values of the dense parts since `start`, not yet in the buffer
        self.start = 0
        self.hot: list[int] = []  # positions set to 1 by put_hot, not yet in the buffer
        self.names: list[str] = []
        self.ends: list[int] = []

    def put(self, name: str, values: Sequence[float]) -> None:
        """The next part, value by value."""
        run = self.run
        run += values
        self.names.append(name)
        self.ends.append(self.start + len(run))

    def put_hot(self, name: str, indices: Iterable[int], size: int) -> None:
        """The next part, `size` long: 1 at each of `indices`, else 0 (a set of cards, a seat)."""
        self._flush()
        start, hot = self.start, self.hot
        for i in indices:
            if not 0 <= i < size:
                raise ValueError(f"observation part {name!r}: index {i} outside its {size} values")
            hot.append(start + i)
        self.start = start + size
        self.names.append(name)
        self.ends.append(self.start)

    def _flush(self) -> None:
        """The dense run into the buffer (left out when it overflows: `done` then explains)."""
        run = self.run
        if run:
            end = self.start + len(run)
            if end <= len(self.buffer):
                self.buffer[self.start:end] = run
            self.start, self.run = end, []

    def done(self) -> Vector:
        ends = self.ends
        if (ends[-1] if ends else 0) != self.layout.size or self.names != self.layout.names:
            self._explain()
        self._flush()
        buffer = self.buffer
        if self.hot:
            buffer[self.hot] = 1.0
            self.hot = []
        return buffer.clip(-BOUND, BOUND, out=buffer)

    def _explain(self) -> None:
        start = 0
        for i, (expected, size) in enumerate(self.layout.parts):
            if i >= len(self.names):
                raise ValueError(f"observation part {expected!r} was not written")
            if self.names[i] != expected:
                raise ValueError(f"observation part {self.names[i]!r} written where {expected!r} belongs")
            if self.ends[i] - start != size:
                raise ValueError(f"observation part {expected!r} has {self.ends[i] - start} values, not {size}")
            start = self.ends[i]
        raise ValueError(f"observation parts written after the last one: {self.names[len(self.layout.parts):]}")


def as_vector(values: list[float], layout: Layout) -> Vector:
    """An observation built as one list (`Encoder.observe_match`): its size checked against `layout`, as
    float32 clipped to +-BOUND, like `Writer.done()`."""
    if len(values) != layout.size:
        raise ValueError(f"observation has {len(values)} values, not {layout.size}")
    vector = np.array(values, dtype=np.float32)
    return vector.clip(-BOUND, BOUND, out=vector)


def sparse_vector(layout: Layout, runs: Iterable[tuple[int, int, Sequence[float]]], hot: Sequence[int]) -> Vector:
    """An observation mostly of zeros (`Encoder.observe_match` of a layout with large one-hot parts: cards,
    words), built without a list of every entry: each `(start, stop, values)` run written in place (its
    length checked), 1 at each `hot` position, as float32 clipped to +-BOUND, like `as_vector`."""
    vector = np.zeros(layout.size, dtype=np.float32)
    for start, stop, values in runs:
        vector[start:stop] = values
    vector[list(hot)] = 1.0
    return vector.clip(-BOUND, BOUND, out=vector)


def one_hot(index: int | None, size: int) -> list[float]:
    """`size` zeros with a 1 at `index` (none for None)."""
    values = [0.0] * size
    if index is not None:
        values[index] = 1.0
    return values


def many_hot(indices: Iterable[int], size: int) -> list[float]:
    values = [0.0] * size
    for i in indices:
        values[i] = 1.0
    return values


class Encoder:
    """A game's encoding for one table: `layout` and `observe(view)`, and the action `codec`.

    `information_state(view)`, laid out by `information_layout`, is the observation unless a game
    overrides both: a game whose history matters (the ledger of past small games) encodes the whole
    history its view carries there, and keeps the observation to the present. A view holds everything
    its seat may know (docs/engine.md), the history it remembers included, unless that history must stay
    out of the views (a quiz's seen cards): then `recall(seat)` makes a `Recall` that whoever steps the
    match keeps, and `recalled_state(view, recall)` encodes it.

    `observe_match(match, seat)` is `observe(match.view(seat))`; a game may build the same vector straight
    from the state, skipping the view (the environments call it at every step). The conformance suite then
    checks at every deep step that it equals the view's encoding for every seat, and that another seat's
    secrets (`Match.perturb_secrets`) do not change it.
    """

    layout: Layout
    codec: ActionCodec

    @property
    def information_layout(self) -> Layout:
        return self.layout

    def __init__(self, seats: int, options: Options) -> None:
        self.seats = seats
        self.options = options

    @property
    def size(self) -> int:
        return self.layout.size

    def observe(self, view: Mapping[str, Any]) -> Vector:
        """The seat's view (`Match.view(seat)`) as a vector of `layout.size` float32 in [-BOUND, BOUND]."""
        raise NotImplementedError

    def information_state(self, view: Mapping[str, Any]) -> Vector:
        return self.observe(view)

    def observe_match(self, match: Match, seat: int) -> Vector:
        """`observe(match.view(seat))`, the same vector whichever way a game builds it."""
        return self.observe(match.view(seat))

    @property
    def observes_match(self) -> bool:
        """Whether this encoder builds observations from the state itself (see the class docstring)."""
        return type(self).observe_match is not Encoder.observe_match

    def recall(self, seat: int | None) -> Recall | None:
        """A new record of what `seat` (None: a spectator) is shown, for a game whose information state
        needs a history its views do not carry (the Quiz: what a seat saw and no longer sees); None for
        every game whose views carry their history."""
        return None

    def recalled_state(self, view: Mapping[str, Any], recall: Recall | None) -> Vector:
        """The information state of `view` for a seat whose record is `recall` (made by `recall(seat)`
        and kept by whoever steps the match); `information_state(view)` for a game without records."""
        return self.information_state(view)


class Recall(ABC):
    """What one seat was shown over a match, for a game whose views do not carry it (a view goes to the
    seat's browser, and must not hand a player notes the rules forbid). Whoever steps the match (the
    research adapters) keeps one per seat: `see` the seat's first view, then `hear` every event the
    seat may see (`Event.is_visible_to`), in order; nothing here reads the match. Its attributes are
    plain data, so it copies and pickles with the state that holds it (OpenSpiel's clone, serialize).
    """

    @abstractmethod
    def see(self, view: Mapping[str, Any]) -> None:
        """What the view shows now (the match's first view: a table seen before any event)."""

    @abstractmethod
    def hear(self, event: Event) -> None:
        """One event the seat may see."""

    @abstractmethod
    def to_json(self) -> Any:
        """The record as JSON-ready data (OpenSpiel's information state string shows it)."""


Recalls = dict[int | None, Recall]
"""Each viewer's record (a seat, or None for the public) of what it was shown, for a game whose information
state needs one (`Encoder.recall`: the Quiz); empty for every other game."""


def start_recalls(encoder: Encoder, match: Match, viewers: Iterable[int | None]) -> Recalls:
    """A record per viewer, begun from its view now (the match's first view, or where a search starts)."""
    recalls: Recalls = {}
    for viewer in viewers:
        recall = encoder.recall(viewer)
        if recall is None:
            return {}
        recall.see(match.view(viewer))
        recalls[viewer] = recall
    return recalls


def hear(recalls: Recalls, events: Sequence[Event]) -> None:
    """Feeds each record the events its viewer may see, in order."""
    for viewer, recall in recalls.items():
        for event in events:
            if event.is_visible_to(viewer):
                recall.hear(event)


EncoderFactory = Callable[[int, Options], Encoder]
"""What `Game.encoding` holds: `(seats, options) -> Encoder` (usually the Encoder subclass itself)."""
