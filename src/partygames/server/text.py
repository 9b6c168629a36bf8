"""User-supplied text: display names and chat, cleaned of control characters and HTML-escaped."""

from __future__ import annotations

import html
import unicodedata

from partygames.server.codes import Code
from partygames.server.errors import ServerError

NAME_MAX = 24


def _strip_controls(text: str) -> str:
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch == " ")


def clean_name(name: str) -> str:
    """A display name: 1-24 characters, trimmed; refused with control characters."""
    trimmed = " ".join(name.split())
    if trimmed != _strip_controls(trimmed):
        raise ServerError(Code.NAME_INVALID, "A name may not contain control characters.",
                          "名前に制御文字は使えません。", 422)
    if not 1 <= len(trimmed) <= NAME_MAX:
        raise ServerError(Code.NAME_INVALID, f"A name is 1 to {NAME_MAX} characters.",
                          f"名前は 1〜{NAME_MAX} 文字です。", 422)
    return trimmed


def escape(text: str) -> str:
    """HTML-escaped (`& < > " '`), as every user-supplied string is sent."""
    return html.escape(text, quote=True)


def clean_chat(text: str, max_chars: int) -> str:
    """Chat text, trimmed and without control characters (newlines become spaces)."""
    cleaned = _strip_controls(text.replace("\n", " ").replace("\t", " ")).strip()
    if not cleaned:
        raise ServerError(Code.CHAT_EMPTY, "The message is empty.", "メッセージが空です。")
    if len(cleaned) > max_chars:
        raise ServerError(Code.CHAT_TOO_LONG, f"A chat message is at most {max_chars} characters.",
                          f"チャットは最大 {max_chars} 文字です。")
    return cleaned
