"""Names at one table look different (issue #31, item 12): a name that is the same as one already seated
after NFKC, case folding or Unicode's confusable letters (a Cyrillic "А" for a Latin "A") is refused with
`name/taken`; a name needs a visible character and may not hold a letter that shows as blank; and a
spectator, who names themselves, is marked as one in the chat frames."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from partygames.server.text import name_keys
from tests.server.client import Lobby, Socket
from tests.server.live import LiveServer


def assert_refused(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    error: dict[str, Any] = answer.json()["error"]
    assert error["code"] == code and error["en"] and error["ja"], error
    assert not re.search(r"[A-Za-z]+ [a-z]+", error["ja"]), error


def names(lobby: Lobby, code: str) -> list[str | None]:
    return [s["name"] for s in lobby.room(code)["seats"]]


@pytest.mark.parametrize("twin", [
    "Alice",  # the same
    "alice", "ALICE",  # another case
    "\u0410lice",  # a Cyrillic capital A
    "Al\u0456ce",  # a Cyrillic small i
    "\uff21\uff4c\uff49\uff43\uff45",  # full-width letters
    " Alice\ufe0f ",  # a variation selector, which shows nothing, and spaces trimmed
    "A1ice", "AIice",  # a digit one and a capital I for the small L
])
def test_a_name_that_looks_like_one_at_the_table_is_refused(lobby: Lobby, twin: str) -> None:
    created = lobby.create("toy", 3, name="Alice")
    code = created["code"]
    assert_refused(lobby.http.post(f"/api/rooms/{code}/join", json={"name": twin}), 409, "name/taken")
    assert names(lobby, code) == ["Alice", None, None]
    assert lobby.join(code, "Alicia")["seat"] == 1  # a different name still joins
    assert_refused(lobby.http.post(f"/api/rooms/{code}/join", json={"name": twin}), 409, "name/taken")


def test_japanese_names_that_look_the_same_are_refused_and_others_taken(lobby: Lobby) -> None:
    code = lobby.create("toy", 3, name="タロウ")["code"]
    # A kanji 口 for the katakana ロ, and a full-width space that collapses to one.
    assert_refused(lobby.http.post(f"/api/rooms/{code}/join", json={"name": "タ口ウ"}), 409, "name/taken")
    assert lobby.join(code, "山田\u3000太郎")["seat"] == 1
    assert_refused(lobby.http.post(f"/api/rooms/{code}/join", json={"name": "山田 太郎"}), 409, "name/taken")
    assert names(lobby, code) == ["タロウ", "山田 太郎", None]


@pytest.mark.parametrize("blank", ["\u3164", "\u2800", "\u3164\u3164", "Bob\u3164", "\uffa0", "\u0301",
                                   "\u3164 \u2800"])
def test_a_name_that_shows_as_blank_is_refused(lobby: Lobby, blank: str) -> None:
    rooms = lobby.http.get("/api/rooms").json()
    assert_refused(lobby.http.post("/api/rooms", json={"game": "toy", "seats": 2, "name": blank}), 422, "name/invalid")
    assert lobby.http.get("/api/rooms").json() == rooms
    code = lobby.create("toy", 2, name="Aki")["code"]
    assert_refused(lobby.http.post(f"/api/rooms/{code}/join", json={"name": blank}), 422, "name/invalid")
    assert names(lobby, code) == ["Aki", None]


def test_a_spectator_s_chat_is_marked_as_a_spectator_s_whatever_name_they_chose(lobby: Lobby,
                                                                                server: LiveServer) -> None:
    created = lobby.create("toy", 2, name="Alice")
    code = created["code"]
    alice = Socket(server.ws_url, code, created["token"])
    impostor = Socket(server.ws_url, code, name="Alice")
    alice.recv(), impostor.recv()
    impostor.send({"type": "chat", "text": "I fold"})
    alice.send({"type": "chat", "text": "I do not"})
    heard = [alice.until(lambda f: f["type"] == "chat") for _ in range(2)]
    assert [(c["name"], c["seat"], c["spectator"], c["text"]) for c in heard] == [
        ("Alice", None, True, "I fold"), ("Alice", 0, False, "I do not")]
    late = Socket(server.ws_url, code)  # the kept messages say so too
    late.recv()
    assert [late.recv()["spectator"] for _ in range(2)] == [True, False]


def test_name_keys_tell_apart_names_that_look_different() -> None:
    distinct = ["Alice", "Alicia", "Bob", "B0b", "Ken", "Kèn", "P0", "P1", "Aki", "あき", "アキ", "秋"]
    keys = [name_keys(n) for n in distinct]
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            assert a[0] != b[0] and a[1] != b[1]
