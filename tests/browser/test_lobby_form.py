"""The create-room form (issue 29): each checkbox sits beside its words, on their first line, however they wrap;
a list option is edited as a list (Lucky Nine's prizes as rows, Musical Chairs' player seats as "2, 3, 4"),
never as raw JSON ("[]"); and Musical Chairs starts as a small table needing no edit."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, expect

from tests.browser import driver
from tests.browser.server import PlatformProcess

# Each checkbox of the form: the box's middle within the first line of its words, the words just right of it.
BESIDE = """(form) => [...form.querySelectorAll("label.option.bool")].map((label) => {
  const box = label.querySelector("input[type=checkbox]").getBoundingClientRect();
  const range = document.createRange();
  const words = label.querySelector(".bool-text") || label;
  range.selectNodeContents(words);
  const first = [...range.getClientRects()].filter((r) => r.width > 0).sort((a, b) => a.top - b.top)[0];
  const middle = box.top + box.height / 2;
  return { name: label.textContent.trim().slice(0, 30), box: [box.left, box.right, box.top, box.bottom], first: first && [first.left, first.top, first.bottom], beside: !!first && middle >= first.top && middle <= first.bottom
    && first.left >= box.right && first.left - box.right < 24 };
})"""


def test_checkboxes_sit_by_their_words_and_lists_are_edited_as_lists(browser: Browser, platform: PlatformProcess) -> None:
    for viewport in ({"width": 390, "height": 844}, {"width": 1280, "height": 900}):
        player = driver.open_player(browser, platform, viewport=viewport)  # type: ignore[arg-type]
        page = player.page
        form = page.get_by_test_id("create-room")
        for game in ("lucky-nine", "musical-chairs"):
            page.get_by_test_id("create-game").select_option(game)
            box = page.get_by_test_id("options")
            if box.get_attribute("open") is None:
                box.locator("summary").click()
            placed = form.evaluate(BESIDE)
            assert placed and all(p["beside"] for p in placed), (game, viewport, placed)
            # No raw JSON anywhere in the form: no JSON field, no "[]".
            expect(form.locator("textarea")).to_have_count(0)
            assert "[]" not in form.inner_text(), game
        player.close()

    # Lucky Nine's special prizes, added as a row, make the room's options.
    player = driver.open_player(browser, platform)
    page = player.page
    page.get_by_test_id("create-game").select_option("lucky-nine")
    page.get_by_test_id("options").locator("summary").click()
    page.locator("[data-add=special_prizes]").click()
    page.locator("[name='special_prizes.0.name']").fill("Elytra")
    page.locator("[name='special_prizes.0.count']").fill("2")
    expect(page.get_by_test_id("seat-counts-problem")).to_have_count(0)
    page.get_by_test_id("create-name").fill("Aki")
    page.get_by_test_id("create").click()
    page.get_by_test_id("room-code").wait_for()
    code = page.url.rsplit("/", 1)[1]
    room = httpx.get(f"{platform.url}/api/rooms/{code}").json()
    assert room["options"]["special_prizes"] == [{"name": "Elytra", "name_ja": "", "count": 2, "value": 0}]

    # Musical Chairs: six seats to start, all players, no gallery, created without touching an option; the
    # player seats a list typed as figures.
    page.goto(platform.url + "/")
    page.get_by_test_id("create-game").select_option("musical-chairs")
    expect(page.get_by_test_id("create-seats")).to_have_value("6")
    page.get_by_test_id("options").locator("summary").click()
    expect(page.locator("[data-follows-seats=gallery]")).to_have_attribute("data-value", "0")
    expect(page.locator("[name=player_seats]")).to_have_attribute("type", "text")
    page.get_by_test_id("create-seats").select_option("8")
    page.locator("[name=player_seats]").fill("1, 3, 5, 6, 7, 0")
    page.get_by_test_id("create-name").fill("Aki")
    page.get_by_test_id("create").click()
    page.get_by_test_id("room-code").wait_for()
    code = page.url.rsplit("/", 1)[1]
    options = httpx.get(f"{platform.url}/api/rooms/{code}").json()["options"]
    assert (options["players"], options["gallery"], options["player_seats"]) == (6, 2, [1, 3, 5, 6, 7, 0])
    assert player.errors == []
    player.close()
