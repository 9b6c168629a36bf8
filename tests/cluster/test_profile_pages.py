"""Profiles, groups, ratings and passkeys served by any process (issue #30): two processes on one PostgreSQL,
each person's browser talking to a different one, as a load balancer would send them. Nothing a page shows
comes from one process's memory."""

from __future__ import annotations

from pathlib import Path

import httpx

from partygames.server.profiles import COOKIE
from tests.cluster.conftest import Cluster
from tests.server.authenticator import Authenticator
from tests.server.live import LiveServer
from tests.server.test_groups import token_of
from tests.server.test_profiles import play_toy, visit


def on(server: LiveServer, site: str, cookies: httpx.Cookies | None = None) -> httpx.Client:
    """A browser's client whose requests reach `server` for the page `http://{site}` (the Host a proxy in
    front of every process forwards), with the browser's cookies."""
    return httpx.Client(base_url=server.url, timeout=10, cookies=cookies,
                        headers={"Host": site, "Origin": f"http://{site}"})


def test_any_process_serves_profiles_groups_ratings_and_passkeys(database: str, tmp_path: Path) -> None:
    cluster = Cluster(database, tmp_path, 2, bot_delay=0.02).start()
    one, two = cluster.servers
    site = f"localhost:{one.port}"  # the public address: both processes serve it
    aki, ben = on(one, site), on(two, site)
    clients = [aki, ben]
    try:
        me_a, me_b = visit(aki)["profile"], visit(ben)["profile"]
        # Aki makes a group on process one; Ben opens the link and joins on process two.
        made = aki.post("/api/groups", json={"name": "Friday table"})
        assert made.status_code == 200, made.text
        group, token = token_of(made.json()["invite"])
        assert ben.post(f"/api/groups/{group}/join", json={"token": token}).status_code == 200
        # They play a match in a room of the group (Ben joins it through process two); Ben (bid 7) wins.
        code = play_toy(one, aki, ben, group=group)

        # Every page, asked of the other process, shows it: rated once, in the group's standings.
        aki_there = on(two, site, aki.cookies)
        clients.append(aki_there)
        page = aki_there.get("/api/me").json()
        assert [m["room"] for m in page["matches"]] == [code]
        assert [(r["game"], r["matches"]) for r in page["ratings"]] == [("toy", 1)]
        assert [g["id"] for g in page["groups"]] == [group]
        standings = ben.get(f"/api/groups/{group}").json()
        assert {m["profile"] for m in standings["members"]} == {me_a["id"], me_b["id"]}
        assert code in ben.get(f"/api/groups/{group}").text
        board = aki_there.get(f"/api/groups/{group}/leaderboard/toy").json()["ratings"]
        assert [(r["profile"], r["matches"]) for r in board] == [(me_b["id"], 1), (me_a["id"], 1)]
        assert ben.get(f"/api/profiles/{me_a['id']}").json()["matches"][0]["room"] == code  # a member sees it

        # A passkey ceremony begun on one process is finished on the other; a third browser signs in with it
        # on process two after beginning on process one.
        key = Authenticator()
        begun = aki.post("/api/me/passkeys/register/begin")
        assert begun.status_code == 200, begun.text
        added = aki_there.post("/api/me/passkeys/register/finish",
                               json={"credential": key.create(begun.json()["options"], f"http://{site}")})
        assert added.status_code == 200, added.text
        phone = on(one, site)
        clients.append(phone)
        visit(phone)
        asked = phone.post("/api/me/passkeys/signin/begin").json()["options"]
        phone_there = on(two, site, phone.cookies)
        clients.append(phone_there)
        signed = phone_there.post("/api/me/passkeys/signin/finish",
                                  json={"credential": key.get(asked, f"http://{site}")})
        assert signed.status_code == 200, signed.text
        assert signed.json()["profile"]["id"] == me_a["id"]
        back = on(one, site, httpx.Cookies({COOKIE: phone_there.cookies[COOKIE]}))
        clients.append(back)
        assert back.get("/api/me").json()["profile"]["id"] == me_a["id"]  # process one knows the new device too
    finally:
        for client in clients:
            client.close()
        cluster.stop()
