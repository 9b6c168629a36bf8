"""Rendering views and events in the terminal, with a game's own terminal view (`Game.terminal`) where it
declares one, and its labels (`Game.labels`)."""

from __future__ import annotations

import json
from typing import Any, Literal

from rich.console import RenderableType
from rich.pretty import Pretty
from rich.table import Table

from partygames.engine.game import Game
from partygames.engine.labels import label as catalog_label
from partygames.engine.text import Lang

COMMON_KEYS = ("game", "seat", "seats", "version", "to_act", "is_over", "legal_actions", "result")


def render_view(game: Game, view: dict[str, Any], lang: Lang) -> RenderableType:
    if game.terminal is not None:
        return game.terminal.render(view, lang)
    table = Table(show_header=False, title=game.title(lang))
    for key, value in view.items():
        if key not in COMMON_KEYS:
            table.add_row(key, Pretty(value))
    return table


def label(game: Game, kind: Literal["action", "param"], name: str, lang: Lang) -> str:
    """A human label for an action type (kind="action") or a parameter (kind="param")."""
    return catalog_label(game.labels.actions if kind == "action" else game.labels.params, name, lang)


def describe_event(game: Game, event: dict[str, Any], lang: Lang) -> str:
    if game.terminal is not None:
        described = game.terminal.describe_event(event, lang)
        if described:
            return described
    data = json.dumps(event["data"], ensure_ascii=False)
    return f"{event['type']}: {data}" if event["data"] else event["type"]


def render_result(game: Game, result: dict[str, Any], lang: Lang, you: int | None = None) -> Table:
    ja = lang == "ja"
    termination = catalog_label(game.labels.terminations, result["termination"], lang)
    table = Table(title="結果" if ja else "Result", caption=f"{'終了理由' if ja else 'Ended'}: {termination}")
    for header in (("席", "Seat"), ("順位", "Rank"), ("得点", "Score"), ("勝者", "Winner"), ("内訳", "Holdings")):
        table.add_column(header[0] if ja else header[1])
    for seat in sorted(result["seats"], key=lambda s: (s["rank"], s["seat"])):
        name = str(seat["seat"]) + ((" (あなた)" if ja else " (you)") if seat["seat"] == you else "")
        holdings = "; ".join(f"{catalog_label(game.labels.holdings, key, lang)}: {_holding(value)}"
                             for key, value in seat["holdings"].items() if value not in (None, {}, []))
        table.add_row(name, str(seat["rank"]), f"{seat['score']:g}", "★" if seat["is_winner"] else "", holdings)
    return table


def _holding(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return json.dumps(value, ensure_ascii=False)
