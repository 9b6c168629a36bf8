"""The banner and the screen tell the truth (issue #23): the sticky banner words the update being narrated,
never a newer one; while the stage reveals what changes a seat's situation it says what is happening and the
buttons wait; on a phone the action comes into view, and the results at the end; a reload keeps the log; the
big screen's cards hold what they show; Musical Chairs' names never cover one another.

The server paces reveals at a fraction of their length (the stage's narration is the point), with quick bots.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Error, Page, ViewportSize, expect

from tests.browser import driver
from tests.browser.server import PlatformProcess

PHONE: ViewportSize = {"width": 390, "height": 844}
BIG: ViewportSize = {"width": 1920, "height": 1080}
RACE = ["furlong_start", "roll", "out", "fall", "furlong_rerun", "runoff_start", "runoff_end", "quinella_decided",
        "race_result"]

# At every DOM change and animation frame: while the stage tells an event, no button is live unless the seat's
# turn goes on through it; while the banner watches a reveal, no countdown runs; a race (Dice Derby) is told
# under "The race is on", never "Your turn"; a card just played (Last Man Standing) is already in its player's
# Played cell, and the banner does not wait for that player any more.
WATCH = """({ race, raceWords, turnWords }) => {
  const w = window.__truth = { checks: 0, revealFrames: 0, races: 0, plays: 0, stageInView: 0, violations: [], said: {}, tallest: 0 };
  const flag = (what) => { if (w.violations.length < 20 && !w.violations.includes(what)) w.violations.push(what); };
  const check = () => {
    const turn = document.querySelector("[data-testid=turn]");
    const state = window.partygames && window.partygames.state;
    if (!turn || !state) return;
    w.checks += 1;
    const kind = turn.dataset.kind;
    const words = (turn.querySelector(".turn-text") || turn).textContent.trim();
    // What each kind of banner first said, and how tall it grew: a bot is named short ("Bot Aoi"), never with
    // its kind, so that the banner stays within two lines.
    if (!(kind in w.said)) w.said[kind] = words;
    w.tallest = Math.max(w.tallest, turn.getBoundingClientRect().height);
    if (/[(（](heuristic|random|ヒューリスティック|ランダム)/.test(words)) flag(`a bot's kind in the banner: "${words}"`);
    const current = document.querySelector(".stage-current[data-event]");
    // While the stage tells an event, only a seat whose turn goes on through it may act.
    const live = [...document.querySelectorAll(".actions [data-action]:not([disabled])")].map((b) => b.dataset.action);
    if (current && live.length && kind !== "turn") flag(`buttons live while the stage tells ${current.dataset.event} under "${words}": ${live}`);
    if (kind === "reveal") {
      w.revealFrames += 1;
      if (turn.querySelector("[data-testid=countdown]")) flag(`a countdown while the banner says "${words}"`);
    }
    if (!current) return;
    const type = current.dataset.event;
    if (race.includes(type)) {
      w.races += 1;
      if (kind !== "reveal" || words !== raceWords) flag(`the race is told under "${words}" (${kind})`);
      const top = document.querySelector("[data-testid=stage]").getBoundingClientRect().top;
      if (top >= 0 && top < window.innerHeight / 2) w.stageInView += 1;
    }
    if (words.includes(turnWords) && kind !== "turn") flag(`"${words}" is not the seat's turn (${kind})`);
    if (type === "played_face_down") {
      w.plays += 1;
      const event = state.events.find((e) => e.key === Number(current.dataset.key));
      const cell = event && document.querySelector(`.board tr[data-seat="${event.data.seat}"] td[data-played]`);
      if (cell && cell.dataset.played !== "yes") flag(`seat ${event.data.seat}'s card is on the stage, its Played cell says no`);
      // The seat whose turn it is keeps "Your turn" through another's card; anyone else watches it.
      if (kind !== "reveal" && kind !== "turn") flag(`a card played under "${words}" (${kind})`);
    }
  };
  new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  const frame = () => { check(); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
}"""


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlatformProcess]:
    server = PlatformProcess(tmp_path_factory.mktemp("paced"), bot_delay=0.1, settings={"reveal_scale": 0.25}).start()
    yield server
    server.stop()


@pytest.fixture
def calm(tmp_path: Path) -> Iterator[PlatformProcess]:
    """Paced too, with bots that think after each reveal as long as they do at a table (0.8 s): longer than
    the stage may trail the server (0.5 s), so that the screen between two of their moves shows."""
    server = PlatformProcess(tmp_path, bot_delay=0.8, settings={"reveal_scale": 0.25}).start()
    yield server
    server.stop()


def _watch(player: driver.Player, lang: str) -> None:
    words = {"en": ("The race is on", "Your turn"), "ja": ("レース中", "あなたの番")}[lang]
    player.page.evaluate(WATCH, {"race": RACE, "raceWords": words[0], "turnWords": words[1]})


def _watched(player: driver.Player) -> dict[str, Any]:
    found: dict[str, Any] = player.page.evaluate("() => window.__truth")
    return found


def _click(page: Page, action: str) -> bool:
    """Clicks an enabled button of `action`, if there is one now."""
    button = page.locator(f".actions [data-action={action}]:not([disabled])").first
    if not button.count():
        return False
    with contextlib.suppress(Error):
        button.click(timeout=2000)
        return True
    return False


def _view(player: driver.Player) -> dict[str, Any]:
    found: dict[str, Any] = player.page.evaluate("() => window.partygames.state.view")
    return found


def _to_bottom(page: Page) -> None:
    """Scrolls to the page's end, as a player left on the board would be (not once the results are there)."""
    page.evaluate("() => document.querySelector('[data-testid=results]')"
                  " || window.scrollTo(0, document.documentElement.scrollHeight)")


def test_after_done_betting_the_phone_watches_the_race_under_the_race_is_on(
        browser: Browser, paced: PlatformProcess, artifacts: Path) -> None:
    created = driver.api_room(paced, "dice-derby", ["human"] + ["bot:heuristic"] * 5, {"races": 4, "starting_money": 2000})
    phone = driver.open_seat(browser, paced, created, "en", PHONE)
    watcher = driver.open_seat(browser, paced, {**created, "seat": None, "token": None}, "ja", PHONE)
    page = phone.page
    try:
        for player, lang in ((phone, "en"), (watcher, "ja")):
            _watch(player, lang)
        # The auction: pass. Betting: wait until every bot is done, so that "Done betting" starts the race.
        end = time.monotonic() + 90
        while _view(phone)["phase"] != "betting" or not all(d for s, d in enumerate(_view(phone)["done"]) if s != 0):
            assert time.monotonic() < end, _view(phone)
            _click(page, "pass")
            time.sleep(0.2)
        expect(page.get_by_test_id("turn")).to_have_attribute("data-kind", "turn")
        # Unfold the ticket forms (a long page) and scroll to its bottom, where the stage is out of sight.
        for box in page.locator(".actions details[data-spec-box]").all():
            box.locator("summary").click()
        _to_bottom(page)
        assert page.get_by_test_id("stage").bounding_box()["y"] < 0  # type: ignore[index]
        page.locator(".actions [data-action=done]").click()
        # The race is told on a stage brought into view, under "The race is on" and never "Your turn".
        expect(page.get_by_test_id("turn")).to_have_text("The race is on", timeout=10_000)
        expect(watcher.page.get_by_test_id("turn")).to_have_text("レース中")
        page.screenshot(path=str(artifacts / "truth-race-phone.png"))
        # The next race's betting: the seat's turn again, its buttons in view.
        expect(page.get_by_test_id("turn")).to_have_attribute("data-kind", "turn", timeout=60_000)
        assert _view(phone)["race"] == 2
        seen = _watched(phone)
        assert seen["violations"] == [] and seen["races"] > 50 and seen["stageInView"] > 0.9 * seen["races"], seen
        watched = _watched(watcher)
        assert watched["violations"] == [] and watched["races"] > 50, watched
        actions = page.locator(".actions").bounding_box()
        assert actions is not None and 0 <= actions["y"] < PHONE["height"], actions
        # A reload in the middle of the match: the log holds what it held (the first race's lines and this seat's
        # own sealed bid included), not only what happened since the second race began.
        driver.settled(phone)
        before = driver.log_lines(phone)
        page.reload()
        page.get_by_test_id("board").wait_for()
        driver.settled(phone)
        assert driver.log_lines(phone) == before
        assert any("Race 1: " in line and "wins" in line for line in before), before
        assert any("Your sealed bid" in line or "You passed the auction" in line for line in before), before
        assert phone.errors == [] and watcher.errors == []
    finally:
        phone.close()
        watcher.close()


def test_a_card_played_shows_in_the_table_and_the_banner_and_the_results_come_into_view(
        browser: Browser, paced: PlatformProcess, artifacts: Path) -> None:
    created = driver.api_room(paced, "last-man-standing", ["human", "bot:heuristic", "bot:random", "bot:heuristic"])
    phone = driver.open_seat(browser, paced, created, "en", PHONE)
    page = phone.page
    try:
        _watch(phone, "en")
        reloaded = False
        end = time.monotonic() + 180
        while not driver.is_over(phone):
            assert time.monotonic() < end, "no results after 180 s"
            for action in ("play", "hire"):
                if _click(page, action):
                    break
            view = _view(phone)
            if not reloaded and view["phase"] == "play" and view["round"] == 2:
                # A reload mid-match keeps the log: the first round's fight included.
                driver.settled(phone)
                before = driver.log_lines(phone)
                page.reload()
                page.get_by_test_id("board").wait_for()
                driver.settled(phone)
                assert driver.log_lines(phone) == before
                assert any("Round 1 fight" in line for line in before), before
                reloaded = True
                _watch(phone, "en")
            # A phone left scrolled down, on the board.
            _to_bottom(page)
            time.sleep(0.15)
        assert reloaded
        # The results come into view, under the banner, however far down the page was.
        results = page.get_by_test_id("results")
        page.wait_for_function("() => { const r = document.querySelector('[data-testid=results]').getBoundingClientRect();"
                               " return r.top >= 0 && r.top < window.innerHeight / 2; }", timeout=5000)
        expect(results).to_be_in_viewport()
        page.screenshot(path=str(artifacts / "truth-results-phone.png"))
        seen = _watched(phone)
        assert seen["violations"] == [] and seen["plays"] > 0 and seen["revealFrames"] > 0, seen
        assert phone.errors == []
    finally:
        phone.close()


def test_the_quiz_gift_and_wait_wait_for_the_reveal_and_a_gift_of_nothing_is_refused(
        browser: Browser, calm: PlatformProcess) -> None:
    created = driver.api_room(calm, "quiz", ["human", "bot:heuristic", "bot:heuristic"], {"memorise_seconds": 30})
    host = driver.open_seat(browser, calm, created, "en", PHONE)
    page = host.page
    try:
        _watch(host, "en")
        # Question 1: secret money (markers to give), then on until the seat is a bystander who may give
        # while another seat plays: "You may: Give markers", between the reveals of that seat's moves.
        end = time.monotonic() + 120
        while "optional" not in _watched(host)["said"]:
            assert time.monotonic() < end, (_view(host), _watched(host))
            for action in ("ready", "secret_money", "pass", "stop", "open", "deal", "done"):
                if _click(page, action):
                    break
            time.sleep(0.1)
        assert _watched(host)["said"]["optional"].startswith("You may: Give markers · Waiting for Bot ")
        # A gift of nothing is not offered (the secret money starts at one: the seat holds no score marker)
        # and the engine refuses one sent anyway.
        folded = page.locator(".actions details[data-spec-box=give]:not([open]) summary")
        if folded.count():
            folded.click()
        form = page.locator("form[data-spec=give]")
        amount = form.locator("input[type=number][data-param=money]")
        if amount.count():
            assert amount.get_attribute("min") == "1"
        else:  # one marker held: the amount is fixed
            expect(form.locator("strong[data-param=money]")).to_have_text("1")
        page.evaluate("() => window.partygames.act({ type: 'give', to: 1, score: 0, money: 0 })")
        expect(page.get_by_test_id("refused")).to_contain_text("A gift must give at least one marker.")
        # On through the match, waiting as a bystander: the give and wait buttons are never live while the
        # banner watches a reveal.
        end = time.monotonic() + 90
        while _watched(host)["revealFrames"] < 600 and not driver.is_over(host):
            assert time.monotonic() < end, _watched(host)
            for action in ("wait", "pass", "secret_money", "stop", "open", "deal", "done"):
                if _click(page, action):
                    break
            time.sleep(0.1)
        seen = _watched(host)
        assert seen["violations"] == [] and seen["tallest"] < 110, seen
        assert host.errors == []
    finally:
        host.close()


# What sticks out of a big-screen card: an element past its card's sides, or text wider than its box (a
# container that scrolls or clips on purpose is left out).
SPILLS = """() => {
  const out = [];
  const name = (e) => `${e.tagName.toLowerCase()}${e.classList.length ? "." + [...e.classList].join(".") : ""}`;
  for (const card of document.querySelectorAll(".board .panel, .board table, .board .mc-side")) {
    const c = card.getBoundingClientRect();
    if (!c.width) continue;
    for (const e of [card, ...card.querySelectorAll("*")]) {
      if (e instanceof SVGElement && !(e instanceof SVGSVGElement)) continue;
      let clipped = false;
      for (let p = e.parentElement; p && p !== card.parentElement; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== "visible") { clipped = true; break; }
      }
      if (clipped) continue;
      const r = e.getBoundingClientRect();
      const text = (e.textContent || "").trim().slice(0, 30);
      if (r.width && (r.left < c.left - 1 || r.right > c.right + 1)) out.push(`${name(e)} "${text}" outside ${name(card)}`);
      const style = getComputedStyle(e);
      if (style.display !== "inline" && style.overflowX === "visible" && e.clientWidth && e.scrollWidth > e.clientWidth + 1) {
        out.push(`${name(e)} "${text}" spills (${e.scrollWidth} > ${e.clientWidth})`);
      }
    }
  }
  return [...new Set(out)].slice(0, 10);
}"""

# Musical Chairs' names on the island: each one's box, those cut by the map's edge and those that overlap.
NAMES = """() => {
  const svg = document.querySelector("[data-testid=island]");
  const s = svg.getBoundingClientRect();
  const names = [...svg.querySelectorAll(".mc-name")].map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }));
  const cut = names.filter(({ r }) => r.left < s.left || r.right > s.right || r.top < s.top || r.bottom > s.bottom).map((n) => n.text);
  const over = [];
  names.forEach((a, i) => names.slice(i + 1).forEach((b) => {
    if (a.r.left < b.r.right - 0.5 && b.r.left < a.r.right - 0.5 && a.r.top < b.r.bottom - 0.5 && b.r.top < a.r.bottom - 0.5) {
      over.push(`${a.text} / ${b.text}`);
    }
  }));
  return { count: names.length, cut, over };
}"""


def test_the_big_screen_s_cards_hold_what_they_show_and_no_name_covers_another(
        browser: Browser, platform: PlatformProcess, artifacts: Path) -> None:
    for lang in ("en", "ja"):
        _big_screen(lang, browser, platform, artifacts)


def _big_screen(lang: str, browser: Browser, platform: PlatformProcess, artifacts: Path) -> None:
    # Bots only, watched: Dice Derby after a race (its race card and the last race), the Quiz's selection (a
    # seat that passed), Musical Chairs' 24 people on the small test island, crowding round the totem.
    rooms: dict[str, tuple[list[str], dict[str, Any], bool]] = {
        "dice-derby": (["bot:heuristic"] * 6, {"races": 4}, False),
        "quiz": (["bot:heuristic"] * 5, {"memorise_seconds": 30}, False),
        "musical-chairs": (["human"] + ["bot:heuristic"] * 23,
                           {"players": 6, "gallery": 18, "island": "test", "first_break_seconds": 60}, True),
    }
    ready = {"dice-derby": "() => !!document.querySelector('.dd-race[data-race]')",
             "quiz": "() => [...document.querySelectorAll('[data-testid=qz-mark]')].some((m) => /passed|パス/.test(m.textContent))",
             "musical-chairs": "() => document.querySelectorAll('.mc-name').length === 24"}
    made: dict[str, dict[str, Any]] = {}
    for game, (kinds, options, host_plays) in rooms.items():
        # Each room just before its screen opens: its bots play fast.
        created = made[game] = driver.api_room(platform, game, kinds, options, host_plays=host_plays)
        screen = driver.open_seat(browser, platform, {**created, "seat": None, "token": None}, lang, BIG, "?table=1")
        try:
            screen.page.wait_for_function(ready[game], timeout=60_000)
            for _ in range(3):
                assert screen.page.evaluate(SPILLS) == [], (game, lang)
                if game == "musical-chairs":
                    names = screen.page.evaluate(NAMES)
                    assert names["count"] == 24 and names["cut"] == [] and names["over"] == [], names
                time.sleep(0.7)
            screen.page.screenshot(path=str(artifacts / f"truth-big-{game}-{lang}.png"))
            assert screen.errors == []
        finally:
            screen.close()
    # The seat of the 24: one "Show my medals" button, with a picker of the 23 others.
    phone = driver.open_seat(browser, platform, made["musical-chairs"], lang, PHONE)
    try:
        expect(phone.page.locator(".actions [data-action=show_medals]")).to_have_count(1)
        expect(phone.page.locator(".actions select[data-picker=show_medals] option")).to_have_count(23)
        names = phone.page.evaluate(NAMES)
        assert names["cut"] == [] and names["over"] == [], names
        assert phone.errors == []
    finally:
        phone.close()
