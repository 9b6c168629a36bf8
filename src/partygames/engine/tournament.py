"""A tournament of several games played in one room by the same people (the Liar Game night of seed 000), and
the yen ledger it keeps across them. Pure: no I/O; the server stores the ledger (server/ledger.py).

A game that pays money declares `Game.yen` (`YenRule`): what a finished match adds to each seat's ledger, with
the figures it is worked out from, as the game's seed states them. A `Tournament` names its stages in order,
the seat counts it takes, and each stage's options for a room of a given size (on top of what a handover
derives: `Game.options_after`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from partygames.engine.match import Result
from partygames.engine.text import Text


@dataclass(frozen=True)
class Figure:
    """One figure a ledger line is worked out from: its name, and an amount of yen (`yen`) or a count."""

    name: Text
    value: int
    yen: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name.to_json(), "value": self.value, "yen": self.yen}


@dataclass(frozen=True)
class YenLine:
    """What one finished match adds to one seat's ledger (negative: a debt), and why."""

    yen: int
    figures: tuple[Figure, ...] = ()
    note: Text | None = None  # a word where there is no money ("qualified": the Pandemic qualifier)

    def to_json(self) -> dict[str, Any]:
        return {"yen": self.yen, "figures": [f.to_json() for f in self.figures],
                "note": self.note.to_json() if self.note is not None else None}


YenRule = Callable[[Result], Sequence[YenLine]]
"""A game's money: one `YenLine` per seat of a finished match, in seat order."""


@dataclass(frozen=True)
class Stage:
    """One round of a tournament: its game, its name, and its options for a room of `seats`."""

    game: str
    title: Text
    options: Callable[[int], Mapping[str, Any]] = lambda seats: {}


@dataclass(frozen=True)
class Tournament:
    """Games played in order in one room by the same people, with a yen ledger across them."""

    id: str
    title: Text
    note: Text
    stages: tuple[Stage, ...]
    seat_counts: tuple[int, ...]
    again: Callable[[str, Result], bool] = field(default=lambda game, result: False)
    """Whether a stage's finished match must be played again before the next stage can begin (a qualifier
    too few passed to make a final)."""

    def stage_options(self, index: int, seats: int, given: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """Stage `index`'s options for a room of `seats`: the tournament's own, then those the room was made with."""
        stage = self.stages[index]
        return {**stage.options(seats), **((given or {}).get(stage.game) or {})}

    def next_stage(self, played: Sequence[tuple[str, Result]]) -> int | None:
        """The index of the stage to play next after the room's finished matches `played` (game, result), in
        order: the first stage at the start; the same one again where `again` says so; None once the last
        stage is over. A match of a game that is not the current stage's is not counted."""
        index = 0
        for game, result in played:
            if index < len(self.stages) and game == self.stages[index].game and not self.again(game, result):
                index += 1
        return index if index < len(self.stages) else None
