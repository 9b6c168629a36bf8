"""Ratings per game: Weng-Lin (openskill's Plackett-Luce), updated once per finished match, from the database.

Which matches count (docs/profiles.md says the same to players):
- a match counts when it ended (`over`) with at least two rated people; an abandoned room (closed) never ends,
  so it is never rated;
- a rated person is a human seat tied to a profile whose person played at least half of the seat's own steps
  (the log's `source`: "seat" is the person, "standin" a stand-in bot playing for them while they were away,
  "bot" such a step in a log from before stand-ins were marked); a
  seat a stand-in played for most of the match is left out of the rating, and so are bot seats;
- a profile holding two seats of one match is left out of it (which of its results would it be?);
- the people left out do not change the others' order: the rated seats are ranked among themselves, ties
  sharing a rank; a game that plays in teams (`Game.rating_teams`, Smuggling) rates teams of its rated seats.
- The display is conservative, mu - 3 sigma; a rating with fewer than `PROVISIONAL_BELOW` rated matches is
  provisional.

Exactly once: every match considered gets one `rated_matches` row, keyed on the match (room, match number),
inserted in the same transaction as its rating changes, before them. A second attempt (a retry, another
process after a failover) collides with the key and its transaction changes nothing. `rebuild` forgets every
rating and considers every stored match again, in the order they ended.
"""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    Integer,
    String,
    Table,
    case,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from partygames.engine.game import Game
from partygames.server.storage import Storage, log_entries, matches, metadata, rooms, seats

PROVISIONAL_BELOW = 5  # rated matches before a rating is no longer provisional
MODEL = PlackettLuce()

ratings = Table(
    "ratings", metadata,
    Column("profile", String(24), primary_key=True),  # profiles.id (ON DELETE CASCADE in the migration)
    Column("game", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("display", Float, nullable=False),  # mu - 3 sigma
)

rated_matches = Table(
    "rated_matches", metadata,
    Column("room", String(12), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("game", String(64), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("at", Float, nullable=False),
)


@dataclass
class Finished:
    """A finished match as stored: its room and number, game, result and log range."""

    room: str
    number: int
    game: str
    result: dict[str, Any]
    first_seq: int  # its log entries are seq in (first_seq, last_seq]
    last_seq: int | None  # None: to the end (the room's current match)
    ended_at: float  # matches are rated in the order they ended


def rating_json(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"game": row["game"], "rating": round(float(row["display"]), 2), "mu": round(float(row["mu"]), 3),
            "sigma": round(float(row["sigma"]), 3), "matches": int(row["matches"]),
            "provisional": int(row["matches"]) < PROVISIONAL_BELOW}


def _finished(conn: Connection, code: str) -> list[Finished]:
    """Room `code`'s finished matches: the earlier ones, then its current one if over."""
    room = conn.execute(select(rooms).where(rooms.c.code == code)).mappings().one()
    out: list[Finished] = []
    previous, number = 0, 0
    earlier = conn.execute(select(matches).where(matches.c.room == code).order_by(matches.c.number)).mappings().all()
    # When each ended: an earlier match when the next one started (the same people went on at once).
    ends = [float(m["started_at"]) for m in earlier[1:]] + [float(room["started_at"] or 0.0)] * bool(earlier)
    for m, ended in zip(earlier, ends, strict=True):
        if m["result"] is not None:
            out.append(Finished(code, m["number"], m["game"], json.loads(m["result"]), previous, m["last_seq"], ended))
        previous, number = m["last_seq"], m["number"]
    if room["status"] == "over" and room["result"] is not None:
        ended = room["finished_at"] if room["finished_at"] is not None else room["started_at"]
        out.append(Finished(code, number + 1, room["game"], json.loads(room["result"]), previous, None,
                            float(ended or 0.0)))
    return out


def rated_people(conn: Connection, match: Finished) -> dict[int, str]:
    """Seat -> profile of the match's rated people (module docstring)."""
    seat_rows = conn.execute(select(seats).where(seats.c.room == match.room)).mappings().all()
    where = [log_entries.c.room == match.room, log_entries.c.seq > match.first_seq, log_entries.c.seat.is_not(None)]
    if match.last_seq is not None:
        where.append(log_entries.c.seq <= match.last_seq)
    steps: dict[int, Counter[str]] = defaultdict(Counter)
    for seat, source, n in conn.execute(select(log_entries.c.seat, log_entries.c.source, func.count())
                                        .where(*where).group_by(log_entries.c.seat, log_entries.c.source)):
        steps[int(seat)][str(source)] += int(n)
    held = Counter(s["profile"] for s in seat_rows if s["profile"] is not None)
    people: dict[int, str] = {}
    for s in seat_rows:
        if s["kind"] != "human" or s["profile"] is None or held[s["profile"]] > 1:
            continue
        counted = steps[int(s["seat"])]
        stood_in = counted["standin"] + counted["bot"]  # ("bot": a stand-in's step before stand-ins were marked)
        if counted["seat"] >= stood_in:  # the person played at least half
            people[int(s["seat"])] = str(s["profile"])
    return people


def _groups(match: Finished, people: Mapping[int, str], game: Game | None) -> tuple[list[list[int]], list[int]]:
    """The rated seats as openskill's teams, with each team's rank (1 best; ties share one)."""
    rank = {int(s["seat"]): int(s["rank"]) for s in match.result["seats"]}
    layout = game.rating_teams(len(match.result["seats"])) if game is not None and game.rating_teams else None
    if layout is None:
        teams = [[seat] for seat in sorted(people)]
    else:
        teams = [[seat for seat in team if seat in people] for team in layout]
        teams = [t for t in teams if t]
    return teams, [min(rank[seat] for seat in team) for team in teams]


def consider(storage: Storage, match: Finished, games: Mapping[str, Game]) -> bool:
    """Rates `match` unless it was already considered; returns whether this call considered it. In one
    transaction: the match's key first (a second attempt stops there), then the ratings."""
    try:
        with storage.engine.begin() as conn:
            _consider(conn, match, games)
        return True
    except IntegrityError:
        return False  # considered before, by this process or another: nothing changed


def _consider(conn: Connection, match: Finished, games: Mapping[str, Game]) -> None:
    people = rated_people(conn, match)
    teams, ranks = _groups(match, people, games.get(match.game))
    counts = len(teams) >= 2 and len(people) >= 2
    conn.execute(insert(rated_matches).values(room=match.room, number=match.number, game=match.game,
                                              rated=counts, at=time.time()))
    if not counts:
        return
    query = select(ratings).where(ratings.c.game == match.game, ratings.c.profile.in_(list(people.values())))
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    known = {r["profile"]: r for r in conn.execute(query).mappings()}
    before = [[MODEL.rating(mu=known[people[s]]["mu"], sigma=known[people[s]]["sigma"]) if people[s] in known
               else MODEL.rating() for s in team] for team in teams]
    after = MODEL.rate(before, ranks=[float(r) for r in ranks])
    for team, rated in zip(teams, after, strict=True):
        for seat, new in zip(team, rated, strict=True):
            profile = people[seat]
            values = {"mu": new.mu, "sigma": new.sigma, "display": new.mu - 3 * new.sigma}
            if profile in known:
                conn.execute(update(ratings).where(ratings.c.profile == profile, ratings.c.game == match.game)
                             .values(**values, matches=ratings.c.matches + 1))
            else:
                conn.execute(insert(ratings).values(profile=profile, game=match.game, matches=1, **values))


def pending(storage: Storage) -> list[Finished]:
    """Finished matches with at least two profiles at the table that were never considered, in the order they
    ended."""
    with storage.engine.connect() as conn:
        found: list[Finished] = []
        for code in _candidates(conn):
            done = set(conn.execute(select(rated_matches.c.number).where(rated_matches.c.room == code)).scalars())
            found += [m for m in _finished(conn, code) if m.number not in done]
    return sorted(found, key=lambda m: (m.ended_at, m.room, m.number))


def _candidates(conn: Connection) -> list[str]:
    """Rooms with at least two profiles seated that have a finished match not yet considered."""
    profiled = (select(func.count()).select_from(seats)
                .where(seats.c.room == rooms.c.code, seats.c.profile.is_not(None)).scalar_subquery())
    considered = select(func.count()).select_from(rated_matches).where(rated_matches.c.room == rooms.c.code)
    earlier = select(func.count()).select_from(matches).where(matches.c.room == rooms.c.code, matches.c.result.is_not(None))
    finished = earlier.scalar_subquery() + case((rooms.c.status == "over", 1), else_=0)
    return list(conn.execute(select(rooms.c.code).where(profiled >= 2, considered.scalar_subquery() < finished))
                .scalars())


def rate_pending(storage: Storage, games: Mapping[str, Game]) -> int:
    """Considers every finished match not yet considered; returns how many this call considered."""
    return sum(consider(storage, m, games) for m in pending(storage))


def rebuild(storage: Storage, games: Mapping[str, Game]) -> int:
    """Forgets every rating and rates every stored match again, in the order they ended."""
    with storage.engine.begin() as conn:
        conn.execute(delete(ratings))
        conn.execute(delete(rated_matches))
    return rate_pending(storage, games)


def leaderboard(storage: Storage, game: str, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
    """The game's ratings, best conservative display first, with the profiles' names, colours and emoji."""
    from partygames.server.profiles import profiles  # (the table; profiles.py imports this module)

    with storage.engine.connect() as conn:
        rows = conn.execute(select(ratings, profiles.c.name, profiles.c.colour, profiles.c.emoji)
                            .join(profiles, profiles.c.id == ratings.c.profile)
                            .where(ratings.c.game == game)
                            .order_by(ratings.c.display.desc(), ratings.c.profile).limit(limit).offset(offset)).mappings()
        return [{"place": offset + i + 1, "profile": r["profile"], "name": r["name"], "colour": r["colour"],
                 "emoji": r["emoji"], **rating_json(dict(r))} for i, r in enumerate(rows)]


def of_profile(conn: Connection, profile: str) -> list[dict[str, Any]]:
    return [rating_json(dict(r)) for r in conn.execute(select(ratings).where(ratings.c.profile == profile)
                                                 .order_by(ratings.c.game)).mappings()]

