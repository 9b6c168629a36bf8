"""Seat names in sentences: a person's own, a bot's name as the web gives it, else the seat's number."""

from __future__ import annotations

import re
from pathlib import Path

from partygames.engine.names import BOT_NAMES, bot_name, name_of, seat_names

SEATS_JS = Path(__file__).parents[1] / "src" / "partygames" / "web" / "seats.js"


def test_bots_are_named_in_the_order_of_the_bot_seats_and_people_keep_their_names() -> None:
    assert seat_names(4, [1, 3], "en", people={0: "Aki"}) == ["Aki", "Bot Aoi", "seat 2", "Bot Ben"]
    assert seat_names(4, [0, 2, 3], "ja", you=1) == ["ボット アオイ", "あなた", "ボット ベン", "ボット チカ"]
    assert bot_name(30, "en") == "Bot Aoi"  # the 31st bot starts the list again, as on the web


def test_a_seat_without_a_name_is_told_by_its_number() -> None:
    assert name_of(["Aki", ""], 1, "en") == "seat 1"
    assert name_of(None, 3, "ja") == "席 3"
    assert name_of(["Aki"], 0, "ja") == "Aki"


def test_the_terminal_names_bots_as_the_web_does() -> None:
    pairs = re.findall(r'\["(\w+)", "([^"]+)"\]', SEATS_JS.read_text(encoding="utf-8").split("BOT_NAMES")[1].split("];")[0])
    assert tuple(pairs) == BOT_NAMES
