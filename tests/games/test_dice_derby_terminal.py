"""Dice Derby in the terminal: each seat's picture shows its own tickets and no one else's, and the race
is told die by die from the smallest up."""

from __future__ import annotations

import io
import re
from typing import Any

from rich.console import Console

from partygames.cli.narration import tell
from partygames.engine import RandomBot, play
from partygames.engine.match import Event
from partygames.engine.names import seat_names
from partygames.engine.session import Session
from partygames.engine.text import Lang
from partygames.games.dice_derby import GAME
from partygames.games.dice_derby.terminal import describe_event, render


def _text(view: dict[str, Any], lang: Lang = "en") -> str:
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(render(view, lang))
    return console.export_text()


def test_each_seat_sees_its_own_tickets_only() -> None:
    match = GAME.new(6, seed=4)
    for seat in range(6):
        match.apply(seat, {"type": "bid", "horse": seat + 1, "amount": 500})
    match.apply(2, {"type": "bet_quinella", "pair": "3-6", "amount": 1_700})
    mine, other = _text(match.view(2)), _text(match.view(3))
    assert "quinella 3-6 1,700" in mine and "You can stake: 7,800" in mine
    assert "1,700" not in other
    assert "連複 3-6 1,700" in _text(match.view(2), "ja")


def test_race_events_read_die_by_die_in_both_languages() -> None:
    match, _ = play(GAME, 6, [RandomBot(s, s) for s in range(6)], seed=8)
    assert "Race 5/5" in _text(match.view(0)) and "Game over" in _text(match.view(0))
    replay_events = []
    fresh = GAME.new(6, seed=3)
    for seat in range(6):
        fresh.apply(seat, {"type": "pass"})
    fresh.chance.script("die:d4", 2)
    for seat in range(6):
        replay_events += fresh.apply(seat, {"type": "done"})
    lines = [describe_event(e.to_json(), "en") for e in replay_events]
    assert "Furlong 1: 1(d4) 2(d6) 3(d8) 4(d10) 5(d12) 6(d20)" in lines
    assert lines[lines.index("Furlong 1: 1(d4) 2(d6) 3(d8) 4(d10) 5(d12) 6(d20)") + 1] == "  1(d4) → 2"
    assert any(line and line.startswith("1着") for line in (describe_event(e.to_json(), "ja") for e in replay_events))


def test_payouts_name_the_seats_paid_in_both_languages() -> None:
    paid = {"type": "win_paid", "to": None,
            "data": {"pick": 6, "odds": 2.5, "winners": [{"seat": 3, "payout": 1_200}, {"seat": 5, "payout": 600}]}}
    assert describe_event(paid, "en") == "Win 6 at 2.5: seat 3 1,200, seat 5 600"
    assert describe_event(paid, "ja") == "単勝 6(2.5倍)配当: 席 3に 1,200、席 5に 600"
    prizes = {"type": "prizes", "to": None, "data": {"prizes": [{"owner": 2, "amount": 2_000}]}}
    assert describe_event(prizes, "en") == "Owners' prizes: seat 2 2,000"
    names = {lang: seat_names(6, {3}, lang, you=5) for lang in ("en", "ja")}
    assert describe_event(paid, "en", names["en"]) == "Win 6 at 2.5: Bot Aoi 1,200, you 600"
    assert describe_event(paid, "ja", names["ja"]) == "単勝 6(2.5倍)配当: ボット アオイに 1,200、あなたに 600"
    assert describe_event(prizes, "ja", names["ja"]) == "馬主賞金: 席 2に 2,000"


def test_every_event_of_a_match_is_a_sentence_in_both_languages() -> None:
    options = {"races": 4, "fall_rule": True, "fall_probability": 0.2, "loans": True, "loser_boost": True}
    _, log = play(GAME, 6, [RandomBot(s, s) for s in range(6)], options, seed=5)
    events: list[Event] = []
    session = Session(GAME, GAME.new(6, options, 5), on_entry=lambda _entry, new: events.extend(new))
    for entry in log.entries:
        session.replay_entry(entry)
    for event in events:
        for lang in ("en", "ja"):
            assert describe_event(event.to_json(), lang), event.type
    kinds = {event.type for event in events}
    assert {"bid_sealed", "my_bid", "ticket_bought", "betting_done", "betting_closed", "match_over"} <= kinds
    bid = {"type": "my_bid", "to": [0], "data": {"seat": 0, "horse": 4, "amount": 1_500}}
    assert describe_event(bid, "en") == "Your sealed bid: 1,500 for 4(d10)"
    assert describe_event(bid, "ja") == "あなたの入札: 4(d10) に 1,500"


def test_the_auction_names_the_bidders_and_the_owners_else_their_numbers() -> None:
    match = GAME.new(6, seed=4)
    events = [e.to_json() for seat in range(6) for e in match.apply(seat, {"type": "bid", "horse": seat + 1,
                                                                             "amount": 500})]
    sealed = next(e for e in events if e["type"] == "bid_sealed" and e["data"]["seat"] == 1)
    owner = next(e for e in events if e["type"] == "auction_result" and e["data"]["owner"] == 1)
    names = {lang: seat_names(6, {1}, lang, you=0) for lang in ("en", "ja")}
    assert describe_event(sealed, "en", names["en"]) == "Bot Aoi has sealed a bid"
    assert describe_event(sealed, "ja", names["ja"]) == "ボット アオイが入札を封印した"
    assert describe_event(owner, "en", names["en"]) == "2(d6) owner: Bot Aoi (500, highest bid)"
    assert describe_event(owner, "ja", names["ja"]) == "2(d6) 馬主: ボット アオイ(500、最高額)"
    assert describe_event(sealed, "en") == "Seat 1 has sealed a bid"
    assert describe_event(sealed, "ja") == "席 1が入札を封印した"
    assert describe_event(owner, "en", []) == "2(d6) owner: seat 1 (500, highest bid)"
    mine = next(e for e in events if e["type"] == "bid_sealed" and e["data"]["seat"] == 0)
    assert describe_event(mine, "en", names["en"]) == "You have sealed a bid"
    assert describe_event(mine, "ja", names["ja"]) == "あなたが入札を封印した"


def test_a_race_is_told_a_furlong_at_a_time_its_rolls_on_one_line() -> None:
    """The terminal tells a race in a few lines a furlong (its runners, its rolls smallest die first, who is
    out), not a line a die."""
    match = GAME.new(6, seed=3)
    for seat in range(6):
        match.apply(seat, {"type": "pass"})
    events = [e.to_json() for seat in range(6) for e in match.apply(seat, {"type": "done"})]
    lines = tell(GAME, events, "en", seat_names(6, range(1, 6), "en", you=0))
    first = lines.index(next(line for line in lines if line.startswith("Furlong 1: ")))
    assert re.fullmatch(r"  1\(d4\) → \d+   2\(d6\) → \d+   3\(d8\) → \d+   4\(d10\) → \d+   5\(d12\) → \d+   "
                        r"6\(d20\) → \d+", lines[first + 1]), lines[first + 1]
    assert lines[first + 2].startswith("  out: ")
    assert len([line for line in lines if "→" in line]) == len([line for line in lines if line.startswith("Furlong")])
