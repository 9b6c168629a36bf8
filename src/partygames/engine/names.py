"""Seat names as people read them in sentences: a player's own name, a bot's name ("Bot Aoi"), or the
seat's number. The web gives bots the same names (`web/seats.js`), in the order of a room's bot seats."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from partygames.engine.text import Lang, Text

BOT_NAMES = (
    ("Aoi", "アオイ"), ("Ben", "ベン"), ("Chika", "チカ"), ("Daichi", "ダイチ"), ("Emi", "エミ"), ("Fuyu", "フユ"),
    ("Gin", "ギン"), ("Hana", "ハナ"), ("Ichiro", "イチロー"), ("Jun", "ジュン"), ("Kaito", "カイト"), ("Luna", "ルナ"),
    ("Mio", "ミオ"), ("Nagi", "ナギ"), ("Oto", "オト"), ("Riku", "リク"), ("Sora", "ソラ"), ("Taku", "タク"),
    ("Umi", "ウミ"), ("Yui", "ユイ"), ("Zen", "ゼン"), ("Haru", "ハル"), ("Kana", "カナ"), ("Masa", "マサ"),
    ("Noa", "ノア"), ("Rei", "レイ"), ("Saki", "サキ"), ("Toma", "トウマ"), ("Yuki", "ユキ"), ("Kou", "コウ"),
)
"""One name per bot of a room, in the order of its bot seats (30: the most seats a game has)."""

YOU = Text("you", "あなた")


def bot_name(ordinal: int, lang: Lang) -> str:
    """The name of a room's `ordinal`-th bot (0-based): "Bot Aoi", "ボット アオイ"."""
    en, ja = BOT_NAMES[ordinal % len(BOT_NAMES)]
    return f"ボット {ja}" if lang == "ja" else f"Bot {en}"


def seat_label(seat: int, lang: Lang) -> str:
    """A seat by its number, as the terminal counts them (0-based): "seat 2", "席 2"."""
    return f"席 {seat}" if lang == "ja" else f"seat {seat}"


def seat_names(seats: int, bots: Collection[int], lang: Lang, people: Mapping[int, str] | None = None,
               you: int | None = None) -> list[str]:
    """Every seat's name: `people`'s own, "you" for `you`, a bot's name for a bot seat, else its number."""
    names, ordinal = [], 0
    for seat in range(seats):
        if people and people.get(seat):
            names.append(people[seat])
        elif seat == you:
            names.append(YOU(lang))
        elif seat in bots:
            names.append(bot_name(ordinal, lang))
            ordinal += 1
        else:
            names.append(seat_label(seat, lang))
    return names


def name_of(names: Sequence[str] | None, seat: int, lang: Lang) -> str:
    """Seat `seat`'s name from `names` (as `seat_names` gives them), or its number when there is none."""
    return names[seat] if names and 0 <= seat < len(names) and names[seat] else seat_label(seat, lang)


def subject_of(names: Sequence[str] | None, seat: int, lang: Lang) -> str:
    """Seat `seat`'s name opening a sentence, its first letter capitalised ("You", "Seat 3", "Bot Aoi")."""
    name = name_of(names, seat, lang)
    return name[:1].upper() + name[1:]


def agree(name: str, other: str, you: str) -> str:
    """The English word agreeing with a seat's name: `you` after "you" ("you draw", "your offer"), `other`
    after any other name ("Bot Aoi draws", "Bot Aoi's offer")."""
    return you if name.lower() == YOU.en else other


def acts(names: Sequence[str] | None, seat: int, lang: Lang, other: str, you: str) -> str:
    """An English sentence's opening: seat `seat`'s name and the verb agreeing with it (`agree`):
    "Bot Aoi has", "You have"."""
    return f"{subject_of(names, seat, lang)} {agree(name_of(names, seat, lang), other, you)}"
