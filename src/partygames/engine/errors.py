"""Errors raised by the engine. Every message exists in English and Japanese."""

from __future__ import annotations


class EngineError(Exception):
    """Base class: a refusal with a stable code and a reason in both languages."""

    code: str = "engine/error"

    def __init__(self, en: str, ja: str | None = None, *, code: str | None = None) -> None:
        super().__init__(en)
        self.en = en
        self.ja = ja if ja is not None else en
        if code is not None:
            self.code = code

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "en": self.en, "ja": self.ja}


class IllegalAction(EngineError):
    """An action was refused; the match state is exactly as it was before."""

    code = "action/illegal"


class InvalidOptions(EngineError):
    """Options or a seat count that the game does not allow."""

    code = "options/invalid"


class UnknownGame(EngineError):
    code = "game/unknown"
