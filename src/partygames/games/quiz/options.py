"""Options of It's a QUIZ? (くいずです): the deck and the time limits (the seed's figures are fixed)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from partygames.engine import Options
from partygames.engine.length import decisions, reveals
from partygames.engine.options import OptionError, choice_titles
from partygames.engine.text import Text
from partygames.games.quiz.decks import Deck, DeckError, builtin, custom, parse_deck

MAX_SOURCE = 20_000

QUESTION_COUNT = 8
"""「ゲームは8ラウンド、つまり8問のクイズで構成されます。」"""

#: Seconds a question holds the server for its reveals (the question opened, the sheets, the row, the
#: scoring, the dealt cards; what bot matches are held, tests/test_length.py), and a second per seat besides.
QUESTION_REVEAL_SECONDS = 13.0
SEAT_REVEAL_SECONDS = 1.0


class QuizOptions(Options):
    """The deck (a shipped one, or a custom one) and every deadline."""

    deck: Literal["classic", "world"] = Field("classic", title="Deck", json_schema_extra=choice_titles("デッキ", {
        "classic": Text("Classic", "定番"),
        "world": Text("Around the world", "世界一周")}))
    custom_deck: str | dict[str, Any] = Field(
        "",
        title="Custom deck: 10 questions then 30 answers, separated by ';' or a line each ('English | 日本語' "
              "for both), or JSON {\"questions\": [...], \"answers\": [...]}",
        json_schema_extra={"title_ja": "カスタムデッキ: 問題10個のあと正解30個を ';' 区切りか1行ずつ(「English | 日本語」で両言語)、"
                                       "または JSON {\"questions\": [...], \"answers\": [...]}"})
    memorise_seconds: int = Field(120, ge=30, le=600, title="Memorising time (seconds)",
                                  json_schema_extra={"title_ja": "記憶の時間(秒)"})
    peek_seconds: int = Field(10, ge=2, le=60, title="How long a peeked card stays shown (seconds)",
                              json_schema_extra={"title_ja": "覗き見たカードの表示時間(秒)"})
    select_seconds: int = Field(30, ge=5, le=600, title="Question selection turn (seconds)",
                                json_schema_extra={"title_ja": "問題選択の手番の制限時間(秒)"})
    answer_seconds: int = Field(90, ge=10, le=900, title="Time to write an answer (seconds)",
                                json_schema_extra={"title_ja": "解答の制限時間(秒)"})
    peek_turn_seconds: int = Field(30, ge=5, le=600, title="Peeking turn, after each card (seconds)",
                                   json_schema_extra={"title_ja": "覗き見の手番の制限時間(秒)"})
    parent_seconds: int = Field(30, ge=5, le=600, title="Parent's decisions and tie-break calls (seconds)",
                                json_schema_extra={"title_ja": "親の決定・同点決勝の制限時間(秒)"})

    @field_validator("custom_deck")
    @classmethod
    def _custom_deck_is_playable(cls, source: str | dict[str, Any]) -> str | dict[str, Any]:
        if isinstance(source, str) and len(source) > MAX_SOURCE:
            raise OptionError(f"the custom deck is longer than {MAX_SOURCE} characters",
                              f"カスタムデッキが{MAX_SOURCE}文字を超えています")
        if source and (not isinstance(source, str) or source.strip()):
            try:
                parse_deck(source)
            except DeckError as error:
                raise OptionError(error.en, error.ja) from None
        return source

    def estimated_seconds(self, seats: int) -> float:
        """The memorising time, then eight questions, each counted as a selection turn and a peeking turn
        per seat, the answer (all write at once) and three decisions of the parent (open, deal, move), and
        its reveals."""
        each = seats * (self.select_seconds + self.peek_turn_seconds) + self.answer_seconds + 3 * self.parent_seconds
        shown = QUESTION_REVEAL_SECONDS + SEAT_REVEAL_SECONDS * seats
        return self.memorise_seconds + decisions(QUESTION_COUNT, each) + reveals(QUESTION_COUNT, shown)

    def the_deck(self) -> Deck:
        """The deck this match plays: the custom one when given, else the chosen shipped one."""
        source = self.custom_deck
        if isinstance(source, dict):
            return parse_deck(source)
        return custom(source) if source.strip() else builtin(self.deck)
