"""Rendering views and events in the terminal, with a game's own terminal view (`Game.terminal`) where it
declares one, and its labels (`Game.labels`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from rich.console import RenderableType
from rich.table import Table

from partygames.cli.results import ResultTables
from partygames.engine.game import Game
from partygames.engine.labels import label as catalog_label
from partygames.engine.match import COMMON_VIEW_KEYS
from partygames.engine.text import Lang


def render_view(game: Game, view: dict[str, Any], lang: Lang) -> RenderableType:
    if game.terminal is not None:
        return game.terminal.render(view, lang)
    table = Table(show_header=False, title=game.title(lang))
    for key, value in view.items():
        if key not in COMMON_VIEW_KEYS:
            table.add_row(key.replace("_", " "), _inline(value))
    return table


def label(game: Game, kind: Literal["action", "param"], name: str, lang: Lang) -> str:
    """A human label for an action type (kind="action") or a parameter (kind="param")."""
    return catalog_label(game.labels.actions if kind == "action" else game.labels.params, name, lang)


def describe_event(game: Game, event: dict[str, Any], lang: Lang, names: Sequence[str] = ()) -> str:
    """An event as a line, naming seats by `names` (`engine/names.py`) where the game's terminal does."""
    if game.terminal is not None:
        described = game.terminal.describe_event(event, lang, names)
        if described:
            return described
    name = event["type"].replace("_", " ")
    return f"{name}: {_inline(event['data'])}" if event["data"] else name


def action_text(game: Game, action: dict[str, Any], lang: Lang, view: dict[str, Any] | None = None) -> str:
    """An action as words: its label, then each parameter's label and value ("Bid (Gate: 3; Amount: 500)"),
    worded by the game's `choice_text` where it has one (given the view the action was chosen from)."""
    hook = getattr(game.terminal, "choice_text", None)

    def value(name: str, raw: Any) -> str:
        text = hook(name, raw, view, lang) if callable(hook) and view is not None else None
        return text if isinstance(text, str) else _inline(raw)

    params = "; ".join(f"{label(game, 'param', k, lang)}: {value(k, v)}" for k, v in action.items() if k != "type")
    text = label(game, "action", action["type"], lang)
    return f"{text} ({params})" if params else text


def _inline(value: Any) -> str:
    """Any JSON value on one line, without braces or quotes: maps as "key: value; ...", lists comma-joined."""
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')}: {_inline(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_inline(v) for v in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return "-" if value is None else str(value)


def render_result(game: Game, result: dict[str, Any], lang: Lang, you: int | None = None) -> ResultTables:
    """The result as tables (a row per seat, then the details), labelled from the game's catalog."""
    return ResultTables(game, result, lang, you)
