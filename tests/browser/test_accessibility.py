"""axe-core (vendored, pinned: tests/browser/vendor/) finds no violation on the lobby, on every game's phone page
and big screen during a real match, nor on the results; and every game is played by keyboard alone, its focus
visible. The same match is test_layout's for a phone: every screen met fits a narrow phone in Japanese, and its
results read in Japanese (one match per game for both: a match is most of either check's time).

axe runs its default rule set (WCAG 2 A and AA, and the best practices it reports as violations); each page is
checked in English and in Japanese, and in the dark theme too. One match per game: the human's
seat, bots in the others.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from partygames.engine.game import Game
from partygames.engine.samples import Setup
from partygames.games import all_games
from tests.browser import driver
from tests.browser.server import PlatformProcess
from tests.browser.test_layout import PHONES, assert_fits, assert_no_emoji

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
PHONE: ViewportSize = {"width": 390, "height": 844}
BIG_SCREEN: ViewportSize = {"width": 1920, "height": 1080}

# Each violation as "rule (impact): the first few nodes' selectors".
RUN_AXE = """async () => {
  const found = await window.axe.run(document, { resultTypes: ["violations"] });
  return found.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ") + " :: " + (n.failureSummary || "").replace(/\\s+/g, " ").slice(0, 200)) }));
}"""


# The contrast ratio (WCAG 2) of each element's text colour on its own background colour (both opaque rgb).
CONTRAST = """(els) => els.map((e) => {
  const lum = (css) => {
    const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(e);
  const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
  return Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100;
})"""


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe's violations on the page as it is now."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return found


def dark_violations(page: Page) -> list[dict[str, Any]]:
    """axe's violations on the page in the dark theme (a phone set to dark mode), then light again."""
    page.emulate_media(color_scheme="dark")
    try:
        return axe_violations(page)
    finally:
        page.emulate_media(color_scheme="light")


def _games() -> list[Game]:
    return list(all_games())


def _setup(game: Game) -> Setup:
    return game.samples.golden or Setup(min(game.seat_counts_for(None)))


def _room(platform: PlatformProcess, game: Game) -> dict[str, Any]:
    """A started room of the game's golden set-up (small options): the host in seat 0, bots elsewhere."""
    setup = _setup(game)
    bot = "heuristic" if "heuristic" in game.bots else next(iter(game.bots))
    return driver.api_room(platform, game.id, ["human"] + [f"bot:{bot}"] * (setup.seats - 1), dict(setup.options))


def _open(browser: Browser, platform: PlatformProcess, created: dict[str, Any], lang: str, viewport: ViewportSize,
          query: str = "", wait_for: str = "board") -> driver.Player:
    """The room's page for the browser that made it (its seat and host tokens), once `wait_for` shows."""
    context = browser.new_context(viewport=viewport, locale="ja-JP" if lang == "ja" else "en-US", reduced_motion="reduce")
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


# The games whose first decisions include a row of choices (a horse to bid on, a card): the arrow keys are
# tried there.
ARROW_ROWS = {"dice-derby", "musical-chairs", "quiz"}


def _play_on(player: driver.Player, rng: random.Random, steps: int, timeout: float = 120,
             each: Callable[[int], None] | None = None) -> int:
    """Random offered actions (seeded) until `steps` were taken or the match is over; returns the steps taken.
    `each(steps taken)` looks at every screen met, before an action is picked on it."""
    page = player.page
    taken = 0
    end = time.monotonic() + timeout
    while taken < steps and not driver.is_over(player) and time.monotonic() < end:
        if each:
            each(taken)
        offered = driver.enabled_actions(page) + driver.unfinished_orders(page)
        before = driver.version(player)
        if offered and driver.act_once(player, (rng.choice(offered),)):
            taken += 1
            page.wait_for_function(f"() => window.partygames.state.version > {before} || window.partygames.state.error",
                                   timeout=5000)
        else:
            time.sleep(0.1)
    return taken


# Where the keyboard's focus is: whether its ring shows (matched by :focus-visible, an outline of 2 px at
# least), and what a player would press Enter on there: an offered action (a form's submit once its values
# are complete), a folded form's title, or the next value of an order still being picked.
FOCUS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const style = getComputedStyle(e);
  const ring = e.matches(":focus-visible") && style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  let kind = null;
  if (e.matches("[data-action]:not([disabled])") && e.closest(".actions, .board")) kind = "act";
  else if (e.matches("details.spec:not([open]) > summary")) kind = "open";
  else if (e.matches("[data-seq-option]:not([disabled])") && e.closest("form")?.querySelector("[type=submit][disabled]")) kind = "pick";
  const row = e.closest(".choices");
  return { kind, ring, row: !!row && row.querySelectorAll("button:not([disabled])").length > 1,
           what: `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} "${(e.textContent || "").trim().slice(0, 30)}"` };
}"""


# The version of the last update that confirmed an action of this page's.
ACKED = "() => window.partygames.state.ackedVersion"


def _focus(page: Page) -> dict[str, Any] | None:
    found: dict[str, Any] | None = page.evaluate(FOCUS)
    return found


def play_by_keyboard(player: driver.Player, decisions: int, timeout: float = 90) -> dict[str, int]:
    """Plays `decisions` actions with Tab, Enter and Space only (Enter and Space in turn), and the arrow keys
    once in a row of choices when one comes up; asserts at each stop that the focus ring shows. Returns how
    many actions, arrow moves and focus stops there were."""
    page = player.page
    done = {"actions": 0, "arrows": 0, "stops": 0}
    keys = ("Enter", "Space")
    end = time.monotonic() + timeout
    while done["actions"] < decisions and not driver.is_over(player):
        assert time.monotonic() < end, f"{done} after {timeout} s of keyboard play"
        if not driver.enabled_actions(page) and not driver.unfinished_orders(page):
            time.sleep(0.2)  # nothing to do yet: the others' turns, a reveal
            continue
        page.keyboard.press("Tab")
        focus = _focus(page)
        if focus is None:
            continue
        done["stops"] += 1
        assert focus["ring"], f"the keyboard's focus does not show on {focus['what']}"
        if focus["row"] and not done["arrows"]:
            # The arrows move along a row of choices (a horse, a card): Right to the next, Left back.
            page.keyboard.press("ArrowRight")
            moved = _focus(page)
            if moved is None:
                continue  # the view changed under the keys (the row went): the next row is tried
            assert moved["what"] != focus["what"] and moved["ring"], f"ArrowRight did not move on: {focus}, {moved}"
            page.keyboard.press("ArrowLeft")
            assert _focus(page) == focus, "ArrowLeft did not come back"
            done["arrows"] += 1
        if focus["kind"] is None:
            continue
        before = page.evaluate(ACKED)
        page.keyboard.press(keys[done["stops"] % 2])
        if focus["kind"] == "act":
            # Confirmed (an update acknowledges our action); a button that went disabled under the key (a reveal
            # began) sent nothing, and a refusal is said on the page: the next stops are tried.
            with contextlib.suppress(PlaywrightTimeoutError):
                page.wait_for_function(f"() => window.partygames.state.ackedVersion > {before} || window.partygames.state.error",
                                       timeout=5000)
            done["actions"] += page.evaluate(ACKED) > before
    return done


def _report(found: dict[str, list[dict[str, Any]]]) -> str:
    lines = []
    for where, violations in found.items():
        for v in violations:
            lines.append(f"{where}: {v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']}")
            lines.extend(f"    {node}" for node in v["nodes"][:4])
    return "\n".join(lines)


def _tab_through(page: Page, stops: int) -> int:
    """Presses Tab `stops` times; asserts the focus ring shows at each stop. Returns the stops on an element."""
    seen = 0
    for _ in range(stops):
        page.keyboard.press("Tab")
        focus = _focus(page)
        if focus is not None:
            seen += 1
            assert focus["ring"], f"the keyboard's focus does not show on {focus['what']}"
    return seen


# A fresh server: the lobby as it first is (on the shared one its list would hold whatever rooms the tests
# before made, so what axe reads would depend on the order the tests ran in).
@pytest.mark.platform()
def test_the_lobby_and_a_room_waiting_for_players_have_no_axe_violations(
        browser: Browser, platform: PlatformProcess) -> None:
    found: dict[str, list[dict[str, Any]]] = {}
    with httpx.Client(base_url=platform.url, timeout=30) as http:
        waiting = http.post("/api/rooms", json={"game": "lucky-nine", "seats": 3, "options": {}, "name": "Aki",
                                                "seat_kinds": ["human", "human", "bot:heuristic"]}).json()
    for lang in ("en", "ja"):
        player = driver.open_player(browser, platform, lang=lang, viewport=PHONE)
        page = player.page
        assert _tab_through(page, 12) >= 10  # the games' buttons, then the create form: every stop ringed
        # The create form with a game's options unfolded, as someone setting up a room sees it.
        for game in ("dice-derby", "musical-chairs"):
            page.get_by_test_id("create-game").select_option(game)
            box = page.get_by_test_id("options")
            if box.count() and box.get_attribute("open") is None:
                box.locator("summary").click()
            page.get_by_test_id("match-outline").wait_for()
            found[f"lobby {game} {lang}"] = axe_violations(page)
        found[f"lobby dark {lang}"] = dark_violations(page)
        player.close()
        # The room before its match: the seats (each numbered on its colour), the share link, the host's controls.
        room = _open(browser, platform, waiting, lang, PHONE, wait_for="room-lobby")
        found[f"room waiting {lang}"] = axe_violations(room.page)
        found[f"room waiting dark {lang}"] = dark_violations(room.page)
        # axe leaves a one-digit text out of its contrast rule ("too short"): the seat numbers are measured here.
        ratios = room.page.eval_on_selector_all(".seat-no", CONTRAST)
        assert len(ratios) == 3 and min(ratios) >= 4.5, ratios
        room.close()
    assert not any(found.values()), _report(found)


def _reads_on_a_phone(page: Page, where: str) -> None:
    """test_layout's checks of a screen met in a match (the phone in Japanese): it fits the phone's width, and
    the banner says what is happening, never "your turn" and "waiting" at once."""
    assert_fits(page, where)
    turn = page.get_by_test_id("turn").inner_text()
    assert not ("あなたの番" in turn and "待っています" in turn), f"{where}: your turn and waiting at once: {turn!r}"
    # In one read: the banner may turn into "match over" (no words span) at any moment.
    said = page.get_by_test_id("turn").evaluate(
        "el => el.classList.contains('over') || !!(el.querySelector('span')?.textContent || '').trim()")
    assert said, f"{where}: the banner has a countdown and no words: {turn!r}"


def _results_read_in_japanese(page: Page, game: Game) -> None:
    """test_layout's checks of the results (the phone in Japanese): they fit both phones, every key is labelled
    from the game's catalog, no raw key and no emoji shows."""
    results = page.get_by_test_id("results")
    for viewport in PHONES:
        page.set_viewport_size(viewport)
        assert_fits(page, f"{game.id} results, {viewport['width']} px")
    missing = results.locator("[data-untranslated]").evaluate_all("els => els.map(e => e.dataset.untranslated)")
    assert missing == [], f"{game.id}: results keys without a label: {missing}"
    text = results.inner_text()
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), f"{game.id}: a raw key in the results: {text}"
    assert page.get_by_test_id("result-detail").count() == 1
    assert_no_emoji(page, f"{game.id} results")


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.id)
def test_a_match_plays_by_keyboard_fits_a_phone_in_japanese_and_its_pages_have_no_axe_violations(
        game: Game, browser: Browser, platform: PlatformProcess, artifacts: Path) -> None:
    created = _room(platform, game)
    found: dict[str, list[dict[str, Any]]] = {}
    phone = _open(browser, platform, created, "en", PHONE)
    screen = _open(browser, platform, created, "ja", BIG_SCREEN, "?table=1")
    rng = random.Random(7)
    # The first screen, then one a few decisions on (another phase: a race, a vote), in each language; those
    # decisions made by keyboard alone.
    for round_, lang in enumerate(("en", "ja")):
        if round_:
            played = play_by_keyboard(phone, 3)
            assert played["actions"] == 3 or driver.is_over(phone), played
            if game.id in ARROW_ROWS:
                assert played["arrows"], f"{game.id}: no row of choices met by keyboard: {played}"
            phone.page.get_by_test_id("lang").click()
            screen.page.get_by_test_id("lang").click()
        driver.settled(phone, quiet=0.5)
        found[f"phone {lang}"] = axe_violations(phone.page)
        found[f"phone dark {lang}"] = dark_violations(phone.page)
        found[f"big screen {'ja' if lang == 'en' else 'en'}"] = axe_violations(screen.page)
        if not round_:
            found["big screen dark ja"] = dark_violations(screen.page)
            # The first screen on the narrowest phone, in Japanese. (A page opened at that width, not one made
            # narrower: the contents of a folded panel keep the layout of the width they were laid out at.)
            narrow = _open(browser, platform, created, "ja", PHONES[0])
            _reads_on_a_phone(narrow.page, f"{game.id}, the first screen")
            assert narrow.errors == []
            narrow.close()
    # The results, played out by random choices (seeded: every kind of screen comes up, and a match that offers
    # "buy another ticket" before "done" still ends), each screen met read on the narrowest phone in Japanese.
    # (Reloaded at that width, see above; the reload comes back in English, the language the page was opened in.)
    phone.page.set_viewport_size(PHONES[0])
    phone.page.reload()
    phone.page.locator("[data-testid=board], [data-testid=results]").first.wait_for()
    switch = phone.page.get_by_test_id("lang")
    english = switch.inner_text()
    switch.click()
    expect(switch).not_to_have_text(english)
    _play_on(phone, rng, 10_000, timeout=240, each=lambda step: _reads_on_a_phone(phone.page, f"{game.id}, step {step}"))
    assert driver.is_over(phone), f"{game.id}: no results after 240 s"
    phone.page.get_by_test_id("results").wait_for()
    _results_read_in_japanese(phone.page, game)  # (it leaves the phone at the usual width)
    screen.page.get_by_test_id("results").wait_for()
    for lang in ("ja", "en"):
        phone.page.get_by_test_id("lang").click()
        screen.page.get_by_test_id("lang").click()
        found[f"results phone {lang}"] = axe_violations(phone.page)
        if lang == "en":
            found["results phone dark en"] = dark_violations(phone.page)
        found[f"results big screen {'ja' if lang == 'en' else 'en'}"] = axe_violations(screen.page)
    (artifacts / f"axe-{game.id}.json").write_text(json.dumps(found, indent=1, ensure_ascii=False), encoding="utf-8")
    assert not any(found.values()), _report(found)
    assert phone.errors == [] and screen.errors == []
    phone.close()
    screen.close()


# Musical Chairs in real time on the small test island: Aki (seat 0) walks it with the gallery, the bots play.
MAP_OPTIONS = {"tempo": "real-time", "players": 3, "gallery": 3, "player_seats": [1, 2, 3], "island": "test",
               "speed": 100, "first_break_seconds": 60}
CHAIR_FOCUSED = "() => document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.chair || document.activeElement.dataset.testid || null : null"


def test_the_musical_chairs_map_plays_by_keyboard(browser: Browser, platform: PlatformProcess) -> None:
    created = driver.api_room(platform, "musical-chairs", ["human"] + ["bot:heuristic"] * 5, MAP_OPTIONS)
    player = _open(browser, platform, created, "en", PHONE)
    page = player.page
    page.get_by_test_id("island").wait_for()
    page.wait_for_function("() => window.partygames.state.view.legal_actions.some((a) => a.type === 'run_to_chair')")
    # Tab reaches the map's totem, then its one chair in the tab order.
    stops = []
    for _ in range(80):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(CHAIR_FOCUSED))
        if stops[-1] not in (None, "totem") and page.evaluate("() => document.activeElement.matches('.mc-chair')"):
            break
    assert "totem" in stops, stops
    first = stops[-1]
    assert first is not None and page.evaluate("() => document.activeElement.matches('.mc-chair')"), stops
    ring = page.evaluate("() => { const s = getComputedStyle(document.activeElement); "
                         "return document.activeElement.matches(':focus-visible') && s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; }")
    assert ring, "no focus ring on the chair"
    # The arrows move to another chair as drawn (Right, else Down, Left, Up: whichever has one that way).
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
        now = page.evaluate(CHAIR_FOCUSED)
        if now not in (first, "totem"):
            break
    chair = page.evaluate(CHAIR_FOCUSED)
    assert chair not in (first, "totem", None), f"no arrow moved from chair {first}"
    # Enter runs there (holds it, for the gallery); Tab leaves the map and comes back to that chair.
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => (window.partygames.state.view.people[0].target || {{}}).chair === {chair}")
    # Shift+Tab goes back to the totem; Space runs there.
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(CHAIR_FOCUSED) == "totem"
    page.keyboard.press("Space")
    page.wait_for_function("() => (window.partygames.state.view.people[0].target || {}).kind === 'totem'")
    page.keyboard.press("Tab")
    assert page.evaluate(CHAIR_FOCUSED) == chair, "the map's tab stop is not the chair last focused"
    assert player.errors == []
    player.close()


def test_the_replay_page_of_a_finished_match_has_no_axe_violations(browser: Browser, platform: PlatformProcess) -> None:
    """A finished match's replay (a Lucky Nine of bots, its host watching): the stepper at its first step, a
    step on with the action told, the public view and a seat's, in English and Japanese, and dark."""
    created = driver.api_room(platform, "lucky-nine", ["bot:heuristic"] * 3, {"rounds": 4}, host_plays=False)
    code = created["code"]
    end = time.monotonic() + 60
    while httpx.get(f"{platform.url}/api/rooms/{code}", timeout=10).json().get("status") != "over":
        assert time.monotonic() < end, "the bots' match did not end in 60 s"
        time.sleep(0.2)
    found: dict[str, list[dict[str, Any]]] = {}
    for lang in ("en", "ja"):
        player = _open(browser, platform, created, lang, PHONE, "#replay", wait_for="replay")
        page = player.page
        page.get_by_test_id("board").wait_for()
        found[f"replay start {lang}"] = axe_violations(page)
        page.get_by_test_id("replay-next").click()
        page.get_by_test_id("replay-next").click()
        page.get_by_test_id("step-action").wait_for()
        found[f"replay step 2 {lang}"] = axe_violations(page)
        page.get_by_test_id("replay-seat").select_option("1")
        page.get_by_test_id("replay-last").click()
        found[f"replay seat 2 at the end {lang}"] = axe_violations(page)
        found[f"replay dark {lang}"] = dark_violations(page)
        assert player.errors == []
        player.close()
    assert not any(found.values()), _report(found)
