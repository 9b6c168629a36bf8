"""A room's next match planned on its own (no server): options carried or derived, bots the next game
lacks replaced, and the one write that keeps the finished match and starts the next."""

from __future__ import annotations

import dataclasses
import json

import pytest

from partygames.engine.bots import RandomBot
from partygames.engine.match import Match
from partygames.server import storage as db
from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.frames import dumps
from partygames.server.seats import SeatInfo
from partygames.server.series import Finished, next_games, plan_next, replacement_bots, unseatable
from tests.server.games import GAMES

TOY, FINAL = GAMES["toy"], GAMES["toy-final"]


def finished_toy(bids: tuple[int, int] = (3, 7)) -> Match:
    match = TOY.new(2, TOY.options_class.parse({}), seed=11, bots=[1])
    for seat, bid in enumerate(bids):
        match.apply(seat, {"type": "bid", "amount": bid}, 1000)
    assert match.is_over
    return match


def finished(match: Match) -> Finished:
    return Finished("ROOM42", 1, TOY, match.options, match, started_at=500.0, last_seq=2)


def test_the_games_that_may_follow_are_this_one_then_those_declaring_it_then_any_that_seats_the_room() -> None:
    assert next_games(TOY, GAMES) == ["toy", "toy-final"]
    assert next_games(FINAL, GAMES) == ["toy-final"]
    # Two seats: every toy and Smuggling (two teams of one) seat them; Last Man Standing (4-8) does not.
    two = next_games(TOY, GAMES, 2)
    assert two[:2] == ["toy", "toy-final"] and "smuggling" in two and "secret-toy" in two
    assert "last-man-standing" not in two
    [(refused, why)] = unseatable(TOY, GAMES, 2)
    assert refused == "last-man-standing"
    assert "4, 5, 6, 7, 8, not 2" in why.en and "2 席では遊べません" in why.ja
    assert "last-man-standing" in next_games(TOY, GAMES, 4) and unseatable(TOY, GAMES, 4) == []


def test_playing_again_keeps_the_options_and_writes_both_matches_at_once() -> None:
    match = finished_toy()
    result = match.result()
    assert result is not None
    seats = [SeatInfo("human", name="Aki", token_hash="h"), SeatInfo("bot", bot="random")]
    plan = plan_next(finished(match), TOY, seats, seed=99, now=2000.0)
    assert plan.options == match.options and plan.bots == {}
    [(table, kept)] = plan.write.inserts
    assert table is db.matches
    assert kept == {"room": "ROOM42", "number": 1, "game": "toy", "options": dumps(match.options.to_json()),
                    "seed": "11", "bots": "[1]", "started_at": 500.0, "result": dumps(result.to_json()),
                    "last_seq": 2}
    [(table, key, room)] = plan.write.updates
    assert table is db.rooms and key == {"code": "ROOM42"}
    assert room["game"] == "toy" and room["status"] == "playing" and room["seed"] == "99"
    assert room["started_at"] == 2000.0 and room["result"] is None


def test_a_following_game_derives_its_options_from_the_result() -> None:
    match = finished_toy()
    coins = match.options.to_json()["coins"]
    plan = plan_next(finished(match), FINAL, [SeatInfo("human"), SeatInfo("human")], seed=1, now=0.0)
    assert plan.options.to_json()["coins"] == coins + 100  # one winner brings 100 coins (tests/server/games.py)
    assert json.loads(plan.write.updates[0][2]["options"])["coins"] == coins + 100


def test_a_bot_kind_the_next_game_lacks_becomes_its_heuristic_bot_or_its_first() -> None:
    seats = [SeatInfo("bot", bot="random"), SeatInfo("bot", bot="mcts"), SeatInfo("human")]
    assert replacement_bots(TOY, seats) == {1: "heuristic"}
    only_greedy = dataclasses.replace(TOY, id="greedy-toy", bots={"greedy": RandomBot, "cautious": RandomBot})
    assert replacement_bots(only_greedy, seats) == {0: "greedy", 1: "greedy"}
    match = finished_toy()
    plan = plan_next(finished(match), TOY, seats[:2], seed=1, now=0.0)
    assert plan.bots == {1: "heuristic"}
    said = {"bot": "heuristic", "bot_was": dumps({"bot": "mcts", "game": "toy"})}  # what it played: said after
    assert (db.seats, {"room": "ROOM42", "seat": 1}, said) in plan.write.updates
    assert plan.bot_was == {1: said["bot_was"]}
    assert seats[1].bot == "mcts"  # planning changes nothing: the room applies it once stored


def test_a_game_that_does_not_follow_plays_its_defaults_fitted_to_the_seats() -> None:
    smuggling = GAMES["smuggling"]  # does not declare that it follows toy; its team size follows the seats
    plan = plan_next(finished(finished_toy()), smuggling, [SeatInfo("human"), SeatInfo("human")], seed=1, now=0.0)
    assert plan.options.to_json() == smuggling.options_for(2, None).to_json()
    assert plan.options.to_json()["team_size"] == 1
    assert json.loads(plan.write.updates[0][2]["options"]) == plan.options.to_json()
    assert plan.write.updates[0][2]["game"] == "smuggling"


def test_a_game_that_cannot_seat_the_room_is_refused_with_its_reason() -> None:
    lms = GAMES["last-man-standing"]  # 4-8 seats
    with pytest.raises(ServerError) as refused:
        plan_next(finished(finished_toy()), lms, [SeatInfo("human"), SeatInfo("human")], seed=1, now=0.0)
    assert refused.value.code == Code.OPTIONS_INVALID and refused.value.status == 422
    assert "2 seats" in refused.value.en and refused.value.ja
