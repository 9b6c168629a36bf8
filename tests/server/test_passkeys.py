"""Passkeys on a real server (SQLite and PostgreSQL), with a software authenticator making real ES256
registrations and assertions (tests/server/authenticator.py): a passkey registered on one browser signs in
on another, any process finishes a ceremony another began, and every tampered response, unknown credential or
spent challenge gets a coded error and changes nothing."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select, update

from partygames.server.passkeys import challenges, passkeys
from partygames.server.profiles import COOKIE
from tests.server.authenticator import AT, UV, Authenticator, b64
from tests.server.live import LiveServer

pytestmark = pytest.mark.xdist_group("server-restart")
_addresses = itertools.count(1)


def browser(live: LiveServer, host: str = "localhost") -> httpx.Client:
    """A browser's client on `host` (a page of http://localhost:PORT: a secure context), cookies kept."""
    site = f"{host}:{live.port}"
    return httpx.Client(base_url=live.url, timeout=10, headers={"Host": site, "Origin": f"http://{site}"})


def fresh() -> dict[str, str]:
    """Each ceremony step from an address of its own (the server trusts the loopback proxy's
    X-Forwarded-For), so that the many tries here stay under the per-address rate limit (tested on its own)."""
    return {"X-Forwarded-For": f"10.9.{next(_addresses) // 250}.{next(_addresses) % 250 + 1}"}


def origin(client: httpx.Client) -> str:
    return str(client.headers["Origin"])


def me(client: httpx.Client) -> dict[str, Any]:
    response = client.get("/api/me")
    assert response.status_code == 200, response.text
    return dict(response.json()["profile"])


def options(client: httpx.Client, ceremony: str) -> dict[str, Any]:
    response = client.post(f"/api/me/passkeys/{ceremony}/begin", headers=fresh())
    assert response.status_code == 200, response.text
    return dict(response.json()["options"])


def finish(client: httpx.Client, ceremony: str, credential: dict[str, Any]) -> httpx.Response:
    return client.post(f"/api/me/passkeys/{ceremony}/finish", json={"credential": credential}, headers=fresh())


def refused(response: httpx.Response, status: int, code: str) -> None:
    assert (response.status_code, response.json()["error"]["code"]) == (status, code), response.text
    assert response.json()["error"]["ja"] and "set-cookie" not in response.headers


def register(client: httpx.Client, key: Authenticator) -> dict[str, Any]:
    response = finish(client, "register", key.create(options(client, "register"), origin(client)))
    assert response.status_code == 200, response.text
    return dict(response.json()["passkey"])


def database(live: LiveServer, url: str | None) -> Any:
    return create_engine((url or f"sqlite:///{live.data_dir / 'partygames.sqlite3'}")
                         .replace("postgresql://", "postgresql+psycopg://", 1))


def test_a_passkey_registered_on_one_browser_signs_in_on_another(tmp_path: Path, database_url: str | None) -> None:
    live = LiveServer(tmp_path, database_url).start()
    aki, phone = browser(live), browser(live)
    key = Authenticator()
    try:
        aki_id = me(aki)["id"]
        assert aki.patch("/api/me", json={"name": "Aki"}).status_code == 200
        made = options(aki, "register")
        assert made["rp"]["id"] == "localhost" and made["user"]["name"] == "Aki"
        assert made["authenticatorSelection"]["residentKey"] == "required" and made["attestation"] == "none"
        # The challenge is stored: another process (here, the server restarted) finishes the ceremony.
        aki.close()  # (its kept-alive connection would be to the stopped process)
        live.stop()
        live.start()
        aki = httpx.Client(base_url=live.url, timeout=10, headers=aki.headers, cookies=aki.cookies)
        added = finish(aki, "register", key.create(made, origin(aki)))
        assert added.status_code == 200, added.text
        credential_id = b64(key.credential_id)
        assert [p["id"] for p in added.json()["passkeys"]] == [credential_id]
        assert [p["id"] for p in aki.get("/api/me/passkeys").json()["passkeys"]] == [credential_id]
        # A second registration offers the browser the passkeys it has, so it makes no duplicate.
        assert [c["id"] for c in options(aki, "register")["excludeCredentials"]] == [credential_id]
        exported = aki.get("/api/me/export").json()["passkeys"]
        assert [(p["id"], p["rp_id"]) for p in exported] == [(credential_id, "localhost")]
        assert exported[0]["created_at"] > 0 and "public_key" not in exported[0]

        # Another browser (a profile of its own, made on its first visit) signs in with the passkey: it gets
        # a device secret of its own for Aki's profile; Aki's first browser stays signed in.
        phone_id, phone_secret = me(phone)["id"], phone.cookies[COOKIE]
        asked = options(phone, "signin")
        assert asked["rpId"] == "localhost" and asked["allowCredentials"] == []
        signed = finish(phone, "signin", key.get(asked, origin(phone)))
        assert signed.status_code == 200, signed.text
        assert signed.json()["profile"]["id"] == aki_id and signed.json()["profile"]["name"] == "Aki"
        assert "httponly" in signed.headers["set-cookie"].lower()
        assert phone.cookies[COOKIE] != phone_secret and phone.cookies[COOKIE] not in signed.text
        assert me(phone)["id"] == aki_id and me(aki)["id"] == aki_id and phone_id != aki_id
        [used] = aki.get("/api/me/passkeys").json()["passkeys"]
        assert used["used_at"] is not None

        # Deleting the profile deletes its passkeys: the passkey no longer signs anybody in.
        assert aki.delete("/api/me").status_code == 200
        engine = database(live, database_url)
        with engine.connect() as conn:
            assert conn.execute(select(passkeys).where(passkeys.c.profile == aki_id)).all() == []
        engine.dispose()
        late = browser(live)
        me(late)
        refused(finish(late, "signin", key.get(options(late, "signin"), origin(late))), 404, "passkey/unknown")
        late.close()
    finally:
        for client in (aki, phone):
            client.close()
        live.stop()


def test_tampered_registrations_change_nothing(server: LiveServer) -> None:
    aki, other = browser(server), browser(server)
    try:
        aki_id, _ = me(aki)["id"], me(other)
        made = options(aki, "register")
        key = Authenticator()
        tampered: list[tuple[Callable[[], dict[str, Any]], int, str]] = [
            (lambda: key.create(made, "http://evil.example"), 400, "passkey/invalid"),  # another origin
            (lambda: key.create(made, origin(aki), rp_id="evil.example"), 400, "passkey/invalid"),  # another RP
            (lambda: key.create(made, origin(aki), kind="webauthn.get"), 400, "passkey/invalid"),
            (lambda: key.create(made, origin(aki), flags=UV | AT), 400, "passkey/invalid"),  # nobody present
            (lambda: key.create(made, origin(aki), challenge=b64(b"made up" * 5)), 410, "passkey/challenge"),
            (lambda: {**key.create(made, origin(aki)), "rawId": b64(b"another id")}, 400, "passkey/invalid"),
            (lambda: {"id": "x", "response": {}}, 400, "passkey/invalid"),
            (lambda: {**key.create(made, origin(aki)), "response": {
                "clientDataJSON": key.create(made, origin(aki))["response"]["clientDataJSON"],
                "attestationObject": b64(b"\xa1not cbor")}}, 400, "passkey/invalid"),
        ]
        for make, status, code in tampered:
            refused(finish(aki, "register", make()), status, code)
        # A challenge is the browser's own: another browser cannot finish it.
        refused(finish(other, "register", key.create(made, origin(other))), 410, "passkey/challenge")
        assert aki.get("/api/me/passkeys").json()["passkeys"] == []
        # The refusals spent nothing: the genuine answer to the same challenge is taken, once.
        genuine = key.create(made, origin(aki))
        assert finish(aki, "register", genuine).status_code == 200
        refused(finish(aki, "register", genuine), 410, "passkey/challenge")
        # The same passkey once more, on a new challenge: refused; an expired challenge: refused.
        refused(finish(aki, "register", key.create(options(aki, "register"), origin(aki))), 409, "passkey/invalid")
        late = options(aki, "register")
        engine = database(server, None)
        with engine.begin() as conn:
            conn.execute(update(challenges).where(challenges.c.profile == aki_id, challenges.c.used_at.is_(None))
                         .values(expires_at=1.0))
        engine.dispose()
        refused(finish(aki, "register", Authenticator().create(late, origin(aki))), 410, "passkey/challenge")
        assert len(aki.get("/api/me/passkeys").json()["passkeys"]) == 1

        # A page on another site, and a page on plain http that is not localhost (no secure context).
        refused(aki.post("/api/me/passkeys/register/begin", headers={"Origin": "https://evil.example"}), 403,
                "origin/refused")
        lan = browser(server, host="lan.partygames.test")
        lan.cookies.set(COOKIE, aki.cookies[COOKIE])
        for step in ("register/begin", "signin/begin", "signin/finish"):
            refused(lan.post(f"/api/me/passkeys/{step}", json={"credential": {}}), 400, "passkey/insecure")
        lan.close()
        # Without the profile's cookie there is nothing to register to.
        anonymous = browser(server)
        refused(anonymous.post("/api/me/passkeys/register/begin"), 401, "profile/unknown")
        anonymous.close()
    finally:
        aki.close()
        other.close()


def test_tampered_assertions_change_nothing(server: LiveServer) -> None:
    aki, phone, other = browser(server), browser(server), browser(server)
    try:
        aki_id = me(aki)["id"]
        phone_id, phone_secret = me(phone)["id"], phone.cookies[COOKIE]
        me(other)
        key, stranger_key = Authenticator(), Authenticator()
        register(aki, key)
        register(other, stranger_key)
        asked = options(phone, "signin")
        tampered: list[tuple[Callable[[], dict[str, Any]], int, str]] = [
            (lambda: key.get(asked, origin(phone), bad_signature=True), 400, "passkey/invalid"),
            (lambda: key.get(asked, "https://evil.example"), 400, "passkey/invalid"),  # another origin
            (lambda: key.get(asked, origin(phone), rp_id="evil.example"), 400, "passkey/invalid"),  # another RP
            (lambda: key.get(asked, origin(phone), flags=UV), 400, "passkey/invalid"),  # nobody present
            (lambda: key.get(asked, origin(phone), challenge=b64(b"made up" * 5)), 410, "passkey/challenge"),
            (lambda: {**key.get(asked, origin(phone)), "rawId": b64(b"unknown"), "id": b64(b"unknown")}, 404,
             "passkey/unknown"),
            (lambda: Authenticator(user_handle=key.user_handle).get(asked, origin(phone)), 404, "passkey/unknown"),
            # Another registered passkey cannot sign with this one's id.
            (lambda: {**stranger_key.get(asked, origin(phone)), "id": b64(key.credential_id),
                      "rawId": b64(key.credential_id)}, 400, "passkey/invalid"),
            (lambda: {"id": b64(key.credential_id), "type": "public-key"}, 400, "passkey/invalid"),
        ]
        for make, status, code in tampered:
            refused(finish(phone, "signin", make()), status, code)
            assert me(phone)["id"] == phone_id and phone.cookies[COOKIE] == phone_secret
        # Another browser's challenge: refused.
        refused(finish(other, "signin", key.get(asked, origin(other))), 410, "passkey/challenge")
        [untouched] = aki.get("/api/me/passkeys").json()["passkeys"]
        assert untouched["used_at"] is None

        # The genuine answer is taken; replayed, or another answer to the same challenge, it is refused.
        genuine = key.get(asked, origin(phone))
        stored = key.count
        assert finish(phone, "signin", genuine).json()["profile"]["id"] == aki_id
        signed_in = phone.cookies[COOKIE]
        for again in (genuine, key.get(asked, origin(phone))):
            refused(finish(phone, "signin", again), 410, "passkey/challenge")
        # An old answer replayed against a fresh challenge carries its own, spent one.
        options(phone, "signin")
        refused(finish(phone, "signin", genuine), 410, "passkey/challenge")
        assert me(phone)["id"] == aki_id and phone.cookies[COOKIE] == signed_in
        # A counter that did not go up (a cloned authenticator): refused.
        other_id = me(other)["id"]
        refused(finish(other, "signin", key.get(options(other, "signin"), origin(other), count=stored)), 400,
                "passkey/invalid")
        assert me(other)["id"] == other_id
        # Signing in where one already is changes nothing but the passkey's counter; the challenge is spent
        # all the same: neither this answer again nor a newer one (a higher counter) is taken twice.
        asked = options(phone, "signin")
        answer = key.get(asked, origin(phone))
        signed = finish(phone, "signin", answer)
        assert signed.status_code == 200 and "set-cookie" not in signed.headers and me(phone)["id"] == aki_id
        for again in (answer, key.get(asked, origin(phone))):
            refused(finish(phone, "signin", again), 410, "passkey/challenge")
    finally:
        for client in (aki, phone, other):
            client.close()


def test_removing_a_passkey_and_the_rate_limit(server: LiveServer) -> None:
    aki, stranger = browser(server), browser(server)
    try:
        me(aki)
        me(stranger)
        key = Authenticator()
        credential_id = register(aki, key)["id"]
        # Only the profile's own passkey can be removed, from its own pages.
        refused(stranger.delete(f"/api/me/passkeys/{credential_id}"), 404, "passkey/unknown")
        refused(aki.delete(f"/api/me/passkeys/{credential_id}", headers={"Origin": "https://evil.example"}), 403,
                "origin/refused")
        assert len(aki.get("/api/me/passkeys").json()["passkeys"]) == 1
        assert aki.delete(f"/api/me/passkeys/{credential_id}").json()["passkeys"] == []
        refused(finish(stranger, "signin", key.get(options(stranger, "signin"), origin(stranger))), 404,
                "passkey/unknown")
        # Ceremony steps per client address: 10, then one every 6 seconds (as transfer claims).
        guesser = browser(server)
        guesser.headers["X-Forwarded-For"] = "10.8.0.1"  # an address of its own, that nothing else spent from
        me(guesser)
        codes = [guesser.post("/api/me/passkeys/signin/begin").status_code for _ in range(11)]
        assert codes[:10] == [200] * 10 and codes[10] == 429
        refused(guesser.post("/api/me/passkeys/signin/finish", json={"credential": key.get(
            {"rpId": "localhost", "challenge": b64(b"x")}, origin(guesser))}), 429, "rate/limited")
        guesser.close()
    finally:
        aki.close()
        stranger.close()


def test_behind_https_the_relying_party_is_the_public_url(tmp_path: Path) -> None:
    """With `--public-url https://games.example` (a proxy terminating TLS in front), a page of that origin
    registers and signs in for the RP ID games.example, and the device cookie it gets is Secure."""
    live = LiveServer(tmp_path).start(environment={"PARTYGAMES_PUBLIC_URL": "https://games.example"})
    public = {"Origin": "https://games.example", "Host": "games.example"}
    aki = httpx.Client(base_url=live.url, timeout=10, headers=public)
    phone = httpx.Client(base_url=live.url, timeout=10, headers=public)
    key = Authenticator()
    try:
        for client in (aki, phone):
            me(client)
            # The cookie is Secure; this client talks plain http to the process behind the "proxy", so it
            # keeps the value as a plain cookie to send it at all.
            value = client.cookies[COOKIE]
            client.cookies.clear()
            client.cookies.set(COOKIE, value)
        made = options(aki, "register")
        assert made["rp"]["id"] == "games.example"
        refused(finish(aki, "register", key.create(made, f"http://localhost:{live.port}")), 400, "passkey/invalid")
        assert finish(aki, "register", key.create(made, "https://games.example")).status_code == 200
        # A client that sends no Origin (not a browser) is given the public URL's.
        del phone.headers["Origin"]
        asked = options(phone, "signin")
        assert asked["rpId"] == "games.example"
        signed = finish(phone, "signin", key.get(asked, "https://games.example"))
        assert signed.status_code == 200 and "secure" in signed.headers["set-cookie"].lower()
    finally:
        aki.close()
        phone.close()
        live.stop()
