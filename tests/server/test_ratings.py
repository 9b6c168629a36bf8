"""Ratings from stored matches, on SQLite and a real PostgreSQL: who counts (people, not bots; a person who
played at least half of their seat's steps; not an abandoned room), teams and ties, and each match rating
once however often it is applied."""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from alembic import command
from sqlalchemy import create_engine, func, insert, select, update

from partygames.games import all_games
from partygames.server import migrations, ratings
from partygames.server import storage as db
from partygames.server.profiles import profiles
from partygames.server.settings import normalize_database_url
from partygames.server.storage import Storage
from tests.server.pg import fresh_database

pytestmark = pytest.mark.xdist_group("server-restart")
GAMES = {g.id: g for g in all_games()}


@pytest.fixture
def store(database_url: str | None, tmp_path: Path) -> Iterator[Storage]:
    # A database of its own: `rebuild` and `rate_pending` take every room of the database.
    url = fresh_database(normalize_database_url(database_url)) if database_url else f"sqlite:///{tmp_path / 'db.sqlite3'}"
    storage = Storage(url)
    yield storage
    storage.close()


def person(store: Storage) -> str:
    profile = uuid.uuid4().hex[:16]
    with store.engine.begin() as conn:
        conn.execute(insert(profiles).values(id=profile, name=profile[:6],
                                             colour="#123456", visibility="members", created_at=1.0))
    return profile


def finished_room(store: Storage, game: str, table: Sequence[tuple[str | None, int, Sequence[str]]],
                  status: str = "over", ended_at: float = 10.0, queued: bool = True) -> str:
    """A room of `game` as a server leaves it: per seat (its profile, or None for a bot seat; its rank; the
    sources of its steps, "seat" for the person and "standin" (or, in older logs, "bot") for a stand-in bot).
    `queued`: as the server queues it for rating (False: as a server before the queue left it)."""
    code = uuid.uuid4().hex[:8].upper()
    result = {"seats": [{"seat": i, "rank": rank, "is_winner": rank == 1, "score": 0.0, "holdings": {}}
                        for i, (_, rank, _) in enumerate(table)], "termination": "t", "winners": [], "detail": {}}
    with store.engine.begin() as conn:
        conn.execute(insert(db.rooms).values(
            code=code, game=game, seats=len(table), options="{}", status=status, seed="1", host_token_hash="h" * 64,
            host_seat=0, created_at=1.0, started_at=1.0, finished_at=ended_at,
            result=json.dumps(result) if status == "over" else None))
        if status == "over" and queued:  # the write that ends a match queues it for rating
            conn.execute(insert(db.unrated_matches).values(room=code, number=1, ended_at=ended_at))
        seq = 0
        for i, (profile, _, sources) in enumerate(table):
            conn.execute(insert(db.seats).values(room=code, seat=i, kind="bot" if profile is None else "human",
                                                 bot="random" if profile is None else None, name=f"P{i}",
                                                 profile=profile))
            for source in sources:
                seq += 1
                conn.execute(insert(db.log_entries).values(room=code, seq=seq, at=seq, seat=i, action="{}",
                                                           source=source))
    return code


def conn_rows(store: Storage, query: Any) -> list[tuple[Any, ...]]:
    with store.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(query).all()]


def rating(store: Storage, profile: str, game: str) -> tuple[float, float, int] | None:
    with store.engine.connect() as conn:
        row = conn.execute(select(ratings.ratings).where(ratings.ratings.c.profile == profile,
                                                         ratings.ratings.c.game == game)).mappings().first()
    return None if row is None else (row["mu"], row["sigma"], row["matches"])


def test_a_match_of_two_people_rates_once_however_often_it_is_applied(store: Storage) -> None:
    a, b = person(store), person(store)
    code = finished_room(store, "dice-derby", [(a, 2, ["seat"]), (b, 1, ["seat"]), (None, 3, ["bot"])])
    assert ratings.rate_pending(store, GAMES) == 1
    winner, loser = rating(store, b, "dice-derby"), rating(store, a, "dice-derby")
    assert winner is not None and loser is not None
    assert winner[0] > 25 > loser[0] and winner[2] == loser[2] == 1
    # A retry, or another process after a failover, applying the same match: it collides with its key.
    with store.engine.connect() as conn:
        [match] = ratings._finished(conn, code)
    assert ratings.consider(store, match, GAMES) is False
    assert ratings.rate_pending(store, GAMES) == 0
    assert rating(store, b, "dice-derby") == winner and rating(store, a, "dice-derby") == loser
    # The leaderboard: conservative display, provisional below the documented count.
    board = ratings.leaderboard(store, "dice-derby")
    assert [r["profile"] for r in board] == [b, a]
    assert board[0]["rating"] == round(winner[0] - 3 * winner[1], 2) and board[0]["provisional"]


def test_bots_stand_ins_and_abandoned_rooms_do_not_count(store: Storage) -> None:
    a, b, c = person(store), person(store), person(store)
    # Seat 1's person played 1 step of 3, a stand-in the rest: left out; one person is left, so not rated.
    finished_room(store, "dice-derby", [(a, 1, ["seat", "seat"]), (b, 2, ["seat", "standin", "standin"]), (None, 3, [])])
    # An abandoned room (closed before the end) is never rated.
    finished_room(store, "dice-derby", [(a, 1, ["seat"]), (c, 2, ["seat"])], status="closed")
    assert ratings.rate_pending(store, GAMES) == 1
    assert rating(store, a, "dice-derby") is None and rating(store, b, "dice-derby") is None
    with store.engine.connect() as conn:
        assert conn.execute(select(ratings.rated_matches.c.rated)).scalars().all() == [False]
    # Half the steps is enough: seat 1's person played 2 of 4; the bot seat between them is ignored.
    finished_room(store, "dice-derby", [(a, 3, ["seat"]), (None, 1, ["bot"]), (c, 2, ["seat", "bot", "seat", "bot"])])
    assert ratings.rate_pending(store, GAMES) == 1
    rated_a, rated_c = rating(store, a, "dice-derby"), rating(store, c, "dice-derby")
    assert rated_a is not None and rated_c is not None and rated_c[0] > rated_a[0]  # c placed above a


def test_teams_and_ties(store: Storage) -> None:
    north = [person(store), person(store)]
    south = [person(store), person(store)]
    # Smuggling rates its two teams (even seats North): North wins; every member of a team moves alike.
    finished_room(store, "smuggling", [(north[0], 1, ["seat"]), (south[0], 2, ["seat"]), (north[1], 1, ["seat"]),
                                       (south[1], 2, ["seat"])])
    # A tie in a game without teams: equal ranks move equal ratings the same way.
    x, y = person(store), person(store)
    finished_room(store, "dice-derby", [(x, 1, ["seat"]), (y, 1, ["seat"])], ended_at=11.0)
    assert ratings.rate_pending(store, GAMES) == 2
    won = [rating(store, p, "smuggling") for p in north]
    lost = [rating(store, p, "smuggling") for p in south]
    assert won[0] == won[1] and lost[0] == lost[1]
    assert won[0] is not None and lost[0] is not None and won[0][0] > 25 > lost[0][0]
    tied_x, tied_y = rating(store, x, "dice-derby"), rating(store, y, "dice-derby")
    assert tied_x == tied_y and tied_x is not None and tied_x[0] == pytest.approx(25.0)


def test_rebuild_gives_the_same_ratings(store: Storage) -> None:
    a, b, c = person(store), person(store), person(store)
    finished_room(store, "dice-derby", [(a, 1, ["seat"]), (b, 2, ["seat"]), (c, 3, ["seat"])], ended_at=1.0)
    finished_room(store, "dice-derby", [(a, 3, ["seat"]), (b, 1, ["seat"]), (c, 2, ["seat"])], ended_at=2.0)
    assert ratings.rate_pending(store, GAMES) == 2
    before = [rating(store, p, "dice-derby") for p in (a, b, c)]
    assert ratings.rebuild(store, GAMES) == 2
    assert [rating(store, p, "dice-derby") for p in (a, b, c)] == before
    assert all(r is not None and r[2] == 2 for r in before)
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(ratings.rated_matches)).scalar_one() == 2


def test_the_terminal_prints_a_leaderboard_and_rebuilds(store: Storage) -> None:
    from typer.testing import CliRunner

    from partygames.cli.main import app

    a, b = person(store), person(store)
    with store.engine.begin() as conn:
        conn.execute(profiles.update().where(profiles.c.id == a).values(name="Aki"))
        conn.execute(profiles.update().where(profiles.c.id == b).values(name="ベン"))
    finished_room(store, "dice-derby", [(a, 2, ["seat"]), (b, 1, ["seat"])])
    runner = CliRunner()
    url = ["--database-url", store.url]
    shown = runner.invoke(app, ["ratings", "dice-derby", *url], env={"COLUMNS": "100"})
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines.index(next(line for line in lines if "ベン" in line)) < lines.index(next(line for line in lines if "Aki" in line))
    assert "(provisional)" in shown.output
    ja = runner.invoke(app, ["ratings", "dice-derby", *url, "--lang", "ja"], env={"COLUMNS": "100"})
    assert ja.exit_code == 0 and "(暫定)" in ja.output and "レーティング" in ja.output
    assert rating(store, b, "dice-derby") is not None
    before = rating(store, b, "dice-derby")
    rebuilt = runner.invoke(app, ["ratings", "rebuild", *url])
    assert rebuilt.exit_code == 0 and "1" in rebuilt.output and rating(store, b, "dice-derby") == before
    unknown = runner.invoke(app, ["ratings", "nope", *url])
    assert unknown.exit_code == 1 and "nope" in unknown.output


def test_a_room_that_played_again_rates_each_match_from_its_own_steps(store: Storage) -> None:
    a, b, c = person(store), person(store), person(store)
    # This room's current match: a and b played their own steps (seq 1, 2 below are renumbered after the
    # earlier match's). Its earlier match (seq 1-3): c's seat was a stand-in's for 2 of 3 steps.
    code = finished_room(store, "dice-derby", [(a, 1, ["seat"]), (b, 2, ["seat"]), (c, 3, ["seat"])])
    with store.engine.begin() as conn:
        rows = conn.execute(select(db.log_entries).where(db.log_entries.c.room == code)).mappings().all()
        conn.execute(db.log_entries.delete().where(db.log_entries.c.room == code))
        earlier = [(0, "seat"), (2, "bot"), (2, "bot"), (2, "seat"), (1, "seat")]  # seq 1-5: the earlier match
        for seq, (seat, source) in enumerate(earlier, start=1):
            conn.execute(insert(db.log_entries).values(room=code, seq=seq, at=seq, seat=seat, action="{}", source=source))
        for row in rows:
            conn.execute(insert(db.log_entries).values({**row, "seq": row["seq"] + len(earlier)}))
        result = {"seats": [{"seat": i, "rank": r, "is_winner": r == 1, "score": 0.0, "holdings": {}}
                            for i, r in enumerate((3, 2, 1))], "termination": "t", "winners": [], "detail": {}}
        conn.execute(insert(db.matches).values(room=code, number=1, game="dice-derby", options="{}", seed="1",
                                               bots="{}", started_at=0.5, result=json.dumps(result), last_seq=5))
        # The room played on: its current match is the second; the first was queued when it ended.
        conn.execute(db.unrated_matches.update().where(db.unrated_matches.c.room == code).values(number=2))
        conn.execute(insert(db.unrated_matches).values(room=code, number=1, ended_at=1.0))
    assert ratings.rate_pending(store, GAMES) == 2
    # c counts only in the second match (their own steps); a and b in both.
    assert [rating(store, p, "dice-derby")[2] for p in (a, b, c)] == [2, 2, 1]  # type: ignore[index]
    with store.engine.connect() as conn:
        assert sorted(conn.execute(select(ratings.rated_matches.c.number, ratings.rated_matches.c.rated)
                                   .where(ratings.rated_matches.c.room == code)).all()) == [(1, True), (2, True)]


def test_two_processes_rating_one_match_at_once_rate_it_once(store: Storage) -> None:
    """A failover or a retry: several workers (each with its own connection pool, as processes have) consider the
    same match at the same moment; the match's key lets exactly one of them change the ratings."""
    import threading

    a, b = person(store), person(store)
    code = finished_room(store, "dice-derby", [(a, 1, ["seat"]), (b, 2, ["seat"])])
    with store.engine.connect() as conn:
        [match] = ratings._finished(conn, code)
    workers = [Storage(store.url) for _ in range(4)]
    start = threading.Barrier(len(workers))
    outcomes: list[bool] = []

    def work(storage: Storage) -> None:
        start.wait()
        outcomes.append(ratings.consider(storage, match, GAMES))

    threads = [threading.Thread(target=work, args=(w,)) for w in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for worker in workers:
        worker.close()
    assert sorted(outcomes) == [False, False, False, True]
    assert [rating(store, p, "dice-derby")[2] for p in (a, b)] == [1, 1]  # type: ignore[index]


def test_a_database_from_before_the_queue_has_its_unrated_matches_queued(database_url: str | None, tmp_path: Path) -> None:
    """Before revision 0005 a match was rated when a page was next asked for: a database upgraded from then
    queues the finished matches that were never rated (where two profiles sat), and only those."""
    url = fresh_database(normalize_database_url(database_url)) if database_url else f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        command.upgrade(migrations.config(conn), "0004")
    old = cast(Storage, SimpleNamespace(engine=engine))
    a, b = person(old), person(old)
    waiting = finished_room(old, "dice-derby", [(a, 1, ["seat"]), (b, 2, ["seat"])], queued=False)
    rated = finished_room(old, "dice-derby", [(a, 1, ["seat"]), (b, 2, ["seat"])], queued=False)
    one = finished_room(old, "dice-derby", [(a, 1, ["seat"]), (None, 2, ["bot"])], queued=False)  # one person: never rated
    with engine.begin() as conn:
        conn.execute(insert(ratings.rated_matches).values(room=rated, number=1, game="dice-derby", rated=True, at=1.0))
    engine.dispose()
    store = Storage(url)  # upgraded to the newest revision
    try:
        with store.engine.connect() as conn:
            assert conn.execute(select(db.unrated_matches.c.room, db.unrated_matches.c.number)).all() == [(waiting, 1)]
        # Every finished match of a profile is in its history already, rated or not.
        assert sorted(conn_rows(store, select(db.played_matches.c.profile, db.played_matches.c.room))) == sorted(
            [(a, waiting), (b, waiting), (a, rated), (b, rated), (a, one)])
        assert ratings.rate_pending(store, GAMES) == 1
        assert rating(store, a, "dice-derby") is not None and rating(store, a, "dice-derby")[2] == 1  # type: ignore[index]
        assert len(conn_rows(store, select(db.played_matches))) == 5
    finally:
        store.close()


def test_the_catch_up_takes_the_queue_in_the_order_matches_ended_and_a_few_at_a_time(store: Storage) -> None:
    a, b = person(store), person(store)
    # Ended in the order second, first, third: a wins the second, b the other two.
    first = finished_room(store, "dice-derby", [(a, 2, ["seat"]), (b, 1, ["seat"])], ended_at=2.0)
    second = finished_room(store, "dice-derby", [(a, 1, ["seat"]), (b, 2, ["seat"])], ended_at=1.0)
    third = finished_room(store, "dice-derby", [(a, 2, ["seat"]), (b, 1, ["seat"])], ended_at=3.0)
    # The sweep leaves what ended a moment ago to its owner's hook; a batch takes the earliest.
    assert ratings.rate_pending(store, GAMES, limit=5, ended_before=1.5) == 1
    with store.engine.connect() as conn:
        assert conn.execute(select(ratings.rated_matches.c.room)).scalars().all() == [second]
    assert [m.room for m in ratings.pending(store)] == [first, third]
    assert ratings.rate_pending(store, GAMES, limit=1) == 1
    assert [m.room for m in ratings.pending(store)] == [third]
    assert ratings.rate_pending(store, GAMES) == 1
    assert ratings.pending(store) == []
    # The ratings are those of the three matches applied in the order they ended.
    model = ratings.MODEL
    ra, rb = model.rating(), model.rating()
    for a_rank, b_rank in ((1, 2), (2, 1), (2, 1)):
        [[ra], [rb]] = model.rate([[ra], [rb]], ranks=[float(a_rank), float(b_rank)])
    assert rating(store, a, "dice-derby") == pytest.approx((ra.mu, ra.sigma, 3))
    assert rating(store, b, "dice-derby") == pytest.approx((rb.mu, rb.sigma, 3))


def test_a_profile_page_shows_the_latest_matches_and_links_the_earlier_ones(store: Storage) -> None:
    from partygames.server import profiles as profile_pages

    a, b = person(store), person(store)
    with store.engine.begin() as conn:
        conn.execute(profiles.update().where(profiles.c.id == a).values(visibility="public"))
    rooms_in_order = []
    for i in range(5):  # started at 1, 2, ... 5 (a wins the even ones)
        code = finished_room(store, "dice-derby", [(a, 1 + i % 2, ["seat"]), (b, 2 - i % 2, ["seat"])])
        with store.engine.begin() as conn:
            conn.execute(db.rooms.update().where(db.rooms.c.code == code).values(started_at=float(i + 1)))
        rooms_in_order.append(code)
    newest_first = rooms_in_order[::-1]
    assert ratings.rate_pending(store, GAMES) == 5  # (a match enters its people's histories as it is considered)
    first = profile_pages.page(store, a, None, limit=2)
    assert [m["room"] for m in first["matches"]] == newest_first[:2]
    assert [m["won"] for m in first["matches"]] == [True, False]
    assert first["more"] == f"/api/profiles/{a}?offset=2&limit=2"
    last = profile_pages.page(store, a, None, limit=2, offset=4)
    assert [m["room"] for m in last["matches"]] == newest_first[4:] and last["more"] is None
    whole = profile_pages.page(store, a, a)
    assert [m["room"] for m in whole["matches"]] == newest_first and whole["more"] is None
    # b's matches are not public: a stranger gets neither them nor a link to more.
    hidden = profile_pages.page(store, b, None, limit=2)
    assert hidden["matches"] is None and hidden["more"] is None


def test_a_match_that_cannot_be_rated_does_not_hold_up_the_queue(store: Storage, caplog: pytest.LogCaptureFixture) -> None:
    a, b = person(store), person(store)
    # The earliest queued match has a stored result the rater cannot read (a row damaged by hand, say).
    broken = finished_room(store, "dice-derby", [(a, 1, ["seat"]), (b, 2, ["seat"])], ended_at=1.0)
    with store.engine.begin() as conn:
        conn.execute(update(db.rooms).where(db.rooms.c.code == broken).values(result=json.dumps({"seats": 7})))
    fine = finished_room(store, "dice-derby", [(a, 2, ["seat"]), (b, 1, ["seat"])], ended_at=2.0)
    with caplog.at_level(logging.ERROR, logger="partygames.ratings"):
        assert ratings.rate_pending(store, GAMES, limit=5) == 1  # the one behind it is rated
        assert ratings.rate_pending(store, GAMES, limit=5) == 0
    rated = rating(store, b, "dice-derby")
    assert rated is not None and rated[2] == 1
    with store.engine.connect() as conn:
        assert conn.execute(select(ratings.rated_matches.c.room)).scalars().all() == [fine]
    assert [m.room for m in ratings.pending(store)] == [broken]  # still queued, for a fixed rater or a rebuild
    said = [r for r in caplog.records if broken in r.getMessage()]
    assert len(said) == 1 and said[0].exc_info is not None  # said once, with its traceback
