"""User-supplied text: display names and chat, cleaned of control characters and HTML-escaped.

Names at one table must look different (issue #31, item 12): `name_key` is what two names are compared by,
after NFKC, case folding and the Unicode confusables (a Cyrillic "А" is a Latin "A"), and `clean_name`
refuses a name with nothing visible in it or with a letter that shows as blank.
"""

from __future__ import annotations

import html
import importlib.resources
import json
import unicodedata
from collections.abc import Iterable
from functools import cache

from partygames.server.codes import Code
from partygames.server.errors import ServerError

NAME_MAX = 24

# Letters that show as nothing: the Hangul fillers and the blank Braille pattern. They are letters or
# symbols to Unicode, not spaces or controls, so only a list names them.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Marks that change nothing one can see on their own (Unicode's Default_Ignorable_Code_Point that are not
# controls, which a name may not hold anyway): variation selectors, the combining grapheme joiner, Mongolian
# free variation selectors, two Khmer vowels. Kept in a name (an emoji's U+FE0F), left out when comparing.
_IGNORABLE = frozenset("\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f") | frozenset(map(chr, range(0xFE00, 0xFE10))) \
    | frozenset(map(chr, range(0xE0100, 0xE01F0)))


def _strip_controls(text: str) -> str:
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch == " ")


def clean_name(name: str, most: int = NAME_MAX) -> str:
    """A display name: 1-24 characters (`most`), trimmed; refused with control characters, with a letter that shows
    as blank, and without a visible character (a letter, digit, punctuation or symbol)."""
    trimmed = " ".join(name.split())
    if trimmed != _strip_controls(trimmed):
        raise ServerError(Code.NAME_INVALID, "A name may not contain control characters.",
                          "名前に制御文字は使えません。", 422)
    if not 1 <= len(trimmed) <= most:
        raise ServerError(Code.NAME_INVALID, f"A name is 1 to {most} characters.",
                          f"名前は 1〜{most} 文字です。", 422)
    if any(ch in _BLANK_LETTERS for ch in trimmed):
        raise ServerError(Code.NAME_INVALID, "A name may not contain characters that show as blank (such as U+3164).",
                          "名前に空白に見える文字(U+3164 など)は使えません。", 422)
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in trimmed):
        raise ServerError(Code.NAME_INVALID, "A name needs at least one visible character.",
                          "名前には見える文字が1文字以上必要です。", 422)
    return trimmed


@cache
def _prototypes() -> dict[str, str]:
    """Each character that has confusables -> one character of its class (the smallest), from the Unicode
    confusables as the confusable-homoglyphs package ships them (its `confusables.json`: for each character,
    the single characters and sequences that look like it). The classes are the connected groups of
    single characters; a sequence ("rn" for "m") is not followed."""
    path = importlib.resources.files("confusable_homoglyphs") / "confusables.json"
    data: dict[str, list[dict[str, str]]] = json.loads(path.read_text("utf-8"))
    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while (up := parent.get(ch, ch)) != ch:
            parent[ch] = parent.get(up, up)  # (halves the path)
            ch = up
        return ch

    for char, glyphs in data.items():
        if len(char) != 1:
            continue
        for glyph in glyphs:
            other = glyph["c"].strip("\u200e\u200f")  # (right-to-left glyphs come wrapped in direction marks)
            if len(other) == 1:
                a, b = root(char), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {ch: root(ch) for ch in parent}


def _skeleton(text: str) -> str:
    prototypes = _prototypes()
    return "".join(prototypes.get(ch, ch) for ch in text if ch not in _IGNORABLE)


def name_keys(name: str) -> tuple[str, str]:
    """What two names are compared by: they look the same at a table when either key is equal. Both after
    NFKC (full-width letters, ligatures): case folded then confusables mapped ("ALICE" is "Аlice": a capital
    I looks like an l but a small i does not), and confusables mapped then case folded ("Ian" is "lan")."""
    normal = unicodedata.normalize("NFKC", name)
    return _skeleton(normal.casefold()), _skeleton(normal).casefold()


def check_name_free(name: str, others: Iterable[str | None]) -> None:
    """Refuses `name` (`name/taken`) when one of `others` (the names already at the table) looks the same."""
    keys = name_keys(name)
    if any(other is not None and any(a == b for a, b in zip(keys, name_keys(other), strict=True)) for other in others):
        raise ServerError(Code.NAME_TAKEN, "Someone at this table already has this name, or one that looks the same; "
                          "choose another.", "この卓には同じ名前(または同じに見える名前)の人がいます。別の名前にしてください。",
                          409)


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
