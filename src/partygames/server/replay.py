"""Replays of finished matches: every step as one seat saw it, and the match log.

Other seats' actions appear only as `Match.shown_action` allows (a secret ballot stays secret for
ever); the raw log is for the host alone. A room's earlier matches (play again, a series) are rebuilt
from the database (`Stored`), so any process shows any of them.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from partygames.engine.log import Entry, MatchLog
from partygames.engine.match import Match
from partygames.engine.session import Session
from partygames.server.room_match import RoomMatch
from partygames.server.rooms import Room
from partygames.server.text import escape


@dataclass(frozen=True)
class Stored:
    """One of `room`'s earlier matches as the database keeps it: its `matches` row and its log entries."""

    room: Room
    row: dict[str, Any]
    log: list[dict[str, Any]]

    @property
    def number(self) -> int:
        return int(self.row["number"])

    def build(self) -> RoomMatch:
        """The match replayed from its log: the same steps, sources and stand-ins as when it was played, and
        no bots (it is over). Engine work: called off the event loop."""
        room, row, log = self.room, self.row, self.log
        game = room.hub.games[row["game"]]
        options = game.options_class.parse(json.loads(row["options"]))
        match = game.new(room.seats, options, json.loads(row["seed"]), bots=json.loads(row["bots"]))
        played = RoomMatch(room.code, game, match, room.lobby.seats, row["started_at"], room.hub.settings,
                           lambda _error: None, self.number, log[0]["seq"] - 1 if log else row["last_seq"], bots=False)
        for row in log:
            played.replay_row(row)
        return played


def steps(room: Room, seat: int | None, played: RoomMatch | None = None) -> dict[str, Any]:
    """The match step by step as `seat` saw it (None: the public view), numbered as it was during the match:
    a step it did not witness (`Match.step_witnesses`) is not there at all. Only for finished matches: the
    room's current one, or `played` (an earlier one)."""
    current = room.current if played is None else played
    assert current is not None
    final, game = current.match, current.game
    session = Session(game, game.new(final.seats, final.options, final.seed, bots=final.bot_seats))

    def view() -> dict[str, Any]:
        # Views and event data may share lists with the state, which later steps change: copy them now.
        return {**copy.deepcopy(session.match.view(seat)), "version": len(out)}

    out: list[dict[str, Any]] = []
    out.append({"version": 0, "at": 0, "seat": None, "action": None, "source": None, "events": [], "view": view()})
    for step, (entry, source) in enumerate(zip(current.session.log.entries, current.sources, strict=True), start=1):
        events = session.replay_entry(entry)
        witnesses = session.match.step_witnesses(entry.seat, entry.action, events)
        if witnesses is not None and seat not in witnesses:
            continue
        action = None if entry.seat is None or entry.action is None else final.shown_action(entry.seat, entry.action, seat)
        hidden = action is None and entry.action is not None  # an act this seat never learns of: a step, no more
        version = len(out)
        # A step a bot played for the seat's absent person says so, and which kind (`source` "standin").
        standin = None if hidden else current.by_standin.get(step)
        by = {"standin": standin, "for": entry.seat} if standin is not None else {}
        out.append({"version": version, "at": entry.at, "seat": None if hidden else entry.seat, "action": action,
                    "source": None if hidden else source, "standin": standin,
                    "events": [{"version": version, "type": e.type, "data": copy.deepcopy(e.data), **by}
                               for e in events if e.is_visible_to(seat)],
                    "view": view()})
    result = final.result()
    return {"game": game.id, "match": current.number, "seats": final.seats, "options": final.options.to_json(),
            "seat": seat, "result": result.to_json() if result is not None else None, "steps": out}


def match_log(room: Room, raw: bool, played: RoomMatch | None = None) -> dict[str, Any]:
    """The match log: the whole `MatchLog` (seed, every entry with its time, final state) when `raw` (for
    the host); else what a spectator may know of it: each action as `Match.shown_action` shows it, and
    neither the seed nor the final state (with the seed and the actions, every card dealt face down
    could be worked out). `redacted` says which. The room's current match, or `played` (an earlier one)."""
    current = room.current if played is None else played
    assert current is not None
    session, final = current.session, current.match
    # The people's names (HTML-escaped, as every user-supplied string is sent), for a replay to name them.
    names = [escape(s.name) if s.kind == "human" and s.name else "" for s in room.lobby.seats]
    log = MatchLog(current.game.id, final.seats, final.options.to_json(), final.seed, list(session.log.entries),
                   final.to_json(), list(final.bot_seats), names if any(names) else [])
    # The entries a bot played for the seat's absent person: {entry number (1, 2, ... as listed): bot kind}.
    by_standin = current.by_standin
    if raw:
        return {**log.to_json(), "standins": {str(v): k for v, k in sorted(by_standin.items())}, "redacted": False}
    # The steps the public witnessed (a private one is not there at all), each action as it may know it.
    public = set(current.hidden.get(None, ()))
    kept = [version for version in range(1, len(session.log.entries) + 1) if version not in public]
    shown = [e if e.seat is None or e.action is None else _shown_entry(final, e)
             for version, e in enumerate(session.log.entries, start=1) if version not in public]
    standins = {str(n): by_standin[v] for n, v in enumerate(kept, start=1) if v in by_standin}
    return {**log.to_json(), "seed": None, "entries": [e.to_json() for e in shown], "final_state": None,
            "standins": standins, "redacted": True}


def _shown_entry(final: Match, entry: Entry) -> Entry:
    """A spectator's copy of an action entry: the action as `shown_action` shows it (an act nobody else may
    learn of, which is never a step the public witnessed, keeps only its time)."""
    assert entry.seat is not None and entry.action is not None
    action = final.shown_action(entry.seat, entry.action, None)
    return Entry(entry.at, None, None) if action is None else Entry(entry.at, entry.seat, action)
