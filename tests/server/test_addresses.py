"""Where people open the server and which pages may open its sockets (issue #21, item 8; issue #23):
share links and QR codes come from the public URL, never from a request's Host header; a WebSocket from
a page on another site is refused before its handshake, while a browser on the server's own address
(localhost or the LAN) keeps working."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from partygames.cli.main import app as cli
from partygames.server.address import lan_address, origin_allowed, public_url
from tests.server.client import Lobby
from tests.server.live import LiveServer

PUBLIC = "http://party.example:9999"
FRIENDS = "https://friends.example"


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server configured with a public URL (as behind a proxy) and one more allowed origin."""
    live = LiveServer(tmp_path_factory.mktemp("public"))
    live.args += ["--public-url", PUBLIC, "--allow-origin", FRIENDS]
    yield live.start()
    live.stop()


def welcome(url: str, origin: str | None) -> dict[str, Any]:
    """The welcome frame of a socket opened from a page of `origin` (None: not a browser)."""
    with connect(url, origin=origin, open_timeout=10) as ws:  # type: ignore[arg-type]
        frame: dict[str, Any] = json.loads(ws.recv(timeout=10))
        return frame


def refused(url: str, origin: str) -> dict[str, Any]:
    with pytest.raises(InvalidStatus) as refusal:
        welcome(url, origin)
    response = refusal.value.response
    assert response.status_code == 403
    body: dict[str, Any] = json.loads(response.body or b"{}")
    return body


def test_sockets_from_pages_on_other_sites_are_refused_before_the_handshake(lobby: Lobby, server: LiveServer) -> None:
    code = lobby.create("toy", 2, name="Aki")["code"]
    url = f"{server.ws_url}/ws/{code}"
    for origin in ("http://evil.example", f"http://evil.example:{server.port}", "null",
                   f"http://localhost:{server.port}"):  # a page on localhost is another origin than 127.0.0.1
        error = refused(url, origin)["error"]
        assert error["code"] == "origin/refused" and error["en"] and error["ja"], origin
    assert lobby.room(code)["spectators"] == 0
    # A refusal is an answer, not an error of the server's: nothing is logged for it.
    assert "without completing handshake" not in server.log.read_text(encoding="utf-8")
    # The page the server itself served, under the address it was reached by; and clients that are not browsers.
    assert welcome(url, server.url)["type"] == "welcome"
    assert welcome(f"ws://localhost:{server.port}/ws/{code}", f"http://localhost:{server.port}")["type"] == "welcome"
    assert welcome(url, None)["type"] == "welcome"


def test_share_links_and_qr_codes_never_follow_the_host_header(lobby: Lobby, server: LiveServer) -> None:
    evil = {"Host": "evil.example"}
    created = lobby.http.post("/api/rooms", json={"game": "toy", "seats": 2, "name": "Aki"}, headers=evil).json()
    code = created["code"]
    link = f"{server.url}/room/{code}"
    assert created["link"] == created["room"]["link"] == link
    assert lobby.http.get(f"/api/rooms/{code}", headers=evil).json()["link"] == link
    assert f"<title>{link}</title>" in lobby.http.get(f"/api/rooms/{code}/qr.svg", headers=evil).text
    sock = socket.create_connection(("127.0.0.1", server.port))
    with connect(f"ws://evil.example/ws/{code}", sock=sock, open_timeout=10) as ws:  # sends Host: evil.example
        assert json.loads(ws.recv(timeout=10))["room"]["link"] == link


def test_a_public_url_makes_every_link_and_is_an_origin_that_may_open_sockets(public: LiveServer) -> None:
    lobby = Lobby(public.url)
    created = lobby.create("toy", 2, name="Aki")
    code = created["code"]
    assert created["link"] == f"{PUBLIC}/room/{code}"
    assert f"<title>{PUBLIC}/room/{code}</title>" in lobby.http.get(f"/api/rooms/{code}/qr.svg").text
    url = f"{public.ws_url}/ws/{code}"
    assert welcome(url, PUBLIC)["room"]["link"] == f"{PUBLIC}/room/{code}"
    assert welcome(url, FRIENDS)["type"] == "welcome"
    assert welcome(url, public.url)["type"] == "welcome"  # its own address still works
    assert refused(url, f"{FRIENDS}:8443")["error"]["code"] == "origin/refused"
    assert refused(url, "http://friends.example")["error"]["code"] == "origin/refused"
    assert f"partygames: open {PUBLIC} " in public.log.read_text(encoding="utf-8")
    lobby.http.close()


def test_bound_to_every_interface_the_server_says_and_links_its_lan_address(tmp_path: Any) -> None:
    live = LiveServer(tmp_path)
    live.args[live.args.index("--host") + 1] = "0.0.0.0"
    live.start()
    try:
        lan = lan_address()
        expected = f"http://{lan or 'localhost'}:{live.port}"
        assert f"partygames: open {expected} " in live.log.read_text(encoding="utf-8")
        created = httpx.post(f"{live.url}/api/rooms", json={"game": "toy", "seats": 2}, timeout=10).json()
        assert created["link"] == f"{expected}/room/{created['code']}"  # reached on 127.0.0.1, linked on the LAN
    finally:
        live.stop()


def test_public_urls_and_origins() -> None:
    assert public_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert public_url("192.168.1.20", 80) == "http://192.168.1.20:80"
    assert public_url("::1", 8000) == "http://[::1]:8000"
    assert public_url("0.0.0.0", 8000, "https://games.example/") == "https://games.example"
    lan = lan_address()
    assert lan is None or not lan.startswith("127.")
    assert public_url("0.0.0.0", 8000) == f"http://{lan or 'localhost'}:8000"
    home = "http://192.168.1.20:8000"
    assert origin_allowed(None, "x", home, ())
    assert origin_allowed("http://192.168.1.20:8000", "192.168.1.20:8000", home, ())
    assert origin_allowed("http://localhost:8000", "localhost:8000", home, ())
    assert origin_allowed("https://games.example", "games.example", home, ())  # behind a TLS proxy
    assert origin_allowed("http://192.168.1.20:8000", "127.0.0.1:8000", home, ())  # the public URL
    assert not origin_allowed("http://evil.example", "192.168.1.20:8000", home, ())
    assert not origin_allowed("http://evil.example:8000", "192.168.1.20:8000", home, ())
    assert not origin_allowed("null", "192.168.1.20:8000", home, ())
    assert not origin_allowed("http://192.168.1.20:8001", "192.168.1.20:8000", home, ())
    assert origin_allowed("http://evil.example", None, home, ("*",))
    assert origin_allowed("https://FRIENDS.example:443", None, home, (FRIENDS,))


@pytest.mark.parametrize("url", ["ftp://games.example", "games.example", "http://", "http://x/?a=1"])
def test_serve_refuses_a_public_url_that_is_not_an_http_address(url: str) -> None:
    result = CliRunner().invoke(cli, ["serve", "--public-url", url])
    assert result.exit_code == 2 and "http://" in result.output
