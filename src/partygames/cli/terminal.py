"""Rendering views and events in the terminal, with a game's own terminal view (`Game.terminal`) where it
declares one, and its labels (`Game.labels`).

Besides `render` and `describe_event` (`TerminalView`), a game's terminal module may define:

- `choice_text(param, value, view, lang, names, action="") -> str | None`: the words for a value of
  `action`'s parameter (a card, a seat's name);
- `choice_key(param, value, view, action="") -> str | tuple[str, ...] | None`: the key the player types for
  it, as the screen shows it (a word's number, a gate, a pair "5-6"), with other accepted spellings after
  it; None: its place in the menu;
- `ACTION_KEYS`: a fixed key per action type, the same in every round (what a phase asks first as 1; a
  move offered in several phases, a gift, by one number in all of them), so that a key typed from habit
  means the same in a later round whatever else comes and goes beside it (`cli/menu.ActionKeys`);
- `menu_order(param, values) -> list | None`: the order a parameter's values are listed in;
- `param_label(action, param, lang) -> str | None`: a parameter's label for one action, where the catalog's
  is too broad ("To" is a place for a move, people for a show);
- `action_label(action, lang) -> str | None`: an action the catalog does not name (one that only a tempo the
  label test does not sample offers);
- `param_note(action, param, lang) -> str | None`: what an ordered list does, said before it is asked
  (Musical Chairs' plan: a chair left off is never tried);
- `PLANS`, `plan_action(plan, start_view, view)` and `PLAN_QUIET`: standing plans offered beside the moves
  of a one-action menu, played by the terminal until `plan_action` gives None (`cli/play.py`);
- `confirm(action, view, lang, names) -> str | None`: a question to confirm before an action that undoes
  something or cannot be undone (cancelling a ticket, dropping out);
- `redraw_at(view) -> int | None`: a match time at which the seat's screen changes by itself while the
  seat is asked (a peek ends): the terminal stops waiting for input then, lets time reach it and redraws;
- `describe_events(kind, events, lang, names) -> str | None` (`cli/narration.py`);
- `value_text(key, value, lang, names) -> str | None` and `SEAT_KEYS` (`cli/results.py`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from rich.console import RenderableType
from rich.table import Table

from partygames.cli.results import ResultTables
from partygames.engine.game import Game
from partygames.engine.labels import label as catalog_label
from partygames.engine.match import COMMON_VIEW_KEYS, TIMED_OUT
from partygames.engine.text import Lang, Text


def render_view(game: Game, view: dict[str, Any], lang: Lang, names: Sequence[str] = ()) -> RenderableType:
    """A seat's view (or the public one) as the game's terminal draws it, naming the seats by `names`."""
    if game.terminal is not None:
        return game.terminal.render(view, lang, names)
    table = Table(show_header=False, title=game.title(lang))
    for key, value in view.items():
        if key not in COMMON_VIEW_KEYS:
            table.add_row(key.replace("_", " "), _inline(value))
    return table


def label(game: Game, kind: Literal["action", "param"], name: str, lang: Lang, action: str | None = None) -> str:
    """A human label for an action type (kind="action") or a parameter (kind="param", of `action` when the
    game's terminal words it for that action)."""
    if kind == "param" and action is not None:
        hook = getattr(game.terminal, "param_label", None)
        worded = hook(action, name, lang) if callable(hook) else None
        if isinstance(worded, str):
            return worded
    if kind == "action" and name not in game.labels.actions:
        hook = getattr(game.terminal, "action_label", None)
        worded = hook(name, lang) if callable(hook) else None
        if isinstance(worded, str):
            return worded
    return catalog_label(game.labels.actions if kind == "action" else game.labels.params, name, lang)


def describe_event(game: Game, event: dict[str, Any], lang: Lang, names: Sequence[str] = (),
                   view: Mapping[str, Any] | None = None) -> str:
    """An event as a line, naming seats by `names` (`engine/names.py`) where the game's terminal does; ""
    for an event the game's terminal does not tell. `view`: the reader's, when the event is told."""
    if event["type"] == TIMED_OUT:  # every game's: a seat the match waited for ran out of time
        seat = event["data"]["seat"]
        who = names[seat] if seat < len(names) else str(seat)
        return Text(f"{who} ran out of time: the default was played.", f"{who}は時間切れ: 既定の手が打たれました。")(lang)
    if game.terminal is not None:
        described = game.terminal.describe_event(event, lang, names, view)
        if described is not None:
            return described
    name = event["type"].replace("_", " ")
    return f"{name}: {_inline(event['data'])}" if event["data"] else name


def action_text(game: Game, action: dict[str, Any], lang: Lang, view: dict[str, Any] | None = None,
                names: Sequence[str] = ()) -> str:
    """An action as words: its label, then each parameter's label and value ("Bid (Gate: 3; Amount: 500)"),
    worded by the game's `choice_text` where it has one (given the view the action was chosen from)."""
    hook = getattr(game.terminal, "choice_text", None)
    key_hook = getattr(game.terminal, "choice_key", None)

    def value(name: str, raw: Any) -> str:
        if isinstance(raw, list):
            return " → ".join(value(name, item) for item in raw)
        text = hook(name, raw, view, lang, names, action=kind) if callable(hook) and view is not None else None
        if not isinstance(text, str):
            return _inline(raw)
        key = key_hook(name, raw, view, action=kind) if callable(key_hook) and view is not None else None
        key = key[0] if isinstance(key, tuple) else key
        # A choice the screen numbers is told as the player typed it, then its words ("17 violin").
        return f"{key} {text}" if isinstance(key, str) and not text.startswith(key) else text

    kind = action["type"]
    params = "; ".join(f"{label(game, 'param', k, lang, kind)}: {value(k, v)}" for k, v in action.items()
                       if k != "type")
    text = label(game, "action", kind, lang)
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


def render_result(game: Game, result: dict[str, Any], lang: Lang, you: int | None = None,
                  names: Sequence[str] = ()) -> ResultTables:
    """The result as tables (a row per seat, then the details), labelled from the game's catalog, naming the
    seats by `names`."""
    return ResultTables(game, result, lang, you, names)
