"""Groups on a real server (SQLite and PostgreSQL): made by a profile, joined by an invite link, their rooms'
matches (a series' next match too) scored into standings and tonight's scoreboard by the placing formula, worked
out here by hand; bad input and people who may not get coded errors and change nothing."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.client import Socket
from tests.server.live import LiveServer
from tests.server.test_profiles import browser, visit

pytestmark = pytest.mark.xdist_group("server-restart")


def token_of(link: str) -> tuple[str, str]:
    """(group id, token) of an invite link `<url>/g/<id>/join#<token>`."""
    path, token = link.split("#", 1)
    return path.rsplit("/", 2)[-2], token


def play(live: LiveServer, host: httpx.Client, guests: list[httpx.Client], bids: list[int],
         group: str | None = None, then: Sequence[tuple[str | None, list[int]]] = ()) -> str:
    """A toy room of len(bids) seats made by `host` (seat 0) for `group`, the guests in the next seats; each seat
    bids its amount (higher places better, equal bids tie); then, in the same room, each (game, bids) of `then`
    as the room's next match. The room's code."""
    body: dict[str, Any] = {"game": "toy", "seats": len(bids), "name": "Host"}
    if group is not None:
        body["group"] = group
    created = host.post("/api/rooms", json=body)
    assert created.status_code == 200, created.text
    code, host_token = created.json()["code"], created.json()["host_token"]
    tokens = [created.json()["token"]]
    for i, guest in enumerate(guests):
        joined = guest.post(f"/api/rooms/{code}/join", json={"name": f"Guest{i}"})
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    assert host.post(f"/api/rooms/{code}/start", headers={"X-Host-Token": host_token}).status_code == 200
    socks = [Socket(live.ws_url, code, t) for t in tokens]
    for number, (game, amounts) in enumerate([(None, bids), *then], start=1):
        if number > 1:
            moved = host.post(f"/api/rooms/{code}/next", json={"game": game}, headers={"X-Host-Token": host_token})
            assert moved.status_code == 200, moved.text
            def announced(frame: dict[str, Any], n: int = number) -> bool:
                return bool(frame["type"] == "room" and frame["room"]["match"] == n)

            for sock in socks:
                sock.until(announced)
        for sock in socks:
            sock.update(0)
        for sock, bid in zip(socks, amounts, strict=True):
            sock.act({"type": "bid", "amount": bid})
        assert socks[0].reach(len(amounts))["view"]["is_over"]
    for sock in socks:
        sock.close()
    return str(code)


def test_a_group_is_joined_by_link_and_its_matches_make_standings_and_tonights_scoreboard(
        tmp_path: Path, database_url: str | None) -> None:
    live = LiveServer(tmp_path, database_url).start()
    aki, ben, chika, stranger = browser(live), browser(live), browser(live), browser(live)
    try:
        ids = {}
        for client, name in ((aki, "Aki"), (ben, "Ben"), (chika, "Chika"), (stranger, "Eve")):
            visit(client)
            ids[name] = client.patch("/api/me", json={"name": name}).json()["profile"]["id"]
        made = aki.post("/api/groups", json={"name": "  Friday   table "})
        assert made.status_code == 200, made.text
        group_id, token = token_of(made.json()["invite"])
        assert made.json()["invite"] == f"{live.url}/g/{group_id}/join#{token}"
        assert made.json()["group"]["name"] == "Friday table" and made.json()["you"]["maker"]
        # A link holder sees the name before joining; joining twice is joining once.
        peek = ben.post(f"/api/groups/{group_id}/invitation", json={"token": token}).json()
        assert (peek["name"], peek["members"]) == ("Friday table", 1)
        for client in (ben, chika, ben):
            assert client.post(f"/api/groups/{group_id}/join", json={"token": token}).status_code == 200
        assert [g["name"] for g in visit(ben)["groups"]] == ["Friday table"]

        # Match 1 (toy) and match 2 (toy-final, the series' next game, same room): both the group's.
        # Seats: Aki 0, Ben 1, Chika 2. Match 1 bids 2, 5, 5: Ben and Chika tie first (each beats Aki: 1,
        # and ties the other: 1/2 -> 1.5), Aki 0. Match 2 bids 7, 4, 3: Aki 2, Ben 1, Chika 0.
        code = play(live, aki, [ben, chika], [2, 5, 5], group=group_id, then=[("toy-final", [7, 4, 3])])
        assert aki.get(f"/api/rooms/{code}/group").json()["group"] == {"id": group_id, "name": "Friday table"}
        # A room not made for the group: Aki and Ben again, Ben wins; it is not the group's (ratings count it).
        other = play(live, aki, [ben], [1, 9])
        assert aki.get(f"/api/rooms/{other}/group").json()["group"] is None

        page = ben.get(f"/api/groups/{group_id}").json()
        assert [(m["name"], m["maker"]) for m in page["members"]] == [("Aki", True), ("Ben", False), ("Chika", False)]
        assert page["matches"] == 2 and page["formula"]["en"] and page["formula"]["ja"]
        standings = {r["name"]: r for r in page["standings"]}
        assert [r["name"] for r in page["standings"]] == ["Ben", "Aki", "Chika"]  # 2.5, 2, 1.5 points
        assert {n: (r["matches"], r["wins"], r["average_placing"], r["points"]) for n, r in standings.items()} == {
            "Ben": (2, 1, 1.5, 2.5), "Aki": (2, 1, 2.0, 2.0), "Chika": (2, 1, 2.0, 1.5)}
        # Ratings are the person's in each game (the other room counts there): Aki's toy rating has 2 matches.
        rated = {r["game"]: r["matches"] for r in standings["Aki"]["ratings"]}
        assert rated == {"toy": 2, "toy-final": 1}
        tonight = page["tonight"]
        assert tonight["current"] and [m["game"] for m in tonight["matches"]] == ["toy", "toy-final"]
        assert [[(s["name"], s["rank"], s["points"]) for s in m["seats"]] for m in tonight["matches"]] == [
            [("Ben", 1, 1.5), ("Chika", 1, 1.5), ("Aki", 3, 0.0)], [("Aki", 1, 2.0), ("Ben", 2, 1.0), ("Chika", 3, 0.0)]]
        assert [(r["name"], r["by_match"], r["total"]) for r in tonight["scoreboard"]] == [
            ("Ben", [1.5, 1.0], 2.5), ("Aki", [0.0, 2.0], 2.0), ("Chika", [1.5, 0.0], 1.5)]
        seen_by_aki = aki.get(f"/api/groups/{group_id}").json()
        assert seen_by_aki["you"]["maker"] and {**seen_by_aki, "you": None} == {**page, "you": None}

        # The leaderboard inside the group: its members by their toy rating, the global one ranked among them.
        board = ben.get(f"/api/groups/{group_id}/leaderboard/toy").json()["ratings"]
        everyone = {r["profile"]: r["rating"] for r in ben.get("/api/leaderboard/toy").json()["ratings"]}
        assert [r["profile"] for r in board] == sorted(
            (ids[n] for n in ("Aki", "Ben", "Chika")), key=lambda p: -everyone[p])
        assert [r["place"] for r in board] == [1, 2, 3] and all(r["rating"] == everyone[r["profile"]] for r in board)

        # "members" visibility: the members of one's groups see one's matches; a stranger does not.
        assert [m["room"] for m in ben.get(f"/api/profiles/{ids['Chika']}").json()["matches"]] == [code, code]
        assert stranger.get(f"/api/profiles/{ids['Chika']}").json()["matches"] is None
        for path in (f"/api/groups/{group_id}", f"/api/groups/{group_id}/leaderboard/toy"):
            refused = stranger.get(path)
            assert (refused.status_code, refused.json()["error"]["code"]) == (404, "group/not_found") and code not in refused.text

        # Chika leaves: she no longer sees the group, and Ben no longer sees her matches.
        assert chika.post(f"/api/groups/{group_id}/leave").status_code == 200
        assert chika.get(f"/api/groups/{group_id}").json()["error"]["code"] == "group/not_found"
        assert ben.get(f"/api/profiles/{ids['Chika']}").json()["matches"] is None
        after = ben.get(f"/api/groups/{group_id}").json()
        assert [r["name"] for r in after["standings"]] == ["Ben", "Aki"] and after["matches"] == 2
    finally:
        for client in (aki, ben, chika, stranger):
            client.close()
        live.stop()


def test_bad_input_and_people_who_may_not_get_coded_errors_and_change_nothing(server: LiveServer) -> None:
    maker, member, other, stranger = browser(server), browser(server), browser(server), browser(server)
    anonymous = httpx.Client(base_url=server.url, timeout=10, headers={"Origin": server.url})
    evil = {"Origin": "https://evil.example"}
    try:
        for client in (maker, member, other, stranger):
            visit(client)
        # A name too long, blank or of control characters: refused, no group made.
        for name in ("x" * 5000, "x" * 41, "   ", "a\x00b"):
            refused = maker.post("/api/groups", json={"name": name})
            assert (refused.status_code, refused.json()["error"]["code"]) == (422, "name/invalid") and refused.json()["error"]["ja"]
        assert maker.get("/api/groups").json()["groups"] == []
        assert maker.post("/api/groups", json={"name": "Friday"}, headers=evil).json()["error"]["code"] == "origin/refused"
        assert anonymous.post("/api/groups", json={"name": "Friday"}).json()["error"]["code"] == "profile/unknown"
        assert maker.get("/api/groups").json()["groups"] == []
        made = maker.post("/api/groups", json={"name": "y" * 40}).json()
        group_id, token = token_of(made["invite"])

        # Forged tokens, another group's token and a join from another site: refused, nobody joins.
        forged = [member.post(f"/api/groups/{group_id}/join", json={"token": "forged"}),
                  member.post(f"/api/groups/{group_id}/invitation", json={"token": token + "x"}),
                  member.post("/api/groups/0000000000000000/join", json={"token": token})]
        for response in forged:
            assert (response.status_code, response.json()["error"]["code"]) == (410, "group/invite_invalid")
            assert response.json()["error"]["ja"]
        assert member.post(f"/api/groups/{group_id}/join", json={"token": token}, headers=evil).status_code == 403
        assert member.get(f"/api/groups/{group_id}").json()["error"]["code"] == "group/not_found"
        assert member.post(f"/api/groups/{group_id}/join", json={"token": token}).status_code == 200
        assert other.post(f"/api/groups/{group_id}/join", json={"token": token}).status_code == 200

        # Only the maker renews the link and removes members; the renewed link replaces the old one.
        assert member.post(f"/api/groups/{group_id}/invite").json()["error"]["code"] == "group/not_maker"
        assert stranger.post(f"/api/groups/{group_id}/invite").json()["error"]["code"] == "group/not_found"
        assert maker.post(f"/api/groups/{group_id}/invite", headers=evil).json()["error"]["code"] == "origin/refused"
        renewed = token_of(maker.post(f"/api/groups/{group_id}/invite").json()["invite"])[1]
        assert stranger.post(f"/api/groups/{group_id}/join", json={"token": token}).json()["error"]["code"] == "group/invite_invalid"
        assert stranger.post(f"/api/groups/{group_id}/invitation", json={"token": renewed}).json()["name"] == "y" * 40
        member_id = visit(member)["profile"]["id"]
        other_id = visit(other)["profile"]["id"]
        assert member.delete(f"/api/groups/{group_id}/members/{other_id}").json()["error"]["code"] == "group/not_maker"
        assert maker.delete(f"/api/groups/{group_id}/members/{other_id}", headers=evil).status_code == 403
        stranger_id = visit(stranger)["profile"]["id"]
        unknown = maker.delete(f"/api/groups/{group_id}/members/{stranger_id}")
        assert (unknown.status_code, unknown.json()["error"]["code"]) == (404, "group/member_unknown")
        removed = maker.delete(f"/api/groups/{group_id}/members/{other_id}")
        assert [m["profile"] for m in removed.json()["members"]][1:] == [member_id]
        assert other.get(f"/api/groups/{group_id}").json()["error"]["code"] == "group/not_found"

        # A room for a group one is not in: refused, and no room is made.
        rooms_before = len(stranger.get("/api/rooms").json())
        for client in (stranger, anonymous):
            response = client.post("/api/rooms", json={"game": "toy", "seats": 2, "name": "Eve", "group": group_id})
            assert (response.status_code, response.json()["error"]["code"]) == (404, "group/not_found")
        assert len(stranger.get("/api/rooms").json()) == rooms_before
        assert maker.post("/api/rooms", json={"game": "toy", "seats": 2, "group": "z" * 25}).json()["error"]["code"] == "msg/invalid"

        # A member who deletes their profile leaves their groups.
        renewed = token_of(maker.post(f"/api/groups/{group_id}/invite").json()["invite"])[1]
        assert other.post(f"/api/groups/{group_id}/join", json={"token": renewed}).status_code == 200
        assert other_id in [m["profile"] for m in maker.get(f"/api/groups/{group_id}").json()["members"]]
        assert other.delete("/api/me").status_code == 200
        assert [m["profile"] for m in maker.get(f"/api/groups/{group_id}").json()["members"]][1:] == [member_id]

        # The maker leaves: the earliest member left becomes the maker; the last to leave ends the group.
        assert maker.post(f"/api/groups/{group_id}/leave", headers=evil).status_code == 403
        assert maker.post(f"/api/groups/{group_id}/leave").status_code == 200
        page = member.get(f"/api/groups/{group_id}").json()
        assert page["you"]["maker"] and [m["profile"] for m in page["members"]] == [member_id]
        assert member.post(f"/api/groups/{group_id}/invite").status_code == 200
        assert maker.post(f"/api/groups/{group_id}/leave").json()["error"]["code"] == "group/not_found"
        assert member.post(f"/api/groups/{group_id}/leave").status_code == 200
        assert member.get("/api/groups").json()["groups"] == []

        # Guessing invite tokens is rate-limited per client address (10 wrong, then one every 6 s): past it,
        # even a right token waits.
        fresh = maker.post("/api/groups", json={"name": "Saturday"}).json()
        fresh_id, fresh_token = token_of(fresh["invite"])
        codes = [stranger.post(f"/api/groups/{fresh_id}/join", json={"token": f"guess-{i}"}).json()["error"]["code"]
                 for i in range(12)]
        assert codes[-1] == "rate/limited" and "group/invite_invalid" in codes
        assert stranger.post(f"/api/groups/{fresh_id}/join", json={"token": fresh_token}).status_code == 429
        assert [m["profile"] for m in maker.get(f"/api/groups/{fresh_id}").json()["members"]] == [
            visit(maker)["profile"]["id"]]
    finally:
        for client in (maker, member, other, stranger, anonymous):
            client.close()


def test_the_terminal_prints_a_groups_leaderboard(tmp_path: Path) -> None:
    from sqlalchemy import insert
    from typer.testing import CliRunner

    from partygames.cli.main import app
    from partygames.server import groups
    from partygames.server.storage import Storage
    from tests.server.test_ratings import finished_room, person

    store = Storage(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        aki, ben, outsider = person(store), person(store), person(store)
        group_id, _ = groups.make(store, aki, "Friday table")
        groups.make(store, outsider, "Twins")
        groups.make(store, outsider, "Twins")
        with store.engine.begin() as conn:
            conn.execute(insert(groups.group_members).values(group=group_id, profile=ben, joined_at=2.0))
        # The outsider wins, Ben second, Aki last: the group's board is Ben, then Aki.
        finished_room(store, "dice-derby", [(aki, 3, ["seat"]), (ben, 2, ["seat"]), (outsider, 1, ["seat"])])
        runner, url = CliRunner(), ["--database-url", store.url]
        for name in ("Friday table", group_id):
            shown = runner.invoke(app, ["ratings", "dice-derby", "--group", name, *url], env={"COLUMNS": "100"})
            assert shown.exit_code == 0, shown.output
            lines = shown.output.splitlines()
            assert "Friday table" in lines[0] and outsider[:6] not in shown.output
            rows = [line for line in lines if ben[:6] in line or aki[:6] in line]
            assert len(rows) == 2 and ben[:6] in rows[0] and aki[:6] in rows[1]
        everyone = runner.invoke(app, ["ratings", "dice-derby", *url], env={"COLUMNS": "100"})
        assert outsider[:6] in everyone.output
        for lang, words in (("en", "No group named 'Nobody'"), ("ja", "「Nobody」という名前・ID のグループはありません")):
            unknown = runner.invoke(app, ["ratings", "dice-derby", "--group", "Nobody", *url, "--lang", lang])
            assert unknown.exit_code == 1 and words in unknown.output and len(unknown.output.strip().splitlines()) == 1
        twins = runner.invoke(app, ["ratings", "dice-derby", "--group", "Twins", *url], env={"COLUMNS": "200"})
        assert twins.exit_code == 1 and "2 groups are named 'Twins'" in twins.output
    finally:
        store.close()
