"""Typed game options: every variant or optional rule of a seed is a field with a default."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.config import JsonDict
from pydantic_core import ErrorDetails, InitErrorDetails

from partygames.engine.errors import InvalidOptions
from partygames.engine.text import Text


class OptionError(ValueError):
    """A game's own check of its options refused them; raised in a validator, its words reach the player in
    both languages (a plain ValueError's only in English)."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(en)
        self.en, self.ja = en, ja


def problem_text(error: ErrorDetails, whole: str) -> Text:
    """One of Pydantic's validation problems as "where: what" in English and Japanese (`whole`: the name
    of the whole input, where the problem is not in one field). Pydantic words its problems in English
    only; a game's own check raises OptionError with its own words."""
    where = ".".join(str(p) for p in error["loc"]) or whole
    cause = error.get("ctx", {}).get("error")
    if isinstance(cause, OptionError):
        return Text(f"{where}: {cause.en}", f"{where}: {cause.ja}")
    return Text(f"{where}: {_in_english(error)}", f"{where}: {_in_japanese(error)}")


def _in_english(error: ErrorDetails) -> str:
    """Pydantic's problem in plain words: what the field takes, and what was given where it was a value."""
    kind, ctx = error["type"], error.get("ctx", {})
    given = error.get("input")
    typed = f" (not {given!r})" if isinstance(given, str | int | float) and not isinstance(given, bool) else ""
    if kind == "extra_forbidden":
        return "there is no such option"
    if kind == "missing":
        return "it must be given"
    if "expected" in ctx:
        return f"it takes one of {str(ctx['expected']).replace(' or ', ', ')}{typed}"
    bounds = {"greater_than_equal": ("ge", "at least"), "greater_than": ("gt", "more than"),
              "less_than_equal": ("le", "at most"), "less_than": ("lt", "less than")}
    if kind in bounds:
        key, word = bounds[kind]
        return f"it takes {word} {ctx[key]}{typed}"
    if kind in ("too_long", "too_short", "string_too_long", "string_too_short"):
        longest = kind.endswith("too_long")
        limit = ctx.get("max_length" if longest else "min_length")
        unit = "characters" if kind.startswith("string") else "items"
        return f"it takes {'at most' if longest else 'at least'} {limit} {unit}"
    words = {"int_type": "a whole number", "int_parsing": "a whole number", "int_from_float": "a whole number",
             "bool_type": "true or false", "bool_parsing": "true or false", "float_type": "a number",
             "float_parsing": "a number", "string_type": "text", "list_type": "a list", "dict_type": "an object",
             "model_type": "an object", "model_attributes_type": "an object"}
    if kind in words:
        return f"it takes {words[kind]}{typed}"
    return {"union_tag_invalid": "its kind is not one there is", "union_tag_not_found": "it does not say its kind",
            "json_invalid": "it is not JSON"}.get(kind, f"the value is not allowed{typed}")


def _in_japanese(error: ErrorDetails) -> str:
    kind, ctx = error["type"], error.get("ctx", {})
    if "expected" in ctx:  # a choice: "4, 5 or 6", "'rounds' or 'real_time'"
        return f"{str(ctx['expected']).replace(' or ', ', ')} のどれかにしてください"
    bounds = {"greater_than_equal": ("ge", "以上"), "greater_than": ("gt", "より大きく"),
              "less_than_equal": ("le", "以下"), "less_than": ("lt", "未満")}
    if kind in bounds:
        key, word = bounds[kind]
        return f"{ctx[key]} {word}にしてください"
    if kind in ("too_long", "too_short", "string_too_long", "string_too_short"):
        longest = kind.endswith("too_long")
        limit = ctx.get("max_length" if longest else "min_length")
        unit = "文字" if kind.startswith("string") else "個"
        return f"{limit} {unit}{'以下' if longest else '以上'}にしてください"
    words = {"missing": "必須です", "extra_forbidden": "不明な項目です",
             "int_type": "整数にしてください", "int_parsing": "整数にしてください",
             "int_from_float": "整数にしてください", "bool_type": "true か false にしてください",
             "bool_parsing": "true か false にしてください", "float_type": "数値にしてください",
             "float_parsing": "数値にしてください", "string_type": "文字列にしてください",
             "list_type": "リストにしてください", "dict_type": "オブジェクトにしてください",
             "model_type": "オブジェクトにしてください", "model_attributes_type": "オブジェクトにしてください",
             "union_tag_invalid": "種類が正しくありません", "union_tag_not_found": "種類の指定がありません",
             "json_invalid": "JSON として読めません"}
    return words.get(kind, "値が正しくありません")


def choice_titles(title_ja: str, values: Mapping[str | int, Text]) -> JsonDict:
    """A choice field's `json_schema_extra`: its Japanese title and a title for each of its values in both
    languages (`value_titles`, keyed by the value as JSON writes an object key: `"rounds"`, `"4"`), so
    that a lobby never shows a raw value."""
    titles: JsonDict = {str(value): {"en": text.en, "ja": text.ja} for value, text in values.items()}
    return {"title_ja": title_ja, "value_titles": titles}


class Options(BaseModel):
    """Base class of every game's options. Frozen, unknown fields refused.

    Give each field a ``title`` (English) and ``json_schema_extra={"title_ja": ...}`` so that the
    lobby and the CLI can show it in both languages; a choice (a `Literal`) gives each value a title too
    (``json_schema_extra=choice_titles(title_ja, {value: Text(en, ja)})``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=False)

    #: Fields whose value follows from the seat count when a room leaves them out (see `follow_seats`).
    SEAT_FIELDS: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def follow_seats(cls, seats: int, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The `SEAT_FIELDS` values for a room of `seats` given the options `given` (Smuggling: two teams of
        half the seats; Musical Chairs: the gallery is the seats left after the players)."""
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
    def parse(cls, data: Options | dict[str, Any] | None, strict: bool = False) -> Options:
        """Options from a dict (missing fields take defaults); raises InvalidOptions with every problem.

        `strict`: the dict is JSON from a client (a room's options, the lobby's seat-count query), and every
        value must already have its field's JSON type: "5" is not 5, 10000.0 not 10000, "false" not false,
        true not 1 (issue #31, item 11). Otherwise values are converted where Pydantic can: the CLI's
        `-o key=value` gives text on purpose, and stored logs and rows keep working as they were written."""
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
            if strict:
                if floats := cls._floats_for_whole_choices(data):
                    raise ValidationError.from_exception_data(cls.__name__, floats)
                # Validated as the JSON it came as: strict JSON still takes an array for a tuple, and an
                # integer for a float.
                return cls.model_validate_json(json.dumps(data), strict=True)
            return cls.model_validate(data)
        except ValidationError as error:
            problems = [problem_text(e, "options") for e in error.errors()]
            known = ""
            if any(e["type"] == "extra_forbidden" for e in error.errors()):  # say which there are
                known = ", ".join(cls.model_fields)
            raise InvalidOptions(f"Invalid options: {'; '.join(p.en for p in problems)}"
                                 + (f". The options are: {known}" if known else "") + ".",
                                 f"オプションが不正です: {'、'.join(p.ja for p in problems)}"
                                 + (f"。オプションは {known} です" if known else "") + "。") from None

    @classmethod
    def _floats_for_whole_choices(cls, data: dict[str, Any]) -> list[InitErrorDetails]:
        """Refusals of a float given for a choice of whole numbers (Lucky Nine's `rounds`: 4, 5 or 6), which
        Pydantic's `Literal` takes even in strict mode (5.0 == 5)."""
        refusals: list[InitErrorDetails] = []
        for name, field in cls.model_fields.items():
            choices = get_args(field.annotation) if get_origin(field.annotation) is Literal else ()
            if choices and all(type(c) is int for c in choices) and type(data.get(name)) is float:
                *first, last = map(repr, choices)
                expected = f"{', '.join(first)} or {last}" if first else last
                refusals.append({"type": "literal_error", "loc": (name,), "input": data[name],
                                 "ctx": {"expected": expected}})
        return refusals

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @classmethod
    def describe(cls) -> dict[str, Any]:
        """JSON schema of the options (titles, defaults, bounds, and each choice's `value_titles`) for UIs;
        `follows_seats` lists the `SEAT_FIELDS`, which a lobby shows as following the seat count rather than
        as inputs."""
        return {**cls.model_json_schema(), "follows_seats": list(cls.SEAT_FIELDS)}
