"""The terminal picture of a seat's view shows its own hand, the market and the last fight, cards written
as on the web (5♣ A♥), hiring offered by card and price, and fights told as sentences."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console

from partygames.cli.play import Prompter
from partygames.cli.terminal import render_result
from partygames.engine import RandomBot, play
from partygames.engine.text import Lang
from partygames.games.last_man_standing import GAME
from partygames.games.last_man_standing.cards import card_text
from partygames.games.last_man_standing.terminal import describe_event, render
from tests.test_cli import TypedAnswers


def _text(view: dict[str, Any], lang: Lang = "en") -> str:
    console = Console(width=140, record=True)
    console.print(render(view, lang))
    return console.export_text()


def test_draft_picture_shows_the_priced_market_and_only_my_hand() -> None:
    match = GAME.new(4, seed=1)
    view = match.view(0)
    text = _text(view)
    assert view["market"][0]["card"] == "10C" and view["my_hand"] == ["8H", "9H"]
    assert "Market: 10♣ $0   Q♠ $2   6♥ $4   A♥ $6   Deck: 40" in text
    assert "Your hand: 8♥ 9♥" in text
    secret = match.view(1)["my_hand"]
    assert not any(f" {card_text(card)}" in text for card in secret)


def test_finished_game_picture_names_the_winners_and_the_last_fight_in_japanese() -> None:
    match, _ = play(GAME, 5, [RandomBot(s, seed=s) for s in range(5)], seed=4)
    text = _text(match.view(None), "ja")
    result = match.result()
    assert result is not None
    assert "勝者: " + ", ".join(f"席 {w}" for w in result.winners) in text
    assert "直前の戦い (ラウンド 5)" in text


NAMES = {"en": ["Aki", "Bot Aoi", "Bot Ben", "Bot Chika"], "ja": ["Aki", "ボット アオイ", "ボット ベン", "ボット チカ"]}
FIGHT = {"type": "fight", "to": None, "data": {"round": 1, "plays": ["2S", "KS", "KH", "7S"], "pot": 54, "kills": [
    {"killer": {"card": "2S", "owner": 0}, "victim": {"card": "KS", "owner": 1}, "bounty": 1, "paid": 1},
    {"killer": {"card": "2S", "owner": 0}, "victim": {"card": "KH", "owner": 2}, "bounty": 2, "paid": 2}]}}


def test_a_fight_names_the_players_kill_by_kill_with_the_bounties_paid() -> None:
    assert describe_event(FIGHT, "en", NAMES["en"]) == (
        "Round 1 fight: 2♠ (Aki), K♠ (Bot Aoi), K♥ (Bot Ben), 7♠ (Bot Chika)\n"
        "    2♠ (Aki) kills K♠ (Bot Aoi): $1\n    2♠ (Aki) kills K♥ (Bot Ben): $2\n    Pot: $54")
    assert describe_event(FIGHT, "ja", NAMES["ja"]) == (
        "ラウンド 1 の戦い: 2♠(Aki)、K♠(ボット アオイ)、K♥(ボット ベン)、7♠(ボット チカ)\n"
        "    2♠(Aki)が K♠(ボット アオイ)を殺す: $1\n    2♠(Aki)が K♥(ボット ベン)を殺す: $2\n    テーブル中央: $54")


def test_hiring_playing_and_the_end_name_the_players() -> None:
    hired = {"type": "hired", "data": {"seat": 2, "card": "QS", "slot": 1, "price": 2, "refill": "7S"}, "to": None}
    assert describe_event(hired, "en", NAMES["en"]) == "Bot Ben hired Q♠ for $2 (new card: 7♠)"
    assert describe_event(hired, "ja", NAMES["ja"]) == "ボット ベン が Q♠ を $2 で雇った(補充: 7♠)"
    down = {"type": "played_face_down", "data": {"seat": 0}, "to": None}
    assert describe_event(down, "en", ["you", "Bot Aoi"]) == "You played a card face down"
    over = {"type": "game_over", "to": None, "data": {"termination": "pot_empty", "chips": [70, 22]}}
    assert describe_event(over, "en", NAMES["en"][:2]) == "The pot ran dry, game over. Chips: Aki $70, Bot Aoi $22"


def test_seats_without_a_name_are_told_by_number() -> None:
    hired = {"type": "hired", "data": {"seat": 2, "card": "QS", "slot": 1, "price": 2, "refill": "7S"}, "to": None}
    assert describe_event(hired, "en") == "Seat 2 hired Q♠ for $2 (new card: 7♠)"
    assert describe_event(hired, "ja") == "席 2 が Q♠ を $2 で雇った(補充: 7♠)"
    assert describe_event(FIGHT, "en", ["Aki", ""]) == (
        "Round 1 fight: 2♠ (Aki), K♠ (seat 1), K♥ (seat 2), 7♠ (seat 3)\n"
        "    2♠ (Aki) kills K♠ (seat 1): $1\n    2♠ (Aki) kills K♥ (seat 2): $2\n    Pot: $54")
    assert str(describe_event(FIGHT, "ja")).startswith("ラウンド 1 の戦い: 2♠(席 0)、K♠(席 1)")
    stand_off = {"type": "fight", "to": None, "data": {"round": 2, "plays": ["5S", "5H"], "pot": 9, "kills": []}}
    assert "    Nobody is killed" in str(describe_event(stand_off, "en"))
    assert "    誰も殺されなかった" in str(describe_event(stand_off, "ja"))
    assert describe_event({"type": "unknown", "data": {}, "to": None}, "en") is None


def test_the_game_over_line_counts_one_survivor_in_the_singular() -> None:
    data: dict[str, Any] = {"termination": "five_rounds", "chips": [70, 22], "survivors": 1, "share": 12,
                            "unawarded": 0}
    one = describe_event({"type": "game_over", "to": None, "data": data}, "en")
    assert one == "1 surviving fighter gets $12 each ($0 unawarded). Chips: seat 0 $70, seat 1 $22"
    two = describe_event({"type": "game_over", "to": None, "data": data | {"survivors": 2}}, "en")
    assert str(two).startswith("2 surviving fighters get $12 each")


@pytest.mark.parametrize(("lang", "menu", "title"), [
    ("en", ["1) 10♣ for $0", "2) Q♠ for $2", "3) 6♥ for $4", "4) A♥ for $6"], "Fighter to hire [1-4"),
    ("ja", ["1) 10♣($0)", "2) Q♠($2)", "3) 6♥($4)", "4) A♥($6)"], "雇う闘士 [1-4"),
])
def test_the_hiring_menu_offers_each_card_with_its_price(lang: Lang, menu: list[str], title: str) -> None:
    match = GAME.new(4, seed=1)
    drafter = match.view(None)["drafter"]
    console = TypedAnswers("3")
    action = Prompter(console, GAME, lang).action(match.legal_actions(drafter), match.view(drafter))
    assert action == {"type": "hire", "slot": 2}  # the third line, 6♥ for $4, is market slot 2
    screen = console.export_text()
    for line in menu:
        assert line in screen
    assert title in console.prompts[0] and "0 = $0" not in screen


def test_the_result_shows_the_surviving_fighters_cards() -> None:
    match, _ = play(GAME, 5, [RandomBot(s, seed=s) for s in range(5)], seed=4)
    result = match.result()
    assert result is not None
    console = Console(width=140, record=True)
    tables = render_result(GAME, result.to_json(), "ja")
    console.print(tables)
    screen = console.export_text()
    assert not tables.missing and "生き残った闘士" in screen
    for fighter in result.detail["survivors"]:
        assert card_text(fighter["card"]) in screen
