"""Typed game options: every variant or optional rule of a seed is a field with a default."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from partygames.engine.errors import InvalidOptions
from partygames.engine.text import Text


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
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'options'}: {e['msg']}" for e in error.errors()
            )
            raise InvalidOptions(f"Invalid options: {problems}", f"オプションが不正です: {problems}") from None

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @classmethod
    def describe(cls) -> dict[str, Any]:
        """JSON schema of the options (titles, defaults, bounds) for UIs; `follows_seats` lists the
        `SEAT_FIELDS`, which a lobby shows as following the seat count rather than as inputs."""
        return {**cls.model_json_schema(), "follows_seats": list(cls.SEAT_FIELDS)}
