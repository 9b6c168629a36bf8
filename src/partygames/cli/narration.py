"""What happened, told as lines: each event as the game's terminal words it, and a kind the game tells as
one line for many ("Bot Aoi, Bot Ben and 15 others have voted", a race's seats) told once.

A game's terminal module words one event with `describe_event(event, lang, names, view)` (None: the host
shows the event's type and data; "": not told, such as each runner's change of course) and may word several
events of one kind together with `describe_events(kind, events, lang, names) -> str | None` (None: each on
its own line): all of a batch's events of that kind, or, for the kinds in its `RUN_KINDS`, each unbroken run
of them (a furlong's rolls).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from partygames.engine.game import Game
from partygames.engine.names import name_of
from partygames.engine.text import Lang

Events = Callable[[str, list[dict[str, Any]], Lang, Sequence[str]], "str | None"]

#: How many names a list spells out before "and 12 others".
SPELLED = 4


def people(names: Sequence[str], seats: Sequence[int], lang: Lang, spelled: int = SPELLED, start: bool = False) -> str:
    """Seats as a list of names: "Bot Aoi, Bot Ben and Bot Chika", "Bot Aoi, …, Bot Daichi and 14 others";
    "ボット アオイ、ボット ベン、ボット チカ", "…ほか14人". `start`: opening a sentence ("You and Bot Aoi")."""
    named = [name_of(names, seat, lang) for seat in seats]
    if start and named:
        named[0] = named[0][:1].upper() + named[0][1:]
    shown, rest = (named, 0) if len(named) <= spelled + 1 else (named[:spelled], len(named) - spelled)
    if lang == "ja":
        return "、".join(shown) + (f"ほか{rest}人" if rest else "")
    if rest:
        return f"{', '.join(shown)} and {rest} others"
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def tell(game: Game, events: Sequence[dict[str, Any]], lang: Lang, names: Sequence[str] = (),
         view: Mapping[str, Any] | None = None) -> list[str]:
    """The lines for a batch of events (as `Event.to_json()`), in order; the events of a kind the game words
    together are one line, where the first of them was. `view`: the reader's, as the events are told."""
    from partygames.cli.terminal import describe_event

    hook: Events | None = getattr(game.terminal, "describe_events", None)
    runs: frozenset[str] = frozenset(getattr(game.terminal, "RUN_KINDS", ()))
    together: dict[str, str] = {}
    if callable(hook):
        kinds: dict[str, list[dict[str, Any]]] = {}
        for event in events:
            kinds.setdefault(event["type"], []).append(event)
        for kind, found in kinds.items():
            line = hook(kind, found, lang, names) if len(found) > 1 and kind not in runs else None
            if isinstance(line, str):
                together[kind] = line
    lines: list[str] = []
    told: set[str] = set()
    run: list[dict[str, Any]] = []

    def end_run() -> None:
        if run:
            line = hook(run[0]["type"], list(run), lang, names) if hook is not None and len(run) > 1 else None
            lines.extend([line] if isinstance(line, str) else [describe_event(game, e, lang, names, view) for e in run])
            run.clear()

    for event in events:
        kind = event["type"]
        if run and kind != run[0]["type"]:
            end_run()
        if kind in runs:
            run.append(event)
            continue
        if kind in together:
            if kind not in told:
                lines.append(together[kind])
            told.add(kind)
            continue
        lines.append(describe_event(game, event, lang, names, view))
    end_run()
    return [line for line in lines if line]
