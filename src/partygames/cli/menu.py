"""Menus the terminal player answers by typing a key.

A choice keeps the key the screen already shows for it: a word's number in the word list, a gate, a chair,
a pair of gates ("5-6"). What the screen names rather than numbers (a person, a ticket, a card in the hand)
is keyed by its place in the menu, from 1. An action type keeps its key through a turn, and from round to
round where the game's terminal fixes it (`ActionKeys`), so that a key typed from memory never does
something else after the menu changed under it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.markup import escape
from rich.table import Table
from rich.text import Text as RichText

#: Menus this long are laid out in columns (read down, then across), so that a list of 30 words takes a
#: few lines, not 30; menus of short words already from `SHORT_COLUMNS_FROM` lines.
COLUMNS_FROM = 13
SHORT_COLUMNS_FROM = 7
SHORT = 20


def normal(typed: str) -> str:
    """A key as typed, compared: full-width characters as ASCII, any case, no spaces ("５－６" is "5-6")."""
    return "".join(unicodedata.normalize("NFKC", typed).casefold().split())


@dataclass(frozen=True)
class Choice:
    """One line of a menu: the key typed, the words read, the value it stands for, and other spellings of
    the key that are accepted ("6-5" for the pair "5-6")."""

    key: str
    text: str
    value: Any = None
    aliases: tuple[str, ...] = ()


class Menu:
    """The choices, rendered one per line ("  17) violin"), or in columns when many; `find` reads a key."""

    def __init__(self, choices: Iterable[Choice]) -> None:
        self.choices = list(choices)
        self._by_key: dict[str, Choice] = {}
        for choice in self.choices:
            if normal(choice.key) in self._by_key:
                raise ValueError(f"two choices share the key {choice.key!r}")
            self._by_key[normal(choice.key)] = choice
        for choice in self.choices:
            for alias in choice.aliases:
                self._by_key.setdefault(normal(alias), choice)

    def find(self, typed: str) -> Choice | None:
        """The choice whose key (or another spelling of it) was typed; None if there is none."""
        return self._by_key.get(normal(typed))

    @property
    def keys(self) -> list[str]:
        return [choice.key for choice in self.choices]

    def hint(self) -> str:
        """The keys in a prompt: "1-4" for a run of numbers, else "1, 3, 4", or the first and last of many."""
        return keys_hint(self.keys)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = [RichText.from_markup(f"  [bold]{escape(c.key)}[/]) {escape(c.text)}") for c in self.choices]
        short = all(cell_len(line.plain) <= SHORT for line in lines)
        if len(lines) < (SHORT_COLUMNS_FROM if short else COLUMNS_FROM):
            yield from lines
            return
        # As many columns as fit, filled down then across (Rich's Columns balances them unevenly).
        width = max(cell_len(line.plain) for line in lines) + 2
        columns = max(1, min(len(lines), (options.max_width + 2) // width))
        rows = -(-len(lines) // columns)
        columns = -(-len(lines) // rows)
        grid = Table.grid(padding=(0, 2, 0, 0))
        for _ in range(columns):
            grid.add_column(no_wrap=True)
        for row in range(rows):
            grid.add_row(*(lines[c * rows + row] if c * rows + row < len(lines) else "" for c in range(columns)))
        yield grid


def keys_hint(keys: Sequence[str]) -> str:
    """How a prompt names the keys it takes: a run of whole numbers as "0-29", a few keys one by one; keys
    of a letter and a number by their runs ("1-3, 5, o2-o12")."""
    if all(key.isdecimal() for key in keys):
        numbers = [int(key) for key in keys]
        if numbers == list(range(numbers[0], numbers[0] + len(numbers))) and len(numbers) > 2:
            return f"{numbers[0]}-{numbers[-1]}"
    spelled = [re.fullmatch(r"([a-z]*)(\d*)", key) for key in keys]
    if len(keys) > 12 and all(spelled):
        groups: dict[str, list[int]] = {}
        runs = []
        for match in spelled:
            assert match is not None
            if match[2]:
                groups.setdefault(match[1], []).append(int(match[2]))
        for prefix, numbers in groups.items():
            start = previous = numbers[0]
            for number in [*numbers[1:], None]:
                if number is not None and number == previous + 1:
                    previous = number
                    continue
                runs.append(f"{prefix}{start}" + (f"-{prefix}{previous}" if previous != start else ""))
                if number is not None:
                    start = previous = number
        return ", ".join([*runs, *(m[1] for m in spelled if m is not None and not m[2])])
    if len(keys) <= 12:
        return ", ".join(keys)
    return f"{keys[0]} … {keys[-1]}"


class ActionKeys:
    """Stable keys for a seat's action types. A type the game's terminal gives a fixed key (`ACTION_KEYS`:
    the same kind of decision has the same key in every round, whatever else is offered beside it) has
    that key; any other keeps its number while the scope (the view's phase) lasts: those on screen when a
    scope begins are numbered after the fixed keys in the game's order, and one that appears later takes
    the next free number."""

    def __init__(self, fixed: Mapping[str, str] | None = None) -> None:
        self._fixed = dict(fixed or {})
        # Numbers of unlisted types start above every fixed number, so that the two never meet.
        self._first = max((int(key) for key in self._fixed.values() if key.isdecimal()), default=0)
        self._scope: Hashable = object()
        self._keys: dict[str, int] = {}

    def keys(self, scope: Hashable, types: Sequence[str]) -> dict[str, str]:
        """Each of `types` with its key within `scope`."""
        if scope != self._scope:
            self._scope, self._keys = scope, {}
        keys: dict[str, str] = {}
        for kind in types:
            fixed = self._fixed.get(kind)
            if fixed is not None and fixed not in keys.values():  # two fixed keys met: the later is numbered
                keys[kind] = fixed
        for kind in types:
            if kind in keys:
                continue
            if kind not in self._keys:
                self._keys[kind] = max(self._keys.values(), default=self._first) + 1
            keys[kind] = str(self._keys[kind])
        return {kind: keys[kind] for kind in types}


def key_order(key: str) -> tuple[bool, int, str]:
    """Menu order of keys: numbers by value, then the rest as spelled."""
    return (not key.isdecimal(), int(key) if key.isdecimal() else 0, key)
