"""What the lobby shows of a game reads in both languages: every option and every value of every choice
has a title in English and Japanese (`Options.describe()`, sent by `GET /api/games`), and each game says
what it is in one line; a Japanese text has no stray space where a line of its source was broken."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from partygames import games
from partygames.cli.prose import blocks
from partygames.engine.game import Game
from partygames.engine.options import choice_titles
from partygames.engine.text import Text

WIDE = r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]"
STRAY_SPACE = re.compile(f"{WIDE} +{WIDE}")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def _fields(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every option of a schema, a nested model's included (a prize's fields), with `X | None` unwrapped:
    (name, the field's schema merged with the type it holds)."""
    models = [schema, *schema.get("$defs", {}).values()]
    for model in models:
        for name, field in model.get("properties", {}).items():
            held = [b for b in field.get("anyOf", []) if b.get("type") != "null"]
            yield name, {**(held[0] if held else {}), **field}


def _choices(game: Game) -> list[tuple[str, dict[str, Any]]]:
    return [(name, field) for name, field in _fields(game.options_class.describe()) if "enum" in field]


@pytest.mark.parametrize("game", games.all_games(), ids=lambda g: g.id)
def test_every_option_of_every_game_and_every_value_of_a_choice_has_a_title_in_both_languages(game: Game) -> None:
    for name, field in _fields(game.options_class.describe()):
        assert field.get("title") and field.get("title_ja"), f"{game.id}.{name} lacks a title"
        assert JAPANESE.search(field["title_ja"]), f"{game.id}.{name}: {field['title_ja']!r} is not Japanese"
    for name, field in _choices(game):
        titles = field.get("value_titles", {})
        assert set(titles) == {str(v) for v in field["enum"]}, f"{game.id}.{name}: titles for {sorted(titles)}"
        for value, title in titles.items():
            assert title["en"] and JAPANESE.search(title["ja"]), f"{game.id}.{name}={value}: {title}"
    # No Japanese title of a field shows a raw value of a choice (「進行(rounds: …)」), nor calls the
    # original rules "seed" (which reads as the random seed).
    raw = {str(v) for _, field in _choices(game) for v in field["enum"] if isinstance(v, str)}
    for name, field in _fields(game.options_class.describe()):
        texts = [field["title_ja"], *(t["ja"] for t in field.get("value_titles", {}).values())]
        for text in texts:
            shown = {word for word in raw if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)}
            assert not shown, f"{game.id}.{name}: {text!r} shows raw values {shown}"
        english = [field["title"], *(t["en"] for t in field.get("value_titles", {}).values())]
        assert not any(re.search(r"\bseed\b", t, re.I) for t in english + texts), f"{game.id}.{name}: {english}"


def test_a_choice_s_value_titles_reach_the_lobby_in_the_game_info() -> None:
    schema = games.get("smuggling").info()["options"]["properties"]["representatives"]
    assert schema["enum"] == ["vote", "rotation"] and schema["title_ja"] == "代表者の決め方"
    assert schema["value_titles"]["rotation"] == {"en": "In turn (each member twice in a row)",
                                                  "ja": "輪番(各メンバーが2回続けて)"}
    rounds = games.get("lucky-nine").info()["options"]["properties"]["rounds"]["value_titles"]
    assert rounds["4"] == {"en": "4 (stakes 1-3-6-9)", "ja": "4(賭け数 1・3・6・9)"}  # keyed as JSON keys them
    assert choice_titles("色", {1: Text("one", "一")}) == {"title_ja": "色", "value_titles": {"1": {"en": "one", "ja": "一"}}}


@pytest.mark.parametrize("game", games.all_games(), ids=lambda g: g.id)
def test_every_game_says_what_it_is_in_one_line_of_each_language(game: Game) -> None:
    assert game.blurb is not None and game.info()["blurb"] == game.blurb.to_json()
    for text in (game.blurb.en, game.blurb.ja):
        assert text and "\n" not in text and len(text) <= 110, (game.id, text)
    assert JAPANESE.search(game.blurb.ja) and not STRAY_SPACE.search(game.blurb.ja), game.blurb.ja


@pytest.mark.parametrize("game", games.all_games(), ids=lambda g: g.id)
def test_a_japanese_summary_read_as_its_blocks_has_no_stray_space(game: Game) -> None:
    # A line broken in the source joins the next without a space between Japanese characters (cli/prose.py,
    # web/prose.js): 「記録されて」+「います」.
    for block in blocks(game.summary.ja):
        assert not STRAY_SPACE.search(block.text), (game.id, block.text)


def test_the_walk_reaches_a_nested_model_s_fields_and_the_type_an_optional_field_holds() -> None:
    # So that the title test above sees every option the lobby shows: a prize's fields, `chairs: int | None`.
    nine = dict(_fields(games.get("lucky-nine").options_class.describe()))
    assert {"name", "name_ja", "count", "value", "rounds"} <= set(nine)
    chairs = dict(_fields(games.get("musical-chairs").options_class.describe()))["chairs"]
    assert chairs["type"] == "integer" and chairs["title_ja"].startswith("イスの数")
