"""Game options from a client are checked, not converted (issue #31, item 11): over HTTP, a value of another
JSON type than its option's (a string for a number, a float for a whole number, a number for a flag, ...)
is refused with `options/invalid` in both languages, by room creation and by the lobby's seat-count query,
for every option of every game, and creates no room."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.client import Lobby
from tests.server.live import LiveServer

# What JSON values each JSON-schema type takes (a bool is no number; an integer is a number).
TAKES: dict[str, tuple[type, ...]] = {"integer": (int,), "number": (int, float), "boolean": (bool,), "string": (str,),
                                      "array": (list,), "object": (dict,), "null": (type(None),)}


def json_types(schema: dict[str, Any], definitions: dict[str, Any]) -> set[str]:
    """The JSON types an option's schema takes."""
    if "$ref" in schema:
        return json_types(definitions[schema["$ref"].rsplit("/", 1)[1]], definitions)
    if "anyOf" in schema:
        return set().union(*(json_types(s, definitions) for s in schema["anyOf"]))
    if "enum" in schema:
        return {"boolean" if isinstance(v, bool) else "integer" if isinstance(v, int) else "string"
                for v in schema["enum"]}
    return {schema["type"]}


def fits(value: Any, types: set[str]) -> bool:
    return any(isinstance(value, TAKES[t]) and (t == "boolean" or not isinstance(value, bool)) for t in types)


def wrong_values(schema: dict[str, Any], types: set[str]) -> list[Any]:
    """Values of the wrong JSON type for an option, most of them what a lax parser would convert."""
    default = schema.get("default")
    number = default if isinstance(default, int | float) and not isinstance(default, bool) else 5
    candidates = [str(number), float(int(number)), True, False, "true", "false", 0, 1, None, [default], {}, "[]"]
    return [v for v in candidates if not fits(v, types)]


@pytest.fixture
def lobby(registry_server: LiveServer) -> Iterator[Lobby]:
    client = Lobby(registry_server.url)
    yield client
    client.http.close()


def options_of_every_game(lobby: Lobby) -> list[tuple[str, int, str, dict[str, Any], set[str]]]:
    """(game, a seat count it takes, option, its schema, the JSON types it takes) for every option."""
    cases = []
    for game in lobby.http.get("/api/games").json():
        schema = game["options"]
        seats = lobby.http.get(f"/api/games/{game['id']}/seat-counts").json()["seat_counts"][0]
        for name, field in schema["properties"].items():
            cases.append((game["id"], seats, name, field, json_types(field, schema.get("$defs", {}))))
    return cases


def assert_refused(answer: Any, field: str) -> None:
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == "options/invalid" and error["ja"], error
    assert field in error["en"] and field in error["ja"], error  # the option's own refusal, not the seat count's


def test_every_option_of_every_game_refuses_values_of_the_wrong_type(lobby: Lobby) -> None:
    rooms = lobby.http.get("/api/rooms").json()
    tried = 0
    for game, seats, name, field, types in options_of_every_game(lobby):
        for value in wrong_values(field, types):
            tried += 1
            options = {name: value}
            assert_refused(lobby.http.post("/api/rooms", json={"game": game, "seats": seats, "options": options}), name)
            query = {"options": json.dumps(options)}
            assert_refused(lobby.http.get(f"/api/games/{game}/seat-counts", params=query), name)
        # The option's own default, of the right type, is taken.
        answer = lobby.http.get(f"/api/games/{game}/seat-counts", params={"options": json.dumps({name: field.get("default")})})
        assert answer.status_code == 200, (game, name, answer.text)
    assert tried > 300
    assert lobby.http.get("/api/rooms").json() == rooms  # no room was created


@pytest.mark.parametrize(("game", "options"), [
    ("dice-derby", {"races": "5", "win_limit": True, "loans": "false", "starting_money": 10000.0}),
    ("lucky-nine", {"rounds": 5.0}),  # a choice of whole numbers
    ("lucky-nine", {"special_prizes": [{"name": "Car", "count": "2"}]}),  # inside a list of objects too
])
def test_the_probe_s_options_are_refused_and_right_ones_taken(lobby: Lobby, game: str, options: dict[str, Any]) -> None:
    seats = lobby.http.get(f"/api/games/{game}/seat-counts").json()["seat_counts"][0]
    answer = lobby.http.post("/api/rooms", json={"game": game, "seats": seats, "options": options})
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "options/invalid", answer.text
    fixed = {"races": 5, "win_limit": 1, "loans": False, "starting_money": 10000, "rounds": 5,
             "special_prizes": [{"name": "Car", "count": 2}]}
    created = lobby.create(game, seats, options={name: fixed[name] for name in options})
    assert {name: created["room"]["options"][name] for name in options} == {
        name: fixed[name] if name != "special_prizes" else [{"name": "Car", "name_ja": "", "count": 2, "value": 0}]
        for name in options}
