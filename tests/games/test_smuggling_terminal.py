"""The Smuggling Game in the terminal: every event is a sentence in both languages, and a drawn match's
result says why both teams rank first."""

from __future__ import annotations

import io

from rich.console import Console

from partygames.cli.play import Prompter
from partygames.cli.terminal import render_result
from partygames.engine import RandomBot, play
from partygames.engine.match import Event
from partygames.engine.names import seat_names
from partygames.engine.session import Session
from partygames.engine.text import Lang
from partygames.games.smuggling import GAME
from partygames.games.smuggling.terminal import describe_event
from tests.test_cli import TypedAnswers

SETTLED = {"small_game": 3, "smuggling_team": "south", "smuggler": 1, "inspector": 0, "votes": None,
           "trunk": 40_000_000, "declaration": "doubt", "doubt": 30_000_000, "outcome": "under_doubted",
           "transfers": [], "totals": {"north": 185_000_000, "south": 255_000_000}}


def test_a_settlement_reads_as_the_declaration_the_trunk_and_the_totals() -> None:
    event = {"type": "settled", "data": SETTLED, "to": None}
    assert describe_event(event, "en") == ("The inspector doubts 30,000,000 yen; the trunk held 40,000,000 yen: "
                                           "doubt too low. North 185,000,000   South 255,000,000")
    assert describe_event(event, "ja") == ("検査官はダウト 30,000,000 円、ケースの中身 40,000,000 円: ダウト額不足。 "
                                           "北の国 185,000,000   南の国 255,000,000")
    passed = {"type": "settled", "data": SETTLED | {"doubt": None, "outcome": "passed"}, "to": None}
    assert str(describe_event(passed, "en")).startswith("The inspector passes; the trunk held 40,000,000 yen: passed.")


def test_every_event_of_a_match_is_a_sentence_in_both_languages() -> None:
    _, log = play(GAME, 4, [RandomBot(s, seed=s) for s in range(4)], {"team_size": 2, "small_games": 3}, seed=2)
    events: list[Event] = []
    session = Session(GAME, GAME.new(4, {"team_size": 2, "small_games": 3}, 2),
                      on_entry=lambda _entry, new: events.extend(new))
    for entry in log.entries:
        session.replay_entry(entry)
    kinds = {event.type for event in events}
    for event in events:
        for lang in ("en", "ja"):
            assert describe_event(event.to_json(), lang), event.type
    assert {"vote_cast", "representatives", "trunk_packed", "trunk_contents", "settled", "match_over"} <= kinds


def test_a_drawn_match_says_that_equal_totals_rank_both_teams_first() -> None:
    match = GAME.new(4, {"team_size": 2, "small_games": 2, "representatives": "rotation"}, 1)
    while not match.is_over:
        seat = match.to_act()[0]
        kind = match.legal_actions(seat)[0]["type"]
        match.apply(seat, {"type": "pass"} if kind == "pass" or kind == "doubt" else {"type": "pack", "amount": 0})
    result = match.result()
    assert result is not None and result.detail["winning_team"] is None
    cases: list[tuple[Lang, str]] = [("en", "none: equal totals, both teams rank first"),
                                     ("ja", "なし: 合計が同額で両チームとも1位")]
    for lang, words in cases:
        console = Console(record=True, width=120, file=io.StringIO())
        console.print(render_result(GAME, result.to_json(), lang))
        assert words in console.export_text()


def test_the_vote_menu_names_the_teammates_as_the_table_does() -> None:
    match = GAME.new(4, {"team_size": 2, "small_games": 2}, 3)
    console = TypedAnswers("2")
    names = seat_names(4, {1, 2, 3}, "en", you=0)
    action = Prompter(console, GAME, "en", names).action(match.legal_actions(0), match.view(0))
    assert action == {"type": "vote", "candidate": 2}
    screen = console.export_text()  # (exporting clears the record)
    assert "1) you" in screen and "2) Bot Ben" in screen and "seat" not in screen
    console = TypedAnswers("1")
    Prompter(console, GAME, "ja", seat_names(4, {1, 2, 3}, "ja", you=0)).action(match.legal_actions(0), match.view(0))
    assert "1) あなた" in console.export_text()


def test_the_vote_and_the_representatives_name_the_seats_else_their_numbers() -> None:
    match = GAME.new(4, {"team_size": 2, "small_games": 2}, 1)
    events = [e.to_json() for seat, candidate in enumerate((2, 1, 2, 1))
              for e in match.apply(seat, {"type": "vote", "candidate": candidate})]
    voted = next(e for e in events if e["type"] == "vote_cast" and e["data"]["seat"] == 1)
    chosen = next(e for e in events if e["type"] == "representatives")
    assert (chosen["data"]["smuggler"], chosen["data"]["inspector"]) == (1, 2)
    names = {lang: seat_names(4, {1}, lang, you=0) for lang in ("en", "ja")}
    assert describe_event(voted, "en", names["en"]) == "Bot Aoi has voted"
    assert describe_event(voted, "ja", names["ja"]) == "ボット アオイが投票した"
    assert describe_event(chosen, "en", names["en"]) == "Small game 1: Bot Aoi smuggles, seat 2 inspects"
    assert describe_event(chosen, "ja", names["ja"]) == "小ゲーム 1: 密輸人はボット アオイ、検査官は席 2"
    assert describe_event(voted, "en") == "Seat 1 has voted"
    assert describe_event(voted, "ja") == "席 1が投票した"
    assert describe_event(chosen, "en", []) == "Small game 1: seat 1 smuggles, seat 2 inspects"
    mine = next(e for e in events if e["type"] == "vote_cast" and e["data"]["seat"] == 0)
    assert describe_event(mine, "en", names["en"]) == "You have voted"
    packed = {"type": "trunk_packed", "to": None, "data": {"smuggler": 0}}
    assert describe_event(packed, "en", names["en"]) == "You have packed the trunk"
    assert describe_event(packed, "ja", names["ja"]) == "あなたがアタッシュケースを詰めた"
