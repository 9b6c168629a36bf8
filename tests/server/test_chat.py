"""Room chat: public and game-declared team channels, escaping, limits."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.client import Lobby, Socket, human_room
from tests.server.live import LiveServer


def chats(sock: Socket) -> list[dict[str, object]]:
    return [f for f in sock.quiet(0.4) if f["type"] == "chat"]


def test_public_chat_reaches_everyone_escaped_and_is_kept_for_newcomers(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby, start=False)
    code = created["code"]
    a, b = Socket(server.ws_url, code, tokens[0]), Socket(server.ws_url, code, tokens[1])
    watcher = Socket(server.ws_url, code, name="Kai <3")
    for s in (a, b, watcher):
        s.recv()
    a.send({"type": "chat", "channel": "public", "text": "  <b>hi</b> & 'bye'\n "})
    for s in (a, b, watcher):
        got = s.until(lambda f: f["type"] == "chat")
        assert got["text"] == "&lt;b&gt;hi&lt;/b&gt; &amp; &#x27;bye&#x27;"
        assert got["seat"] == 0 and got["name"] == "P0" and got["channel"] == "public"
    watcher.send({"type": "chat", "text": "spectators may talk"})
    from_watcher = b.until(lambda f: f["type"] == "chat")
    assert from_watcher["seat"] is None and from_watcher["name"] == "Kai &lt;3"
    late = Socket(server.ws_url, code)
    late.recv()
    history = [late.recv(), late.recv()]
    assert [h["text"] for h in history] == ["&lt;b&gt;hi&lt;/b&gt; &amp; &#x27;bye&#x27;", "spectators may talk"]


def test_team_channels_reach_only_their_members(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby, "team-toy", seats=4)
    code = created["code"]
    socks = [Socket(server.ws_url, code, t) for t in tokens]
    watcher = Socket(server.ws_url, code)
    welcomes = [s.recv() for s in socks]
    assert welcomes[0]["channels"] == ["public", "team:even"] and welcomes[1]["channels"] == ["public", "team:odd"]
    assert watcher.recv()["channels"] == ["public"]
    socks[0].send({"type": "chat", "channel": "team:even", "text": "bid high"})
    assert [c["text"] for c in chats(socks[2])] == ["bid high"]
    assert chats(socks[1]) == [] and chats(socks[3]) == [] and chats(watcher) == []
    socks[1].send({"type": "chat", "channel": "team:even", "text": "spy"})
    assert socks[1].error()["code"] == "chat/channel"
    watcher.send({"type": "chat", "channel": "team:odd", "text": "spy"})
    assert watcher.error()["code"] == "chat/channel"


def test_private_messages_reach_the_two_seats_only_and_come_back_to_them_alone(lobby: Lobby,
                                                                            server: LiveServer) -> None:
    created, tokens = human_room(lobby, "dm-toy", seats=3)
    code = created["code"]
    socks = [Socket(server.ws_url, code, t) for t in tokens]
    watcher = Socket(server.ws_url, code)
    for s in (*socks, watcher):
        s.recv()
    socks[2].send({"type": "chat", "channel": "dm:0:2", "text": "I peeked row 3"})
    for s in (socks[0], socks[2]):
        got = s.until(lambda f: f["type"] == "chat")
        assert (got["channel"], got["seat"], got["text"]) == ("dm:0:2", 2, "I peeked row 3")
    assert chats(socks[1]) == [] and chats(watcher) == []
    # Not a member, not the canonical name (lower seat first), no such seat, oneself: refused.
    for sender, channel in ((1, "dm:0:2"), (2, "dm:2:0"), (0, "dm:0:3"), (0, "dm:0:0"), (0, "dm:00:2")):
        socks[sender].send({"type": "chat", "channel": channel, "text": "x"})
        assert socks[sender].error()["code"] == "chat/channel"
    watcher.send({"type": "chat", "channel": "dm:0:1", "text": "x"})
    assert watcher.error()["code"] == "chat/channel"
    # History: the two members get it when they come back; another seat and spectators never do.
    again = Socket(server.ws_url, code, tokens[0])
    assert again.recv()["type"] == "welcome"
    assert [c["text"] for c in chats(again)] == ["I peeked row 3"]
    other = Socket(server.ws_url, code, tokens[1])
    other.recv()
    assert chats(other) == []


def test_a_game_without_private_messages_refuses_them(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby, "team-toy", seats=4)
    sock = Socket(server.ws_url, created["code"], tokens[0])
    sock.recv()
    sock.send({"type": "chat", "channel": "dm:0:1", "text": "psst"})
    assert sock.error()["code"] == "chat/channel"


def test_chat_refuses_empty_long_and_too_frequent_messages(lobby: Lobby, server: LiveServer) -> None:
    created, tokens = human_room(lobby, start=False)
    a = Socket(server.ws_url, created["code"], tokens[0])
    a.recv()
    a.send({"type": "chat", "text": "   "})
    assert a.error()["code"] == "chat/empty"
    a.send({"type": "chat", "text": "z" * 301})
    assert a.error()["code"] == "chat/too_long"
    for i in range(6):
        a.send({"type": "chat", "text": f"message {i}"})
    got = a.quiet(0.5)
    assert len([f for f in got if f["type"] == "chat"]) == 3  # 5 per 10 s; two were spent on refusals above
    assert [f["code"] for f in got if f["type"] == "error"] == ["chat/rate_limited"] * 3


SMUGGLING = {"team_size": 2, "small_games": 2, "representatives": "rotation"}


@pytest.fixture
def registry_lobby(registry_server: LiveServer) -> Iterator[Lobby]:
    client = Lobby(registry_server.url)
    yield client
    client.http.close()


def test_the_inspection_room_reaches_exactly_the_two_representatives_while_it_is_open(
        registry_server: LiveServer, registry_lobby: Lobby) -> None:
    lobby = registry_lobby
    # Rotation sends member 0 of each team in the first small game: seats 0 and 1, whichever smuggles.
    created, tokens = human_room(lobby, "smuggling", seats=4, options=SMUGGLING)
    code = created["code"]
    socks = [Socket(registry_server.ws_url, code, t) for t in tokens]
    watcher = Socket(registry_server.ws_url, code)
    welcomes = [s.recv() for s in socks]
    assert welcomes[0]["channels"] == ["public", "team:north"] and welcomes[3]["channels"] == ["public", "team:south"]
    view = socks[0].update()["view"]
    smuggler, inspector = view["smuggler"], view["inspector"]
    assert {smuggler, inspector} == {0, 1} and view["phase"] == "pack"
    # Not open while the smuggler packs.
    socks[inspector].send({"type": "chat", "channel": "inspection:1", "text": "early"})
    assert socks[inspector].error()["code"] == "chat/channel"

    socks[smuggler].act({"type": "pack", "amount": 30_000_000})
    for seat in (smuggler, inspector):
        opened = socks[seat].until(lambda f: f["type"] == "channels")
        assert opened["channels"][-1] == "inspection:1" and len(opened["channels"]) == 3
    socks[inspector].send({"type": "chat", "channel": "inspection:1", "text": "What is in the trunk?"})
    said = socks[smuggler].until(lambda f: f["type"] == "chat")
    assert said["seat"] == inspector and said["channel"] == "inspection:1" and said["text"] == "What is in the trunk?"
    socks[smuggler].send({"type": "chat", "channel": "inspection:1", "text": "Nothing at all"})
    assert socks[inspector].until(lambda f: f["type"] == "chat" and f["seat"] == smuggler)["text"] == "Nothing at all"
    # Teammates and spectators: no message, no channel, not a byte of the talk in any raw frame.
    for other in (socks[2], socks[3], watcher):
        other.quiet(0.4)
        assert not any("trunk?" in raw or "Nothing at all" in raw for raw in other.raw)
        assert not [f for f in other.frames if f["type"] in ("chat", "channels")]
    for intruder, expected in ((socks[2], "chat/channel"), (socks[3], "chat/channel"), (watcher, "chat/channel")):
        intruder.send({"type": "chat", "channel": "inspection:1", "text": "let me in"})
        assert intruder.error()["code"] == expected
    for sock in (socks[smuggler], socks[inspector]):
        sock.quiet(0.3)
        assert not any("let me in" in raw for raw in sock.raw)

    # The declaration closes the room; afterwards only the two read it (history on reconnect).
    socks[inspector].act({"type": "pass"})
    closed = socks[smuggler].until(lambda f: f["type"] == "channels")
    assert "inspection:1" not in closed["channels"]
    socks[smuggler].send({"type": "chat", "channel": "inspection:1", "text": "one more thing"})
    assert socks[smuggler].error()["code"] == "chat/channel"
    history = {seat: Socket(registry_server.ws_url, code, tokens[seat]) for seat in range(4)}
    history_watcher = Socket(registry_server.ws_url, code)
    for seat, sock in history.items():
        sock.recv()
        texts = [f["text"] for f in sock.quiet(0.5) if f["type"] == "chat"]
        assert texts == (["What is in the trunk?", "Nothing at all"] if seat in (smuggler, inspector) else []), seat
    history_watcher.quiet(0.5)
    assert not any("trunk?" in raw or "Nothing at all" in raw for raw in history_watcher.raw)
