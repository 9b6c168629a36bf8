"""Machine-readable descriptions of legal actions, and checking an action against them.

An action is a JSON object: ``{"type": "bet_win", "horse": 3, "amount": 500}``. A seat's legal
actions are a list of *action specs*, each a type plus the parameters it takes::

    {"type": "bet_win", "params": {"horse": {"choice": [1, 2, 3, 4, 5, 6]},
                                    "amount": {"min": 100, "max": 9000, "step": 100}}}

Every combination of parameter values a spec allows is legal, and nothing else is: a bot or UI that
reads only the specs can produce every legal action and no illegal one. Parameters are either an
integer range (``min``/``max``/``step``) or a choice from a list of JSON values.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from partygames.engine.errors import IllegalAction

ActionSpec = dict[str, Any]
Action = dict[str, Any]

MAX_ACTION_KEYS = 16


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
            if not _in_choice(value, param["choice"]):
                raise IllegalAction(
                    f"{name!r} must be one of {param['choice']!r}.",
                    f"「{name}」は {param['choice']!r} のいずれかです。",
                    code="action/out_of_range",
                )
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


def _in_choice(value: Any, values: list[Any]) -> bool:
    kind = type(value)
    if kind is str:
        return value in values
    # True == 1 in Python (and [True] == [1]): never let a bool stand for a number or the reverse.
    if kind is int or kind is bool or kind is float:
        for v in values:  # noqa: SIM110 - a plain loop: any() with a generator is slower on this hot path
            if v == value and type(v) is kind:
                return True
        return False
    return value in values and any(type(v) is kind and json.dumps(v) == json.dumps(value) for v in values)


def sample(specs: Sequence[ActionSpec], rng: random.Random) -> Action:
    """A uniformly random spec, then uniformly random parameter values within it."""
    # int(random() * n) rather than randrange(n): several times faster, and its bias (below 2**-40 for
    # any n here) is of no consequence to a random bot.
    draw = rng.random
    chosen = specs[int(draw() * len(specs))]
    action: Action = {"type": chosen["type"]}
    for name, param in chosen["params"].items():
        if "choice" in param:
            values = param["choice"]
            action[name] = values[int(draw() * len(values))]
        else:
            count = (param["max"] - param["min"]) // param["step"] + 1
            action[name] = param["min"] + param["step"] * int(draw() * count)
    return action


def enumerate_actions(candidate: ActionSpec, limit: int = 10_000) -> list[Action]:
    """Every action a spec allows, when there are at most `limit` of them (else ValueError)."""
    actions: list[Action] = [{"type": candidate["type"]}]
    for name, param in candidate["params"].items():
        if "choice" in param:
            values = param["choice"]
        else:
            values = range(param["min"], param["max"] + 1, param["step"])  # sized before it is built
        if len(actions) * len(values) > limit:
            raise ValueError(f"{candidate['type']} allows more than {limit} actions")
        actions = [{**a, name: v} for a in actions for v in values]
    return actions
