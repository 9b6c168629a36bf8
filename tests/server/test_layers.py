"""The server's modules import downward only: what a room is built from never imports the room (nor the
hub or the app above it), not even for type checking."""

from __future__ import annotations

import ast
from pathlib import Path

import partygames.server

SERVER = Path(partygames.server.__file__).parent
ABOVE_ROOMS = {"rooms", "hub", "app", "replay", "main", "__main__"}  # rooms and what is built on it


def server_imports(module: str) -> set[str]:
    path = SERVER / f"{module}.py"
    if not path.exists():  # a package (migrations): its own modules
        return set().union(*(imports_in(p.read_text()) for p in (SERVER / module).rglob("*.py")))
    return imports_in(path.read_text())


def imports_in(source: str) -> set[str]:
    """The server modules a source imports anywhere (TYPE_CHECKING blocks and functions included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module.startswith("partygames.server."):
                found.add(node.module.removeprefix("partygames.server.").split(".")[0])
            elif node.module == "partygames.server":
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name.removeprefix("partygames.server.") for a in node.names
                         if a.name.startswith("partygames.server."))
    return found


def test_nothing_a_room_is_built_from_imports_the_room_or_anything_above_it() -> None:
    below = server_imports("rooms") - ABOVE_ROOMS
    assert {"room_lobby", "room_match", "delivery", "match_clock", "scheduler", "series", "seats", "history", "chat"} <= below
    seen: set[str] = set()
    todo = list(below)
    while todo:  # every module below rooms, and everything those import in turn
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        imported = server_imports(module)
        assert not imported & ABOVE_ROOMS, f"{module} imports {sorted(imported & ABOVE_ROOMS)}"
        todo.extend(imported)


def test_imports_are_found_wherever_they_hide() -> None:
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from partygames.server.rooms import Room\n"
              "def f() -> None:\n    import partygames.server.hub\n    from partygames.server import app\n")
    assert imports_in(source) == {"rooms", "hub", "app"}
