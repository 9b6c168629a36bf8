"""Room chat: public and game-declared team channels, escaping, limits."""

from __future__ import annotations

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
