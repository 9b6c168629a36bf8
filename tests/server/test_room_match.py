"""A room's match on its own (no server): each step becomes the next stored row after the room's earlier
matches, bots and time limits act when due, a match rebuilt from its rows lands where the live one was,
and an engine crash is told to the room and to the connection that caused it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

import pytest
from starlette.websockets import WebSocket

from partygames.engine.errors import IllegalAction
from partygames.engine.game import Game
from partygames.engine.log import Entry
from partygames.engine.match import Event
from partygames.server import storage as db
from partygames.server.connections import Connection
from partygames.server.room_match import RoomMatch
from partygames.server.seats import SeatInfo
from partygames.server.settings import Settings
from partygames.server.storage import Write
from tests.server.games import GAMES

START = 1000.0  # the wall-clock time each match starts at
HUMANS = [SeatInfo("human", name="Ann"), SeatInfo("human", name="Bo")]


def _no_crash(error: BaseException) -> None:
    raise AssertionError(f"unexpected engine crash: {error!r}")


def _conn(seat: int) -> Connection:
    return Connection(cast(WebSocket, None), seat, f"seat {seat}", Settings(database_url="sqlite://"))


def _sent(conn: Connection) -> list[dict[str, Any]]:
    frames = conn.queued()
    return cast(list[dict[str, Any]], frames)


def room_match(game: Game, seats: list[SeatInfo], crashed: Callable[[BaseException], None] = _no_crash,
               **settings: Any) -> RoomMatch:
    """Match 2 of room TOYTOY (its log numbered on after 5 stored entries), started at START."""
    match = game.new(len(seats), game.options_class.parse({}), seed=7, bots={i: s.bot for i, s in enumerate(seats) if s.bot})
    return RoomMatch("TOYTOY", game, match, seats, START, Settings(database_url="sqlite://", **settings), crashed,
                     number=2, seq_offset=5)


class Played:
    """A room's match and the writes its steps make, each recorded at the wall time of the call that took
    it, as the room does."""

    def __init__(self, game: Game, seats: list[SeatInfo], crashed: Callable[[BaseException], None] = _no_crash,
                 **settings: Any) -> None:
        self.current = room_match(game, seats, crashed, **settings)
        self.writes: list[Write] = []
        self.wall = START
        self.current.session.on_entry = lambda entry, events: self.writes.append(
            self.current.record(entry, events, self.wall))

    def bid(self, seat: int, amount: int, wall: float, conn: Connection | None = None, ref: Any = None) -> bool:
        self.wall = wall
        return self.current.act(seat, {"type": "bid", "amount": amount}, wall, blame=(conn or _conn(seat), ref))

    def run_due(self, wall: float) -> None:
        self.wall = wall
        self.current.run_due(wall)

    def rows(self) -> list[dict[str, Any]]:
        return [row for write in self.writes for table, row in write.inserts if table is db.log_entries]


def test_each_step_is_the_next_row_after_the_room_s_earlier_matches_and_the_last_carries_the_result() -> None:
    played = Played(GAMES["toy"], [SeatInfo("human", name="Ann"), SeatInfo("bot", bot="random")], reveal_scale=0.0,
                    bot_delay=0.8)
    current, writes = played.current, played.writes
    assert played.bid(0, 3, START + 1.0)
    played.run_due(START + 1.5)  # the bot waits bot_delay (0.8 s) after the last step
    assert current.version == 1
    played.run_due(START + 2.0)
    rows = played.rows()
    assert [(r["seq"], r["at"], r["seat"], r["source"]) for r in rows] == [(6, 1000, 0, "seat"), (7, 2000, 1, "bot")]
    assert json.loads(rows[0]["action"]) == {"type": "bid", "amount": 3} and rows[0]["room"] == "TOYTOY"
    assert current.match.is_over and current.last_seq == 7 and current.sources == ["seat", "bot"]
    assert writes[0].updates == []
    (table, key, values), = writes[-1].updates
    assert table is db.rooms and key == {"code": "TOYTOY"} and values["status"] == "over"
    result = current.match.result()
    assert result is not None and json.loads(values["result"]) == result.to_json()
    assert current.next_due() is None and current.deadline_json(START + 2.0) is None


def test_a_time_limit_wakes_the_match_at_its_own_time_not_when_noticed() -> None:
    played = Played(GAMES["toy"], HUMANS, reveal_scale=0.0)
    current = played.current
    assert current.next_due() == START + 30.0  # the toy's bidding lasts 30 s
    assert current.deadline_json(START + 10.0) == {"phase": "bidding", "seconds": 30.0, "ends_at": START + 30.0,
                                                   "remaining": 20.0}
    played.run_due(START + 31.5)  # noticed late (a restart, a busy server)
    row, = played.rows()
    assert (row["seq"], row["at"], row["seat"], row["action"], row["source"]) == (6, 30000, None, None, "wake")
    assert current.match.result() is not None  # every awaited seat got the limit's default bid


def test_a_match_rebuilt_from_its_rows_lands_where_the_live_one_was() -> None:
    game = GAMES["reveal-toy"]  # each round's reveal of the bids holds the clock for 1 s
    played = Played(game, HUMANS)
    live = played.current
    for seat, wall in [(0, START + 1.0), (1, START + 2.0), (1, START + 2.5), (0, START + 4.0)]:
        assert played.bid(seat, seat + 1, wall)
    # Round 1's reveal held the clock from 1002 to 1003 (round 2's first bid at 1002.5 came at 2000 ms),
    # round 2's from 1004 to 1005. The bidding's 30 s run from the start (the phase never changed its
    # name), later on the wall clock by the 2 s held.
    assert [r["at"] for r in played.rows()] == [1000, 2000, 2000, 3000]
    assert (live.clock.reveal_held, live.clock.reveal_end) == (2.0, START + 5.0)
    deadline = live.deadline_json(START + 5.0)
    assert deadline is not None and deadline["ends_at"] == START + 32.0
    rebuilt = room_match(game, HUMANS)
    for row in played.rows():
        action = json.loads(row["action"]) if row["action"] is not None else None
        rebuilt.replay(Entry(row["at"], row["seat"], action), row["source"])
    assert (rebuilt.version, rebuilt.sources, rebuilt.history.version) == (4, ["seat"] * 4, 4)
    assert (rebuilt.clock.reveal_held, rebuilt.clock.reveal_end) == (live.clock.reveal_held, live.clock.reveal_end)
    assert rebuilt.deadline_json(START + 6.0) == live.deadline_json(START + 6.0)
    assert rebuilt.next_due() == live.next_due() == START + 32.0
    assert rebuilt.history.events_for(0, 0, 4) == live.history.events_for(0, 0, 4)


def test_an_engine_crash_is_told_to_the_room_and_to_the_connection_that_caused_it() -> None:
    crashes: list[BaseException] = []
    played = Played(GAMES["buggy-toy"], HUMANS, crashes.append, reveal_scale=0.0)
    with pytest.raises(IllegalAction):  # a refusal is no crash: it changes nothing and the room goes on
        played.bid(0, 99, START + 1.0)
    assert crashes == [] and played.writes == []
    conn = _conn(0)
    assert not played.bid(0, 7, START + 2.0, conn, ref="r2")
    assert [str(e) for e in crashes] == ["engine bug"] and played.writes == []
    frame, = _sent(conn)
    assert (frame["type"], frame["code"], frame["ref"]) == ("error", "server/internal", "r2")


def test_only_the_events_an_audience_may_see_hold_the_clock() -> None:
    current = Played(GAMES["toy"], [SeatInfo("human"), SeatInfo("bot", bot="random")]).current
    private = [Event("dealt", {"card": 3}, to=(1,))]  # seen by the bot's seat alone: nobody watches it
    assert current.audiences == [None, 0]
    assert current.reveal_ms(private) == 0
    assert current.reveal_ms([*private, Event("bid_sealed", {"seat": 0})]) == 1000  # the toy's default reveal


def test_a_search_bot_is_told_its_table_and_asked_its_think_time_early() -> None:
    """A search bot thinks half the bot delay (`THINK_SHARE`) and is asked that much before another bot
    would be, so its action lands when theirs would; it searched from its own record of the table."""
    from partygames import games
    from partygames.engine.search import SearchBot
    from partygames.server.room_match import THINK_SHARE

    game = games.get("lucky-nine")
    seats = [SeatInfo("bot", bot="search"), SeatInfo("bot", bot="heuristic"), SeatInfo("human", name="Ann")]
    played = Played(game, seats, reveal_scale=0.0, bot_delay=0.8)
    current = played.current
    bot = current.session.bots[0]
    assert isinstance(bot, SearchBot) and bot.budget.ms == pytest.approx(800 * THINK_SHARE)
    assert bot.record.bots == (0, 1) and bot.record.seats == 3
    assert current.clock.head_start == {0: pytest.approx(0.8 * THINK_SHARE)}
    assert current.next_due() == pytest.approx(START + 0.8 - 0.8 * THINK_SHARE)  # seat 0 presses first
    played.run_due(START + 0.3)
    assert current.version == 0  # not yet
    played.run_due(START + 0.4)
    assert current.version >= 1 and current.sources[0] == "bot"
