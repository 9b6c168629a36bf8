"""Makes the README's picture of a group's evening on the big screen (docs/screenshots/group-evening.png).

Run by hand after a visible change of the group page: `.venv/bin/python -m tests.browser.make_group_screenshot`.
It starts the real server on a temporary database with very short time limits, makes three profiles (Aki,
Ben, Chika) and a group through the HTTP API, seats them in three rooms of real games made for the group
(their time limits play their seats' defaults; bots fill the other seats; no stand-in bot takes a person's seat,
so the three people are rated in each match and the standings show their ratings), and photographs the group
page at 1920x1080 (`?table=1`), as the big screen shows it between matches.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

from tests.browser.chromium import ARGS, CHROMIUM
from tests.browser.make_screenshots import OUT, save
from tests.browser.server import PlatformProcess

ROOMS: tuple[tuple[str, list[str], dict[str, Any]], ...] = (("last-man-standing", ["human", "human", "human", "bot:heuristic"], {}),
         ("lucky-nine", ["human", "human", "human", "bot:heuristic"], {"rounds": 4}),
         ("dice-derby", ["human", "human", "human", "bot:heuristic", "bot:random", "bot:heuristic"], {"races": 4}))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        server = PlatformProcess(Path(tmp), bot_delay=0.0, deadline_scale=0.005,
                                 # No stand-in bot takes a person's seat (its steps would leave the person
                                 # unrated, docs/profiles.md): their time limits play their seats' defaults.
                                 settings={"reveal_scale": 0, "standin_grace": 3600}).start()
        people = [httpx.Client(base_url=server.url, timeout=30, headers={"Origin": server.url}) for _ in range(3)]
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            for client, name, colour in zip(people, ("Aki", "Ben", "Chika"), ("#4363d8", "#e6194b", "#3cb44b"), strict=True):
                client.get("/api/me")
                client.patch("/api/me", json={"name": name, "colour": colour})
            made = people[0].post("/api/groups", json={"name": "Friday table"}).json()
            group, token = made["group"]["id"], made["invite"].split("#", 1)[1]
            for client in people[1:]:
                client.post(f"/api/groups/{group}/join", json={"token": token}).raise_for_status()
            for game, kinds, options in ROOMS:
                created = people[0].post("/api/rooms", json={"game": game, "seats": len(kinds), "seat_kinds": kinds,
                                                             "options": options, "name": "Aki", "group": group}).json()
                code = created["code"]
                for client, name in zip(people[1:], ("Ben", "Chika"), strict=True):
                    client.post(f"/api/rooms/{code}/join", json={"name": name}).raise_for_status()
                people[0].post(f"/api/rooms/{code}/start", json={},
                               headers={"X-Host-Token": created["host_token"]}).raise_for_status()
                end = time.monotonic() + 300
                while people[0].get(f"/api/rooms/{code}").json()["status"] != "over":
                    if time.monotonic() > end:
                        raise RuntimeError(f"{game} did not end")
                    time.sleep(0.5)
                print(game, "over")
            context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US")
            secret = people[0].cookies["partygames_device"]
            context.add_cookies([{"name": "partygames_device", "value": secret, "url": server.url}])
            page = context.new_page()
            page.goto(f"{server.url}/g/{group}?table=1")
            page.get_by_test_id("scoreboard-row").first.wait_for()
            time.sleep(1.5)  # the games' titles
            save(page.screenshot(), "group-evening.png")
        finally:
            browser.close()
            for client in people:
                client.close()
            server.stop()


if __name__ == "__main__":
    main()
