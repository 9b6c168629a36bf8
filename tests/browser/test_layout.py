"""Every screen fits a phone, reads in Japanese and draws no emoji; the big screen shows how to join.

Run over every registered game (a new game is covered without a line here): its golden set-up, the
host's seat human and every other a bot. The screens of a whole match on a phone, and its results in Japanese,
are checked in test_accessibility's match of each game (`_reads_on_a_phone`), so that one match is played
for both.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from partygames.engine.game import Game
from partygames.engine.samples import Setup
from partygames.games import all_games
from tests.browser import driver
from tests.browser.server import PlatformProcess

PHONES: tuple[ViewportSize, ...] = ({"width": 360, "height": 740}, {"width": 390, "height": 844})
BIG_SCREEN: ViewportSize = {"width": 1920, "height": 1080}

# What sticks out sideways: the page's own scroll width, and the elements past either edge (those inside
# a container that scrolls sideways on purpose are left out).
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const scrolls = (e) => { for (let p = e.parentElement; p; p = p.parentElement) {
    const x = getComputedStyle(p).overflowX; if (x === "auto" || x === "scroll" || x === "hidden") return true; } return false; };
  const out = [];
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    if (r.width && (r.right > width + 1 || r.left < -1) && !scrolls(e)) {
      out.push(`${e.tagName.toLowerCase()}.${[...e.classList].join(".")} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  return { scroll: document.documentElement.scrollWidth, width, out: out.slice(0, 8) };
}"""
EMOJI = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u26FF\u2700-\u27BF\u23E9-\u23FA\u2B50\u2B55]")
ALLOWED_SYMBOLS = set("♠♥♦♣✓✗")  # in every text font, not emoji


def _games() -> list[Game]:
    return list(all_games())


def assert_fits(page: Page, where: str) -> None:
    found = page.evaluate(OVERFLOW)
    assert found["scroll"] <= found["width"] and not found["out"], f"{where}: wider than the screen: {found}"


def assert_no_emoji(page: Page, where: str) -> None:
    text = page.locator("body").inner_text()
    emoji = {c for c in EMOJI.findall(text) if c not in ALLOWED_SYMBOLS}
    assert not emoji, f"{where}: emoji drawn as text (tofu without an emoji font): {sorted(emoji)}"


def _setup(game: Game) -> Setup:
    return game.samples.golden or Setup(min(game.seat_counts_for(None)))


def _room(platform: PlatformProcess, game: Game, host_plays: bool, start: bool = True) -> dict[str, Any]:
    """A room of the game's golden set-up, started unless told: the host in seat 0 (or watching), bots
    elsewhere."""
    setup = _setup(game)
    bot = "heuristic" if "heuristic" in game.bots else next(iter(game.bots))
    kinds = ["human"] * host_plays + [f"bot:{bot}"] * (setup.seats - host_plays)
    body: dict[str, Any] = {"game": game.id, "seats": setup.seats, "options": dict(setup.options),
                            "seat_kinds": kinds, "name": "Aki"}
    if not host_plays:
        body["host_seat"] = None
    with httpx.Client(base_url=platform.url) as http:
        created = http.post("/api/rooms", json=body).json()
        if not start:
            return dict(created)
        started = http.post(f"/api/rooms/{created['code']}/start", json={}, headers={"X-Host-Token": created["host_token"]})
        assert started.status_code == 200, started.text
    return dict(created)


def _open(browser: Browser, platform: PlatformProcess, created: dict[str, Any], lang: str,
          viewport: ViewportSize, query: str = "", wait_for: str = "board") -> driver.Player:
    context = browser.new_context(viewport=viewport, locale="ja-JP" if lang == "ja" else "en-US")
    held = json.dumps({"seat": created["seat"], "token": created["token"], "name": "Aki", "hostToken": created["host_token"]})
    context.add_init_script(f"localStorage.setItem('pg.lang', {json.dumps(lang)}); "
                            f"localStorage.setItem('pg.room.{created['code']}', {json.dumps(held)})")
    page = context.new_page()
    page.set_default_timeout(15_000)
    player = driver.Player(page)
    page.on("pageerror", lambda error: player.errors.append(str(error)))
    page.goto(f"{platform.url}/room/{created['code']}{query}")
    page.get_by_test_id(wait_for).wait_for()
    return player


@pytest.mark.platform()  # a fresh server: the lobby's list of rooms as it first is, whatever ran before
def test_the_lobby_fits_a_phone_with_every_game_s_options_open(browser: Browser, platform: PlatformProcess) -> None:
    for lang in ("en", "ja"):
        for viewport in PHONES:
            player = driver.open_player(browser, platform, lang=lang, viewport=viewport)
            page = player.page
            for game in _games():
                page.get_by_test_id("create-game").select_option(game.id)
                box = page.get_by_test_id("options")
                if box.count() and box.get_attribute("open") is None:
                    box.locator("summary").click()
                summary = page.locator("details.summary")
                if summary.get_attribute("open") is None:
                    summary.locator("summary").click()
                expect(page.get_by_test_id("match-outline")).to_be_visible()
                assert_fits(page, f"lobby, {game.id}, {lang}, {viewport['width']} px")
            assert_no_emoji(page, "lobby")
            assert player.errors == []
            player.close()


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.id)
def test_a_room_waiting_for_players_fits_a_phone(game: Game, browser: Browser, platform: PlatformProcess) -> None:
    created = _room(platform, game, host_plays=True, start=False)
    for lang in ("en", "ja"):
        player = _open(browser, platform, created, lang, PHONES[0], wait_for="room-lobby")
        expect(player.page.get_by_test_id("start")).to_be_visible()
        assert_fits(player.page, f"{game.id} room lobby, {lang}")
        assert_no_emoji(player.page, f"{game.id} room lobby")
        player.close()


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.id)
def test_the_big_screen_fills_1080p_with_the_room_code_and_a_qr_code_to_join(
        game: Game, browser: Browser, platform: PlatformProcess) -> None:
    created = _room(platform, game, host_plays=True)
    screen = _open(browser, platform, created, "en", BIG_SCREEN, "?table=1")
    page = screen.page
    head = page.get_by_test_id("table-head")
    expect(head.get_by_test_id("room-code-head")).to_have_text(created["code"])
    qr = page.get_by_test_id("join-qr")
    page.wait_for_function("() => document.querySelector('[data-testid=join-qr]').naturalWidth > 0")
    box = qr.bounding_box()
    assert box is not None and box["width"] >= 120, box  # scannable from a few steps away
    # Type read from across a room, and the board spread over the screen's width.
    size = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert size >= 24, size
    code_size = head.get_by_test_id("room-code-head").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert code_size >= 60, code_size
    board = page.get_by_test_id("board").bounding_box()
    assert board is not None and board["width"] >= 0.55 * BIG_SCREEN["width"], board
    assert_fits(page, f"{game.id} table view")
    assert_no_emoji(page, f"{game.id} table view")
    assert screen.errors == []
    screen.close()


def test_a_drawn_match_says_it_is_a_tie_and_why(browser: Browser, tmp_path: Path) -> None:
    # Smuggling, two idle players: every time limit applies its default (an empty trunk, a pass), so
    # nothing moves, the teams' totals are equal and both rank first.
    server = PlatformProcess(tmp_path, deadline_scale=0.002).start()
    try:
        with httpx.Client(base_url=server.url) as http:
            created = http.post("/api/rooms", json={"game": "smuggling", "seats": 2, "options": {"small_games": 2},
                                                    "seat_kinds": ["human", "human"], "name": "Aki"}).json()
            http.post(f"/api/rooms/{created['code']}/join", json={"name": "Ben"})
            http.post(f"/api/rooms/{created['code']}/start", json={}, headers={"X-Host-Token": created["host_token"]})
        # Smuggling's own headline says the draw with both sides' nets (its results' `resultHeadline`).
        for lang, tie, draw in (("en", "A draw: North ¥0, South ¥0", "None: the totals are equal"),
                                ("ja", "引き分け: 北の国 0円・南の国 0円", "なし(同額で引き分け")):
            player = _open(browser, server, created, lang, PHONES[0], wait_for="results")
            expect(player.page.get_by_test_id("verdict")).to_contain_text(tie)
            expect(player.page.get_by_test_id("result-detail")).to_contain_text(draw)
            player.close()
    finally:
        server.stop()


def test_a_match_nobody_wins_says_so(browser: Browser, tmp_path: Path) -> None:
    # Musical Chairs, two idle players: nobody runs to the totem, so nobody sits, twice (the race is run once
    # more), and the match ends with no winner: not a tie, though both rank first.
    server = PlatformProcess(tmp_path, deadline_scale=0.002).start()
    try:
        with httpx.Client(base_url=server.url) as http:
            created = http.post("/api/rooms", json={"game": "musical-chairs", "seats": 2,
                                                    "options": {"players": 2, "gallery": 0},
                                                    "seat_kinds": ["human", "human"], "name": "Aki"}).json()
            http.post(f"/api/rooms/{created['code']}/join", json={"name": "Ben"})
            http.post(f"/api/rooms/{created['code']}/start", json={}, headers={"X-Host-Token": created["host_token"]})
        for lang, verdict in (("en", "Nobody wins."), ("ja", "勝者はいません。")):
            player = _open(browser, server, created, lang, PHONES[0], wait_for="results")
            expect(player.page.get_by_test_id("verdict")).to_have_text(verdict)
            expect(player.page.locator(".results-table .badge")).to_have_count(0)
            player.close()
    finally:
        server.stop()
