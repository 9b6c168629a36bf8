"""Two people, each in their own browser context: one makes a group on their profile page, the other joins it
by its invite link; they play two matches of two different games in rooms made for the group; the group page
shows both matches, tonight's scoreboard with the points formula and the standings, each counted once, in
English and in Japanese; the big screen (1920x1080) shows the evening's scoreboard, saved as a picture."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import driver
from tests.browser.conftest import ARTIFACTS
from tests.browser.server import PlatformProcess

# Two quick games of the test registry (tests/server/games.py): sealed bids, one each, higher placing better.
GAMES = ("toy", "toy-final")


@pytest.mark.platform(games="tests.server.games:GAMES")
def test_a_group_is_joined_by_link_and_its_evening_is_scored(players: list[driver.Player],
                                                              platform: PlatformProcess) -> None:
    host, guest = players
    page = host.page
    page.get_by_test_id("profile-link").click()
    page.get_by_test_id("group-name").fill("Friday table")
    page.get_by_test_id("group-make").click()
    page.wait_for_url(re.compile(r"/g/[a-f0-9]+$"))
    group = page.url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("group-title")).to_have_text("Friday table")
    link = page.get_by_test_id("group-invite-link").input_value()
    assert link.startswith(f"{platform.url}/g/{group}/join#")

    # The guest opens the link: the group's name, then Join; the token leaves the address bar.
    guest.page.goto(link)
    expect(guest.page.get_by_test_id("group-join")).to_contain_text("Friday table")
    assert "#" not in guest.page.url
    guest.page.get_by_test_id("group-join-button").click()
    guest.page.wait_for_url(re.compile(rf"/g/{group}$"))
    expect(guest.page.get_by_test_id("group-members").locator("li")).to_have_count(2)

    for number, game in enumerate(GAMES, start=1):
        page.goto(f"{platform.url}/g/{group}")
        page.get_by_test_id("group-new-room").click()
        expect(page.get_by_test_id("create-group")).to_have_value(group)  # the group is picked for the room
        code = driver.create_room(host, game, 2, ("human", "human"), "Aki")
        expect(page.get_by_test_id("room-group")).to_contain_text("Friday table")
        driver.join_room(guest, page.get_by_test_id("share-link").input_value(), "Ben")
        expect(guest.page.get_by_test_id("room-group")).to_contain_text("Friday table")
        driver.start_match(host)
        guest.page.get_by_test_id("board").wait_for()
        # Aki bids 3 in the first match (Ben's 0 loses), Ben 5 in the second.
        for player, amount in ((host, 3), (guest, 0)) if number == 1 else ((host, 0), (guest, 5)):
            player.page.locator(".actions form[data-spec='bid'] input").first.fill(str(amount))
            player.page.locator(".actions [data-action='bid']:not([disabled])").first.click()
        for player in (host, guest):
            expect(player.page.get_by_test_id("open-replay")).to_be_visible()

        # The group page after each match: the matches so far, each once, in the scoreboard and standings.
        guest.page.goto(f"{platform.url}/g/{group}")
        board = guest.page.get_by_test_id("group-scoreboard")
        expect(board.locator("th[data-match]")).to_have_count(number)
        expect(board.get_by_test_id("scoreboard-row")).to_have_count(2)
        for row in guest.page.get_by_test_id("standings-row").all():
            expect(row.get_by_test_id("standings-matches")).to_have_text(str(number))

    # On a phone (390 px) the page fits its width (a wide table scrolls inside its panel).
    guest.page.set_viewport_size({"width": 390, "height": 844})
    expect(guest.page.get_by_test_id("group-scoreboard")).to_contain_text("今夜")
    assert guest.page.evaluate("document.documentElement.scrollWidth") <= 390
    expect(guest.page.get_by_test_id("group-formula")).to_contain_text("同順位")
    expect(guest.page.get_by_test_id("group-match")).to_have_count(2)
    # The scoreboard's totals are the group's standings' points (the same matches, counted once).
    totals = sorted(guest.page.get_by_test_id("scoreboard-total").all_inner_texts())
    assert totals == sorted(guest.page.get_by_test_id("standings-points").all_inner_texts()) == ["1", "1"]
    # Each won one match of two seats: 1 point for beating the other, 0 for the loss.
    rows = {r.get_attribute("data-profile"): r.inner_text().split() for r in guest.page.get_by_test_id("scoreboard-row").all()}
    assert sorted(cells[-3:] for cells in rows.values()) == [["0", "1", "1"], ["1", "0", "1"]]

    # The big screen of the last room (a member's browser), between matches: the evening's scoreboard.
    screen = page.context.new_page()
    screen.set_viewport_size({"width": 1920, "height": 1080})
    screen.goto(f"{platform.url}/room/{code}?table=1")
    expect(screen.get_by_test_id("room-group").get_by_test_id("scoreboard-total")).to_have_text(["1", "1"])
    # The group page at 1920x1080, its evening's scoreboard in view and fitting the width.
    screen.goto(f"{platform.url}/g/{group}?table=1")
    expect(screen.get_by_test_id("group-scoreboard").get_by_test_id("scoreboard-row")).to_have_count(2)
    expect(screen.get_by_test_id("group-formula")).to_contain_text("for every seat it finished ahead of")
    box = screen.get_by_test_id("group-scoreboard").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 1920 and box["y"] + box["height"] <= 1080
    assert screen.evaluate("document.documentElement.scrollWidth") <= 1920
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    screen.screenshot(path=str(ARTIFACTS / "group-evening.png"))
    screen.close()
    assert host.errors == [] and guest.errors == []
