"""Two people, each in their own browser context, play a match together: each browser got a profile on its
first visit (an HttpOnly cookie), their seats are tied to it, their profile pages show the match with a
replay link and their rating for the game, updated once, in English and in Japanese."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from tests.browser import driver
from tests.browser.server import PlatformProcess

GAME = "last-man-standing"


def test_two_people_play_and_their_profiles_show_the_match_and_ratings(
        players: list[driver.Player], platform: PlatformProcess, browser: Browser) -> None:
    host, guest = players
    for player in players:  # the first visit made the profile: a cookie the page's scripts cannot read
        [cookie] = [c for c in player.page.context.cookies() if c["name"] == "partygames_device"]
        assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
        assert "partygames_device" not in player.page.evaluate("document.cookie")
    code = driver.create_room(host, GAME, 4, ("human", "human", "bot:heuristic", "bot:random"), "Aki")
    driver.join_room(guest, host.page.get_by_test_id("share-link").input_value(), "Ben")
    driver.start_match(host)
    guest.page.get_by_test_id("board").wait_for()
    driver.play_to_results([host, guest], ("hire", "play"))

    for player, heading, other in ((host, "Your matches", "Ben"), (guest, "あなたの対戦", "Aki")):
        page = player.page
        page.get_by_test_id("profile-link").click()
        page.wait_for_url(re.compile(r"/me$"))
        matches = page.get_by_test_id("profile-matches")
        expect(matches).to_contain_text(heading)
        row = matches.locator(f"[data-room='{code}']")
        expect(row).to_contain_text(other)
        expect(row.get_by_test_id("profile-replay")).to_have_count(1)
        rating = page.get_by_test_id("profile-ratings").locator(f"tr[data-game='{GAME}']")
        expect(rating.get_by_test_id("rating-matches")).to_have_text("1")
        # Reloading rates nothing twice.
        page.reload()
        expect(page.get_by_test_id("profile-ratings").locator(f"tr[data-game='{GAME}']")
               .get_by_test_id("rating-matches")).to_have_text("1")
        expect(page.get_by_test_id("profile-name")).to_have_value("Aki" if player is host else "Ben")

    # The game's leaderboard, from the rating's row: both people, with their ratings.
    guest.page.get_by_test_id("profile-ratings").get_by_test_id("rating-leaderboard").click()
    rows = guest.page.get_by_test_id("leaderboard-row")
    expect(rows).to_have_count(2)
    expect(guest.page.get_by_test_id("leaderboard")).to_contain_text("ランキング")
    assert {rows.nth(0).inner_text().split()[1], rows.nth(1).inner_text().split()[1]} == {"Aki", "Ben"}
    guest.page.get_by_test_id("profile-link").click()
    guest.page.get_by_test_id("profile-name").wait_for()

    # The host renames themself: kept across a reload; a 5,000-character name is refused, in Japanese too.
    page = host.page
    page.get_by_test_id("profile-name").fill("Aki Q")
    page.get_by_test_id("profile-save").click()
    expect(page.get_by_test_id("profile-saved")).to_be_visible()
    page.reload()
    expect(page.get_by_test_id("profile-name")).to_have_value("Aki Q")
    guest.page.get_by_test_id("profile-name").evaluate("(e) => e.removeAttribute('maxlength')")
    guest.page.get_by_test_id("profile-name").fill("x" * 5000)
    guest.page.get_by_test_id("profile-save").click()
    expect(guest.page.get_by_test_id("profile-error")).to_contain_text("名前")
    guest.page.reload()
    expect(guest.page.get_by_test_id("profile-name")).to_have_value("Ben")

    # The host moves their profile to a third browser by a one-time link: it lands on the profile page with
    # the host's name and match; the same link opened again is refused.
    page.get_by_test_id("profile-move-make").click()
    link = page.get_by_test_id("profile-move-link").input_value()
    expect(page.get_by_test_id("profile-move-qr")).to_be_visible()
    third = browser.new_context(locale="en-US")
    try:
        moved = third.new_page()
        moved.goto(link)
        moved.wait_for_url(re.compile(r"/me$"))
        expect(moved.get_by_test_id("profile-name")).to_have_value("Aki Q")
        expect(moved.get_by_test_id("profile-matches").locator(f"[data-room='{code}']")).to_have_count(1)
        assert "#" not in moved.url
        # Its replay there has the Review tab of the host's seat by the profile alone (no seat token here).
        moved.get_by_test_id("profile-replay").click()
        moved.get_by_test_id("tab-review").click()
        expect(moved.get_by_test_id("review-result")).to_be_visible(timeout=30_000)
        expect(moved.get_by_test_id("review-seat")).to_have_count(0)
        moved.goto(link)
        expect(moved.get_by_test_id("claim-error")).to_contain_text("already used")
    finally:
        third.close()

    # The replay of their own seat opens from the history.
    page.get_by_test_id("profile-matches").locator(f"[data-room='{code}']").get_by_test_id("profile-replay").click()
    page.get_by_test_id("replay").wait_for()
    assert host.errors == [] and guest.errors == []
