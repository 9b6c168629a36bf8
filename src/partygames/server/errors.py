"""Refusals the server gives: a stable code, a reason in English and Japanese, an HTTP status."""

from __future__ import annotations

from typing import Any

from partygames.engine.errors import EngineError
from partygames.server.codes import Code


class ServerError(Exception):
    """A refusal that changes nothing. `status` is used when it answers an HTTP request."""

    def __init__(self, code: Code, en: str, ja: str, status: int = 400) -> None:
        super().__init__(en)
        self.code = code
        # A reason may quote what the client sent; text that cannot be encoded would make the answer
        # itself fail (issue #21, item 3), so a lone surrogate becomes "?".
        self.en = _encodable(en)
        self.ja = _encodable(ja)
        self.status = status

    @staticmethod
    def from_engine(error: EngineError, status: int = 400) -> ServerError:
        """The engine's refusal with its own code. The engine keeps its codes as literals (it never
        imports the server); tests/server/test_codes.py keeps each of them in the catalog, and one that
        slipped past would go out as `engine/error` rather than as a code the client cannot know."""
        return ServerError(Code.lookup(error.code) or Code.ENGINE_ERROR, error.en, error.ja, status)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "en": self.en, "ja": self.ja}

    def frame(self, ref: object = None) -> dict[str, Any]:
        """The WebSocket `error` frame."""
        return {"type": "error", **self.to_json(), "ref": ref}


def _encodable(text: str) -> str:
    return text if text.isascii() else text.encode("utf-8", "replace").decode("utf-8")


def room_not_found(code: str) -> ServerError:
    return ServerError(Code.ROOM_NOT_FOUND, f"No room {code[:12]!r}.", f"ルーム「{code[:12]}」はありません。", 404)


def bad_host_token() -> ServerError:
    return ServerError(Code.HOST_BAD_TOKEN, "Only the host can do that (missing or wrong host token).",
                       "ホストだけが操作できます(ホストトークンがないか違います)。", 403)


def bad_seat_token() -> ServerError:
    return ServerError(Code.SEAT_BAD_TOKEN, "This seat token is not valid for this room.",
                       "この席トークンはこのルームでは無効です。", 403)


def not_open() -> ServerError:
    return ServerError(Code.ROOM_NOT_OPEN, "The room has already started; the lobby is closed.",
                       "このルームはすでに開始しています。ロビーは閉じられました。", 409)


def not_started() -> ServerError:
    return ServerError(Code.ROOM_NOT_STARTED, "The match has not started.", "マッチはまだ始まっていません。", 409)


def room_closed() -> ServerError:
    return ServerError(Code.ROOM_CLOSED, "This room was closed: nobody was at the table for a long time.",
                       "このルームは閉じられました。長い間だれもいなかったためです。", 410)


def not_over() -> ServerError:
    return ServerError(Code.ROOM_NOT_OVER, "The match is not over yet.", "マッチはまだ終わっていません。", 409)


RETRY_AFTER = 5  # seconds a client is asked to wait (`Retry-After`) when the database does not answer


def storage_unavailable() -> ServerError:
    return ServerError(Code.SERVER_STORAGE, "The server's database does not answer; try again in a moment.",
                       "サーバーのデータベースが応答しません。少し待ってからもう一度試してください。", 503)
