"""The Pandemic Game in real time in two browsers with bots: the host offers contact to the guest from the
guest's seat card, the guest accepts it from the host's, both see the contact in the public log, the big
screen shows the public odds and the contact graph, and the match runs out of time to the results."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from partygames.games import get as get_game
from tests.browser import driver
from tests.browser.server import PlatformProcess


def test_two_humans_touch_watches_and_play_a_real_time_match_to_the_results(
        players: list[driver.Player], platform: PlatformProcess, artifacts: Path, browser: Browser) -> None:
    host, guest = players
    code = driver.create_room(host, "pandemic", 5, ("human", "human", "bot:heuristic", "bot:heuristic", "bot:random"),
                              "Aki", {"minutes": 1, "rooms": 1})
    link = host.page.get_by_test_id("share-link").input_value()
    assert link.endswith(f"/room/{code}")
    driver.join_room(guest, link, "Ben")
    driver.start_match(host)
    guest.page.get_by_test_id("board").wait_for()
    host.page.get_by_test_id("pd-time").wait_for()
    host.page.screenshot(path=str(artifacts / "pandemic-play-host.png"), full_page=True)
    # Real time: nobody has a turn, so the banner gives the live status and never says "Your turn".
    for player, live in ((host, "Live: act whenever you like"), (guest, "リアルタイム: いつでも行動できます")):
        banner = player.page.get_by_test_id("turn")
        assert banner.get_attribute("data-kind") == "live"
        assert live in banner.inner_text(), banner.inner_text()
        assert "Your turn" not in banner.inner_text() and "あなたの番" not in banner.inner_text()

    # The host offers contact to the guest (seat 1) from the guest's card; the guest accepts on the host's.
    host.page.locator("[data-testid=pd-offer-1]:not([disabled])").click()
    accept = guest.page.locator("[data-testid=pd-accept-0]:not([disabled])")
    accept.wait_for(timeout=10_000)
    guest.page.screenshot(path=str(artifacts / "pandemic-offer-guest-ja.png"), full_page=True)
    accept.click()
    for player, words in ((host, "touched"), (guest, "接触")):
        player.page.wait_for_function(
            "() => window.partygames.state.view.log.some(e => e.kind === 'contact' && e.a === 0 && e.b === 1)")
        # The page renders after its state changes: wait for the log on screen, not only in the state.
        log = player.page.get_by_test_id("pd-log")
        for text in (words, "Aki", "Ben"):
            expect(log).to_contain_text(text)
        # Reveals take no time in real-time play: "What just happened" tells the contact at once.
        expect(player.page.locator("[data-testid=stage] .stage-recent li[data-event=contact]")).not_to_have_count(0)
        expect(player.page.get_by_test_id("stage")).not_to_contain_text("まだ何もありません" if player is guest else "Nothing yet")

    table = driver.open_player(browser, platform, viewport={"width": 1600, "height": 900})
    table.page.goto(f"{link}?table=1")
    table.page.get_by_test_id("pd-graph").wait_for()
    odds = table.page.get_by_test_id("pd-odds").inner_text()
    assert "%" in odds and "Public odds" in odds
    assert table.page.locator(".actions").count() == 0
    assert "Live: players act whenever they like" in table.page.get_by_test_id("turn").inner_text()
    table.page.screenshot(path=str(artifacts / "pandemic-table.png"))

    # The guest reads its watch in the private room (a reading 15 s later), then time runs out.
    visit = guest.page.locator("[data-testid=pd-visit]:not([disabled])")
    visit.wait_for(timeout=10_000)
    visit.click()
    guest.page.get_by_test_id("pd-leave").wait_for()
    for player in (host, guest, table):
        results = player.page.get_by_test_id("results")
        results.wait_for(timeout=120_000)
        shown = results.inner_text()
        assert "Aki" in shown and "Ben" in shown
    terminations = get_game("pandemic").labels.terminations.values()
    assert any(text("en") in host.page.get_by_test_id("results").inner_text() for text in terminations)
    assert any(text("ja") in guest.page.get_by_test_id("results").inner_text() for text in terminations)
    host.page.screenshot(path=str(artifacts / "pandemic-results.png"), full_page=True)
    guest.page.screenshot(path=str(artifacts / "pandemic-results-ja.png"), full_page=True)
    assert host.errors == [] and guest.errors == [] and table.errors == []
    table.close()
