"""Makes the README's screenshots (docs/screenshots/*.png): the lobby and each game mid-match.

Run by hand after a visible change: `.venv/bin/python -m tests.browser.make_screenshots [GAME ...]` (no
game: every game and the lobby; else only those games' pictures). It starts
the real server on a temporary database, plays a few moves of each game through the page, and saves
palette PNGs small enough to commit (Pillow, a matplotlib dependency, does the quantising).
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image
from playwright.sync_api import Browser, Error, ViewportSize, sync_playwright

from tests.browser import driver
from tests.browser.chromium import ARGS, CHROMIUM
from tests.browser.server import ROOT, PlatformProcess
from tests.browser.test_matches import SETUPS, Setup

OUT = ROOT / "docs" / "screenshots"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
TABLE: ViewportSize = {"width": 1600, "height": 900}
MOVES = {"lucky-nine": 5, "dice-derby": 4, "last-man-standing": 6, "smuggling": 4, "pandemic": 6, "quiz": 2}
# Mid-match pictures: nobody drops out of Lucky Nine early.
PREFER = {"lucky-nine": ("continue", "stay", "claim", "press")}
LIMIT = 150_000
# The games the generic browser match leaves to tests of their own are pictured from quick matches here:
# the Pandemic Game in real time (the humans offer, accept and visit rooms), the Quiz from memorising on.
SHOTS: dict[str, Setup] = {
    **SETUPS,
    "pandemic": Setup(5, ("human", "human", "bot:heuristic", "bot:heuristic", "bot:random"),
                      ("accept", "offer", "visit"), {"minutes": 1, "rooms": 2}, table=True),
    "quiz": Setup(4, ("human", "human", "bot:heuristic", "bot:random"),
                  ("ready", "pass", "answer", "secret_money", "open", "deal", "done", "stop", "call", "wait"),
                  {"memorise_seconds": 30}, table=True),
}


def save(png: bytes, name: str) -> None:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colors = 128
    while True:
        buffer = io.BytesIO()
        image.quantize(colors=colors, method=Image.Quantize.MEDIANCUT).save(buffer, "PNG", optimize=True)
        if buffer.tell() <= LIMIT or colors <= 16:
            break
        colors //= 2
    (OUT / name).write_bytes(buffer.getvalue())
    print(f"{name}: {buffer.tell() // 1024} KiB, {colors} colours")


def quiz_peek(browser: Browser, server: PlatformProcess) -> None:
    """The Quiz's peek on a Japanese phone: played until the guest looks at a card, then the peek card."""
    from tests.browser.test_quiz_memory import HOST, KINDS, guest_prefers

    host = driver.open_player(browser, server)
    guest = driver.open_player(browser, server, lang="ja")
    code = driver.create_room(host, "quiz", 4, KINDS, "Aki", {"memorise_seconds": 30})
    driver.join_room(guest, f"{server.url}/room/{code}", "Ben")
    driver.start_match(host)
    end = time.monotonic() + 200
    while time.monotonic() < end:
        for who, player in (("host", host), ("guest", guest)):
            view = player.page.evaluate("() => window.partygames.state.view")
            prefer = HOST if who == "host" else guest_prefers(int(view["question"]) if view else 0)
            choice = driver.act_once(player, prefer)
            time.sleep(0.3)
            if who == "guest" and choice == "look":
                guest.page.get_by_test_id("qz-peek").wait_for(timeout=5000)
                time.sleep(0.6)
                guest.page.evaluate("document.querySelector('[data-testid=qz-peek]').scrollIntoView({block: 'start'});"
                                    " window.scrollBy(0, -140)")
                save(guest.page.screenshot(), "quiz-peek-ja.png")
                host.close()
                guest.close()
                return
    raise RuntimeError("the guest never looked at a card")


def musical_chairs(browser: Browser, server: PlatformProcess) -> None:
    """Musical Chairs in period 2's race on the drawn island, six players (two humans) and six ガヤ bots:
    the host's phone (its wallet after a gift to the guest) and the big screen (the tally, the removed
    chair, lamps lit while the others still run)."""
    from tests.browser.test_musical_chairs import give_medals

    kinds = ("human", "human", *["bot:heuristic", "bot:random"] * 5)
    options = {"tempo": "rounds", "players": 6, "gallery": 6, "speed": 12, "first_break_seconds": 60,
               "break_seconds": 60, "race_seconds": 60, "vote_seconds": 60, "remove_seconds": 60}
    host = driver.open_player(browser, server)
    guest = driver.open_player(browser, server, lang="ja")
    code = driver.create_room(host, "musical-chairs", 12, kinds, "Aki", options)
    driver.join_room(guest, f"{server.url}/room/{code}", "Ben")
    driver.start_match(host)
    table = driver.open_player(browser, server, viewport=TABLE)
    table.page.goto(f"{server.url}/room/{code}?table=1")
    table.page.locator(".board.table").wait_for()
    host.page.get_by_test_id("island").wait_for()
    give_medals(host.page, "Ben", 3)
    lit = ("() => { const v = window.partygames.state.view; return v.phase === 'race' && v.period === 2"
           " && v.chairs.filter((c) => c.occupant != null).length >= 3; }")
    end = time.monotonic() + 200
    while not host.page.evaluate(lit):
        if time.monotonic() > end:
            raise RuntimeError("no second race")
        for player in (host, guest):
            plan = player.page.locator(".actions form[data-spec=plan]")
            if plan.count():  # every open chair, in number order: the autopilot tries the next when beaten
                with contextlib.suppress(Error):
                    box = player.page.locator(".actions details[data-spec-box=plan]:not([open])")
                    if box.count():
                        box.locator("summary").click(timeout=2000)
                    while plan.locator("[data-seq-option]:not([disabled])").count():
                        plan.locator("[data-seq-option]:not([disabled])").first.click(timeout=2000)
                    plan.locator("button[type=submit]").click(timeout=2000)
                continue
            driver.act_once(player, ("vote", "remove_chair", "pass", "hold", "stop"))
        time.sleep(0.3)
    host.page.evaluate("document.querySelector('.mc').scrollIntoView({block: 'start'}); window.scrollBy(0, -70)")
    save(host.page.screenshot(), "musical-chairs.png")
    save(table.page.screenshot(), "musical-chairs-table.png")
    for player in (host, guest, table):
        player.close()


def main(games: list[str] | None = None) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        server = PlatformProcess(Path(tmp), bot_delay=0.3).start()
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            for game, setup in SHOTS.items():
                if games and game not in games:
                    continue
                host = driver.open_player(browser, server, viewport=DESKTOP)
                guest = driver.open_player(browser, server, lang="ja")
                code = driver.create_room(host, game, setup.seats, setup.kinds, "Aki", setup.options)
                driver.join_room(guest, f"{server.url}/room/{code}", "Ben")
                driver.start_match(host)
                for _ in range(MOVES[game]):
                    for player in (host, guest):
                        driver.act_once(player, PREFER.get(game, setup.prefer))
                        time.sleep(0.4)
                time.sleep(1.5)
                host.page.evaluate("window.scrollTo(0, 0)")
                save(host.page.screenshot(), f"{game}.png")
                if setup.table:
                    table = driver.open_player(browser, server, viewport=TABLE)
                    table.page.goto(f"{server.url}/room/{code}?table=1")
                    table.page.locator(".board.table").wait_for()
                    time.sleep(1.0)
                    save(table.page.screenshot(), f"{game}-table.png")
                    table.close()
                host.close()
                guest.close()
            if not games or "quiz" in games:
                quiz_peek(browser, server)
            if not games or "musical-chairs" in games:
                musical_chairs(browser, server)
            if games:
                return
            lobby = driver.open_player(browser, server, viewport=DESKTOP)
            lobby.page.get_by_test_id("rooms").locator("li").first.wait_for()
            save(lobby.page.screenshot(), "lobby.png")
            lobby.close()
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
