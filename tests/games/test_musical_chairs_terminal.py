"""Musical Chairs in the terminal: the text map shows the totem, the chairs (lit ones starred) and you."""

from __future__ import annotations

from rich.console import Console

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
    assert line == "席0がイス1に座りました。"
