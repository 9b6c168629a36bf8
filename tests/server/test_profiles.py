"""Profiles on a real server (SQLite and PostgreSQL): made on the first visit, tied to the seats the browser
takes, showing its matches and ratings; bad input changes nothing; a stranger never sees private matches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select

from partygames.server.profiles import COOKIE
from tests.server.authenticator import Authenticator
from tests.server.client import Socket
from tests.server.live import LiveServer

pytestmark = pytest.mark.xdist_group("server-restart")


def browser(live: LiveServer) -> httpx.Client:
    """A client that keeps cookies, as a browser does, and sends its page's Origin on changes."""
    return httpx.Client(base_url=live.url, timeout=10, headers={"Origin": live.url})


def visit(client: httpx.Client) -> dict[str, Any]:
    response = client.get("/api/me")
    assert response.status_code == 200, response.text
    return dict(response.json())


def play_toy(live: LiveServer, host: httpx.Client, guest: httpx.Client, chat: str | None = None,
             group: str | None = None) -> str:
    """Host (seat 0, bids 3) and guest (seat 1, bids 7: wins) play a toy match to its end, the host saying
    `chat` first, in a room made for `group` if given; the room's code."""
    created = host.post("/api/rooms", json={"game": "toy", "seats": 2, "name": "Aki",
                                            **({"group": group} if group else {})}).json()
    code = created["code"]
    joined = guest.post(f"/api/rooms/{code}/join", json={"name": "Ben"}).json()
    assert host.post(f"/api/rooms/{code}/start", headers={"X-Host-Token": created["host_token"]}).status_code == 200
    socks = [Socket(live.ws_url, code, created["token"]), Socket(live.ws_url, code, joined["token"])]
    for sock in socks:
        sock.update(0)
    if chat:
        socks[0].send({"type": "chat", "channel": "public", "text": chat})
        socks[1].until(lambda f: f["type"] == "chat")
    for sock, bid in zip(socks, (3, 7), strict=True):
        sock.act({"type": "bid", "amount": bid})
    assert socks[0].reach(2)["view"]["is_over"]
    return str(code)


def test_two_people_play_and_their_profiles_show_the_match_and_ratings_once(
        tmp_path: Path, database_url: str | None) -> None:
    live = LiveServer(tmp_path, database_url).start()
    aki, ben = browser(live), browser(live)
    try:
        first = aki.get("/api/me")
        cookie = first.headers["set-cookie"]
        assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower() and "secure" not in cookie.lower()
        secret = aki.cookies[COOKIE]
        assert secret not in first.text and len(secret) >= 40  # the secret never comes back in a body
        me_a = first.json()["profile"]
        me_b = visit(ben)["profile"]
        assert me_a["id"] != me_b["id"] and me_a["name"] is None and me_a["visibility"] == "members"
        assert visit(aki)["profile"] == me_a  # the same browser, the same profile

        code = play_toy(live, aki, ben, chat="hello from Aki")
        # The seats are tied to the profiles, stored.
        url = database_url or f"sqlite:///{tmp_path / 'partygames.sqlite3'}"
        engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
        from partygames.server.ratings import rated_matches
        from partygames.server.storage import seats, unrated_matches
        with engine.connect() as conn:
            tied = conn.execute(select(seats.c.seat, seats.c.profile).where(seats.c.room == code)
                                .order_by(seats.c.seat)).all()
            # Rated as it ended, before anyone asked for a page (the end reached the players after it).
            # (Only this room's rows: the PostgreSQL database is shared with other tests.)
            considered = conn.execute(select(rated_matches.c.room, rated_matches.c.number, rated_matches.c.rated)
                                      .where(rated_matches.c.room == code)).all()
            queued = conn.execute(select(unrated_matches.c.room).where(unrated_matches.c.room == code)).all()
        engine.dispose()
        assert [tuple(t) for t in tied] == [(0, me_a["id"]), (1, me_b["id"])]
        assert [tuple(c) for c in considered] == [(code, 1, True)] and queued == []

        page_a, page_b = visit(aki), visit(ben)
        assert page_a["profile"]["name"] == "Aki"  # a profile without a name takes its first seat's
        [played] = page_a["matches"]
        assert (played["room"], played["game"], played["seat"], played["rank"], played["won"]) == (code, "toy", 0, 2, False)
        assert [o["name"] for o in played["others"]] == ["Ben"] and played["others"][0]["profile"] == me_b["id"]
        replay = aki.get(played["replay"])
        assert replay.status_code == 200 and replay.json()["steps"][-1]["view"]["is_over"]
        [rated_a], [rated_b] = page_a["ratings"], page_b["ratings"]
        assert rated_a["game"] == rated_b["game"] == "toy" and rated_a["matches"] == rated_b["matches"] == 1
        assert rated_b["rating"] > rated_a["rating"] and rated_a["provisional"]
        # Asking again rates nothing twice.
        board = aki.get("/api/leaderboard/toy").json()
        # (The two among themselves: on PostgreSQL other tests' toy players share the leaderboard.)
        ours = [(r["profile"], r["matches"]) for r in board["ratings"] if r["profile"] in (me_a["id"], me_b["id"])]
        assert ours == [(me_b["id"], 1), (me_a["id"], 1)]
        assert visit(ben)["ratings"] == [rated_b]

        # Export, then delete: the match stays, the seat anonymised; the cookie is forgotten.
        exported = aki.get("/api/me/export")
        assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
        assert exported.json()["matches"][0]["room"] == code and secret not in exported.text
        gone = aki.delete("/api/me")
        assert gone.status_code == 200 and COOKIE not in aki.cookies
        assert ben.get(f"/api/profiles/{me_a['id']}").json()["error"]["code"] == "profile/not_found"
        [kept] = visit(ben)["matches"]
        assert kept["room"] == code and kept["others"][0]["profile"] is None and kept["others"][0]["name"] == "—"
        board_ids = [r["profile"] for r in ben.get("/api/leaderboard/toy").json()["ratings"]]
        assert me_b["id"] in board_ids and me_a["id"] not in board_ids  # (others' toy players may share it)
        engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
        from partygames.server.storage import chat_messages
        with engine.connect() as conn:
            said = conn.execute(select(chat_messages.c.name, chat_messages.c.text)
                                .where(chat_messages.c.room == code)).all()
        engine.dispose()
        assert [tuple(m) for m in said] == [("—", "hello from Aki")]
    finally:
        aki.close()
        ben.close()
        live.stop()


def test_bad_input_gets_a_coded_error_and_changes_nothing(server: LiveServer) -> None:
    client = browser(server)
    try:
        before = visit(client)
        refusals = [
            (client.patch("/api/me", json={"name": "x" * 5000}), 422, "name/invalid"),
            (client.patch("/api/me", json={"name": "Ok", "colour": "red"}), 422, "profile/colour"),
            (client.patch("/api/me", json={"name": "Ok", "visibility": "everyone"}), 422, "profile/visibility"),
            (client.patch("/api/me", json={"name": "Ok", "emoji": "ab"}), 422, "profile/emoji"),
            (client.patch("/api/me", json={"emoji": "😀😀"}), 422, "profile/emoji"),  # two emoji
            (client.patch("/api/me", json={"emoji": "🏻"}), 422, "profile/emoji"),  # a skin tone alone
            (client.patch("/api/me", json={"emoji": "🇯"}), 422, "profile/emoji"),  # half a flag
            (client.patch("/api/me", json={"emoji": "😀" * 500}), 422, "msg/invalid"),
            (client.patch("/api/me", json={"name": "Ok", "secret_hash": "0" * 64}), 422, "msg/invalid"),
            (client.patch("/api/me", json={"name": "Ok"}, headers={"Origin": "https://evil.example"}), 403,
             "origin/refused"),
            (client.delete("/api/me", headers={"Origin": "https://evil.example"}), 403, "origin/refused"),
        ]
        for response, status, code in refusals:
            assert (response.status_code, response.json()["error"]["code"]) == (status, code), response.text
            assert response.json()["error"]["ja"]
        assert visit(client) == before
        good = client.patch("/api/me", json={"name": " Chika ", "colour": "#A0B1C2", "visibility": "public"})
        assert good.status_code == 200
        assert good.json()["profile"] == {**before["profile"], "name": "Chika", "colour": "#a0b1c2",
                                          "visibility": "public"}

        # A forged cookie: refused on every profile endpoint, no profile made, the cookie cleared.
        forged = httpx.Client(base_url=server.url, timeout=10, headers={"Origin": server.url},
                              cookies={COOKIE: "forged-secret"})
        for method, path in (("GET", "/api/me"), ("PATCH", "/api/me"), ("DELETE", "/api/me"),
                             ("GET", "/api/me/export")):
            response = forged.request(method, path, json={"name": "Eve"} if method == "PATCH" else None)
            assert (response.status_code, response.json()["error"]["code"]) == (401, "profile/unknown"), path
            forged.cookies.set(COOKIE, "forged-secret")
        assert "Max-Age=0" in forged.get("/api/me").headers["set-cookie"]
        forged.close()
        assert visit(client)["profile"]["name"] == "Chika"
    finally:
        client.close()


def test_an_emoji_shows_beside_the_name_in_the_profile_the_history_and_the_leaderboard(server: LiveServer) -> None:
    aki, ben = browser(server), browser(server)
    try:
        me_a = visit(aki)["profile"]
        assert me_a["emoji"] is None  # a colour until an emoji is chosen
        visit(ben)
        play_toy(server, aki, ben)
        for sent, kept in (("👍🏽", "👍🏽"), ("🇯🇵", "🇯🇵"), ("👨‍👩‍👧‍👦", "👨‍👩‍👧‍👦"), ("☺", "☺\ufe0f"), (" 🎲 ", "🎲")):
            changed = aki.patch("/api/me", json={"emoji": sent})
            assert changed.status_code == 200 and changed.json()["profile"]["emoji"] == kept, sent
        assert ben.get(f"/api/profiles/{me_a['id']}").json()["profile"]["emoji"] == "🎲"
        [played] = visit(ben)["matches"]
        assert [(o["profile"], o["emoji"], o["colour"]) for o in played["others"]] == [(me_a["id"], "🎲", me_a["colour"])]
        board = {r["profile"]: r for r in ben.get("/api/leaderboard/toy").json()["ratings"]}
        assert board[me_a["id"]]["emoji"] == "🎲"
        # "" takes it away: the colour shows again.
        assert aki.patch("/api/me", json={"emoji": ""}).json()["profile"]["emoji"] is None
        assert {r["profile"]: r for r in ben.get("/api/leaderboard/toy").json()["ratings"]}[me_a["id"]]["emoji"] is None
    finally:
        aki.close()
        ben.close()


PROBED = {("GET", "/api/me"), ("PATCH", "/api/me"), ("DELETE", "/api/me"), ("GET", "/api/me/export"),
          ("POST", "/api/me/transfer"), ("POST", "/api/me/claim"), ("GET", "/api/profiles/{profile_id}"),
          ("GET", "/api/leaderboard/{game_id}"),
          ("GET", "/api/groups"), ("POST", "/api/groups"), ("GET", "/api/groups/{group_id}"),
          ("POST", "/api/groups/{group_id}/invitation"), ("POST", "/api/groups/{group_id}/join"),
          ("POST", "/api/groups/{group_id}/invite"), ("POST", "/api/groups/{group_id}/leave"),
          ("DELETE", "/api/groups/{group_id}/members/{profile_id}"),
          ("GET", "/api/groups/{group_id}/leaderboard/{game_id}"), ("GET", "/api/rooms/{code}/group"),
          ("GET", "/api/me/passkeys"),
          ("POST", "/api/me/passkeys/register/begin"), ("POST", "/api/me/passkeys/register/finish"),
          ("POST", "/api/me/passkeys/signin/begin"), ("POST", "/api/me/passkeys/signin/finish"),
          ("DELETE", "/api/me/passkeys/{credential_id}")}


def test_a_stranger_never_sees_private_matches(server: LiveServer) -> None:
    """Every profile endpoint, tried as a stranger (a browser of its own, and a client without cookies)."""
    spec = httpx.get(f"{server.url}/openapi.json").json()
    endpoints = {(method.upper(), path) for path, methods in spec["paths"].items() for method in methods
                 if path.startswith(("/api/me", "/api/profiles", "/api/leaderboard", "/api/groups"))
                 or path.endswith("/group")}
    assert endpoints == PROBED  # a new endpoint must be probed here too
    aki, ben, stranger = browser(server), browser(server), browser(server)
    try:
        me_a = visit(aki)["profile"]["id"]
        me_b = visit(ben)["profile"]["id"]
        # Aki and Ben are a group ("members" visibility: they see each other's matches); the match is the group's.
        group, token = aki.post("/api/groups", json={"name": "Friday table"}).json()["invite"].rsplit("/g/", 1)[1].split("/join#")
        assert ben.post(f"/api/groups/{group}/join", json={"token": token}).status_code == 200
        code = play_toy(server, aki, ben, group=group)
        assert visit(aki)["matches"][0]["room"] == code
        assert ben.get(f"/api/profiles/{me_a}").json()["matches"][0]["room"] == code
        assert code in ben.get(f"/api/groups/{group}").text
        key = Authenticator()
        made = aki.post("/api/me/passkeys/register/begin").json()["options"]
        passkey = aki.post("/api/me/passkeys/register/finish", json={"credential": key.create(made, server.url)})
        assert passkey.status_code == 200, passkey.text
        secret = passkey.json()["passkey"]["id"]  # what a stranger must neither see nor remove

        def probe(client: httpx.Client) -> list[str]:
            texts = [client.get(f"/api/profiles/{me_a}").text, client.get("/api/leaderboard/toy").text]
            claimed = client.post("/api/me/claim", json={"token": "guessed-token"})
            assert claimed.json()["error"]["code"] == "transfer/invalid"
            texts.append(claimed.text)
            for path in (f"/api/groups/{group}/invitation", f"/api/groups/{group}/join"):
                guessed = client.post(path, json={"token": "guessed-token"})
                assert guessed.json()["error"]["code"] in ("group/invite_invalid", "origin/refused", "profile/unknown")
                texts.append(guessed.text)
            for method, path in (("GET", f"/api/groups/{group}"), ("GET", f"/api/groups/{group}/leaderboard/toy"),
                                 ("POST", f"/api/groups/{group}/invite"), ("POST", f"/api/groups/{group}/leave"),
                                 ("DELETE", f"/api/groups/{group}/members/{me_b}")):
                refused = client.request(method, path)
                assert refused.json()["error"]["code"] in ("group/not_found", "profile/unknown"), path
                texts.append(refused.text)
            # A room's group (its name on the room's screens) says nothing of its matches.
            texts.append(client.get(f"/api/rooms/{code}/group").text)
            if COOKIE in client.cookies:
                texts += [client.get("/api/me").text, client.get("/api/me/export").text,
                          client.patch("/api/me", json={"name": "Stranger"}).text, client.post("/api/me/transfer").text,
                          client.get("/api/groups").text, client.post("/api/groups", json={"name": "Mine"}).text,
                          client.get("/api/me/passkeys").text]
                # A stranger's own ceremonies: aki's passkey signs nobody in without aki's authenticator.
                texts.append(client.post("/api/me/passkeys/register/begin").text)
                asked = client.post("/api/me/passkeys/signin/begin").json()["options"]
                forged = key.get(asked, server.url, bad_signature=True)
                texts.append(client.post("/api/me/passkeys/signin/finish", json={"credential": forged}).text)
                texts.append(client.post("/api/me/passkeys/register/finish",
                                         json={"credential": Authenticator().create(made, server.url)}).text)
            removed = client.delete(f"/api/me/passkeys/{secret}")
            assert removed.status_code in (401, 404), removed.text
            texts.append(removed.text)
            return texts

        anonymous = httpx.Client(base_url=server.url, timeout=10)
        visit(stranger)
        for client in (stranger, anonymous):
            for text in probe(client):
                assert code not in text and secret not in text
        assert stranger.get(f"/api/profiles/{me_a}").json()["matches"] is None
        assert [m["profile"] for m in ben.get(f"/api/groups/{group}").json()["members"]] == [me_a, me_b]  # untouched
        assert [p["id"] for p in aki.get("/api/me/passkeys").json()["passkeys"]] == [secret]
        assert visit(stranger)["profile"]["id"] != me_a
        # Deleting one's own profile touches nobody else's.
        assert stranger.delete("/api/me").status_code == 200
        assert visit(aki)["matches"][0]["room"] == code
        # Made public, the matches show to anyone.
        assert aki.patch("/api/me", json={"visibility": "public"}).status_code == 200
        assert anonymous.get(f"/api/profiles/{me_a}").json()["matches"][0]["room"] == code
        anonymous.close()
    finally:
        aki.close()
        ben.close()
        stranger.close()


def test_a_transfer_link_moves_the_profile_to_another_device_once(tmp_path: Path) -> None:
    live = LiveServer(tmp_path).start()
    aki, phone, late, stranger = browser(live), browser(live), browser(live), browser(live)
    try:
        me_a = visit(aki)["profile"]
        assert aki.post("/api/me/transfer", headers={"Origin": "https://evil.example"}).status_code == 403
        made = aki.post("/api/me/transfer").json()
        link, seconds = made["link"], made["seconds"]
        assert seconds == 600 and link.startswith(f"{live.url}/me/claim#") and made["qr_svg"].startswith("<")
        token = link.split("#", 1)[1]
        assert phone.get("/me/claim").status_code == 200  # the page; the token stays in the fragment
        claimed = phone.post("/api/me/claim", json={"token": token})
        assert claimed.status_code == 200 and claimed.json()["profile"]["id"] == me_a["id"]
        assert "httponly" in claimed.headers["set-cookie"].lower() and COOKIE in phone.cookies
        assert visit(phone)["profile"]["id"] == me_a["id"] and visit(aki)["profile"]["id"] == me_a["id"]
        # Once only: a second claim of the same link is refused, and makes nothing.
        again = late.post("/api/me/claim", json={"token": token})
        assert (again.status_code, again.json()["error"]["code"]) == (410, "transfer/invalid") and again.json()["error"]["ja"]
        assert COOKIE not in late.cookies
        # Expired after 10 minutes (the clock moved on: the row's expiry set in the past).
        expired = aki.post("/api/me/transfer").json()["link"].split("#", 1)[1]
        engine = create_engine(f"sqlite:///{tmp_path / 'partygames.sqlite3'}")
        from partygames.server.profiles import secret_hash, transfers
        with engine.begin() as conn:
            conn.execute(transfers.update().where(transfers.c.token_hash == secret_hash(expired)).values(expires_at=1.0))
        engine.dispose()
        assert late.post("/api/me/claim", json={"token": expired}).json()["error"]["code"] == "transfer/invalid"
        # Guessing is rate-limited per address: 10 tries, then a wait.
        codes = [stranger.post("/api/me/claim", json={"token": f"guess-{i}"}).json()["error"]["code"] for i in range(10)]
        assert codes[-1] == "rate/limited" and "transfer/invalid" in codes
        # Deleting the profile on one device ends it on the other too.
        assert phone.delete("/api/me").status_code == 200
        assert aki.get("/api/me").json()["error"]["code"] == "profile/unknown"
    finally:
        for client in (aki, phone, late, stranger):
            client.close()
        live.stop()


def test_the_cookie_is_secure_behind_https(tmp_path: Path) -> None:
    live = LiveServer(tmp_path).start(environment={"PARTYGAMES_PUBLIC_URL": "https://games.example"})
    try:
        cookie = httpx.get(f"{live.url}/api/me").headers["set-cookie"].lower()
        assert "secure" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    finally:
        live.stop()
