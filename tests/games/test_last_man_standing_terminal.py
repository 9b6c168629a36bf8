"""The terminal picture of a seat's view shows its own hand, the market and the last fight."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from partygames.engine import RandomBot, play
from partygames.engine.text import Lang
from partygames.games.last_man_standing import GAME
from partygames.games.last_man_standing.terminal import describe_event, render


def _text(view: dict[str, Any], lang: Lang = "en") -> str:
    console = Console(width=140, record=True)
    console.print(render(view, lang))
    return console.export_text()


def test_draft_picture_shows_the_priced_market_and_only_my_hand() -> None:
    match = GAME.new(4, seed=1)
    view = match.view(0)
    text = _text(view)
    for slot in view["market"]:
        assert f"[{slot['slot']}] {slot['card']} ${slot['price']}" in text
    assert "Your hand: " + " ".join(view["my_hand"]) in text
    secret = match.view(1)["my_hand"]
    assert not any(f" {card}" in text for card in secret)


def test_finished_game_picture_names_the_winners_and_the_last_fight_in_japanese() -> None:
    match, _ = play(GAME, 5, [RandomBot(s, seed=s) for s in range(5)], seed=4)
    text = _text(match.view(None), "ja")
    result = match.result()
    assert result is not None
    assert "勝者: " + ", ".join(f"席 {w}" for w in result.winners) in text
    assert "直前の戦い (ラウンド 5)" in text


def test_events_read_as_sentences_with_the_bounties_paid() -> None:
    hired = {"type": "hired", "data": {"seat": 2, "card": "QS", "slot": 1, "price": 2, "refill": "7S"}, "to": None}
    assert describe_event(hired, "en") == "Seat 2 hired QS for $2 (new card: 7S)"
    assert describe_event(hired, "ja") == "席 2 が QS を $2 で雇った(補充: 7S)"
    fight = {"type": "fight", "to": None, "data": {"round": 1, "plays": ["2S", "KS", "KH", "7S"], "pot": 54, "kills": [
        {"killer": {"card": "2S", "owner": 0}, "victim": {"card": "KS", "owner": 1}, "bounty": 1, "paid": 1},
        {"killer": {"card": "2S", "owner": 0}, "victim": {"card": "KH", "owner": 2}, "bounty": 2, "paid": 2}]}}
    assert describe_event(fight, "en") == "Round 1: 2S KS KH 7S — 2S(0) kills KS(1) $1; 2S(0) kills KH(2) $2 — pot $54"
    assert describe_event({"type": "unknown", "data": {}, "to": None}, "en") is None
