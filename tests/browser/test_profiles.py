"""Two people, each in their own browser context, play a match together: each browser got a profile on its
first visit (an HttpOnly cookie), their seats are tied to it, their profile pages show the match with a
replay link and their rating for the game, updated once, in English and in Japanese."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, CDPSession, Page, expect

from tests.browser import driver
from tests.browser.chromium import LAN_HOST
from tests.browser.server import PlatformProcess

GAME = "last-man-standing"


@pytest.mark.platform()  # a fresh database: the game's leaderboard holds only these two people
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

    # The host renames themself and picks an emoji: kept across a reload; a 5,000-character name is refused,
    # in Japanese too. The guest's history shows the host's emoji beside their name.
    page = host.page
    page.get_by_test_id("profile-name").fill("Aki Q")
    page.get_by_test_id("profile-emoji").fill("🎲")
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
    expect(guest.page.get_by_test_id("profile-matches").locator(f"[data-room='{code}']")
           .get_by_test_id("profile-mark")).to_have_text("🎲")

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


def _authenticator(page: Page) -> tuple[CDPSession, str]:
    """Chromium's virtual authenticator for `page` (CDP WebAuthn): a platform authenticator that keeps
    discoverable credentials and verifies its user at once."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    return cdp, made["authenticatorId"]


def test_a_passkey_registers_in_one_browser_and_signs_in_in_another(platform: PlatformProcess,
                                                                       browser: Browser) -> None:
    """On http://localhost (a secure context) Aki adds a passkey; the same passkey, carried to a second
    browser's authenticator (as a synced passkey is), signs that browser in to Aki's profile, in Japanese.
    A page on plain http elsewhere (a LAN address) says passkeys cannot work there and offers the link."""
    site = f"http://localhost:{platform.port}"
    first = browser.new_context(locale="en-US")
    second = browser.new_context(locale="ja-JP")
    second.add_init_script("localStorage.setItem('pg.lang', 'ja')")
    try:
        page = first.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        cdp, authenticator = _authenticator(page)
        page.goto(f"{site}/me")
        page.get_by_test_id("profile-name").fill("Aki")
        page.get_by_test_id("profile-emoji").fill("🎲")
        page.get_by_test_id("profile-save").click()
        expect(page.get_by_test_id("profile-saved")).to_be_visible()
        expect(page.get_by_test_id("profile").locator("h2").first).to_contain_text("🎲")
        expect(page.get_by_test_id("passkey-none")).to_be_visible()
        page.get_by_test_id("passkey-add").click()
        expect(page.get_by_test_id("passkey-done")).to_have_text("Passkey added.")
        expect(page.get_by_test_id("passkey")).to_have_count(1)
        [credential] = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
        assert credential["rpId"] == "localhost" and credential["isResidentCredential"]

        other = second.new_page()
        other.on("pageerror", lambda error: errors.append(str(error)))
        cdp2, authenticator2 = _authenticator(other)
        cdp2.send("WebAuthn.addCredential", {"authenticatorId": authenticator2, "credential": credential})
        other.goto(f"{site}/me")
        expect(other.get_by_test_id("profile-name")).to_have_value("")  # a new profile of its own
        other.get_by_test_id("passkey-signin").click()
        expect(other.get_by_test_id("passkey-done")).to_have_text("Aki としてサインインしました。")
        expect(other.get_by_test_id("profile-name")).to_have_value("Aki")
        other.reload()  # the browser now holds Aki's profile (its own device cookie)
        expect(other.get_by_test_id("profile-name")).to_have_value("Aki")
        expect(other.get_by_test_id("passkey")).to_have_count(1)
        assert first.cookies()[0]["value"] != second.cookies()[0]["value"]

        # The same server on a LAN address over plain http: no secure context, so the page says so and the
        # one-time link is right below.
        other.goto(f"http://{LAN_HOST}:{platform.port}/me")
        expect(other.get_by_test_id("passkey-insecure")).to_contain_text("ワンタイムリンク")
        expect(other.get_by_test_id("passkey-signin")).to_have_count(0)
        expect(other.get_by_test_id("profile-move-make")).to_be_visible()
        assert errors == []
    finally:
        first.close()
        second.close()
