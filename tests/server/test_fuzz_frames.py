"""The adversarial probe of issue #21 as a property, for every game: on a real server, a table whose every
seat the fuzzer plays sends random frames (legal actions, mutated ones, wrong types, unpaired surrogates,
invalid UTF-8, deep nesting, huge numbers, frames that are not JSON at all). The server answers each frame
(an error, an acknowledging update, a pong, the chat echo), stays up, logs no traceback, and the actions
it acknowledged are exactly the seats' actions in its stored log."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from partygames.games import all_games
from tests.server.client import Lobby, Socket
from tests.server.live import LiveServer

EXAMPLES = 4  # tables per game; each sends up to STEPS frames
STEPS = 16
ANSWER = 5.0  # seconds a frame's answer may take

Frame = dict[str, Any]


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The real registry; frames are not rate-limited, so that every frame reaches the room."""
    live = LiveServer(tmp_path_factory.mktemp("fuzz"), bot_delay=0.0, games=None,
                      settings={"rate_per_second": 10_000, "rate_burst": 10_000}).start()
    yield live
    live.stop()
    log = live.log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


class Table:
    """A started room of `game` with every seat a human seat played by the fuzzer, one socket each."""

    def __init__(self, live: LiveServer, lobby: Lobby, game: str) -> None:
        seats = lobby.http.get(f"/api/games/{game}/seat-counts").json()["seat_counts"][0]
        created = lobby.create(game, seats, name="P0", seat_kinds=["human"] * seats)
        self.code: str = created["code"]
        tokens = [created["token"]] + [lobby.join(self.code, f"P{i}")["token"] for i in range(1, seats)]
        lobby.start(self.code, created["host_token"])
        self.sockets = [Socket(live.ws_url, self.code, token) for token in tokens]
        self.views: list[Frame] = [sock.update()["view"] for sock in self.sockets]
        self.sent: dict[str, tuple[int, Frame]] = {}  # an action frame's id -> its seat and action
        self.acked: list[tuple[int, Frame]] = []
        self.next_id = 0

    def new_id(self) -> str:
        self.next_id += 1
        return f"f{self.next_id}"

    def seen(self, seat: int, frame: Frame) -> None:
        if frame["type"] == "update":
            self.views[seat] = frame["view"]
            self.acked += [self.sent[ref] for ref in frame["acks"] if ref in self.sent]

    def latest(self, seat: int) -> Frame:
        """The seat's view once the frames already on their way are read."""
        sock = self.sockets[seat]
        while True:
            try:
                self.seen(seat, sock.recv(0.01))
            except TimeoutError:
                return self.views[seat]

    def send(self, seat: int, raw: str | bytes, answers: Callable[[Frame], bool]) -> Frame:
        """Sends one raw frame from the seat's socket; its answer (fails if none comes)."""
        sock = self.sockets[seat]
        sock.ws.send(raw)
        deadline = time.monotonic() + ANSWER
        while True:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no answer to {raw[:200]!r}; last frames {sock.frames[-3:]}"
            frame = sock.recv(remaining)
            self.seen(seat, frame)
            if frame["type"] == "error" or answers(frame):
                return frame


# -- frames ---------------------------------------------------------------------------------------------------
SURROGATES = st.sampled_from(["\ud800", "\udfff", "a\udc00b", "\udc00\ud800", "\ud83c"])
HUGE = st.integers(min_value=2**53 + 1, max_value=2**80) | st.integers(min_value=-(2**80), max_value=-(2**53) - 1)
DEEP = st.integers(min_value=33, max_value=300).map(lambda depth: "[" * depth + "]" * depth)
HOSTILE = st.one_of(SURROGATES, HUGE, st.floats(allow_nan=False, allow_infinity=False), st.booleans(), st.none(),
                    st.text(max_size=150), st.lists(st.integers(), max_size=20), st.dictionaries(st.text(max_size=5),
                                                                                               st.integers(), max_size=3))


def legal_action(draw: st.DrawFn, spec: Frame) -> Frame:
    """One of the actions `spec` allows (docs/engine.md: a range, a choice, a sequence)."""
    action: Frame = {"type": spec["type"]}
    for name, param in spec["params"].items():
        if "choice" in param:
            action[name] = draw(st.sampled_from(param["choice"]))
        elif "sequence" in param:
            order = draw(st.permutations(param["sequence"]))
            action[name] = list(order[: draw(st.integers(param["min_len"], param["max_len"]))])
        else:
            action[name] = param["min"] + param["step"] * draw(st.integers(0, (param["max"] - param["min"]) // param["step"]))
    return action


def mutated(draw: st.DrawFn, action: Frame) -> Frame:
    """`action` with a hostile change: a field's value, its type, a field added or removed."""
    changed = dict(action)
    how = draw(st.sampled_from(["value", "type", "add", "remove"]))
    fields = [k for k in changed if k != "type"]
    if how == "value" and fields:
        changed[draw(st.sampled_from(fields))] = draw(HOSTILE)
    elif how == "type":
        changed["type"] = draw(HOSTILE | st.sampled_from(["", "pass", "bid"]))
    elif how == "remove" and fields:
        del changed[draw(st.sampled_from(fields))]
    else:
        changed[draw(st.text(max_size=8) | SURROGATES)] = draw(HOSTILE)
    return changed


def junk(draw: st.DrawFn) -> str | bytes:
    """A frame the server must refuse, whatever the room's state."""
    raw: str | bytes = draw(st.one_of(
        st.text(max_size=60).map(lambda t: "{" + t),  # never a whole JSON object
        DEEP,
        DEEP.map(lambda deep: json.dumps({"type": "action", "action": {"type": "x"}})[:-1] + ', "x": ' + deep + "}"),
        HOSTILE.filter(lambda v: not isinstance(v, dict)).map(json.dumps),  # not an object
        (SURROGATES | st.text(max_size=20).filter(lambda t: t not in ("action", "sync", "chat", "ping"))).map(
            lambda kind: json.dumps({"type": kind})),
        HOSTILE.filter(lambda v: type(v) is not int or v < 0).map(lambda v: json.dumps({"type": "sync", "since": v})),
        (SURROGATES | HUGE).map(lambda v: json.dumps({"type": "chat", "text": v})),
        SURROGATES.map(lambda v: json.dumps({"type": "chat", "channel": v, "text": "hi"})),
        st.just(json.dumps({"type": "ping", "extra": 1})),
        st.binary(min_size=1, max_size=40).map(lambda b: b"\xff" + b),  # never UTF-8
        st.just(json.dumps({"type": "chat", "text": "y" * 5000})),  # over 4 KiB
    ))
    return raw


@st.composite
def frames(draw: st.DrawFn, table: Table) -> tuple[int, str | bytes, Callable[[Frame], bool]]:
    """A frame from one of the table's seats, and what answers it besides an error."""
    seat = draw(st.integers(0, len(table.sockets) - 1))
    specs = table.latest(seat).get("legal_actions") or []
    kind = draw(st.sampled_from(["legal", "mutated", "junk", "ping", "sync", "chat"] if specs else
                                ["mutated", "junk", "ping", "sync", "chat"]))
    if kind in ("legal", "mutated"):
        action = legal_action(draw, draw(st.sampled_from(specs))) if specs else {"type": "bid", "amount": 1}
        if kind == "mutated":
            action = mutated(draw, action)
        ref = table.new_id()
        frame: Frame = {"type": "action", "action": action, "id": ref}
        if draw(st.booleans()):
            frame["seat"] = draw(st.sampled_from([seat, seat + 1]) | HOSTILE)
        table.sent[ref] = (seat, action)
        return seat, json.dumps(frame), lambda f: f["type"] == "update" and ref in f["acks"]
    if kind == "ping":
        return seat, json.dumps({"type": "ping"}), lambda f: f["type"] == "pong"
    if kind == "sync":
        since = draw(st.integers(0, 2**53))
        return seat, json.dumps({"type": "sync", "since": since}), lambda f: f["type"] == "update"
    if kind == "chat":
        text = draw(st.text(min_size=1, max_size=80))
        return seat, json.dumps({"type": "chat", "text": text}), lambda f: f["type"] == "chat" and f["seat"] == seat
    return seat, junk(draw), lambda f: False


def stored_actions(live: LiveServer, code: str) -> list[tuple[int, str]]:
    """The seats' actions in the room's stored log (read from the server's SQLite file)."""
    with sqlite3.connect(f"file:{live.data_dir / 'partygames.sqlite3'}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT seat, action FROM log_entries WHERE room = ? AND source = 'seat' ORDER BY seq",
                          (code,)).fetchall()
    return sorted((seat, json.dumps(json.loads(action), sort_keys=True)) for seat, action in rows)


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_random_frames_are_all_answered_and_acknowledged_actions_are_stored(fuzzed: LiveServer, game: str) -> None:
    lobby = Lobby(fuzzed.url)

    # No shrinking: each try of a failing table waits for answers that do not come, and the frames a table
    # draws follow what the server answered, which a replay may not repeat; a failure names its frame.
    @settings(max_examples=EXAMPLES, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(st.data())
    def fuzz(data: st.DataObject) -> None:
        table = Table(fuzzed, lobby, game)
        try:
            for _ in range(data.draw(st.integers(1, STEPS), label="frames")):
                seat, raw, answers = data.draw(frames(table))
                table.send(seat, raw, answers)
            assert lobby.http.get("/api/games").status_code == 200
            acked = sorted((seat, json.dumps(action, sort_keys=True)) for seat, action in table.acked)
            assert acked == stored_actions(fuzzed, table.code)
        finally:
            for sock in table.sockets:
                sock.close()

    try:
        fuzz()
    finally:
        lobby.http.close()
