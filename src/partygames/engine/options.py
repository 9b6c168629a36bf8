"""Typed game options: every variant or optional rule of a seed is a field with a default."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import ErrorDetails

from partygames.engine.errors import InvalidOptions
from partygames.engine.text import Text


class OptionError(ValueError):
    """A game's own check of its options refused them; raised in a validator, its words reach the player in
    both languages (a plain ValueError's only in English)."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(en)
        self.en, self.ja = en, ja


def _in_english(error: ErrorDetails) -> str:
    """Pydantic's words for a problem, or the game's own (without Pydantic's "Value error, ")."""
    cause = error.get("ctx", {}).get("error")
    return cause.en if isinstance(cause, OptionError) else error["msg"]


def _in_japanese(error: ErrorDetails) -> str:
    """One of Pydantic's problems with an option, in Japanese (Pydantic words them only in English)."""
    kind, ctx = error["type"], error.get("ctx", {})
    cause = ctx.get("error")
    if isinstance(cause, OptionError):
        return cause.ja
    if "expected" in ctx:  # a choice: "4, 5 or 6", "'rounds' or 'real_time'"
        return f"{str(ctx['expected']).replace(' or ', ', ')} のどれかにしてください"
    bounds = {"greater_than_equal": ("ge", "以上"), "greater_than": ("gt", "より大きく"),
              "less_than_equal": ("le", "以下"), "less_than": ("lt", "未満")}
    if kind in bounds:
        key, word = bounds[kind]
        return f"{ctx[key]} {word}にしてください"
    if kind in ("too_long", "too_short"):
        limit = ctx.get("max_length" if kind == "too_long" else "min_length")
        return f"{limit} 個{'以下' if kind == 'too_long' else '以上'}にしてください"
    words = {"missing": "必須です", "extra_forbidden": "そのオプションはありません",
             "int_type": "整数にしてください", "int_parsing": "整数にしてください",
             "int_from_float": "整数にしてください", "bool_type": "true か false にしてください",
             "bool_parsing": "true か false にしてください", "float_type": "数値にしてください",
             "float_parsing": "数値にしてください", "string_type": "文字列にしてください",
             "list_type": "リストにしてください", "dict_type": "オブジェクトにしてください",
             "model_type": "オブジェクトにしてください"}
    return words.get(kind, f"値が正しくありません ({error['msg']})")


class Options(BaseModel):
    """Base class of every game's options. Frozen, unknown fields refused.

    Give each field a ``title`` (English) and ``json_schema_extra={"title_ja": ...}`` so that the
    lobby and the CLI can show it in both languages.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=False)

    #: Fields whose value follows from the seat count when a room leaves them out (see `follow_seats`).
    SEAT_FIELDS: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def follow_seats(cls, seats: int) -> dict[str, Any]:
        """The `SEAT_FIELDS` values for a room of `seats` (Smuggling: two teams of half the seats)."""
        return {}

    def outline(self, seats: int) -> Text | None:
        """What a match of `seats` seats with these options will be, in one line for the lobby (its
        length: races, rounds, small games); None: the lobby shows the seat count alone."""
        return None

    def estimated_seconds(self, seats: int) -> float | None:
        """How long a match of `seats` seats with these options takes, roughly (`engine/length.py`: a
        decision at half its time limit, fixed durations in full); None: the lobby shows no estimate."""
        return None

    @classmethod
    def parse(cls, data: Options | dict[str, Any] | None) -> Options:
        """Options from a dict (missing fields take defaults); raises InvalidOptions with every problem."""
        if data is None:
            return cls()
        if isinstance(data, cls):
            return data
        if isinstance(data, Options):
            raise InvalidOptions(f"These are options of {type(data).__name__}, not {cls.__name__}.",
                                 f"{type(data).__name__} のオプションは {cls.__name__} には使えません。")
        if not isinstance(data, dict):
            raise InvalidOptions("Options must be an object.", "オプションはオブジェクトで指定してください。")
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            where = [".".join(str(p) for p in e["loc"]) or "options" for e in error.errors()]
            english = "; ".join(f"{at}: {_in_english(e)}" for at, e in zip(where, error.errors(), strict=True))
            japanese = "、".join(f"{at}: {_in_japanese(e)}" for at, e in zip(where, error.errors(), strict=True))
            raise InvalidOptions(f"Invalid options: {english}", f"オプションが不正です: {japanese}") from None

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @classmethod
    def describe(cls) -> dict[str, Any]:
        """JSON schema of the options (titles, defaults, bounds) for UIs; `follows_seats` lists the
        `SEAT_FIELDS`, which a lobby shows as following the seat count rather than as inputs."""
        return {**cls.model_json_schema(), "follows_seats": list(cls.SEAT_FIELDS)}
