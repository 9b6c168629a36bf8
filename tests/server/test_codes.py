"""The catalog of error codes (server/codes.py) against the code, docs/protocol.md and the web client."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import partygames
from partygames.server.codes import Code
from partygames.server.errors import bad_seat_token, room_not_found

SRC = Path(partygames.__file__).parent
PROTOCOL = SRC.parents[1] / "docs" / "protocol.md"
ERROR_CLASSES = {"EngineError", "IllegalAction", "InvalidOptions", "UnknownGame", "ServerError"}


def _codes_of(node: ast.expr, where: str) -> list[str]:
    """The codes an expression names: a literal, a `Code` member, or a choice of them (`a if c else b`,
    `a or b`); none for a relayed engine code (`error.code`, `Code.lookup(error.code)`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Code":
        return [Code[node.attr].value]
    if isinstance(node, ast.IfExp):
        return _codes_of(node.body, where) + _codes_of(node.orelse, where)
    if isinstance(node, ast.BoolOp):
        return [code for value in node.values for code in _codes_of(value, where)]
    if isinstance(node, ast.Attribute) and node.attr == "code":
        return []
    if isinstance(node, ast.Call) and ast.unparse(node.func) == "Code.lookup":
        return []  # relays an engine error's code, whose own sites are scanned
    raise AssertionError(f"{where}: cannot tell which code {ast.unparse(node)!r} is; use a literal or Code")


def _literals_in(node: ast.expr) -> list[str]:
    """The string literals among the codes an expression names (the server must name `Code` members)."""
    if isinstance(node, ast.IfExp):
        return _literals_in(node.body) + _literals_in(node.orelse)
    if isinstance(node, ast.BoolOp):
        return [code for value in node.values for code in _literals_in(value)]
    return [node.value] if isinstance(node, ast.Constant) and isinstance(node.value, str) else []


def _names_a_code(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) or (
        isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Code")


def _code_sites() -> list[tuple[str, ast.expr]]:
    """Every place in src/ that names an error code, with where it is: the first argument (or `code=`)
    of a ServerError, the `code=` of an engine error, an engine error class's default code, and the
    "code" of the JSON error bodies written by hand. A call that gives no code relies on its class's
    default, which the class must have."""
    sites: list[tuple[str, ast.expr]] = []
    defaults: set[str] = set()
    relying: list[tuple[str, str]] = []
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "codes.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        name = str(path.relative_to(SRC))
        for node in ast.walk(tree):
            where = f"{name}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.ClassDef) and node.name in ERROR_CLASSES:
                for item in node.body:
                    target = item.targets[0] if isinstance(item, ast.Assign) else getattr(item, "target", None)
                    value = getattr(item, "value", None)
                    if isinstance(target, ast.Name) and target.id == "code" and value is not None:
                        defaults.add(node.name)
                        sites.append((f"{where} (default of {node.name})", value))
            elif isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if called not in ERROR_CLASSES:
                    continue
                keywords = {k.arg: k.value for k in node.keywords}
                expr = (node.args[0] if node.args else keywords.get("code")) if called == "ServerError" \
                    else keywords.get("code")
                if expr is None:
                    relying.append((called, where))
                else:
                    sites.append((where, expr))
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    # {"code": self.code} and the like are room codes or relays, not error codes.
                    if isinstance(key, ast.Constant) and key.value == "code" and _names_a_code(value):
                        sites.append((where, value))
    for cls, where in relying:
        assert cls in defaults, f"{where}: {cls} without a code, and the class has no default"
    return sites


def _codes_in_source() -> dict[str, list[str]]:
    """Every error code in src/ with the places that name it. A class's default counts as used: it is
    sent by every call that gives no code, and by any game's IllegalAction."""
    found: dict[str, list[str]] = {}
    for where, expr in _code_sites():
        for code in _codes_of(expr, where):
            found.setdefault(code, []).append(where)
    return found


def test_every_code_in_the_source_is_in_the_catalog_and_every_member_is_used() -> None:
    found = _codes_in_source()
    unknown = {code: places for code, places in found.items() if code not in set(Code)}
    assert not unknown, f"codes missing from server/codes.py: {unknown}"
    unused = sorted(set(Code) - set(found))
    assert not unused, f"members of server/codes.py nothing sends: {unused}"
    # The scan sees each kind of site (a sanity check on the scan itself).
    assert "engine/match.py" in " ".join(found["action/not_your_turn"])
    assert "server/app.py" in " ".join(found["file/not_found"])
    assert any("default of InvalidOptions" in where for where in found["options/invalid"])


def test_the_server_names_its_codes_by_catalog_member() -> None:
    """The engine keeps literals (it never imports the server); the server writes `Code.X`."""
    literals = [(where, code) for where, expr in _code_sites() if where.startswith("server/")
                for code in _literals_in(expr)]
    assert not literals, f"use the Code member instead of the literal: {literals}"


def test_each_member_has_a_one_line_meaning() -> None:
    for code in Code:
        assert re.fullmatch(r"[a-z]+/[a-z_]+", code.value), code
        assert code.meaning and "\n" not in code.meaning and code.meaning.endswith("."), code


def _protocol_table() -> dict[str, str]:
    text = PROTOCOL.read_text(encoding="utf-8")
    section = text.split("### Error codes", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    table: dict[str, str] = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        assert len(cells) == 2 and re.fullmatch(r"`[a-z]+/[a-z_]+`", cells[0]), f"one code per row: {row}"
        code = cells[0].strip("`")
        assert code not in table, f"{code} listed twice"
        table[code] = cells[1]
    return table


def test_the_protocol_document_lists_exactly_the_catalog_with_the_same_meanings() -> None:
    table = _protocol_table()
    assert sorted(table) == sorted(c.value for c in Code)
    for code in Code:
        assert table[code.value] == code.meaning, code.value


# -- the web client -----------------------------------------------------------------------------------
CLIENT_OWN = ("net/", "http/")  # codes the client makes up itself for failures that never reach the server
MEDIA_TYPES = ("application/", "text/")


def _client_sources() -> dict[str, str]:
    files = [p for p in (SRC / "web").rglob("*.js") if "vendor" not in p.parts]
    files += list((SRC / "games").glob("*/web/*.js"))
    return {str(p.relative_to(SRC)): p.read_text(encoding="utf-8") for p in sorted(files)}


def test_the_codes_the_web_client_knows_are_codes_the_server_sends() -> None:
    literals: dict[str, str] = {}
    for name, text in _client_sources().items():
        for code in re.findall(r"""["'`]([a-z]+/[a-z_]+)["'`]""", text):
            if not code.startswith(CLIENT_OWN + MEDIA_TYPES):
                literals[code] = name
    assert "seat/bad_token" in literals  # the scan reads the client
    strange = {code: name for code, name in literals.items() if code not in set(Code)}
    assert not strange, f"the client names codes the server never sends: {strange}"


def test_the_client_gives_up_on_the_codes_the_server_sends_for_a_bad_token_or_room() -> None:
    connection = _client_sources()["web/connection.js"]
    match = re.search(r"const fatalCodes = \[([^\]]*)\]", connection)
    assert match, "web/connection.js no longer lists fatalCodes: update this test"
    fatal = set(re.findall(r'"([^"]+)"', match.group(1)))
    assert fatal == {bad_seat_token().code, room_not_found("X").code}
