"""The terminal picture of It's a QUIZ?: the open table while memorising, face-down cards after."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from partygames.cli.play import play_in_terminal
from partygames.engine.names import seat_names
from partygames.engine.session import Session
from partygames.engine.text import Lang
from partygames.games import get
from partygames.games.quiz.rules import QuizMatch
from partygames.games.quiz.terminal import describe_event, face_up, points, render
from tests.test_cli import ScriptedPlayer

GAME = get("quiz")
SCRIPT: dict[str, list[Any]] = {"white_positions": [list(range(16))], "deal": [list(range(30))], "first_parent": [0]}


def _text(view: dict[str, Any], lang: Lang) -> str:
    console = Console(width=200, record=True)
    console.print(render(view, lang))
    return console.export_text()


def test_the_terminal_shows_the_open_table_then_only_face_down_cards() -> None:
    match = GAME.new(2, {}, 0, script=SCRIPT)
    before = _text(match.view(0), "ja")
    assert "富士山 (0)" in before and "日本一高い山は?" in before and "4: Q4" in before
    match.apply(0, {"type": "ready"}, 1000)
    match.apply(1, {"type": "ready"}, 1000)
    after = _text(match.view(0), "en")
    assert "Fuji (0)" not in after and "1:■" in after and "4: ■" in after
    assert "0 Fuji" in after  # the word list stays: the sequence of words is typed by number


def test_the_prize_reads_as_the_seed_writes_it_and_events_read_in_both_languages() -> None:
    assert points(10**12 + 3, "ja") == "1億万 + 3" and points(5, "en") == "5"
    assert points(10**12 + 3, "en") == "1 trillion (the prize) + 3"  # no Japanese numeral in English
    event = {"type": "card_dealt", "data": {"word": 4, "row": 2, "index": 3}, "to": None}
    assert describe_event(event, "en") == "Word 4 goes face down to the end of Q2's row."
    assert describe_event(event, "ja") == "単語4を Q2の列の末尾に伏せて置きました。"


def test_a_look_leaves_no_word_in_the_scrollback() -> None:
    event = {"type": "card_seen", "data": {"card": "a3.1", "word": 17, "by": 0, "until": 10_000}, "to": [0]}
    cases: tuple[tuple[Lang, str], ...] = (("en", "Q3's row, card 2"), ("ja", "Q3の列の2枚目"))
    for lang, card in cases:
        line = describe_event(event, lang)
        assert line is not None and card in line and "17" not in line and "a3.1" not in line


def test_the_terminal_shows_a_live_peek_to_the_peeker_alone() -> None:
    match = GAME.new(3, {}, 0, script=SCRIPT)
    assert isinstance(match, QuizMatch)
    for seat in range(3):
        match.apply(seat, {"type": "ready"}, 1000)
    match.apply(0, {"type": "open", "card": 4}, 1000)
    match.held[1] = {"score": 0, "money": 1}
    match.stock["money"] -= 1
    for seat, action in ((0, "secret_money"), (1, "peek"), (2, "secret_money")):
        match.apply(seat, {"type": action}, 2000)
    match.apply(1, {"type": "look", "card": "a9.2", "paid_money": 1}, 3000)
    word = match.view(0)["deck"]["answers"][29]["en"]  # the last card of question 9's row (scripted deal)
    assert f"You see Q9's row, card 3: {word} (29)" in _text(match.view(1), "en")
    for viewer in (0, 2):
        assert "You see" not in _text(match.view(viewer), "en") and f"{word} (29)" not in _text(match.view(viewer), "en")


def test_events_name_the_seats_else_their_numbers() -> None:
    match = GAME.new(3, {}, 0, script=SCRIPT | {"first_parent": [1]})
    events = [e.to_json() for seat in range(3) for e in match.apply(seat, {"type": "ready"}, 1000)]
    parent = next(e for e in events if e["type"] == "parent_drawn")
    passes = {e["data"]["seat"]: e for e in events if e["type"] == "passed"}
    names = {lang: seat_names(3, {1}, lang, you=0) for lang in ("en", "ja")}
    assert describe_event(parent, "en", names["en"]) == "Bot Aoi is the first parent."
    assert describe_event(parent, "ja", names["ja"]) == "最初の親はボット アオイです。"
    assert describe_event(parent, "en") == "Seat 1 is the first parent."
    assert describe_event(parent, "ja") == "最初の親は席 1です。"
    assert describe_event(passes[0], "en", names["en"]) == "You have no markers and pass."
    assert describe_event(passes[0], "ja", names["ja"]) == "あなたはマーカーがないのでパス。"
    assert describe_event(passes[2], "en", names["en"]) == "Seat 2 has no markers and passes."
    assert describe_event(passes[2], "ja", []) == "席 2はマーカーがないのでパス。"
    chose = {"type": "passed", "to": None, "data": {"seat": 2, "no_markers": False}}
    assert describe_event(chose, "en", names["en"]) == "Seat 2 passes."
    shown = {"type": "card_shown", "to": None, "data": {"seat": 1, "card": "a3.1", "to": [0, 2]}}
    assert describe_event(shown, "en", names["en"]) == "Bot Aoi shows Q3's row, card 2 to you and seat 2."
    assert describe_event(shown, "ja", names["ja"]) == "ボット アオイがQ3の列の2枚目をあなた、席 2に見せました。"
    scored: dict[str, Any] = {"type": "scored", "to": None, "data": {"winners": []}}
    assert describe_event(scored, "en") == "Most correct: nobody."


def test_face_up_holds_the_open_table_then_only_a_peek_and_the_cards_to_deal() -> None:
    match = GAME.new(3, {}, 0, script=SCRIPT)
    assert isinstance(match, QuizMatch)
    memorising = face_up(match.view(1))
    answers = [card for card in memorising if isinstance(card, tuple) and str(card[0]).startswith("a")]
    assert ("a0.0", 0) in memorising and len(answers) == 30
    for seat in range(3):
        match.apply(seat, {"type": "ready"}, 1000)
    turned = face_up(match.view(1))
    assert not memorising <= turned and not any(isinstance(c, tuple) and str(c[0]).startswith("a") for c in turned)


CLEAR = "\x1b[3J"  # the scrollback's clear, after Rich's screen clear


class TerminalPlayer(ScriptedPlayer):
    """ScriptedPlayer on a real terminal: control codes reach the output."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        Console.__init__(self, file=io.StringIO(), force_terminal=True, color_system=None, width=120)
        self.asked: list[str] = []

    def answer(self, prompt: str) -> str:
        self.asked.append(prompt)
        return super().answer(prompt)

    def output(self) -> str:
        assert isinstance(self.file, io.StringIO)
        return self.file.getvalue()


def test_the_terminal_clears_what_it_showed_once_the_cards_are_face_down_after_the_player_reads_on() -> None:
    """docs/rules/quiz.md (the terminal): the memorising table, and every word dealt, leave the screen and the
    scrollback once they are face down, after the player presses Enter; the next screen starts clean."""
    bots = {s: GAME.make_bot("heuristic", s, seed=s) for s in (1, 2)}
    session = Session.new(GAME, 3, {}, seed=3, bots=bots)
    player = TerminalPlayer(seed=7)
    assert play_in_terminal(player, session, 0, "en")
    out = player.output()
    clears = [i for i in range(len(out)) if out.startswith(CLEAR, i)]
    assert len(clears) >= 8  # after memorising, and after each question's deal at least
    turned = [p for p in player.asked if "Cards are turned face down: press Enter" in p]
    assert len(turned) == len(clears)  # any entry reads on (the script types "x?")
    memorising = out.rindex("Memorising")
    assert clears[0] > memorising and "Memorising" not in out[clears[0]:]
    # After a clear, the first thing on the screen is the current view, never a word of the deal before it.
    for start in clears:
        assert "goes face down to the end of" not in out[start:start + 400]



def test_a_peeker_without_markers_is_told_why_it_can_only_stop_and_an_empty_share_is_told_as_such() -> None:
    from partygames.cli.terminal import describe_event
    from partygames.cli.terminal import render_view as draw

    game = get("quiz")
    script: dict[str, list[Any]] = {"white_positions": [list(range(16))], "deal": [list(range(30))],
                                    "first_parent": [0]}
    match = game.new(2, {}, 0, script=script, bots=[1])
    for seat in range(2):
        match.apply(seat, {"type": "ready"}, 1000)
    match.apply(0, {"type": "open", "card": 4}, 1000)

    def screen(lang: Lang) -> str:
        console = Console(width=120, file=io.StringIO(), record=True)
        console.print(draw(game, match.view(0), lang))
        return " ".join(console.export_text().split())

    assert match.view(0)["phase"] == "answer" and match.view(0)["held"][0] == {"score": 0, "money": 0}
    assert "You hold no markers: if you pass and peek, you cannot look at a card" in screen("en")
    match.apply(0, {"type": "peek"}, 2000)
    match.apply(1, {"type": "peek"}, 2000)
    assert match.view(0)["phase"] == "peek"
    assert "You hold 0 marker(s) and a look costs 2 (one per peeker): you can only stop." in screen("en")
    assert "覗き見を終えるしかありません" in screen("ja").replace(" ", "")
    event = {"type": "secret_money_taken", "data": {"takers": [0], "each": 0}}
    told = describe_event(game, event, "en", ["you", "Bot Aoi"])
    assert "take 0" not in told and "nobody takes any; it stays on the field" in told
    assert "行き渡らない" in describe_event(game, event, "ja", ["あなた", "ボット アオイ"])
