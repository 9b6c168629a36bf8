"""Decks: ten questions and thirty answer words, each in English and Japanese. A deck is data: a JSON
file in `decks/`, or a custom deck given as an option (JSON, or forty lines of text)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from partygames.engine.text import Text

QUESTIONS = 10  # 問題カード 10枚 (per colour)
ANSWERS = 30  # 正解カード 30枚
DECK_DIR = Path(__file__).parent / "decks"
DECK_IDS = ("classic", "world")


class DeckError(ValueError):
    """A custom deck that cannot be played; the message holds both languages ("en / ja")."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(f"{en} / {ja}")
        self.en, self.ja = en, ja


@dataclass(frozen=True)
class Deck:
    """Ten question texts and thirty distinct answer words (a word's index is its id in actions)."""

    id: str
    title: Text
    questions: tuple[Text, ...]
    answers: tuple[Text, ...]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title.to_json(),
                "questions": [q.to_json() for q in self.questions],
                "answers": [a.to_json() for a in self.answers]}


def _text(item: Any, what: str, index: int) -> Text:
    if isinstance(item, str):
        item = {"en": item, "ja": item}
    if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in ("en", "ja")):
        raise DeckError(f"{what} {index + 1} must be a text or an object with \"en\" and \"ja\" texts.",
                        f"{what_ja(what)}{index + 1} は文字列か、\"en\" と \"ja\" を持つオブジェクトにしてください。")
    en, ja = item["en"].strip(), item["ja"].strip()
    if not en or not ja:
        raise DeckError(f"{what} {index + 1} is empty.", f"{what_ja(what)}{index + 1} が空です。")
    if len(en) > 80 or len(ja) > 80:
        raise DeckError(f"{what} {index + 1} is longer than 80 characters.",
                        f"{what_ja(what)}{index + 1} が80文字を超えています。")
    return Text(en, ja)


def what_ja(what: str) -> str:
    return "問題" if what == "Question" else "正解"


def _parse_lines(source: str) -> dict[str, Any]:
    """Forty non-empty lines (or, in a one-line text such as a form field, forty parts separated by ";"):
    ten questions, then thirty answers; "English | 日本語" gives both languages."""
    parts = source.splitlines() if "\n" in source else source.split(";")
    lines = [line.strip() for line in parts if line.strip()]
    if len(lines) != QUESTIONS + ANSWERS:
        raise DeckError(
            f"A custom deck needs {QUESTIONS} question lines then {ANSWERS} answer lines ({QUESTIONS + ANSWERS} "
            f"non-empty lines, or parts separated by ';'); this one has {len(lines)}.",
            f"カスタムデッキは問題{QUESTIONS}行と正解{ANSWERS}行(空行を除き計{QUESTIONS + ANSWERS}行、または ';' 区切り)が"
            f"必要です(この入力は{len(lines)}個)。")

    def item(line: str) -> Any:
        if "|" in line:
            en, _, ja = line.partition("|")
            return {"en": en, "ja": ja}
        return line

    return {"questions": [item(x) for x in lines[:QUESTIONS]], "answers": [item(x) for x in lines[QUESTIONS:]]}


def parse_deck(data: Any, deck_id: str = "custom") -> Deck:
    """A deck from its JSON data (a dict), or from a custom deck's text; raises DeckError naming the problem."""
    if isinstance(data, str):
        source = data.strip()
        if source.startswith("{"):
            try:
                data = json.loads(source)
            except json.JSONDecodeError as error:
                raise DeckError(f"The custom deck is not valid JSON: {error.msg} (line {error.lineno}).",
                                f"カスタムデッキの JSON が不正です({error.lineno}行目 {error.colno}文字目)。") from None
        else:
            data = _parse_lines(source)
    if not isinstance(data, dict):
        raise DeckError("A deck must be an object with \"questions\" and \"answers\".",
                        "デッキは \"questions\" と \"answers\" を持つオブジェクトにしてください。")
    questions, answers = data.get("questions"), data.get("answers")
    if not isinstance(questions, list) or len(questions) != QUESTIONS:
        raise DeckError(f"A deck needs exactly {QUESTIONS} questions.", f"デッキには問題がちょうど{QUESTIONS}個必要です。")
    if not isinstance(answers, list) or len(answers) != ANSWERS:
        raise DeckError(f"A deck needs exactly {ANSWERS} answers.", f"デッキには正解がちょうど{ANSWERS}個必要です。")
    q_texts = tuple(_text(q, "Question", i) for i, q in enumerate(questions))
    a_texts = tuple(_text(a, "Answer", i) for i, a in enumerate(answers))
    for english in (True, False):
        seen: dict[str, int] = {}
        for i, word in enumerate(a_texts):
            key = (word.en if english else word.ja).casefold()
            if key in seen:
                raise DeckError(f"Answers {seen[key] + 1} and {i + 1} are the same word ({word.en!r} / {word.ja!r}): "
                                "the thirty answers must be distinct in each language.",
                                f"正解{seen[key] + 1}と正解{i + 1}が同じ語です(「{word.ja}」)。30個の正解は各言語で異なる語にしてください。")
            seen[key] = i
    title = data.get("title")
    return Deck(deck_id, _text(title, "Question", 0) if title is not None else Text("Custom", "カスタム"),
                q_texts, a_texts)


@cache
def builtin(deck_id: str) -> Deck:
    """A deck shipped in `decks/`."""
    return parse_deck(json.loads((DECK_DIR / f"{deck_id}.json").read_text(encoding="utf-8")), deck_id)


@cache
def custom(source: str) -> Deck:
    """A custom deck from its text, parsed once per text."""
    return parse_deck(source)
