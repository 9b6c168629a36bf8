"""The replay page's Review tab (issue 32) in a real browser against the real server: a person finishes a Lucky
Nine match, opens the replay on a 390 px phone, reviews their seat (progress, then the chart and the marked
decisions), clicks a mark and sees the replay step to that decision and the better move in words, in English
and in Japanese; the host then reviews every seat on a big screen and sees each seat's chance beside the
others'. axe finds no violation on any of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser import driver
from tests.browser.server import PlatformProcess
from tests.browser.test_accessibility import axe_violations, dark_violations

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
# Stay in every round and pass after a hit: several decisions with a real choice, and a short match.
KEEP_GOING = ("pass", "stay", "press", "claim")

# Watches for the progress bar from before the review starts: it may show only for a moment.
WATCH_PROGRESS = """() => {
  window.__sawProgress = false;
  new MutationObserver(() => {
    if (document.querySelector('[data-testid=review-progress] progress')) window.__sawProgress = true;
  }).observe(document.body, { childList: true, subtree: true });
}"""


def _open_as_seat(browser: Browser, platform: PlatformProcess, created: dict[str, Any]) -> driver.Player:
    """The person's phone: it holds their seat's token and not the host's."""
    context = browser.new_context(viewport=PHONE, locale="en-US", reduced_motion="reduce")
    held = json.dumps({"seat": created["seat"], "token": created["token"], "name": "Aki"})
    context.add_init_script(f"if (!localStorage.getItem('pg.lang')) localStorage.setItem('pg.lang', 'en'); "
                            f"if (!localStorage.getItem('pg.room.{created['code']}')) "
                            f"localStorage.setItem('pg.room.{created['code']}', {json.dumps(held)})")
    page = context.new_page()
    page.set_default_timeout(20_000)
    player = driver.Player(page)
    page.on("pageerror", lambda error: player.errors.append(str(error)))
    page.goto(f"{platform.url}/room/{created['code']}")
    page.get_by_test_id("board").wait_for()
    return player


def _measured(value: float, measure: str) -> str:
    """A value as the page writes it (review.js, `measured`; Lucky Nine's scores are plain figures)."""
    return f"{round(value * 100)}%" if measure == "win" else f"{value:.1f}" if measure == "score" else f"{value:.2f}"


def _words(labels: dict[str, Any], action: dict[str, Any], lang: str) -> str:
    """The game's label for an action without parameters (Lucky Nine's decisions have none)."""
    assert set(action) == {"type"}, action
    return str(labels["actions"][action["type"]][lang])


def _no_axe(page: Page, where: str) -> None:
    found = axe_violations(page)
    assert found == [], f"{where}: {found}"


@pytest.mark.platform(settings={"review_simulations": 24}, bot_delay=0.0)
def test_a_player_reviews_their_match_and_a_mark_steps_the_replay(
        browser: Browser, platform: PlatformProcess, artifacts: Path) -> None:
    created = driver.api_room(platform, "lucky-nine", ["human", "bot:heuristic", "bot:random"], {"rounds": 4})
    code = created["code"]
    player = _open_as_seat(browser, platform, created)
    page = player.page
    driver.play_to_results([player], KEEP_GOING)
    page.get_by_test_id("open-replay").click()
    page.get_by_test_id("replay").wait_for()

    # The Review tab reviews the person's own seat (no seat picker: they hold no host token).
    page.evaluate(WATCH_PROGRESS)
    page.get_by_test_id("tab-review").click()
    expect(page.get_by_test_id("review-result")).to_be_visible(timeout=30_000)
    assert page.evaluate("() => window.__sawProgress"), "no progress was shown while the review ran"
    expect(page.get_by_test_id("review-seat")).to_have_count(0)
    with httpx.Client(base_url=platform.url, timeout=30) as http:
        job = http.get(f"/api/rooms/{code}/review", params={"seat": created["seat"]},
                       headers={"X-Seat-Token": created["token"]}).json()
        labels = next(g for g in http.get("/api/games").json() if g["id"] == "lucky-nine")["labels"]
    review = job["review"]
    decisions = review["decisions"]
    assert job["status"] == "done" and decisions, job
    # The chart is drawn within the phone's width, and every reviewed decision is listed with its mark.
    canvas = page.get_by_test_id("review-chart").locator("canvas")
    box = canvas.bounding_box()
    assert box is not None and 200 <= box["width"] <= PHONE["width"], box
    marks = page.get_by_test_id("review-mark")
    expect(marks).to_have_count(len(decisions))
    assert [marks.nth(i).get_attribute("data-mark") for i in range(len(decisions))] == \
        [d["mark"] or "none" for d in decisions]
    page.screenshot(path=str(artifacts / "review-phone-en.png"), full_page=True)
    _no_axe(page, "review tab (en)")

    # A mark where the person did not play the best move, if any: the replay steps to it and says the better one.
    chosen = next((i for i, d in enumerate(decisions) if d["best"] != d["played"]), 0)
    d = decisions[chosen]
    played, best = d["candidates"][d["played"]], d["candidates"][d["best"]]
    label = marks.nth(chosen).locator(".review-move-step").inner_text()  # "Step 12": as the replay numbers it
    marks.nth(chosen).click()
    note = page.get_by_test_id("review-note")
    expect(note).to_be_visible()
    expect(note).to_be_focused()
    expect(page.get_by_test_id("tab-replay")).to_have_attribute("aria-selected", "true")
    better = page.get_by_test_id("review-better")
    measure = review["measure"]
    if d["best"] != d["played"]:
        expect(better).to_have_text(f"Better: {_words(labels, best['action'], 'en')}: "
                                    f"{_measured(best['value'], measure)} against {_measured(played['value'], measure)}")
    else:
        expect(better).to_contain_text(f"{_words(labels, played['action'], 'en')}: the best move")
    # Beside it, every move the search tried, the one played and the best among them.
    rows = note.get_by_test_id("review-candidates").locator("tbody tr")
    expect(rows).to_have_count(len(d["candidates"]))
    expect(rows.nth(d["played"])).to_contain_text("(move played)")
    low, high = best["win_interval" if measure == "win" else "interval"]
    expect(rows.nth(d["best"])).to_contain_text(
        f"{_measured(best['value'], measure)} ({_measured(low, measure)} to {_measured(high, measure)})")
    # The replay is at the person's view as they chose: the next step is the move they played.
    expect(page.get_by_test_id("replay-seat")).to_have_value(str(created["seat"]))
    page.get_by_test_id("replay-next").click()
    expect(page.get_by_test_id("step-action")).to_have_text(f"Aki: {_words(labels, played['action'], 'en')}")
    expect(page.get_by_test_id("replay-step")).to_contain_text(f"{label} /")
    expect(note).to_have_count(0)  # the note belongs to the decision's step
    page.get_by_test_id("replay-prev").click()
    expect(note).to_be_visible()

    # In Japanese: the same note, then the review.
    page.get_by_test_id("lang").click()
    if d["best"] != d["played"]:
        expect(better).to_have_text(f"より良い手 {_words(labels, best['action'], 'ja')}: "
                                    f"{_measured(best['value'], measure)} 対 {_measured(played['value'], measure)}")
    else:
        expect(better).to_contain_text(f"{_words(labels, played['action'], 'ja')}: 最善手")
    page.screenshot(path=str(artifacts / "review-note-phone-ja.png"), full_page=True)
    _no_axe(page, "the replay at a reviewed decision (ja)")
    page.get_by_test_id("review-back").click()
    expect(page.get_by_test_id("tab-review")).to_be_focused()
    expect(page.get_by_test_id("review-result").locator("h2")).to_have_text("Akiの検討")
    expect(page.get_by_test_id("review-mark").nth(chosen)).to_contain_text(
        {"best": "最善", "good": "好手", "inaccuracy": "不正確", "mistake": "悪手", "blunder": "大悪手",
         None: "誤差の範囲"}[d["mark"]])
    _no_axe(page, "review tab (ja)")

    # The host, on a big screen: a seat picker, every seat reviewed, and each seat's chance beside the others'.
    page.evaluate(f"""() => {{
      const held = JSON.parse(localStorage.getItem('pg.room.{code}'));
      localStorage.setItem('pg.room.{code}', JSON.stringify({{ ...held, hostToken: {json.dumps(created['host_token'])} }}));
    }}""")
    page.set_viewport_size(DESKTOP)
    page.reload()
    # By keyboard: the arrow keys go along the tabs, Enter opens one.
    page.get_by_test_id("tab-replay").focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("tab-review")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("review-seat").locator("option")).to_have_count(3)
    page.get_by_test_id("review-all").click()
    table = page.get_by_test_id("review-table")
    expect(table).to_be_visible(timeout=30_000)
    expect(table.locator(".review-legend li")).to_have_count(3, timeout=30_000)
    page.screenshot(path=str(artifacts / "review-host-ja.png"), full_page=True)
    _no_axe(page, "the host's review tab (ja)")
    found = dark_violations(page)
    assert found == [], f"the host's review tab (ja, dark): {found}"
    # A click on the seat's chart steps the replay to the decision nearest to it, with its note.
    page.get_by_test_id("review-chart").locator(".u-over").click()
    expect(page.get_by_test_id("review-note")).to_be_visible()
    expect(page.get_by_test_id("tab-replay")).to_have_attribute("aria-selected", "true")
    assert player.errors == []
    player.close()
