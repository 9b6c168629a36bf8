"""Message schemas of docs/protocol.md: HTTP bodies and WebSocket frames from clients, with limits.

Everything a client sends is parsed here before any room sees it; a refusal is a ServerError whose
code names the problem (`msg/too_large`, `msg/malformed_json`, `msg/number_too_large`, `msg/invalid`).
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
)

from partygames.engine.options import OptionError, problem_text
from partygames.server.codes import Code
from partygames.server.errors import ServerError

MAX_SAFE_INT = 2**53
MAX_JSON_DEPTH = 32  # Settings.max_json_depth's default
Scalar = int | float | str | bool | None
ShortStr = Annotated[str, StringConstraints(max_length=100)]
ActionValue = Annotated[int, Field(ge=-MAX_SAFE_INT, le=MAX_SAFE_INT)] | float | ShortStr | bool | None
MsgId = Annotated[str, StringConstraints(max_length=64)] | Annotated[int, Field(ge=-MAX_SAFE_INT, le=MAX_SAFE_INT)]


def _ascii_digits(value: Any) -> Any:
    """A number in a path or a query is written in the digits 0-9: Pydantic's lax `int` would also take
    " 1", "+1", "1_0" and "1.0" (issue #31, item 9)."""
    if isinstance(value, str) and not (value.isascii() and value.isdigit() and len(value) <= 15):
        # (OptionError: a refusal whose words reach the client in both languages, through problem_text.)
        raise OptionError("must be a whole number written in the digits 0-9",
                          "0〜9 の数字で書いた整数にしてください")
    return value


# A whole number from a path or a query parameter (FastAPI hands them over as text).
ParamInt = Annotated[int, BeforeValidator(_ascii_digits)]


class _Frame(BaseModel):
    # Strict: a value of the wrong JSON type is refused, never converted ("1" is not seat 1, 1.0 not id 1).
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class ActionFrame(_Frame):
    type: Literal["action"]
    action: Annotated[dict[Annotated[str, StringConstraints(max_length=40)],
                           ActionValue | Annotated[list[ActionValue], Field(max_length=16)]],
                      Field(max_length=16)]
    id: MsgId | None = None
    seat: int | None = None


class SyncFrame(_Frame):
    type: Literal["sync"]
    since: Annotated[int, Field(ge=0, le=MAX_SAFE_INT)]


class ChatFrame(_Frame):
    type: Literal["chat"]
    channel: Annotated[str, StringConstraints(max_length=64)] = "public"
    text: Annotated[str, StringConstraints(max_length=2000)]


class PingFrame(_Frame):
    type: Literal["ping"]


class PresenceFrame(_Frame):
    """The page was hidden (`away`: its person stepped away) or shown again."""

    type: Literal["presence"]
    away: bool


ClientFrame = Annotated[ActionFrame | SyncFrame | ChatFrame | PingFrame | PresenceFrame, Field(discriminator="type")]
_frames: TypeAdapter[ActionFrame | SyncFrame | ChatFrame | PingFrame | PresenceFrame] = TypeAdapter(ClientFrame)
FRAME_TYPES = ("action", "sync", "chat", "ping", "presence")


def _parse_int(text: str) -> int:
    value = int(text)
    if abs(value) > MAX_SAFE_INT:
        raise _TooLarge
    return value


def _parse_constant(text: str) -> Any:
    raise ValueError(f"{text} is not JSON")


class _TooLarge(ValueError):
    pass


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
# Once the text itself is valid Unicode, only a \uD800-\uDFFF escape can put a lone surrogate into its JSON.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def nesting(text: str) -> int:
    """How deeply arrays and objects nest in the JSON `text` (brackets inside strings do not count)."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _is_unicode(text: str) -> bool:
    """Whether `text` is valid Unicode (has no lone surrogate), at the speed of the UTF-8 codec."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _has_surrogate(value: Any) -> bool:
    """Whether a lone surrogate is in any string of `value` (keys included): text that is not Unicode."""
    if isinstance(value, str):
        return not _is_unicode(value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    return False


def too_deep(max_depth: int) -> ServerError:
    return ServerError(Code.MSG_TOO_DEEP, f"JSON may nest at most {max_depth} levels deep.",
                       f"JSON の入れ子は {max_depth} 段までです。")


def invalid_text() -> ServerError:
    return ServerError(Code.MSG_INVALID_TEXT, "The text is not valid Unicode (invalid UTF-8, or an unpaired surrogate).",
                       "テキストが正しい Unicode ではありません(不正な UTF-8 または対になっていないサロゲート)。")


def load_json(raw: str | bytes, max_depth: int) -> Any:
    """JSON from a client (a frame, an HTTP body, a query parameter): at most `max_depth` arrays and objects
    deep, integers within ±2^53, no `NaN` or `Infinity`, all text valid Unicode. Refusals are ServerErrors:
    `msg/too_deep`, `msg/number_too_large`, `msg/malformed_json`, `msg/invalid_text` (status 400)."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise invalid_text() from None
    elif not raw.isascii() and not _is_unicode(raw):
        raise invalid_text()
    # Counting brackets is a cheap bound on the depth; only text with many of them is scanned.
    if raw.count("[") + raw.count("{") > max_depth and nesting(raw) > max_depth:
        raise too_deep(max_depth)
    try:
        data = json.loads(raw, parse_int=_parse_int, parse_constant=_parse_constant)
    except _TooLarge:
        raise ServerError(Code.MSG_NUMBER_TOO_LARGE, "Numbers must be between -2^53 and 2^53.",
                          "数値は -2^53 から 2^53 の範囲で指定してください。") from None
    except (ValueError, RecursionError):
        raise ServerError(Code.MSG_MALFORMED_JSON, "The message is not valid JSON.",
                          "メッセージが正しい JSON ではありません。") from None
    if _SURROGATE_ESCAPE.search(raw) and _has_surrogate(data):
        raise invalid_text()
    return data


def parse_frame(raw: str | bytes, max_bytes: int,
                max_depth: int = MAX_JSON_DEPTH) -> ActionFrame | SyncFrame | ChatFrame | PingFrame | PresenceFrame:
    """One client frame, checked for size, JSON (`load_json`) and schema."""
    # A character is at most 4 bytes in UTF-8: short frames need no encoding to be measured.
    size = len(raw) if isinstance(raw, bytes) or 4 * len(raw) <= max_bytes else len(raw.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise ServerError(Code.MSG_TOO_LARGE, f"A message may be at most {max_bytes} bytes (this one: {size}).",
                          f"メッセージは最大 {max_bytes} バイトです(このメッセージ: {size})。")
    data = load_json(raw, max_depth)
    if not isinstance(data, dict):
        raise ServerError(Code.MSG_NOT_OBJECT, "A message must be a JSON object.",
                          "メッセージは JSON オブジェクトで送ってください。")
    if data.get("type") not in FRAME_TYPES:
        kind = str(data.get("type"))[:40]
        raise ServerError(Code.MSG_UNKNOWN_TYPE, f"Unknown message type {kind!r} (known: {', '.join(FRAME_TYPES)}).",
                          f"不明なメッセージ種別「{kind}」です(使えるもの: {', '.join(FRAME_TYPES)})。")
    try:
        return _frames.validate_python(data)
    except ValidationError as error:
        raise invalid(error) from None


def invalid(error: ValidationError) -> ServerError:
    problem = problem_text(error.errors()[0], "message")
    return ServerError(Code.MSG_INVALID, f"Invalid message: {problem.en}"[:200], f"メッセージが不正です: {problem.ja}"[:200],
                       422)


# -- HTTP bodies -------------------------------------------------------------------------------------
Name = Annotated[str, StringConstraints(max_length=64)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CreateRoom(_Body):
    game: Annotated[str, StringConstraints(max_length=64)]
    seats: Annotated[int, Field(ge=1, le=64)]
    options: dict[str, Any] | None = None
    seat_kinds: Annotated[list[Annotated[str, StringConstraints(max_length=40)]], Field(max_length=64)] | None = None
    name: Name | None = None
    # Omitted: the first human seat. null: the host only watches.
    host_seat: int | None = None
    # Unlisted: joinable by code or link only.
    private: bool = False
    # A leaver's seat goes to a bot by itself (default: in a public room, not in a private one) once its person
    # has been away `standin_after` seconds or ran out of time while away.
    auto_standin: bool | None = None
    standin_after: Annotated[int, Field(ge=10, le=3600)] = 60
    # A group of the host's profile the room is for: every match of the room is the group's (server/groups.py).
    group: Annotated[str, StringConstraints(max_length=24)] | None = None


class JoinRoom(_Body):
    name: Name
    seat: int | None = None


class FillBots(_Body):
    kind: Annotated[str, StringConstraints(max_length=40)] | None = None


class NextMatch(_Body):
    game: Annotated[str, StringConstraints(max_length=64)] | None = None


class ReviewRequest(_Body):
    seat: Annotated[int, Field(ge=0, le=MAX_SAFE_INT)]
    # The room's match to review (1, 2, ...: an earlier one of the evening); null: its latest.
    match: Annotated[int, Field(ge=1, le=MAX_SAFE_INT)] | None = None


class StandIn(_Body):
    # A bot kind to play the seat while its person is away; null: the person plays it again.
    kind: Annotated[str, StringConstraints(max_length=40)] | None
