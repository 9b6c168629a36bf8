"""A room's lobby on its own (no server): each change is made at once and handed back as the rows that
store it; a refused change leaves the seats as they were and stores nothing."""

from __future__ import annotations

import json

import pytest

from partygames.server import storage as db
from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.presence import Presence
from partygames.server.room_lobby import RoomLobby
from partygames.server.seats import SeatInfo, same_token, token_hash
from partygames.server.storage import Write
from tests.toy_game import GAME as TOY

BOTS = ["random", "heuristic"]


def lobby() -> RoomLobby:
    """Room ROOM42 of four seats: 0 the host (Aki), 1 a random bot, 2 and 3 free human seats."""
    seats = [SeatInfo("human", name="Aki", token_hash=token_hash("t0")), SeatInfo("bot", bot="random"),
             SeatInfo("human"), SeatInfo("human")]
    return RoomLobby("ROOM42", seats, token_hash("host"), host_seat=0)


def seat_rows(write: Write) -> list[tuple[int, dict[str, object]]]:
    """The seats a write updates, each with its new values (and nothing else in it)."""
    assert not write.inserts and all(table is db.seats for table, _, _ in write.updates)
    assert all(key["room"] == "ROOM42" for _, key, _ in write.updates)
    return [(key["seat"], values) for _, key, values in write.updates]


def test_joining_seats_a_person_with_a_token_only_its_hash_is_stored() -> None:
    room = lobby()
    joined = room.join("Mio", None)
    assert joined.seat == 2  # the first free human seat
    assert seat_rows(joined.write) == [(2, {"name": "Mio", "token_hash": token_hash(joined.token)})]
    assert room.seats[2].name == "Mio" and room.seat_for_token(joined.token) == 2
    assert joined.token not in str(joined.write)
    assert room.join("Ren", 3).seat == 3


def test_joining_a_taken_seat_is_refused_with_its_code_and_changes_nothing() -> None:
    room = lobby()
    for seat, code, status in [(0, Code.SEAT_TAKEN, 409), (1, Code.SEAT_TAKEN, 409), (4, Code.SEAT_NO_SUCH_SEAT, 422)]:
        with pytest.raises(ServerError) as refused:
            room.join("Mio", seat)
        assert (refused.value.code, refused.value.status) == (code, status)
    assert [s.name for s in room.seats] == ["Aki", None, None, None]
    room.join("Mio", None)
    room.join("Ren", None)
    with pytest.raises(ServerError) as full:
        room.join("Sora", None)
    assert full.value.code == Code.ROOM_FULL


def test_filling_with_bots_fills_exactly_the_empty_seats() -> None:
    room = lobby()
    room.join("Mio", 3)
    write = room.fill_bots("heuristic", BOTS)
    assert write is not None and seat_rows(write) == [(2, {"kind": "bot", "bot": "heuristic"})]
    assert room.bot_kinds() == {1: "random", 2: "heuristic"}  # seat 1's bot keeps its kind
    assert room.fill_bots("random", BOTS) is None  # no seat left: nothing to store
    with pytest.raises(ServerError) as unknown:
        lobby().fill_bots("oracle", BOTS)
    assert unknown.value.code == Code.BOT_UNKNOWN


def test_the_first_match_starts_only_with_every_seat_taken_and_stores_its_seed_and_time() -> None:
    room = lobby()
    with pytest.raises(ServerError) as free:
        room.start(seed=42, now=1000.0)
    assert free.value.code == Code.ROOM_SEATS_EMPTY
    room.fill_bots("random", BOTS)
    assert room.start(seed=42, now=1000.0).updates == [
        (db.rooms, {"code": "ROOM42"}, {"status": "playing", "seed": json.dumps(42), "started_at": 1000.0})]


def test_a_series_changes_the_kind_of_the_bot_seats_it_names() -> None:
    room = lobby()
    room.fill_bots("random", BOTS)
    room.change_bots({2: "heuristic"})
    assert room.bot_kinds() == {1: "random", 2: "heuristic", 3: "random"}


def test_the_host_is_known_by_the_host_token_and_clients_see_seats_without_tokens() -> None:
    room = lobby()
    assert room.is_host("host") and not room.is_host("t0") and not room.is_host(None)
    assert same_token("t0", room.seats[0].token_hash) and room.seat_for_token("host") is None
    presence = Presence()
    presence.join(0)
    shown = room.to_json(TOY, presence.of)
    assert shown["host_seat"] == 0 and [s["name"] for s in shown["seats"]] == ["Aki", "random bot", None, None]
    assert [s["connected"] for s in shown["seats"]] == [True, True, False, False] and token_hash("t0") not in str(shown)
