"""Tournament rooms (the Liar Game night) and their yen ledger per person, from the database.

A room made as a night (`POST /api/nights`) has a `nights` row: which tournament, and the options it was made
with for each game. It plays the tournament's stages in order with the same seats (the host's "Next" goes on to
the next stage: `stage_options` gives its options). Each finished match of the room adds one line per seat to
the ledger (the game's `Game.yen`); a seat's balance is the sum of its lines.

Exactly once: every match entered gets one `ledger_matches` row, keyed on the match (room, match number),
inserted in the same transaction as its lines, before them. A second attempt (a retry, a second request, another
process, a restart) collides with the key and its transaction changes nothing. The ledger is brought up to date
whenever it is read (`settle`), so a match counts whichever process reads it first.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Request
from pydantic import Field, StringConstraints
from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    insert,
    select,
)
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection

from partygames.engine.errors import EngineError
from partygames.engine.game import Game
from partygames.engine.match import Result, SeatResult
from partygames.engine.tournament import Tournament
from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.protocol import CreateRoom, Name, _Body
from partygames.server.storage import Storage, matches, metadata, rooms, seats
from partygames.server.text import escape
from partygames.tournaments import all_tournaments

if TYPE_CHECKING:
    from partygames.server.hub import Hub
    from partygames.server.rooms import Room

nights = Table(
    "nights", metadata,
    Column("room", String(12), ForeignKey("rooms.code"), primary_key=True),
    Column("night", String(32), nullable=False),
    Column("options", Text, nullable=False),  # JSON: {game: {option: value}} as the room was made
    Column("created_at", Float, nullable=False),
)

ledger_matches = Table(
    "ledger_matches", metadata,
    Column("room", String(12), ForeignKey("rooms.code"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("game", String(64), nullable=False),
    Column("at", Float, nullable=False),
)

ledger_lines = Table(
    "ledger_lines", metadata,
    Column("room", String(12), ForeignKey("rooms.code"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("game", String(64), nullable=False),
    Column("yen", BigInteger, nullable=False),
    Column("line", Text, nullable=False),  # JSON: YenLine.to_json()
)

TOURNAMENTS = all_tournaments()


class CreateNight(_Body):
    """A room made as a tournament: its seats as `CreateRoom`'s, and options per game (`{game: {...}}`) on top of
    the tournament's own (fast test tables, the original's figures)."""

    night: Annotated[str, StringConstraints(max_length=32)]
    seats: Annotated[int, Field(ge=1, le=64)]
    options: dict[str, dict[str, Any]] | None = None
    seat_kinds: Annotated[list[Annotated[str, StringConstraints(max_length=40)]], Field(max_length=64)] | None = None
    name: Name | None = None
    host_seat: int | None = None
    private: bool = False


def unknown_night(night: str) -> ServerError:
    known = ", ".join(TOURNAMENTS)
    return ServerError(Code.NIGHT_UNKNOWN, f"No tournament {night[:32]!r} (tournaments: {known}).",
                       f"トーナメント「{night[:32]}」はありません(あるもの: {known})。", 404)


def check_night(body: CreateNight, games: Mapping[str, Game]) -> Tournament:
    """The tournament `body` asks for, its seat count and every stage's options checked (refused: ServerError,
    nothing made)."""
    night = TOURNAMENTS.get(body.night)
    if night is None:
        raise unknown_night(body.night)
    if body.seats not in night.seat_counts:
        counts = ", ".join(map(str, night.seat_counts))
        raise ServerError(Code.NIGHT_SEATS, f"{night.title.en} takes {counts} seats, not {body.seats}.",
                          f"{night.title.ja}の席数は {counts} です({body.seats} は不可)。", 422)
    stage_games = {stage.game for stage in night.stages}
    for game_id in body.options or {}:
        if game_id not in stage_games:
            raise ServerError(Code.OPTIONS_INVALID, f"{game_id[:40]!r} is not a game of {night.title.en}.",
                              f"「{game_id[:40]}」は{night.title.ja}のゲームではありません。", 422)
    for index, stage in enumerate(night.stages):
        try:  # (a handover's own fields, such as the final's players, come later and are left out here)
            stage_game = games[stage.game]
            stage_game.options_class.parse(stage_game.fitted_options(body.seats, night.stage_options(
                index, body.seats, body.options)), strict=True)
        except EngineError as error:
            raise ServerError.from_engine(error, 422) from None
    return night


def night_of(conn: Connection, code: str) -> tuple[Tournament, dict[str, Any]] | None:
    row = conn.execute(select(nights).where(nights.c.room == code)).mappings().first()
    if row is None or row["night"] not in TOURNAMENTS:
        return None
    return TOURNAMENTS[row["night"]], json.loads(row["options"])


def _finished(conn: Connection, code: str) -> list[tuple[int, str, Result]]:
    """Room `code`'s finished matches in order: (number, game, result)."""
    room = conn.execute(select(rooms).where(rooms.c.code == code)).mappings().one()
    out, number = [], 0
    for m in conn.execute(select(matches).where(matches.c.room == code).order_by(matches.c.number)).mappings():
        number = int(m["number"])
        if m["result"] is not None:
            out.append((number, str(m["game"]), result_of(json.loads(m["result"]))))
    if room["status"] == "over" and room["result"] is not None:
        out.append((number + 1, str(room["game"]), result_of(json.loads(room["result"]))))
    return out


def result_of(data: Mapping[str, Any]) -> Result:
    """A stored `Result.to_json()` read back."""
    return Result(tuple(SeatResult(int(s["seat"]), int(s["rank"]), bool(s["is_winner"]), float(s["score"]),
                                   dict(s.get("holdings") or {})) for s in data["seats"]),
                  str(data["termination"]), dict(data.get("detail") or {}))


def settle(storage: Storage, code: str, games: Mapping[str, Game]) -> int:
    """Enters every finished match of night room `code` not yet in its ledger; returns how many this call
    entered (0 for a room that is no night). Each match in a transaction of its own, its key first."""
    with storage.engine.connect() as conn:
        if night_of(conn, code) is None:
            return 0
        done = set(conn.execute(select(ledger_matches.c.number).where(ledger_matches.c.room == code)).scalars())
        pending = [m for m in _finished(conn, code) if m[0] not in done]
    entered = 0
    for number, game_id, result in pending:
        game = games.get(game_id)
        try:
            with storage.engine.begin() as conn:
                conn.execute(insert(ledger_matches).values(room=code, number=number, game=game_id, at=time.time()))
                if game is not None and game.yen is not None:
                    lines = game.yen(result)
                    conn.execute(insert(ledger_lines), [
                        {"room": code, "number": number, "seat": seat, "game": game_id, "yen": line.yen,
                         "line": json.dumps(line.to_json(), ensure_ascii=False)} for seat, line in enumerate(lines)])
            entered += 1
        except IntegrityError:
            continue  # entered before, by this process or another: nothing changed
    return entered


def ledger_json(storage: Storage, code: str, games: Mapping[str, Game]) -> dict[str, Any]:
    """Room `code`'s ledger: the tournament, its rounds so far, every seat's lines and balance, the next stage."""
    with storage.engine.connect() as conn:
        found = night_of(conn, code)
        if found is None:
            return {"night": None}
        night, _options = found
        finished = _finished(conn, code)
        seat_rows = conn.execute(select(seats).where(seats.c.room == code).order_by(seats.c.seat)).mappings().all()
        entered = conn.execute(select(ledger_matches).where(ledger_matches.c.room == code)
                               .order_by(ledger_matches.c.number)).mappings().all()
        lines = conn.execute(select(ledger_lines).where(ledger_lines.c.room == code)).mappings().all()
    by_seat: dict[int, dict[int, dict[str, Any]]] = {int(s["seat"]): {} for s in seat_rows}
    for row in lines:
        by_seat.setdefault(int(row["seat"]), {})[int(row["number"])] = json.loads(row["line"])
    titles = {stage.game: stage.title for stage in night.stages}
    def title(game: str) -> dict[str, str]:
        known = titles.get(game) or (games[game].title if game in games else None)
        return known.to_json() if known is not None else {"en": game, "ja": game}

    rounds = [{"number": int(m["number"]), "game": m["game"], "title": title(m["game"])} for m in entered]
    # Names as the room's JSON sends them (HTML-escaped; a bot named by its kind).
    people = [{"seat": int(s["seat"]), "name": escape(s["name"]) if s["name"] else (f"{s['bot']} bot" if s["bot"] else None),
               "kind": s["kind"], "bot": s["bot"],
               "lines": {str(n): line for n, line in sorted(by_seat.get(int(s["seat"]), {}).items())},
               "balance": sum(line["yen"] for line in by_seat.get(int(s["seat"]), {}).values())} for s in seat_rows]
    upcoming = night.next_stage([(game, result) for _n, game, result in finished])
    stage = night.stages[upcoming] if upcoming is not None else None
    return {"night": night.id, "title": night.title.to_json(), "note": night.note.to_json(),
            "stages": [{"game": s.game, "title": s.title.to_json()} for s in night.stages],
            "rounds": rounds, "people": people,
            "next": {"game": stage.game, "title": stage.title.to_json()} if stage is not None else None,
            "over": upcoming is None}


def stage_options(storage: Storage, code: str, game_id: str | None) -> dict[str, Any] | None:
    """The options of night room `code`'s next stage when `game_id` is that stage's game (the tournament's own,
    then those the room was made with); None for a room that is no night or another game."""
    with storage.engine.connect() as conn:
        found = night_of(conn, code)
        if found is None or game_id is None:
            return None
        night, given = found
        seats_count = int(conn.execute(select(rooms.c.seats).where(rooms.c.code == code)).scalar_one())
        upcoming = night.next_stage([(game, result) for _n, game, result in _finished(conn, code)])
    if upcoming is None or night.stages[upcoming].game != game_id:
        return None
    return night.stage_options(upcoming, seats_count, given)


def install(app: FastAPI, hub: Hub, find: Callable[[str, HTTPConnection], Awaitable[Room]]) -> None:
    """The tournament routes: POST /api/nights (a room made as a tournament) and GET /api/rooms/{code}/ledger."""
    from partygames.server import profiles  # (its routes are installed beside these)

    @app.post("/api/nights", tags=["lobby"])
    async def create_night(body: CreateNight, request: Request) -> dict[str, Any]:
        """Creates a room that plays a tournament's stages in order (`night`: "liar-game"), with a yen ledger;
        the answer is `POST /api/rooms`'s."""
        night = check_night(body, hub.games)
        first = night.stages[0]
        made = body.model_dump(exclude_unset=True, exclude={"night", "options"})
        room_body = CreateRoom.model_validate({**made, "game": first.game,
                                               "options": night.stage_options(0, body.seats, body.options)})
        room, host_token, seat, token = await hub.create(room_body)
        await asyncio.to_thread(_insert_night, hub.storage, room.code, night.id, body.options or {})
        await profiles.seat_taken(request, hub.storage, room.code, seat,
                                  room.lobby.seats[seat].name if seat is not None else None)
        data = room.to_json(hub.base_url)
        return {"code": room.code, "link": data["link"], "host_token": host_token, "seat": seat, "token": token,
                "room": data, "night": night.id}

    @app.get("/api/nights", tags=["lobby"])
    async def list_nights() -> list[dict[str, Any]]:
        """The tournaments a room may be made as, with their stages and seat counts."""
        return [{"id": t.id, "title": t.title.to_json(), "note": t.note.to_json(), "seat_counts": list(t.seat_counts),
                 "stages": [{"game": s.game, "title": s.title.to_json()} for s in t.stages]}
                for t in TOURNAMENTS.values()]

    @app.get("/api/rooms/{code}/ledger", tags=["lobby"])
    async def get_ledger(code: str, request: Request) -> dict[str, Any]:
        """A night room's yen ledger, brought up to date (`{"night": null}` for a room that is no night)."""
        room = await find(code, request)  # (within the client's budget of codes that do not exist)
        await asyncio.to_thread(settle, hub.storage, room.code, hub.games)
        return await asyncio.to_thread(ledger_json, hub.storage, room.code, hub.games)


def _insert_night(storage: Storage, code: str, night: str, options: Mapping[str, Any]) -> None:
    with storage.engine.begin() as conn:
        conn.execute(insert(nights).values(room=code, night=night, options=json.dumps(options, ensure_ascii=False),
                                           created_at=time.time()))


async def next_options(hub: Hub, room: Room, game_id: str | None) -> dict[str, Any] | None:
    """What the host's next match of `room` plays with besides its defaults: a night's stage options."""
    return await asyncio.to_thread(stage_options, hub.storage, room.code, game_id)
