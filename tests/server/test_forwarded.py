"""`partygames serve --trust-proxy` (PARTYGAMES_TRUST_PROXY): the proxies whose
X-Forwarded-For is believed (issue #31, item 3). Through real proxies: tests/cluster/test_proxies.py."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from partygames.cli.main import app
from partygames.server.address import check_trusted_proxies
from tests.server.live import LiveServer


def test_trusted_proxies_are_addresses_networks_or_a_lone_star() -> None:
    assert check_trusted_proxies("10.0.0.5, 172.30.31.0/24,::1") == ("10.0.0.5", "172.30.31.0/24", "::1")
    assert check_trusted_proxies("*") == ("*",)
    assert check_trusted_proxies("") == ()  # nobody: every header ignored
    for wrong in ("proxy.local", "10.0.0.300", "10.0.0.1/8", "*,10.0.0.1"):
        with pytest.raises(ValueError, match="is not an IP address or network"):
            check_trusted_proxies(wrong)


@pytest.mark.parametrize("how", ["option", "environment"])
def test_serve_refuses_a_proxy_that_is_not_an_address(how: str) -> None:
    args = ["serve", "--port", "1"] + (["--trust-proxy", "10.0.0.1,nginx"] if how == "option" else [])
    env = {"PARTYGAMES_TRUST_PROXY": "10.0.0.1,nginx"} if how == "environment" else {}
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == 2
    said = " ".join(result.output.replace("│", " ").split())  # (unwrapped from its box)
    assert "'nginx' is not an IP address or network" in said and "IP アドレスでも" in said


def test_serve_believes_x_forwarded_for_only_from_the_proxies_in_its_environment(tmp_path: Path) -> None:
    """With a proxy named that is not this client, the header this client sends changes nothing: its
    lookups of unknown codes count against it whatever address it claims."""
    server = LiveServer(tmp_path, games=None)
    server.args = [sys.executable, "-m", "partygames.cli.main", "serve", "--port", str(server.port),
                   "--data-dir", str(tmp_path)]
    server.start({"PARTYGAMES_TRUST_PROXY": "192.0.2.1"})
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            code = http.post("/api/rooms", json={"game": "dice-derby", "seats": 6, "name": "Aki"}).json()["code"]
            statuses = {http.get("/api/rooms/ZZZZZ2", headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code
                        for i in range(25)}  # past the budget of 20, each from "another" address
            assert statuses == {404, 429}
            refused = http.get(f"/api/rooms/{code}", headers={"X-Forwarded-For": "198.51.100.200"})
            assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate/room_lookups"
    finally:
        server.stop()
