"""Bilingual user-facing text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Lang = Literal["en", "ja"]


@dataclass(frozen=True, slots=True)
class Text:
    """A user-facing string in English and Japanese."""

    en: str
    ja: str

    def __call__(self, lang: Lang = "en") -> str:
        return self.ja if lang == "ja" else self.en

    def to_json(self) -> dict[str, str]:
        return {"en": self.en, "ja": self.ja}
