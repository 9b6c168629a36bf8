"""The lobby's seat rules on their own (no server): who may join where, filling with bots, starting."""

from __future__ import annotations

import pytest

from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.presence import Presence
from partygames.server.seats import (
    SeatInfo,
    acting_seat,
    bot_kinds,
    check_all_taken,
    fill_with_bots,
    same_token,
    seat_for_token,
    seat_to_join,
    seats_json,
    token_hash,
)
from tests.toy_game import GAME as TOY


def lobby() -> list[SeatInfo]:
    """Four seats: 0 taken by a person, 1 a bot, 2 and 3 free human seats."""
    return [SeatInfo("human", name="Aki", token_hash=token_hash("t0")), SeatInfo("bot", bot="random"),
            SeatInfo("human"), SeatInfo("human")]


def refusal(error: pytest.ExceptionInfo[ServerError]) -> tuple[Code, int]:
    return error.value.code, error.value.status


def test_joining_takes_the_first_free_human_seat_or_the_one_asked_for() -> None:
    seats = lobby()
    assert seat_to_join(seats, None) == 2
    assert seat_to_join(seats, 3) == 3
    with pytest.raises(ServerError) as taken:
        seat_to_join(seats, 1)  # a bot's seat is taken
    assert refusal(taken) == (Code.SEAT_TAKEN, 409) and "席 1" in taken.value.ja
    with pytest.raises(ServerError) as missing:
        seat_to_join(seats, 4)
    assert refusal(missing) == (Code.SEAT_NO_SUCH_SEAT, 422)
    with pytest.raises(ServerError) as negative:
        seat_to_join(seats, -1)
    assert refusal(negative) == (Code.SEAT_NO_SUCH_SEAT, 422)
    seats[2].token_hash = seats[3].token_hash = token_hash("t")
    with pytest.raises(ServerError) as full:
        seat_to_join(seats, None)
    assert refusal(full) == (Code.ROOM_FULL, 409)


def test_filling_gives_only_the_free_seats_to_bots_of_a_known_kind() -> None:
    seats = lobby()
    with pytest.raises(ServerError) as unknown:
        fill_with_bots(seats, "oracle", ["random", "heuristic"])
    assert refusal(unknown) == (Code.BOT_UNKNOWN, 422) and "random, heuristic" in unknown.value.en
    assert bot_kinds(seats) == {1: "random"}  # a refusal changes nothing
    assert fill_with_bots(seats, "heuristic", ["random", "heuristic"]) == [2, 3]
    assert bot_kinds(seats) == {1: "random", 2: "heuristic", 3: "heuristic"}
    assert seats[0].kind == "human" and seats[0].name == "Aki"
    assert fill_with_bots(seats, "random", ["random"]) == []  # nothing left to fill


def test_a_match_starts_only_once_every_seat_is_taken() -> None:
    seats = lobby()
    with pytest.raises(ServerError) as free:
        check_all_taken(seats)
    assert refusal(free) == (Code.ROOM_SEATS_EMPTY, 409)
    seats[2].token_hash = token_hash("t2")
    fill_with_bots(seats, "random", ["random"])
    check_all_taken(seats)


def test_a_seat_is_found_by_its_token_and_only_by_it() -> None:
    seats = lobby()
    assert seat_for_token(seats, "t0") == 0 and seat_for_token(seats, "t1") is None
    assert same_token("t0", token_hash("t0")) and not same_token("t0", None) and not same_token(None, token_hash("t0"))


def test_clients_see_each_seat_s_kind_name_and_presence_but_no_token() -> None:
    seats = lobby()
    seats[2].name = "<Mio>"
    presence = Presence()
    presence.join(0)
    presence.join(None)
    presence.join(3, away=True)
    presence.leave(2, away=False, now=50.0)
    shown = seats_json(seats, TOY, presence.of)
    assert shown[0] == {"seat": 0, "kind": "human", "bot": None, "bot_title": None, "name": "Aki", "taken": True,
                        "connected": True, "presence": {"state": "online", "since": None},
                        "standin": None, "timed_out": False}
    assert shown[1]["name"] == "random bot" and shown[1]["connected"] and shown[1]["bot_title"] == \
        TOY.bot_title("random").to_json()
    assert shown[2]["name"] == "&lt;Mio&gt;" and not shown[2]["taken"] and not shown[2]["connected"]
    assert shown[2]["presence"] == {"state": "offline", "since": 50.0}  # (its person left at 50.0)
    assert shown[3]["name"] is None and all("token" not in str(s) for s in shown)
    assert shown[3]["connected"] and shown[3]["presence"] == {"state": "away", "since": None}  # a hidden tab


def test_a_connection_acts_for_its_own_seat_only_and_a_spectator_not_at_all() -> None:
    assert acting_seat(2, None) == acting_seat(2, 2) == 2
    with pytest.raises(ServerError) as other:
        acting_seat(2, 0)
    assert refusal(other) == (Code.SEAT_NOT_YOURS, 403) and "seat 2, not seat 0" in other.value.en
    with pytest.raises(ServerError) as spectator:
        acting_seat(None, None)
    assert refusal(spectator) == (Code.SEAT_SPECTATOR, 403)
