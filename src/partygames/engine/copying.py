"""Copying a match's JSON-ready state without JSON: what `Match.clone()` is made of.

A state attribute is an atom (int, float, str, bool, None: shared, as it cannot change) or a container
of them (lists and str-keyed dicts, nested). `copy_json` copies a container at every depth, the way a
JSON round trip would (no list or dict is shared with the original), several times faster in CPython
than `json.loads(json.dumps(...))`. A game may say more of an attribute's shape in `Match.CLONE_SHAPES`
(`Shape`), so that `clone()` copies it with less work; the conformance suite checks every declaration at
every step of its playouts.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Shape(StrEnum):
    """What a game promises about one state attribute, for `Match.clone()` (`Match.CLONE_SHAPES`)."""

    FLAT = "flat"
    """A list or dict of atoms (ints, floats, strings, bools, None): copied one level deep."""
    ROWS = "rows"
    """A list or dict whose items are atoms or lists and dicts of atoms: copied two levels deep."""
    LOG = "log"
    """A list or dict whose items are never changed in place once in it (a public record: the game
    appends, removes or replaces items, never edits one): copied one level deep, the items shared.
    Whoever changes a clone must replace such an item, never change it in place."""
    SHARED = "shared"
    """Never changed in place: the game only ever replaces the whole value (a record of the last race),
    so the clone shares it. Whoever changes a clone (a determinisation, `perturb_secrets`) must also
    replace it, never change it in place."""


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON-ready list or dict (atoms inside are shared: they cannot change)."""
    out = value.copy()
    if type(value) is list:
        for i, item in enumerate(value):
            kind = type(item)
            if kind is list or kind is dict:
                out[i] = copy_json(item)
    else:
        for key, item in value.items():
            kind = type(item)
            if kind is list or kind is dict:
                out[key] = copy_json(item)
    return out


def copy_rows(value: Any) -> Any:
    """A copy of a `Shape.ROWS` value: its items that are lists or dicts are copied one level."""
    if type(value) is list:
        return [item.copy() if type(item) is list or type(item) is dict else item for item in value]
    return {key: item.copy() if type(item) is list or type(item) is dict else item for key, item in value.items()}


def is_atom(value: Any) -> bool:
    kind = type(value)
    return value is None or kind is int or kind is str or kind is bool or kind is float


def _items(value: Any) -> Any:
    return value if type(value) is list else value.values()


def has_shape(value: Any, shape: Shape) -> bool:
    """Whether `value` is a list or dict of the declared shape (SHARED: any JSON-ready container)."""
    if type(value) is not list and type(value) is not dict:
        return False
    if shape is Shape.FLAT:
        return all(is_atom(item) for item in _items(value))
    if shape is Shape.ROWS:
        return all(is_atom(item) or ((type(item) is list or type(item) is dict) and has_shape(item, Shape.FLAT))
                   for item in _items(value))
    return True
