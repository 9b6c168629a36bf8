"""Machine-readable descriptions of legal actions, and checking an action against them.

An action is a JSON object: ``{"type": "bet_win", "horse": 3, "amount": 500}``. A seat's legal
actions are a list of *action specs*, each a type plus the parameters it takes::

    {"type": "bet_win", "params": {"horse": {"choice": [1, 2, 3, 4, 5, 6]},
                                    "amount": {"min": 100, "max": 9000, "step": 100}}}

Every combination of parameter values a spec allows is legal, and nothing else is: a bot or UI that
reads only the specs can produce every legal action and no illegal one. A parameter is one of three kinds:

- an integer range, ``{"min": 100, "max": 9000, "step": 100}`` (`int_range`);
- a choice of one JSON value from a list, ``{"choice": [1, 2, 3]}`` (`choice`);
- an ordered list of distinct values from a list, ``{"sequence": [0, 1, 2, 3], "min_len": 1, "max_len": 3}``
  (`sequence`): the action holds a JSON list such as ``[2, 0, 3]``, every order and every length from
  min_len to max_len being legal.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from partygames.engine.errors import IllegalAction

ActionSpec = dict[str, Any]
Action = dict[str, Any]

MAX_ACTION_KEYS = 16
# The longest list a sequence parameter may take: the server refuses frames with longer lists.
MAX_SEQUENCE_LEN = 16


def int_range(min: int, max: int, step: int = 1) -> dict[str, int]:
    """An integer parameter: min, min+step, ..., up to max."""
    if step < 1 or max < min or (max - min) % step:
        raise ValueError(f"bad range min={min} max={max} step={step}")
    return {"min": min, "max": max, "step": step}


def choice(values: Sequence[Any]) -> dict[str, list[Any]]:
    """A parameter chosen from a list of JSON values."""
    if not values:
        raise ValueError("a choice needs at least one value")
    return {"choice": list(values)}


def sequence(values: Sequence[int | str], min_len: int = 1, max_len: int | None = None) -> dict[str, Any]:
    """A parameter that is an ordered list of distinct values taken from `values` (whole numbers or
    strings), at least `min_len` and at most `max_len` long (default: as many as there are values).
    Every order and every length in between is legal."""
    values = list(values)
    if not values:
        raise ValueError("a sequence needs at least one value")
    if any(type(v) is not int and type(v) is not str for v in values):
        raise ValueError(f"sequence values must be whole numbers or strings: {values!r}")
    if len(set(values)) != len(values):
        raise ValueError(f"sequence values must be distinct: {values!r}")
    longest = len(values) if max_len is None else max_len
    if not 0 <= min_len <= longest or not 1 <= longest <= len(values):
        raise ValueError(f"bad sequence lengths min_len={min_len} max_len={longest} for {len(values)} values")
    if longest > MAX_SEQUENCE_LEN:
        raise ValueError(f"a sequence may be at most {MAX_SEQUENCE_LEN} long (max_len={longest}): give a smaller max_len")
    return {"sequence": values, "min_len": min_len, "max_len": longest}


def spec(type: str, **params: dict[str, Any]) -> ActionSpec:
    """An action spec with the given parameters."""
    return {"type": type, "params": params}


def find_spec(specs: Sequence[ActionSpec], action: Mapping[str, Any]) -> ActionSpec:
    """Checks an action against a seat's legal specs; returns the matching spec or raises IllegalAction."""
    if type(action) is not dict and not isinstance(action, Mapping):  # the ABC check is slow: dicts first
        raise IllegalAction("An action must be a JSON object.", "アクションは JSON オブジェクトで指定してください。",
                            code="action/malformed")
    if len(action) > MAX_ACTION_KEYS:
        raise IllegalAction("The action has too many fields.", "アクションの項目が多すぎます。", code="action/malformed")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalAction('The action needs a "type".', "アクションに「type」がありません。", code="action/malformed")
    reason: IllegalAction | None = None
    for candidate in specs:
        if candidate["type"] == kind:
            try:
                _check_params(candidate, action)
                return candidate
            except IllegalAction as error:
                reason = error
    if reason is not None:
        raise reason
    allowed = ", ".join(sorted({s["type"] for s in specs})) or "none"
    raise IllegalAction(
        f"{kind[:40]!r} is not allowed now (allowed: {allowed}).",
        f"今は「{kind[:40]}」はできません(可能: {allowed})。",
        code="action/not_allowed",
    )


def _check_params(candidate: ActionSpec, action: Mapping[str, Any]) -> None:
    params: dict[str, Any] = candidate["params"]
    # With exactly one key per parameter plus "type", the loop below finding every parameter proves
    # there is no unknown field; look for one only when the count is off.
    if len(action) != len(params) + 1:
        extra = [k for k in action if k != "type" and k not in params]
        if extra:
            name = str(extra[0])[:40]
            raise IllegalAction(f"Unknown field {name!r}.", f"不明な項目「{name}」です。", code="action/malformed")
    for name, param in params.items():
        if name not in action:
            raise IllegalAction(f"Missing {name!r}.", f"「{name}」が指定されていません。", code="action/malformed")
        value = action[name]
        if "choice" in param:
            # A string is looked up at once (most choices are cards, moves or seats' names): no call.
            if not (value in param["choice"] if type(value) is str else _in_choice(value, param["choice"])):
                raise IllegalAction(
                    f"{name!r} must be one of {param['choice']!r}.",
                    f"「{name}」は {param['choice']!r} のいずれかです。",
                    code="action/out_of_range",
                )
        elif "sequence" in param:
            _check_sequence(name, value, param)
        else:
            lo, hi, step = param["min"], param["max"], param["step"]
            if type(value) is not int:  # bool is a subclass of int and is refused here too
                raise IllegalAction(f"{name!r} must be a whole number.", f"「{name}」は整数で指定してください。",
                                    code="action/malformed")
            if not lo <= value <= hi or (value - lo) % step:
                step_en = f" in steps of {step}" if step > 1 else ""
                step_ja = f"({step} 刻み)" if step > 1 else ""
                raise IllegalAction(
                    f"{name!r} must be between {lo} and {hi}{step_en}.",
                    f"「{name}」は {lo} 以上 {hi} 以下{step_ja}で指定してください。",
                    code="action/out_of_range",
                )


def _check_sequence(name: str, value: Any, param: dict[str, Any]) -> None:
    if type(value) is not list:
        raise IllegalAction(f"{name!r} must be a list of choices, in order.",
                            f"「{name}」は選択肢を順に並べたリストで指定してください。", code="action/malformed")
    lo, hi = param["min_len"], param["max_len"]
    if not lo <= len(value) <= hi:  # before looking inside: a huge list costs nothing to refuse
        count_en = f"exactly {lo}" if lo == hi else f"{lo} to {hi}"
        count_ja = f"{lo} 個" if lo == hi else f"{lo}〜{hi} 個"
        raise IllegalAction(
            f"{name!r} must list {count_en} choices (this one lists {len(value)}).",
            f"「{name}」には選択肢を {count_ja}並べてください(指定は {len(value)} 個)。",
            code="action/out_of_range",
        )
    values = param["sequence"]
    seen: set[int | str] = set()
    for position, item in enumerate(value, 1):
        # The type test first: True == 1 and 1.0 == 1 in Python, and neither may stand for 1 here.
        if (type(item) is not int and type(item) is not str) or item not in values:
            raise IllegalAction(
                f"Item {position} of {name!r} ({_short(item)}) is not one of {values!r}.",
                f"「{name}」の {position} 番目({_short(item)})は {values!r} のいずれでもありません。",
                code="action/out_of_range",
            )
        if item in seen:
            raise IllegalAction(
                f"{name!r} lists {_short(item)} twice: each choice may appear only once.",
                f"「{name}」に {_short(item)} が 2 回あります。同じ選択肢は 1 回しか選べません。",
                code="action/out_of_range",
            )
        seen.add(item)


def _short(value: Any) -> str:
    """A value for a refusal message: short, and never costly to write out (a list is not)."""
    if type(value) is str:
        return repr(value[:40] + ("…" if len(value) > 40 else ""))
    if type(value) is int:
        return repr(value) if value.bit_length() <= 64 else "…"  # a huge int is slow to print, or refused
    if value is None or type(value) is bool or type(value) is float:
        return repr(value)
    return "[…]" if isinstance(value, list) else "{…}" if isinstance(value, dict) else type(value).__name__


def _in_choice(value: Any, values: list[Any]) -> bool:
    kind = type(value)
    if kind is str:
        return value in values
    # True == 1 in Python (and [True] == [1]): never let a bool stand for a number or the reverse.
    if kind is int or kind is bool or kind is float:
        try:
            first = values.index(value)  # the first equal value, found in C
        except ValueError:
            return False
        if type(values[first]) is kind:  # the usual case: nothing else to look at
            return True
        for v in values:  # noqa: SIM110 - a plain loop: any() with a generator is slower on this hot path
            if v == value and type(v) is kind:
                return True
        return False
    return value in values and any(type(v) is kind and json.dumps(v) == json.dumps(value) for v in values)


def sample(specs: Sequence[ActionSpec], rng: random.Random) -> Action:
    """A uniformly random spec, then uniformly random parameter values within it (for a sequence, every
    legal list is equally likely, so longer lists, having more orders, are drawn more often)."""
    # int(random() * n) rather than randrange(n): several times faster, and its bias (below 2**-40 for
    # any n here) is of no consequence to a random bot.
    draw = rng.random
    chosen = specs[int(draw() * len(specs))]
    params = chosen["params"]
    if not params:  # many specs take nothing (done, pass, press): no loop to set up
        return {"type": chosen["type"]}
    action: Action = {"type": chosen["type"]}
    for name, param in params.items():
        if "choice" in param:
            values = param["choice"]
            action[name] = values[int(draw() * len(values))]
        elif "sequence" in param:
            action[name] = _sample_sequence(param, draw)
        else:
            count = (param["max"] - param["min"]) // param["step"] + 1
            action[name] = param["min"] + param["step"] * int(draw() * count)
    return action


def _sample_sequence(param: dict[str, Any], draw: Callable[[], float]) -> list[Any]:
    """A uniformly random legal list: a length weighted by how many lists have it, then a uniformly
    random ordered pick of that many values (a partial Fisher-Yates shuffle)."""
    values, lo, hi = param["sequence"], param["min_len"], param["max_len"]
    n = len(values)
    counts, total = _length_counts(n, lo, hi)
    pick = draw() * total
    length = hi
    for k, count in enumerate(counts, lo):
        if pick < count:
            length = k
            break
        pick -= count
    pool = list(values)
    for i in range(length):
        j = i + int(draw() * (n - i))
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:length]


@functools.cache
def _length_counts(n: int, lo: int, hi: int) -> tuple[tuple[int, ...], int]:
    """How many lists of each length lo..hi a sequence of n values allows, and their sum."""
    counts = tuple(math.perm(n, k) for k in range(lo, hi + 1))
    return counts, sum(counts)


def param_size(param: dict[str, Any]) -> int:
    """How many values a parameter allows."""
    if "choice" in param:
        return len(param["choice"])
    if "sequence" in param:
        n = len(param["sequence"])
        return sum(math.perm(n, k) for k in range(param["min_len"], param["max_len"] + 1))
    return int((param["max"] - param["min"]) // param["step"]) + 1


def enumerate_actions(candidate: ActionSpec, limit: int = 10_000) -> list[Action]:
    """Every action a spec allows, when there are at most `limit` of them (else ValueError)."""
    actions: list[Action] = [{"type": candidate["type"]}]
    for name, param in candidate["params"].items():
        if len(actions) * param_size(param) > limit:  # sized before it is built
            raise ValueError(f"{candidate['type']} allows more than {limit} actions")
        if "sequence" in param:
            orders = [order for k in range(param["min_len"], param["max_len"] + 1)
                      for order in itertools.permutations(param["sequence"], k)]
            actions = [{**a, name: list(order)} for a in actions for order in orders]  # a list of its own each
            continue
        values = param["choice"] if "choice" in param else range(param["min"], param["max"] + 1, param["step"])
        actions = [{**a, name: v} for a in actions for v in values]
    return actions
