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

When: the write that ends a match also queues it (`unrated_matches`, in the same transaction); once that
write has committed, the process that owned the match rates it (`rate_ended`, on its commit thread: the end's
frames reach its players after the ratings changed). A match whose owner died between the two stays queued
until any process's catch-up (`rate_pending`, at start-up and in the hub's sweep) rates it: the queue is the
only thing the catch-up reads, never the whole history of matches.

Exactly once: every match considered gets one `rated_matches` row, keyed on the match (room, match number),
inserted in the same transaction as its rating changes, before them, and the same transaction takes it out of
the queue and enters it in the histories of the profiles at its table (`played_matches`, rated or not: what a
profile page lists). A second attempt (a retry, another process after a failover) collides with the key and its
transaction changes nothing (the queue row, if any, goes in a transaction of its own). `rebuild` forgets every
rating and considers every stored match again, in the order they ended.
"""

from __future__ import annotations

import json
import logging
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
    Index,
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
from sqlalchemy.exc import DBAPIError, IntegrityError

from partygames.engine.game import Game
from partygames.server.storage import (
    Storage,
    log_entries,
    matches,
    metadata,
    played_matches,
    rooms,
    seats,
    unrated_matches,
)

PROVISIONAL_BELOW = 5  # rated matches before a rating is no longer provisional
log = logging.getLogger("partygames.ratings")
_unrateable: set[tuple[str, int]] = set()  # said once per process (rate_pending)
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
# A leaderboard page is a range of this index (the profile breaks ties: every page has one order).
Index("ratings_by_board", ratings.c.game, ratings.c.display.desc(), ratings.c.profile)

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
    started_at: float = 0.0  # the date a profile's history shows


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
            out.append(Finished(code, m["number"], m["game"], json.loads(m["result"]), previous, m["last_seq"], ended,
                                float(m["started_at"])))
        previous, number = m["last_seq"], m["number"]
    if room["status"] == "over" and room["result"] is not None:
        ended = room["finished_at"] if room["finished_at"] is not None else room["started_at"]
        out.append(Finished(code, number + 1, room["game"], json.loads(room["result"]), previous, None,
                            float(ended or 0.0), float(room["started_at"] or 0.0)))
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
    transaction: the match's key first (a second attempt stops there), then its queue row, then the ratings."""
    try:
        with storage.engine.begin() as conn:
            _consider(conn, match, games)
        return True
    except IntegrityError:
        # Considered before, by this process or another: nothing changed. Its queue row (a process that died
        # after rating it, or a queue refilled by hand) goes now, so that the catch-up does not come back to it.
        with storage.engine.begin() as conn:
            _unqueue(conn, match.room, match.number)
        return False


def _unqueue(conn: Connection, room: str, number: int) -> None:
    conn.execute(delete(unrated_matches).where(unrated_matches.c.room == room, unrated_matches.c.number == number))


def _consider(conn: Connection, match: Finished, games: Mapping[str, Game]) -> None:
    people = rated_people(conn, match)
    teams, ranks = _groups(match, people, games.get(match.game))
    counts = len(teams) >= 2 and len(people) >= 2
    conn.execute(insert(rated_matches).values(room=match.room, number=match.number, game=match.game,
                                              rated=counts, at=time.time()))
    _unqueue(conn, match.room, match.number)
    # Each profile's history (rated or not); a rebuild considers the match again.
    conn.execute(delete(played_matches).where(played_matches.c.room == match.room,
                                              played_matches.c.number == match.number))
    played = [{"profile": profile, "room": match.room, "number": match.number, "seat": seat, "date": match.started_at}
              for seat, profile in conn.execute(select(seats.c.seat, seats.c.profile).where(
                  seats.c.room == match.room, seats.c.profile.is_not(None)))]
    if played:
        conn.execute(insert(played_matches), played)
    if not counts:
        return
    # (Locked in one order, the profiles': two matches of the same people rated at once wait, never deadlock.)
    query = select(ratings).where(ratings.c.game == match.game, ratings.c.profile.in_(sorted(people.values())))
    if conn.dialect.name == "postgresql":
        query = query.order_by(ratings.c.profile).with_for_update()
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


def _match(conn: Connection, room: str, number: int) -> Finished | None:
    return next((m for m in _finished(conn, room) if m.number == number), None)


def rate_ended(storage: Storage, room: str, number: int, games: Mapping[str, Game]) -> bool:
    """Rates room `room`'s match `number`, which has just ended (the hook of the process that owned it, once the
    write that ended it has committed); returns whether this call considered it (`consider`)."""
    with storage.engine.connect() as conn:
        match = _match(conn, room, number)
    return match is not None and consider(storage, match, games)


def _queued(conn: Connection, limit: int | None, ended_before: float | None) -> tuple[list[Finished], list[tuple[str, int]]]:
    """The queued matches (oldest end first, at most `limit`, those that ended before `ended_before`), and the
    queue rows that name no finished match (nothing to rate)."""
    query = select(unrated_matches.c.room, unrated_matches.c.number).order_by(
        unrated_matches.c.ended_at, unrated_matches.c.room, unrated_matches.c.number)
    if ended_before is not None:
        query = query.where(unrated_matches.c.ended_at < ended_before)
    if limit is not None:
        query = query.limit(limit)
    found: list[Finished] = []
    orphans: list[tuple[str, int]] = []
    rooms_seen: dict[str, dict[int, Finished]] = {}
    for room, number in conn.execute(query).all():
        if room not in rooms_seen:
            rooms_seen[room] = {m.number: m for m in _finished(conn, room)}
        match = rooms_seen[room].get(int(number))
        if match is None:
            orphans.append((str(room), int(number)))
        else:
            found.append(match)
    return found, orphans


def pending(storage: Storage, limit: int | None = None, ended_before: float | None = None) -> list[Finished]:
    """Finished matches not yet considered (the queue: `unrated_matches`), in the order they ended."""
    with storage.engine.connect() as conn:
        return _queued(conn, limit, ended_before)[0]


def rate_pending(storage: Storage, games: Mapping[str, Game], limit: int | None = None,
                 ended_before: float | None = None) -> int:
    """Considers the queued matches (the catch-up, for the matches whose process died before it rated them):
    all of them, or the `limit` that ended first (before `ended_before`); returns how many this call
    considered."""
    with storage.engine.connect() as conn:
        found, orphans = _queued(conn, limit, ended_before)
    if orphans:
        with storage.engine.begin() as conn:
            for room, number in orphans:
                _unqueue(conn, room, number)
    considered = 0
    for match in found:
        try:
            considered += consider(storage, match, games)
        except DBAPIError:
            raise  # the database itself failed: the sweep tries the whole queue again later
        except Exception:
            # A match that cannot be rated (a stored result the rater cannot read) must not hold up the
            # matches queued behind it: it stays queued (a fixed rater or `ratings rebuild` takes it), said once.
            if (match.room, match.number) not in _unrateable:
                _unrateable.add((match.room, match.number))
                log.exception("match %s of room %s cannot be rated; the catch-up goes on past it",
                              match.number, match.room)
    return considered


def _candidates(conn: Connection) -> list[str]:
    """Rooms with at least two profiles seated that have a finished match (`rebuild` reads every room once)."""
    profiled = (select(func.count()).select_from(seats)
                .where(seats.c.room == rooms.c.code, seats.c.profile.is_not(None)).scalar_subquery())
    earlier = select(func.count()).select_from(matches).where(matches.c.room == rooms.c.code, matches.c.result.is_not(None))
    finished = earlier.scalar_subquery() + case((rooms.c.status == "over", 1), else_=0)
    return list(conn.execute(select(rooms.c.code).where(profiled >= 2, finished > 0)).scalars())


def rebuild(storage: Storage, games: Mapping[str, Game]) -> int:
    """Forgets every rating and rates every stored match again, in the order they ended."""
    with storage.engine.begin() as conn:
        conn.execute(delete(ratings))
        conn.execute(delete(rated_matches))
        conn.execute(delete(unrated_matches))
        for code in _candidates(conn):
            rows = [{"room": m.room, "number": m.number, "ended_at": m.ended_at} for m in _finished(conn, code)]
            if rows:
                conn.execute(insert(unrated_matches), rows)
    return rate_pending(storage, games)


def leaderboard(storage: Storage, game: str, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
    """The game's ratings, best conservative display first, with the profiles' names, colours and emoji."""
    from partygames.server.profiles import profiles  # (the table; profiles.py imports this module)

    # The page is found in the index alone (`ratings_by_board`: the rows skipped by the offset are never read
    # from the table nor joined), then its rows are read and joined.
    page = (select(ratings.c.profile, ratings.c.game).where(ratings.c.game == game)
            .order_by(ratings.c.display.desc(), ratings.c.profile).limit(limit).offset(offset).subquery())
    with storage.engine.connect() as conn:
        rows = conn.execute(select(ratings, profiles.c.name, profiles.c.colour, profiles.c.emoji)
                            .join(page, (page.c.profile == ratings.c.profile) & (page.c.game == ratings.c.game))
                            .join(profiles, profiles.c.id == ratings.c.profile)
                            .order_by(ratings.c.display.desc(), ratings.c.profile)).mappings()
        return [{"place": offset + i + 1, "profile": r["profile"], "name": r["name"], "colour": r["colour"],
                 "emoji": r["emoji"], **rating_json(dict(r))} for i, r in enumerate(rows)]


def of_profile(conn: Connection, profile: str) -> list[dict[str, Any]]:
    return [rating_json(dict(r)) for r in conn.execute(select(ratings).where(ratings.c.profile == profile)
                                                 .order_by(ratings.c.game)).mappings()]

