"""The Pandemic Game in real time in two browsers with bots: the host offers contact to the guest from the
guest's seat card, the guest accepts it from the host's, both see the contact in the public log, the big
screen shows the public odds and the contact graph (above the fold of a 1080p screen, with a legend and
time marks), the guest reads its watch in a private room, and the match runs out of time to the results,
whose details name the seats."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from partygames.games import get as get_game
from tests.browser import driver
from tests.browser.server import PlatformProcess

BIG_SCREEN: ViewportSize = {"width": 1920, "height": 1080}
# Each lane's name ends left of its lane (a Japanese name is long): pairs of (name's right, lane's left).
LANES = """() => [...document.querySelectorAll("[data-testid=pd-graph] .pd-lane")].map((g) =>
  [g.querySelector("text").getBoundingClientRect().right, g.querySelector("line").getBoundingClientRect().left])"""

# Sets window.seenContact once a contact shows in the stage's recent events (watched at every change of the page).
SEEN_CONTACT = """() => {
  const check = () => { if (document.querySelector("[data-testid=stage] .stage-recent li[data-event=contact]")) window.seenContact = true; };
  new MutationObserver(check).observe(document.body, { childList: true, subtree: true });
  check();
  return null;
}"""


def _overlap(page: Page, upper: str, lower: str) -> float:
    """How far two boxes on screen overlap vertically (0: not at all)."""
    a = page.get_by_test_id(upper).bounding_box()
    b = page.get_by_test_id(lower).bounding_box()
    assert a is not None and b is not None
    return max(0.0, min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]))


# The match's minute runs in 45 s of wall time (the game clock, its marks and the reading's delay are the same
# in game time); what the test does during the match takes well under that.
@pytest.mark.platform(deadline_scale=0.75)
def test_two_humans_touch_watches_and_play_a_real_time_match_to_the_results(
        players: list[driver.Player], platform: PlatformProcess, artifacts: Path, browser: Browser) -> None:
    host, guest = players
    code = driver.create_room(host, "pandemic", 5, ("human", "human", "bot:heuristic", "bot:heuristic", "bot:random"),
                              "Aki", {"minutes": 1, "rooms": 0, "read_seconds": 5})
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
    # The board offers every move itself: no action panel repeats them ("Press the switch" once).
    for player, press in ((host, "Press the switch"), (guest, "スイッチを押す")):
        expect(player.page.locator(".actions")).to_have_count(0)
        expect(player.page.get_by_role("button", name=press, exact=True)).to_have_count(1)
    # "What just happened" keeps the last few events, and the bots act in real time too: each page notes the
    # moment the contact appears there, however soon later events push it out.
    for player in (host, guest):
        player.page.evaluate(SEEN_CONTACT)
        assert player.page.evaluate("() => window.seenContact") is None
    accept.click()
    for player, words in ((host, "touched"), (guest, "接触")):
        player.page.wait_for_function(
            "() => window.partygames.state.view.log.some(e => e.kind === 'contact' && e.a === 0 && e.b === 1)")
        # The page renders after its state changes: wait for the log on screen, not only in the state.
        log = player.page.get_by_test_id("pd-log")
        for text in (words, "Aki", "Ben"):
            expect(log).to_contain_text(text)
        # Reveals take no time in real-time play: "What just happened" tells the contact at once.
        player.page.wait_for_function("() => window.seenContact === true", timeout=5000)
        expect(player.page.get_by_test_id("stage")).not_to_contain_text("まだ何もありません" if player is guest else "Nothing yet")

    # A seat card words its odds for a newcomer, and counts one contact as one.
    card = host.page.get_by_test_id("pd-seat-1")
    expect(card.get_by_test_id("pd-chance-1")).to_contain_text(re.compile(r"Chance infected: \d+% public, \d+% by what you know"))
    expect(card).not_to_contain_text("1 contacts")

    table = driver.open_player(browser, platform, viewport=BIG_SCREEN)
    table.page.goto(f"{link}?table=1")
    table.page.get_by_test_id("pd-graph").wait_for()
    odds = table.page.get_by_test_id("pd-odds").inner_text()
    assert "%" in odds and "Public odds" in odds
    assert table.page.locator(".actions").count() == 0
    assert "Live: players act whenever they like" in table.page.get_by_test_id("turn").inner_text()
    table.page.screenshot(path=str(artifacts / "pandemic-table.png"))
    # The graph is the show: whole on a 1080p screen without scrolling, with a legend and time marks, and
    # (in Japanese too) every lane's name clear of its lane.
    table_ja = driver.open_player(browser, platform, lang="ja", viewport=BIG_SCREEN)
    table_ja.page.goto(f"{link}?table=1")
    table_ja.page.get_by_test_id("pd-graph").wait_for()
    for screen, legend_words in ((table, ("a switch press", "a contact", "now", "game time")),
                                 (table_ja, ("スイッチを押した", "接触", "現在", "ゲーム時間"))):
        page = screen.page
        assert page.evaluate("() => window.scrollY") == 0
        graph = page.get_by_test_id("pd-graph").bounding_box()
        assert graph is not None and graph["y"] >= 0 and graph["y"] + graph["height"] <= BIG_SCREEN["height"], graph
        legend = page.get_by_test_id("pd-legend")
        for word in legend_words:
            expect(legend).to_contain_text(word)
        marks = page.locator("[data-testid=pd-graph] .pd-tick text").all_text_contents()
        assert marks[0] == "0:00" and marks[-1] == "1:00" and len(marks) >= 3, marks
        lanes = page.evaluate(LANES)
        assert len(lanes) == 5 and all(name <= lane for name, lane in lanes), lanes
    table_ja.page.screenshot(path=str(artifacts / "pandemic-table-ja.png"))
    table_ja.close()

    # The guest reads its watch in a private room (a reading 5 s later): the countdown to the reading goes
    # once it is made, and the watch shows it, then time runs out.
    visit = guest.page.locator("[data-testid=pd-visit]:not([disabled])")
    visit.wait_for(timeout=10_000)
    visit.click()
    guest.page.get_by_test_id("pd-leave").wait_for()
    rooms = guest.page.get_by_test_id("pd-rooms")
    expect(rooms.get_by_test_id("pd-read-in")).to_be_visible()
    expect(rooms.get_by_test_id("pd-read-done")).to_be_visible(timeout=15_000)
    expect(rooms.get_by_test_id("pd-read-in")).to_have_count(0)
    expect(rooms).not_to_contain_text("腕時計の確認まで")
    watch = guest.page.get_by_test_id("pd-watch")
    expect(watch.locator(".pd-reading")).to_contain_text(re.compile(r"^(感染|正常)、ワクチン\d+本"))
    # The watch's heading draws an icon, not an emoji (tofu without an emoji font).
    expect(watch.locator("h3 svg[data-icon=timer]")).to_have_count(1)
    assert "⌚" not in watch.inner_text()
    # Scrolled down a phone, the game clock sticks under the turn banner, not behind it.
    for player in (host, guest):
        player.page.mouse.wheel(0, 900)
        player.page.wait_for_function("() => window.scrollY > 300")
        expect(player.page.get_by_test_id("pd-time")).to_be_in_viewport()
        assert _overlap(player.page, "turn", "pd-time") == 0
    for player in (host, guest, table):
        results = player.page.get_by_test_id("results")
        results.wait_for(timeout=120_000)
        shown = results.inner_text()
        assert "Aki" in shown and "Ben" in shown
    terminations = get_game("pandemic").labels.terminations.values()
    assert any(text("en") in host.page.get_by_test_id("results").inner_text() for text in terminations)
    assert any(text("ja") in guest.page.get_by_test_id("results").inner_text() for text in terminations)
    # The details name the seats (as the ranking does), not their numbers.
    for player, labels in ((host, ("Qualified seats", "Infected at the start")), (guest, ("予選突破者", "初期感染者"))):
        page = player.page
        view = page.evaluate("() => window.partygames.state.view")
        joiner = ", " if player is host else "、"
        for key, label in zip(("passed", "initial_infected"), labels, strict=True):
            names = [page.locator(f"[data-testid=results] tbody[data-seat='{s}'] tr.seat-result td").nth(1).inner_text().strip()
                     for s in view[key]]
            row = page.get_by_test_id("result-detail").locator("tr").filter(has=page.locator("th", has_text=label))
            expect(row.locator("td")).to_have_text(joiner.join(names) if names else re.compile("none|なし"))
    host.page.screenshot(path=str(artifacts / "pandemic-results.png"), full_page=True)
    guest.page.screenshot(path=str(artifacts / "pandemic-results-ja.png"), full_page=True)
    assert host.errors == [] and guest.errors == [] and table.errors == []
    table.close()
