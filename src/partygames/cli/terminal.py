"""Rendering views and events in the terminal, using a game's own `terminal` module where it has one."""

from __future__ import annotations

import importlib
import json
from functools import cache
from types import ModuleType
from typing import Any

from rich.console import RenderableType
from rich.pretty import Pretty
from rich.table import Table

from partygames.engine.game import Game
from partygames.engine.text import Lang, Text

COMMON_KEYS = ("game", "seat", "seats", "version", "to_act", "is_over", "legal_actions", "result")


@cache
def game_terminal(game_id: str) -> ModuleType | None:
    """The game's `terminal` module (render, ACTION_LABELS, PARAM_LABELS), if it has one."""
    package = f"partygames.games.{game_id.replace('-', '_')}"
    try:
        return importlib.import_module(f"{package}.terminal")
    except ModuleNotFoundError as error:
        if error.name not in (package, f"{package}.terminal"):  # no package at all: a test-only game
            raise
        return None


def render_view(game: Game, view: dict[str, Any], lang: Lang) -> RenderableType:
    module = game_terminal(game.id)
    if module is not None and hasattr(module, "render"):
        rendered: RenderableType = module.render(view, lang)
        return rendered
    table = Table(show_header=False, title=game.title(lang))
    for key, value in view.items():
        if key not in COMMON_KEYS:
            table.add_row(key, Pretty(value))
    return table


def label(game: Game, kind: str, name: str, lang: Lang) -> str:
    """A human label for an action type (kind="action") or a parameter (kind="param")."""
    module = game_terminal(game.id)
    table: dict[str, Text] = {}
    if module is not None:
        table = getattr(module, "ACTION_LABELS" if kind == "action" else "PARAM_LABELS", {})
    text = table.get(name)
    return text(lang) if text is not None else name.replace("_", " ")


def describe_event(game: Game, event: dict[str, Any], lang: Lang) -> str:
    module = game_terminal(game.id)
    if module is not None and hasattr(module, "describe_event"):
        described: str | None = module.describe_event(event, lang)
        if described:
            return described
    data = json.dumps(event["data"], ensure_ascii=False)
    return f"{event['type']}: {data}" if event["data"] else event["type"]


def render_result(game: Game, result: dict[str, Any], lang: Lang, you: int | None = None) -> Table:
    ja = lang == "ja"
    table = Table(title="結果" if ja else "Result")
    for header in (("席", "Seat"), ("順位", "Rank"), ("得点", "Score"), ("勝者", "Winner"), ("内訳", "Holdings")):
        table.add_column(header[0] if ja else header[1])
    for seat in sorted(result["seats"], key=lambda s: (s["rank"], s["seat"])):
        name = str(seat["seat"]) + ((" (あなた)" if ja else " (you)") if seat["seat"] == you else "")
        table.add_row(name, str(seat["rank"]), f"{seat['score']:g}", "★" if seat["is_winner"] else "",
                      json.dumps(seat["holdings"], ensure_ascii=False))
    return table
