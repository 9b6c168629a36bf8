"""Musical Chairs in the terminal: the text map shows the totem, the chairs (lit ones starred) and you."""

from __future__ import annotations

from rich.console import Console

from partygames.engine.names import seat_names
from partygames.games import get
from partygames.games.musical_chairs import terminal

GAME = get("musical-chairs")


def _text(view: dict[str, object], lang: str) -> str:
    console = Console(record=True, width=120, force_terminal=False)
    console.print(terminal.render(view, lang))  # type: ignore[arg-type]
    return console.export_text()


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
