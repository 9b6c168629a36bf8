"""The Liar Game night (issue 30): seed 000's three games in one room, played end to end by bots on a real server,
with a yen ledger per person worked out here by hand from each match's result; each match enters the ledger
exactly once (however often, and by however many at once, it is settled), and the ledger survives a restart.
Bad requests for a night are refused with a coded en/ja error and make nothing."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, insert, select

from partygames.games import all_games
from partygames.server import ledger
from partygames.server import storage as db
from partygames.server.settings import normalize_database_url
from partygames.server.storage import Storage
from tests.server.client import Lobby
from tests.server.live import LiveServer
from tests.server.pg import fresh_database

pytestmark = pytest.mark.xdist_group("server-restart")
GAMES = {g.id: g for g in all_games()}
OKU = 100_000_000  # 1億

# Quick tables: two small games; the qualifier in rounds of 30 s for 5 minutes; the final on the small island.
FAST = {
    "smuggling": {"small_games": 2},
    "pandemic": {"tempo": "rounds", "step_seconds": 30, "minutes": 5},
    "musical-chairs": {"island": "test", "tempo": "rounds", "speed": 50, "race_seconds": 10, "first_break_seconds": 10,
                       "break_seconds": 10, "vote_seconds": 10, "remove_seconds": 10},
}


def over(lobby: Lobby, code: str, match: int, timeout: float = 120) -> dict[str, Any]:
    """The room once its `match`-th match is over."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        room = lobby.room(code)
        if room["match"] == match and room["status"] == "over":
            return room
        time.sleep(0.2)
    raise TimeoutError(f"match {match} of {code} did not end: {lobby.room(code)}")


def go_on(lobby: Lobby, code: str, host: str, game: str) -> dict[str, Any]:
    response = lobby.http.post(f"/api/rooms/{code}/next", json={"game": game}, headers={"X-Host-Token": host})
    assert response.status_code == 200, response.text
    return dict(response.json())


def read_ledger(lobby: Lobby, code: str) -> dict[str, Any]:
    response = lobby.http.get(f"/api/rooms/{code}/ledger")
    assert response.status_code == 200, response.text
    return dict(response.json())


def lines_of(book: dict[str, Any], number: int) -> list[int]:
    return [person["lines"][str(number)]["yen"] for person in book["people"]]


def test_bad_requests_for_a_night_make_nothing(registry_server: LiveServer) -> None:
    lobby = Lobby(registry_server.url)
    before = len(lobby.http.get("/api/rooms").json())
    bots = ["bot:heuristic"] * 4
    for body, status, code in [
        ({"night": "no-such-night", "seats": 4, "seat_kinds": bots, "host_seat": None}, 404, "night/unknown"),
        ({"night": "liar-game", "seats": 5, "seat_kinds": bots + bots[:1], "host_seat": None}, 422, "night/seats"),
        ({"night": "liar-game", "seats": 20, "host_seat": None}, 422, "night/seats"),
        ({"night": "liar-game", "seats": 4, "seat_kinds": bots, "host_seat": None, "options": {"quiz": {}}},
         422, "options/invalid"),
        ({"night": "liar-game", "seats": 4, "seat_kinds": bots, "host_seat": None,
          "options": {"smuggling": {"small_games": 0}}}, 422, "options/invalid"),
    ]:
        response = lobby.http.post("/api/nights", json=body)
        assert response.status_code == status, response.text
        error = response.json()["error"]
        assert error["code"] == code and error["en"] and error["ja"] and error["en"] != error["ja"]
    assert len(lobby.http.get("/api/rooms").json()) == before
    assert lobby.http.get("/api/rooms/ABCDEF/ledger").json()["error"]["code"] == "room/not_found"
    plain = lobby.create("lucky-nine", 2, host_seat=None, seat_kinds=["bot:random"] * 2)
    assert read_ledger(lobby, plain["code"]) == {"night": None}  # a room that is no night has no ledger
    nights = lobby.http.get("/api/nights").json()
    assert [n["id"] for n in nights] == ["liar-game"] and nights[0]["seat_counts"] == [4, 6, 8, 10, 12, 14, 16, 18]
    lobby.http.close()


def test_a_liar_game_night_is_played_by_bots_with_its_ledger_worked_out_by_hand(tmp_path: Path) -> None:
    live = LiveServer(tmp_path, bot_delay=0.0, deadline_scale=0.1, games=None).start()
    try:
        lobby = Lobby(live.url)
        response = lobby.http.post("/api/nights", json={
            "night": "liar-game", "seats": 4, "seat_kinds": ["bot:heuristic"] * 4, "host_seat": None, "options": FAST})
        assert response.status_code == 200, response.text
        made = response.json()
        code, host = made["code"], made["host_token"]
        assert made["room"]["game"] == "smuggling" and made["room"]["options"]["team_size"] == 2
        book = read_ledger(lobby, code)
        assert book["night"] == "liar-game" and book["rounds"] == [] and book["next"]["game"] == "smuggling"
        assert [p["balance"] for p in book["people"]] == [0, 0, 0, 0]

        # Round 3, Smuggling: each person's third-country balance plus their share of what the other team left in
        # their country, minus the 4億 loan (「全てのプレイヤーは最初に借りた4億円を事務局へ返済します」).
        lobby.start(code, host)
        smuggling = over(lobby, code, 1)["result"]
        holdings = [s["holdings"] for s in sorted(smuggling["seats"], key=lambda s: s["seat"])]
        # What the other team left in its opponent-country accounts (in this team's country), shared equally.
        left = {team: sum(h["opp"] for h in holdings if h["team"] != team) for team in ("north", "south")}
        shares = [left[h["team"]] // 2 for h in holdings]
        assert [h["share"] for h in holdings] == shares
        expected = [h["third"] + share - 4 * OKU for h, share in zip(holdings, shares, strict=True)]
        book = read_ledger(lobby, code)
        assert lines_of(book, 1) == expected
        assert [p["balance"] for p in book["people"]] == expected
        assert book["next"]["game"] == "pandemic"
        assert read_ledger(lobby, code)["people"] == book["people"]  # read again: nothing added

        # Round 4's qualifier: half the room passes (2 of 4), one infected; no money changes hands. Played again
        # while fewer than two pass (no final without two players).
        number = 1
        while True:
            room = go_on(lobby, code, host, "pandemic")
            number += 1
            assert room["match"] == number and room["options"]["qualifiers"] == 2 and room["options"]["infected"] == 1
            assert room["options"]["tempo"] == "rounds" and room["options"]["minutes"] == 5  # as the night was made
            pandemic = over(lobby, code, number)["result"]
            book = read_ledger(lobby, code)
            assert lines_of(book, number) == [0, 0, 0, 0]
            qualifiers = sorted(pandemic["winners"])
            if len(qualifiers) >= 2:
                break
            assert book["next"]["game"] == "pandemic" and number < 5
        assert book["next"]["game"] == "musical-chairs"
        assert [p["balance"] for p in book["people"]] == expected

        # Round 4's final: the qualifiers play, the others are ガヤ; medals: one fewer than the people (3); each
        # holder of the winner's medals is paid 1億 a medal.
        room = go_on(lobby, code, host, "musical-chairs")
        number += 1
        assert room["options"]["player_seats"] == qualifiers and room["options"]["gallery"] == 4 - len(qualifiers)
        assert room["options"]["medals"] == 3 and room["options"]["island"] == "test"
        final = over(lobby, code, number, timeout=180)["result"]
        paid = [s["holdings"]["winner_medals"] * OKU for s in sorted(final["seats"], key=lambda s: s["seat"])]
        if final["detail"]["winner"] is not None:
            assert sum(paid) == 3 * OKU  # the winner's three medals, wherever they went
        live.kill()

        # The final's ledger is settled by four at once (a retried match end, another process): entered once.
        storage = Storage(f"sqlite:///{tmp_path / 'partygames.sqlite3'}")
        entered: list[int] = []
        threads = [threading.Thread(target=lambda: entered.append(ledger.settle(storage, code, GAMES)))
                   for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sum(entered) == 1
        assert ledger.settle(storage, code, GAMES) == 0
        storage.close()

        # The ledger survives the restart: every round once, the balance the sum worked out here.
        live.start()
        lobby.http.close()
        lobby = Lobby(live.url)
        book = read_ledger(lobby, code)
        assert [r["game"] for r in book["rounds"]] == ["smuggling", *["pandemic"] * (number - 2), "musical-chairs"]
        assert lines_of(book, 1) == expected and lines_of(book, number) == paid
        assert [p["balance"] for p in book["people"]] == [e + p for e, p in zip(expected, paid, strict=True)]
        assert book["over"] and book["next"] is None
        lobby.http.close()
    finally:
        live.stop()


@pytest.fixture
def store(database_url: str | None, tmp_path: Path) -> Iterator[Storage]:
    url = fresh_database(normalize_database_url(database_url)) if database_url else f"sqlite:///{tmp_path / 'db.sqlite3'}"
    storage = Storage(url)
    yield storage
    storage.close()


def test_the_ledger_enters_each_match_once_on_sqlite_and_postgresql(store: Storage) -> None:
    """A night room as a server leaves it after its Smuggling round (figures chosen here): settled twice, it
    holds one line per seat; the next stage's options follow the room's four seats."""
    code = uuid.uuid4().hex[:8].upper()
    figures = [(150 * 10**6, 20 * 10**6), (420 * 10**6, 0), (90 * 10**6, 20 * 10**6), (500 * 10**6, 0)]
    result = {"seats": [{"seat": i, "rank": 1, "is_winner": True, "score": 0.0, "holdings": {
        "team": "north" if i % 2 == 0 else "south", "third": third, "share": share, "repay": 4 * OKU,
        "net": third + share - 4 * OKU, "opp": 0}} for i, (third, share) in enumerate(figures)],
        "termination": "last_small_game", "winners": [0, 1, 2, 3], "detail": {}}
    with store.engine.begin() as conn:
        conn.execute(insert(db.rooms).values(
            code=code, game="smuggling", seats=4, options="{}", status="over", seed="1", host_token_hash="h" * 64,
            host_seat=None, created_at=1.0, started_at=1.0, finished_at=2.0, result=json.dumps(result)))
        for i in range(4):
            conn.execute(insert(db.seats).values(room=code, seat=i, kind="bot", bot="heuristic", name=f"B{i}"))
        conn.execute(insert(ledger.nights).values(room=code, night="liar-game", options="{}", created_at=1.0))
    assert ledger.settle(store, code, GAMES) == 1
    assert ledger.settle(store, code, GAMES) == 0
    book = ledger.ledger_json(store, code, GAMES)
    # 150M + 20M - 400M; 420M - 400M; 90M + 20M - 400M; 500M - 400M.
    assert [p["balance"] for p in book["people"]] == [-230 * 10**6, 20 * 10**6, -290 * 10**6, 100 * 10**6]
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(ledger.ledger_lines)
                            .where(ledger.ledger_lines.c.room == code)).scalar_one() == 4
    assert book["next"]["game"] == "pandemic"
    assert ledger.stage_options(store, code, "pandemic") == {"qualifiers": 2, "infected": 1}
    assert ledger.stage_options(store, code, "lucky-nine") is None  # not the night's next stage
