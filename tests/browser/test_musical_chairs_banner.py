"""Musical Chairs' banner says the phase and what it asks of the reader (issue 29: it said "Live: act whenever
you like" through the break, the race and the votes), a ガヤ's phone says they are in the gallery, the vote
leads the buttons during a vote, and "How to play" says the medals this room's players hold.

Real time on the small test island with quick runners: Aki (English, seat 0) and Ben (Japanese, seat 1) are
in the gallery, three heuristic bots are the players."""

from __future__ import annotations

import re
import time

import httpx
from playwright.sync_api import Browser, expect

from tests.browser import driver
from tests.browser.server import PlatformProcess

KINDS = ["human", "human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]
OPTIONS = {"tempo": "real-time", "players": 3, "gallery": 2, "player_seats": [2, 3, 4], "island": "test",
           "speed": 100, "first_break_seconds": 6, "break_seconds": 5, "race_seconds": 8, "vote_seconds": 30,
           "remove_seconds": 5}


def test_the_banner_says_the_phase_and_what_to_do_and_the_vote_comes_first(browser: Browser,
                                                                            platform: PlatformProcess) -> None:
    with httpx.Client(base_url=platform.url) as http:
        created = http.post("/api/rooms", json={"game": "musical-chairs", "seats": len(KINDS), "options": OPTIONS,
                                                "seat_kinds": KINDS, "name": "Aki"}).json()
        joined = http.post(f"/api/rooms/{created['code']}/join", json={"name": "Ben"}).json()
        started = http.post(f"/api/rooms/{created['code']}/start", json={},
                            headers={"X-Host-Token": created["host_token"]})
        assert started.status_code == 200, started.text
    aki = driver.open_seat(browser, platform, created)
    ben = driver.open_seat(browser, platform, {**joined, "host_token": None, "code": created["code"]}, lang="ja",
                           name="Ben")
    banner, ja_banner = aki.page.get_by_test_id("turn"), ben.page.get_by_test_id("turn")
    # The break: the phase, and that the reader is in the gallery; never the bare "Live: …".
    expect(banner).to_contain_text("Break: you are in the gallery")
    expect(ja_banner).to_contain_text("休憩: あなたはガヤです")
    expect(aki.page.get_by_test_id("mc-role")).to_contain_text("You are in the gallery")
    expect(ben.page.get_by_test_id("mc-role")).to_contain_text("あなたはガヤです")
    # The race: a ガヤ holds chairs for players.
    expect(banner).to_contain_text("Race: you are in the gallery: stand at a free chair", timeout=20_000)
    # The vote: the banner asks for a ballot, and the vote is the first form of the action panel.
    expect(banner).to_contain_text("Parent vote: vote now", timeout=30_000)
    expect(ja_banner).to_contain_text("親決め投票: 今すぐ投票")
    first = aki.page.locator(".actions [data-action]").first
    expect(first).to_have_attribute("data-action", "vote")
    assert "Live:" not in banner.inner_text() and "リアルタイム" not in ja_banner.inner_text()
    aki.page.locator(".actions button[data-action=vote]:not([disabled])").first.click()
    expect(banner).to_contain_text("your ballot is cast")
    # "How to play" says this room's medals: five participants, so each player holds 4.
    rules = aki.page.locator("details.panel.rules")
    rules.locator("summary").click()
    expect(rules).to_contain_text("starts with 4 medals")
    assert not re.search(r"\b23 medals", rules.inner_text())
    time.sleep(0.2)
    assert aki.errors == [] and ben.errors == []
    aki.close()
    ben.close()
