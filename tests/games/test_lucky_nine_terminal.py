"""Lucky Nine in the terminal: the house's top-up and the chain bonus read as sentences (never as data,
with a singular for one diamond), seats are named as the table names them, and statuses and prizes read as
words in both languages."""

from __future__ import annotations

import io

from rich.console import Console

from partygames.cli.terminal import render_result
from partygames.engine import RandomBot, play
from partygames.engine.names import seat_names
from partygames.engine.text import Lang
from partygames.games.lucky_nine import GAME
from partygames.games.lucky_nine.labels import CHEST_NAMES
from partygames.games.lucky_nine.terminal import describe_event, value_text


def test_a_round_start_names_the_chests_the_house_tops_up() -> None:
    event = {"type": "round_start", "to": None,
             "data": {"round": 2, "stake": 2, "top_up": {"wood": 1, "lapis": 0, "gold": 2}}}
    assert describe_event(event, "en") == "Round 2 begins (stake 2); the house tops up wood +1, gold +2"
    assert describe_event(event, "ja") == "ラウンド2 開始(賭け金 2)。補充: 木 +1、金 +2"
    quiet = {"type": "round_start", "to": None, "data": {"round": 3, "stake": 4, "top_up": {}}}
    assert describe_event(quiet, "en") == "Round 3 begins (stake 4)"


def test_one_diamond_is_singular() -> None:
    for diamonds, words in ((1, "1 diamond"), (3, "3 diamonds")):
        bonus = {"type": "chain_bonus", "to": None, "data": {"seat": 1, "hits": 3, "diamonds": diamonds}}
        assert describe_event(bonus, "en") == f"Seat 1 gets a chain bonus: {words}"


def test_prizes_and_statuses_read_as_words() -> None:
    assert value_text("prizes", {"elytra": 1, "trident": 0}, "en") == "elytra×1"
    assert value_text("prizes_left", {}, "ja") == "なし"
    match, _ = play(GAME, 3, [RandomBot(s, seed=s) for s in range(3)], seed=5)
    result = match.result()
    assert result is not None
    cases: list[tuple[Lang, tuple[str, ...]]] = [("en", ("playing", "dropped out", "disqualified")),
                                                 ("ja", ("参加中", "ドロップアウト", "失格"))]
    for lang, words in cases:
        console = Console(record=True, width=120, file=io.StringIO())
        console.print(render_result(GAME, result.to_json(), lang))
        screen = console.export_text()
        statuses = {seat.holdings["status"] for seat in result.seats}
        shown = dict(zip(("active", "dropped", "disqualified"), words, strict=True))
        assert all(shown[status] in screen for status in statuses)
        assert "dropped" not in screen or lang == "en"


def test_a_turn_names_the_seat_by_its_name_else_by_its_number() -> None:
    match = GAME.new(3, seed=1)
    draw = next(e.to_json() for e in match.apply(0, {"type": "press"}) if e.type == "draw")
    chest = {lang: CHEST_NAMES[draw["data"]["chest"]](lang) for lang in ("en", "ja")}
    assert describe_event(draw, "en", seat_names(3, {0, 2}, "en")) == f"Bot Aoi draws {chest['en']}: hit"
    assert describe_event(draw, "ja", seat_names(3, {0, 2}, "ja")) == f"ボット アオイ: 出目は{chest['ja']}(あたり)"
    assert describe_event(draw, "en", seat_names(3, {1, 2}, "en", you=0)) == f"You draw {chest['en']}: hit"
    assert describe_event(draw, "ja", seat_names(3, {1, 2}, "ja", you=0)) == f"あなた: 出目は{chest['ja']}(あたり)"
    assert describe_event(draw, "en") == f"Seat 0 draws {chest['en']}: hit"
    assert describe_event(draw, "ja", []) == f"席 0: 出目は{chest['ja']}(あたり)"
    passed = {"type": "pass", "to": None, "data": {"seat": 0}}
    assert describe_event(passed, "en", ["you"]) == "You pass"
    assert describe_event(passed, "en", ["Aki"]) == "Aki passes"
