"""A match's result as tables: one row per seat with its holdings, then the result's details, every key
and word read from the game's label catalog (`Game.labels`) in the player's language.

A game gets this for nothing; its terminal module may add `value_text(key, value, lang, names) -> str | None`
to word the values only it understands (a card, a gate), keyed by the name they sit under, and
`SEAT_KEYS`, the keys whose values are seats (a winner, the tied seats), which then read as the seats'
names. A detail that lists a value per seat and repeats a holding (a payout per seat) is left out: the
seats' table shows it, by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table

from partygames.engine.game import Game
from partygames.engine.names import subject_of
from partygames.engine.text import Lang, Text

ValueText = Callable[[str, Any, Lang, Sequence[str]], "str | None"]

_WORDS = {
    "result": Text("Result", "結果"), "ended": Text("Ended", "終了理由"), "seat": Text("Seat", "席"),
    "who": Text("Who", "参加者"),
    "rank": Text("Rank", "順位"), "score": Text("Score", "得点"), "winner": Text("Winner", "勝者"),
    "you": Text("you", "あなた"), "details": Text("Details", "詳細"), "holdings": Text("Holdings", "内訳"),
    "yes": Text("yes", "はい"), "no": Text("no", "いいえ"), "none": Text("none", "なし"),
}


class ResultTables:
    """The renderable result. `missing` collects, as it renders, every key or word the catalog lacked."""

    def __init__(self, game: Game, result: Mapping[str, Any], lang: Lang, you: int | None = None,
                 names: Sequence[str] = ()) -> None:
        self.game, self.result, self.lang, self.you, self.names = game, result, lang, you, names
        hook = getattr(game.terminal, "value_text", None)
        self._hook: ValueText | None = hook if callable(hook) else None
        self._seat_keys: frozenset[str] = frozenset(getattr(game.terminal, "SEAT_KEYS", ()))
        self.missing: set[str] = set()
        self._joiner = "、" if lang == "ja" else ", "

    def seat(self, seat: int) -> str:
        """A seat by its name ("Bot Aoi", "You"), by its number where it has none ("Seat 3")."""
        return subject_of(self.names, seat, self.lang)

    def _hooked(self, key: str, value: Any) -> str | None:
        if self._hook is not None:
            text = self._hook(key, value, self.lang, self.names)
            if text is not None:
                return text
        if key in self._seat_keys:
            if isinstance(value, int) and not isinstance(value, bool):
                return self.seat(value)
            if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                return self._joiner.join(map(self.seat, value)) or self._w("none")
        return None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        wide = self.seats_table(compact=False)
        # Measured without the screen's limit, which Measurement.get would clamp the answer to.
        fits = Measurement.get(console, options.update_width(10_000), wide).minimum <= options.max_width
        yield wide if fits else self.seats_table(compact=True)
        detail = self.result.get("detail") or {}
        if detail:
            yield self.details_table(detail)

    def _w(self, key: str) -> str:
        return _WORDS[key](self.lang)

    def key(self, key: str) -> str:
        """The label of a holdings or detail key (or of a word used as a key, like a team)."""
        labels = self.game.labels
        for table in (labels.holdings, labels.details, labels.values):
            if key in table:
                return table[key](self.lang)
        self.missing.add(key)
        return key.replace("_", " ")

    def value(self, key: str, value: Any) -> str:
        """One value as words: numbers with separators, words from the catalog, lists and maps inline."""
        text = self._hooked(key, value)
        if text is not None:
            return text
        if value is None:
            return "-"
        if isinstance(value, bool):
            return self._w("yes") if value else self._w("no")
        if isinstance(value, int):
            return f"{value:,}"
        if isinstance(value, float):
            return f"{value:,.0f}" if value.is_integer() else f"{value:,.2f}"
        if isinstance(value, str):
            word = self.game.labels.values.get(value)
            if word is None:
                self.missing.add(value)
                return value
            return word(self.lang)
        if isinstance(value, Mapping):
            return "; ".join(f"{self.key(k)}: {self.value(k, v)}" for k, v in value.items()) or self._w("none")
        if isinstance(value, list):
            return self._joiner.join(self.value(key, v) for v in value) or self._w("none")
        return str(value)

    def _seats(self) -> list[Mapping[str, Any]]:
        return sorted(self.result["seats"], key=lambda s: (s["rank"], s["seat"]))

    def _score_key(self, keys: list[str]) -> str | None:
        """The holding that is the score for every seat (then no separate Score column is needed)."""
        seats = self.result["seats"]
        return next((k for k in keys if all(s["holdings"].get(k) == s["score"] for s in seats)), None)

    def seats_table(self, compact: bool) -> Table:
        """A row per seat, best first; wide: a column per holding; compact: the holdings in one cell."""
        seats = self._seats()
        keys = list(dict.fromkeys(k for s in seats for k in s["holdings"]))
        score_key = self._score_key(keys)
        termination = self.game.labels.terminations.get(self.result["termination"])
        if termination is None:
            self.missing.add(self.result["termination"])
        caption = f"{self._w('ended')}: {termination(self.lang) if termination else self.result['termination']}"
        rows: list[list[str]] = []
        for seat in seats:
            name = self.seat(seat["seat"]) if self.names else str(seat["seat"])
            if seat["seat"] == self.you and not self.names:
                name += f" ({self._w('you')})"
            row = [name, str(seat["rank"]), "★" if seat["is_winner"] else ""]
            if score_key is None:
                row.append(f"{seat['score']:,g}")
            holdings = seat["holdings"]
            if compact:
                row.append("\n".join(f"{self.key(k)}: {self.value(k, holdings[k])}" for k in keys if k in holdings))
            else:
                row += [self.value(k, holdings[k]) if k in holdings else "" for k in keys]
            rows.append(row)
        headers = [self._w("who" if self.names else "seat"), self._w("rank"), self._w("winner")]
        headers += [self._w("score")] if score_key is None else []
        headers += [self.key(k) for k in keys] if not compact else [self._w("holdings")]
        table = Table(title=self._w("result"), caption=caption)
        numeric = [False, True, False, True] if score_key is None else [False, True, False]
        numeric += [not self._is_words(k) for k in keys] if not compact else [False]
        for column, (header, is_number) in enumerate(zip(headers, numeric, strict=True)):
            # A value is never cut or folded (a fraction of a figure misleads): the table goes compact instead.
            widest = max((cell_len(line) for row in rows for line in row[column].splitlines()), default=1)
            table.add_column(header, justify="right" if is_number else "left", overflow="fold",
                             min_width=widest if not compact or column < len(headers) - 1 else None)
        for row in rows:
            table.add_row(*row)
        return table

    def _is_words(self, key: str) -> bool:
        values = [s["holdings"].get(key) for s in self.result["seats"]]
        return not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)

    def details_table(self, detail: Mapping[str, Any]) -> Table:
        """Two columns, name and value; a map nests as indented rows, a list of records as a table."""
        table = Table(title=self._w("details"), show_header=False)
        table.add_column(overflow="fold")
        table.add_column(overflow="fold")
        for name, cell in self._rows(detail, 0):
            table.add_row(name, cell)
        return table

    def _rows(self, data: Mapping[str, Any], depth: int) -> Iterator[tuple[str, RenderableType]]:
        indent = "  " * depth
        for key, value in data.items():
            if depth == 0 and self._repeats_a_holding(value):
                continue
            name = indent + self.key(key)
            hooked = self._hooked(key, value)
            if hooked is not None:
                yield name, hooked
            elif isinstance(value, Mapping) and value and any(isinstance(v, Mapping | list) for v in value.values()):
                yield name, ""
                yield from self._rows(value, depth + 1)
            elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
                yield name, self._records(value)
            else:
                yield name, self.value(key, value)

    def _repeats_a_holding(self, value: Any) -> bool:
        """A list with one value per seat, equal to what one holding holds for each seat."""
        seats = sorted(self.result["seats"], key=lambda s: s["seat"])
        if not isinstance(value, list) or len(value) != len(seats) or len(seats) < 2:
            return False
        keys = {k for s in seats for k in s["holdings"]}
        return any(all(s["holdings"].get(k) == v for s, v in zip(seats, value, strict=True)) for k in keys)

    def _records(self, records: list[Mapping[str, Any]]) -> Table:
        keys = list(dict.fromkeys(k for r in records for k in r))
        table = Table(box=None, pad_edge=False)
        for key in keys:
            table.add_column(self.key(key), overflow="fold")
        for record in records:
            table.add_row(*(self.value(k, record.get(k)) for k in keys))
        return table
