"""Replays of finished matches: every step with one seat's view (or the public one), and the full log."""

from __future__ import annotations

import copy
from typing import Any

from partygames.engine.runner import MatchLog
from partygames.server.rooms import Room


def steps(room: Room, seat: int | None) -> dict[str, Any]:
    """The match step by step as `seat` saw it (None: the public view). Only for finished matches."""
    assert room.match is not None and room.seed is not None
    match = room.game.new(room.seats, room.options, room.seed)
    # Views and event data may share lists with the state, which later steps change: copy them now.
    out: list[dict[str, Any]] = [{"version": 0, "seat": None, "action": None, "source": None, "events": [],
                                  "view": copy.deepcopy(match.view(seat))}]
    for version, entry in enumerate(room.log, start=1):
        if entry.seat is None:
            events = list(match.tick(entry.action["now"]))
        else:
            events = match.apply(entry.seat, entry.action)
        out.append({"version": version, "seat": entry.seat, "action": entry.action, "source": entry.source,
                    "events": [{"version": version, "type": e.type, "data": copy.deepcopy(e.data)}
                               for e in events if e.is_visible_to(seat)],
                    "view": copy.deepcopy(match.view(seat))})
    result = room.match.result()
    return {"game": room.game.id, "seats": room.seats, "options": room.options.to_json(), "seat": seat,
            "result": result.to_json() if result is not None else None, "steps": out}


def match_log(room: Room) -> dict[str, Any]:
    """The engine's MatchLog (seed, options, actions, final state); clock ticks are left out."""
    assert room.match is not None and room.seed is not None
    log = MatchLog(room.game.id, room.seats, room.options.to_json(), room.seed,
                   [(e.seat, e.action) for e in room.log if e.seat is not None], room.match.to_json())
    return log.to_json()
