"""Every game's big screen fits 1920x1080 without scrolling (issue 29: Lucky Nine's bottom row of chests and the
Pandemic Game's odds and private rooms were below the fold). Each game's default table (its default seat
count and options, the host's seat human, bots elsewhere), watched on the table view a few seconds into the
match; a screenshot of each is kept in test-artifacts/browser."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser

from partygames.games import all_games
from tests.browser import driver
from tests.browser.server import PlatformProcess

BIG_SCREEN = {"width": 1920, "height": 1080}

FITS = """() => {
  const grid = document.querySelector(".page.room .room-grid");
  const parts = [...grid.querySelectorAll(":scope > *")].map((e) => Math.round(e.getBoundingClientRect().bottom));
  return { scroll: document.documentElement.scrollHeight, height: window.innerHeight, bottom: Math.max(...parts),
           zoom: Number(grid.style.zoom) || 1 };
}"""


def test_the_big_screen_of_every_default_table_fits_1080p_without_scrolling(
        browser: Browser, platform: PlatformProcess, artifacts: Path) -> None:
    unfit = {}
    # Every game's table opened first, then each read once it has watched its match for 2.5 s (the games' waits
    # run side by side, not one after another).
    screens = []
    for game in all_games():
        seats = int(game.info()["default_seats"])
        bot = "heuristic" if "heuristic" in game.bots else next(iter(game.bots))
        created = driver.api_room(platform, game.id, ["human"] + [f"bot:{bot}"] * (seats - 1))
        screen = driver.open_seat(browser, platform, created, viewport=BIG_SCREEN, query="?table=1")  # type: ignore[arg-type]
        screens.append((game, screen, time.monotonic()))
    for game, screen, opened in screens:
        time.sleep(max(0.0, opened + 2.5 - time.monotonic()))  # a few moves in, the fit (twice a second) checked again
        found = screen.page.evaluate(FITS)
        screen.page.screenshot(path=str(artifacts / f"big-screen-{game.id}.png"))
        # Type still read from across a room: the fit zooms out a little, never to a postage stamp.
        if found["scroll"] > found["height"] or found["bottom"] > found["height"] or found["zoom"] < 0.5:
            unfit[game.id] = found
        assert screen.errors == [], game.id
        screen.close()
    assert not unfit, unfit
