"""Musical Chairs in the terminal: the text map shows the totem, the chairs (lit ones starred) and you."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

from partygames.cli import main as cli_main
from partygames.cli.terminal import render_result
from partygames.engine.names import seat_names
from partygames.engine.text import Lang
from partygames.games import get
from partygames.games.musical_chairs import terminal

GAME = get("musical-chairs")


def _text(view: dict[str, Any], lang: Lang, width: int = 120) -> str:
    console = Console(record=True, width=width, force_terminal=False)
    console.print(terminal.render(view, lang))
    return console.export_text()


def _lines(view: dict[str, Any], lang: Lang) -> list[str]:
    """The panel's lines, without its borders."""
    return [line.strip("│ ") for line in _text(view, lang).splitlines()]


def test_the_map_shows_the_totem_chairs_and_you_and_the_tables_speak_both_languages() -> None:
    match = GAME.new(3, {"players": 2, "gallery": 1, "island": "test", "first_break_seconds": 10, "chairs": 3})
    match.advance(10_000)
    match.apply(0, {"type": "run_to_chair", "chair": 1}, 10_000)
    match.advance(15_000)
    english = _text(match.view(0), "en")
    assert "T" in english and "@" in english and "Chairs" in english and "Your medals" in english
    match.advance(20_000)
    assert "1*" in _text(match.view(1), "en")  # seat 0 sits on chair 1: its lamp is lit
    japanese = _text(match.view(0), "ja")
    assert "イス" in japanese and "あなたのメダル" in japanese
    line = terminal.describe_event({"type": "seated", "data": {"seat": 0, "chair": 1, "at": 20_000}}, "ja")
    assert line == "席 0がイス1に座りました。"


def test_events_name_the_seats_else_their_numbers() -> None:
    match = GAME.new(3, {"players": 2, "gallery": 1, "island": "test", "first_break_seconds": 10, "chairs": 3})
    match.advance(10_000)
    match.apply(1, {"type": "run_to_chair", "chair": 1}, 10_000)
    seated = next(e.to_json() for e in match.advance(20_000) if e.type == "seated")
    names = {lang: seat_names(3, {1}, lang, you=0) for lang in ("en", "ja")}
    assert terminal.describe_event(seated, "en", names["en"]) == "Bot Aoi sits on chair 1."
    assert terminal.describe_event(seated, "ja", names["ja"]) == "ボット アオイがイス1に座りました。"
    assert terminal.describe_event(seated, "en") == "Seat 1 sits on chair 1."
    assert terminal.describe_event(seated, "ja", []) == "席 1がイス1に座りました。"
    mine = {"type": "seated", "data": seated["data"] | {"seat": 0}}
    assert terminal.describe_event(mine, "en", names["en"]) == "You sit on chair 1."
    given = {"type": "medals_given", "data": {"from": 1, "to": 0, "name": 2, "count": 2, "at": 0}}
    assert terminal.describe_event(given, "en", names["en"]) == "Bot Aoi gives you 2 medal(s) with seat 2's name."
    assert terminal.describe_event(given, "ja", names["ja"]) == "ボット アオイがあなたに席 2の名前のメダルを2枚渡しました。"
    void = {"type": "medals_void", "data": {"name": 0}}
    assert terminal.describe_event(void, "en", names["en"]) == "The medals with your name are void."
    released = {"type": "released", "data": {"seat": 0, "chair": 2, "at": 0}}
    assert terminal.describe_event(released, "en", names["en"]) == "Your chair 2 is free again."
    assert terminal.describe_event(released, "en") == "Seat 0's chair 2 is free again."


def test_medals_shown_to_you_list_each_seats_latest_showing() -> None:
    """Seat 0 shows its 3 medals to seat 1, gives one away, and shows again; seat 2 (a ガヤ, given
    nothing) shows its empty wallet. Seat 1 reads one line per seat, newest first, seat 0's with 2 left."""
    match = GAME.new(4, {"tempo": "rounds", "players": 2, "gallery": 2, "chairs": 2, "island": "test", "medals": 3})
    match.apply(0, {"type": "show_medals", "to": 1}, 0)
    match.apply(0, {"type": "give", "to": 1, "name": 0, "count": 1}, 0)
    shown = match.apply(0, {"type": "show_medals", "to": 1}, 0)
    match.apply(2, {"type": "show_medals", "to": 1}, 0)
    english, japanese = _lines(match.view(1), "en"), _lines(match.view(1), "ja")
    at = english.index("Seat 2 showed you: no medals")
    assert english[at + 1] == "Seat 0 showed you: seat 0 × 2" and sum("showed you" in line for line in english) == 2
    at = japanese.index("席 2が見せたメダル: なし")
    assert japanese[at + 1] == "席 0が見せたメダル: 席 0 × 2"
    assert "showed you" not in _text(match.view(0), "en")  # shown to seat 1 only
    event = shown[0].to_json()
    names = {lang: seat_names(4, {2, 3}, lang, you=1) for lang in ("en", "ja")}
    assert terminal.describe_event(event, "en", names["en"]) == "Seat 0 shows you their medals."
    assert terminal.describe_event(event, "ja", names["ja"]) == "席 0があなたにメダルを見せました。"
    assert terminal.describe_event(event, "en", seat_names(4, {2, 3}, "en", you=0)) == "You show seat 1 your medals."


def test_a_result_where_nobody_sat_shows_no_winner_in_both_languages() -> None:
    """Nobody sits in the race nor in its re-run: every seat ranks 1 at ¥0 and none is starred a winner."""
    match = GAME.new(3, {"players": 2, "gallery": 1, "island": "test", "first_break_seconds": 10,
                         "break_seconds": 10, "race_seconds": 5, "chairs": 3})
    match.advance(35_000)  # GO at 10,000, nobody sits by 15,000; the re-run: GO at 25,000, over at 30,000
    result = match.result()
    assert result is not None and result.termination == "nobody_sat"
    endings: tuple[tuple[Lang, str], ...] = (("en", "Nobody sat, twice: no winner, every medal void"),
                                             ("ja", "2回続けて誰も座れず: 勝者なし・メダルはすべて無効"))
    for lang, ended in endings:
        console = Console(record=True, width=160, force_terminal=False)
        tables = render_result(GAME, result.to_json(), lang)
        console.print(tables)
        screen = console.export_text()
        assert not tables.missing and ended in screen and "★" not in screen, screen


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "A chair left off the plan is never tried: once every chair on it is taken, you stay standing."),
    ("ja", "希望順に入れなかったイスには向かいません。"),
])
def test_the_chair_plan_says_what_happens_to_chairs_left_off_it(lang: str, words: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_main.out, "width", 300)  # the CLI console took its width when first imported
    from typer.testing import CliRunner

    from partygames.cli.main import app

    result = CliRunner().invoke(app, ["play", "musical-chairs", "--seed", "1", "--lang", lang], input="1\n",
                                env={"COLUMNS": "300"})
    before = result.output.split("Chair numbers" if lang == "en" else "イスの番号")[0]
    assert words in before, result.output[-2000:]


def test_an_english_screen_says_gallery_and_counts_the_gallery_from_the_start() -> None:
    """No ガヤ on English screens; the gallery's line counts those in the gallery from the start (those who go
    out are in the players' table), and nobody heads for "a point"."""
    from partygames.engine.session import Session

    game = get("musical-chairs")
    options = dict(game.virtual_clock_options)
    seats = game.default_seat_count(options)
    session = Session.new(game, seats, options, seed=1,
                          bots={s: game.make_bot("heuristic", s, seed=s) for s in range(seats)})
    screens = []
    for step in range(2000):
        if step % 29 == 0:
            console = Console(width=120, file=io.StringIO(), record=True)
            console.print(terminal.render(session.match.view(0), "en", seat_names(seats, range(1, seats), "en", you=0)))
            screens.append(console.export_text())
        if session.match.is_over:
            break
        waiting = session.bots_to_ask()
        if waiting:
            session.bot_turn(waiting[0])
        elif not session.wake_next():
            break
    text = "\n".join(screens)
    assert "ガヤ" not in text and "a point" not in text
    assert "g gallery" in text and "Gallery from the start (18): " in text
