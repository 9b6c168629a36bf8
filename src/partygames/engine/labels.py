"""A game's label catalog: the one place where each name a player reads is written, in both languages.

The terminal reads it as `game.labels`; the web client gets it in the game's info (`/api/games`, see
`Game.info()`). Sentences about events and words for values (a chest, a team) are not labels: each
renderer still words those itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from partygames.engine.text import Lang, Text

ScoreUnit = Literal["yen"]
"""What a game's result scores count, where clients write them in a unit: `"yen"`, an amount of yen
(the web's one yen format: "¥399,985,000", 「3億9998万5000円」)."""


@dataclass(frozen=True)
class Labels:
    """The names of the keys a game's specs, views and results use.

    `actions` and `params` name the action types and parameters of `legal_actions`; a parameter's
    label is shown beside its raw values in the terminal, so it says how to read them ("Gate (1 = d4
    … 6 = d20)"). `phases` names the values of the view's `phase`, `terminations` every member of the
    game's `Termination` (a documented `StrEnum`, the `termination` of its `Result`; the members are the
    keys), `holdings` the keys of a seat's result holdings, and `details` the keys of the result's
    `detail` at any depth. `values` names the words a result or view holds as values ("north",
    "dropped"), so that they read in the player's language too. `view` names the keys of a seat's view
    at any depth, for the web's generic board (a key it lacks is named by `Game.view_labels`' fallbacks).
    `score_unit` says what the results' scores count when it is money (`"yen"`); None: plain figures.
    """

    actions: Mapping[str, Text] = field(default_factory=dict)
    params: Mapping[str, Text] = field(default_factory=dict)
    phases: Mapping[str, Text] = field(default_factory=dict)
    terminations: Mapping[str, Text] = field(default_factory=dict)
    holdings: Mapping[str, Text] = field(default_factory=dict)
    details: Mapping[str, Text] = field(default_factory=dict)
    values: Mapping[str, Text] = field(default_factory=dict)
    view: Mapping[str, Text] = field(default_factory=dict)
    score_unit: ScoreUnit | None = None

    def to_json(self) -> dict[str, dict[str, dict[str, str]]]:
        """`{table: {key: {"en": …, "ja": …}}}` for the eight tables."""
        tables = {"actions": self.actions, "params": self.params, "phases": self.phases,
                  "terminations": self.terminations, "holdings": self.holdings, "details": self.details,
                  "values": self.values, "view": self.view}
        return {name: {str(key): text.to_json() for key, text in table.items()} for name, table in tables.items()}


def label(table: Mapping[str, Text], key: str, lang: Lang) -> str:
    """The key's label in `lang`; a key the table lacks reads as itself, spaced ("drop_out": "drop out")."""
    text = table.get(key)
    return text(lang) if text is not None else key.replace("_", " ")
