"""Reveals never run behind the game: a whole Dice Derby with two humans (two browser contexts), four
bots and a big screen that arrives late, on a server that paces the match by the game's reveals; the
host reloads once and the guest skips once. At every DOM change and
every animation frame, each page checks that the board (the race grid and the standings), the action
buttons and the results show nothing the stage has not narrated yet."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.browser import driver
from tests.browser.server import PlatformProcess

# The server waits for each reveal at a third of its declared length: the stage must fit its
# narration into that (it shortens events when it trails the server's pacing).
REVEAL_SCALE = 0.35

WATCH = """() => {
  const w = window.__watch = { narrated: new Set(), violations: [], checks: 0, toldUpTo: 0, recentOnArrival: null };
  // Dice Derby stages every event but an empty loan repayment (its describeEvent gives null).
  const staged = (e) => !(e.type === "loans_repaid" && Object.keys(e.data.repaid || {}).length === 0);
  const current = () => { const el = document.querySelector(".stage-current[data-key]"); return el ? Number(el.dataset.key) : null; };
  const flag = (what) => { if (w.violations.length < 20) w.violations.push(what); };
  const check = () => {
    w.checks += 1;
    document.querySelectorAll(".stage-current[data-key], .stage-recent li[data-key]").forEach((el) => w.narrated.add(Number(el.dataset.key)));
    const state = window.partygames && window.partygames.state;
    const board = document.querySelector("[data-testid=board]");
    if (!state || !board) return;
    if (w.recentOnArrival === null) {
      // What happened before the page watched (for a late arrival: the history it was shown) is not judged.
      w.recentOnArrival = document.querySelectorAll(".stage-recent li").length;
      w.toldUpTo = Math.max(0, ...state.events.map((e) => e.key));
    }
    const now = current();
    // Events up to version `upto` that the stage has not finished telling.
    const untold = (upto) => state.events.filter((e) => e.version <= upto && e.key > w.toldUpTo && staged(e)
      && (!w.narrated.has(e.key) || e.key === now));
    const version = Number(board.dataset.version);
    const ahead = untold(version);
    if (ahead.length) flag(`the board shows v${version} while ${ahead[0].type} (v${ahead[0].version}) is untold`);
    if (ahead.length && document.querySelector(".actions [data-action]:not([disabled])")) {
      flag(`buttons of v${version} are live while ${ahead[0].type} (v${ahead[0].version}) is untold`);
    }
    const grid = document.querySelector(".dd-race[data-race]");
    const race = grid ? Number(grid.dataset.race) : null;
    if (race !== null && !state.events.some((e) => e.type === "race_result" && e.data.race === race
        && (e.key <= w.toldUpTo || (w.narrated.has(e.key) && e.key !== now)))) {
      flag(`the grid shows race ${race} before its result was told`);
    }
    if (document.querySelector("[data-testid=results]")) {
      const left = untold(Infinity);
      if (left.length) flag(`results shown while ${left.length} events are untold, first ${left[0].type}`);
    }
  };
  // Skip: whatever has arrived counts as told.
  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-testid=skip]")) w.toldUpTo = Math.max(0, ...window.partygames.state.events.map((e) => e.key));
  }, true);
  new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  const frame = () => { check(); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
}"""


@pytest.fixture
def paced(tmp_path: Path) -> Iterator[PlatformProcess]:
    server = PlatformProcess(tmp_path, bot_delay=0.3, settings={"reveal_scale": REVEAL_SCALE}).start()
    yield server
    server.stop()


def watched(player: driver.Player) -> dict[str, Any]:
    found: dict[str, Any] = player.page.evaluate(
        "() => ({ violations: window.__watch.violations, checks: window.__watch.checks, narrated: window.__watch.narrated.size,"
        " recentOnArrival: window.__watch.recentOnArrival })")
    return found


def test_no_screen_runs_ahead_of_the_feed_in_a_whole_dice_derby(browser: Browser, paced: PlatformProcess) -> None:
    host, guest = driver.open_player(browser, paced, lang="en"), driver.open_player(browser, paced, lang="ja")
    table = driver.open_player(browser, paced, viewport={"width": 1600, "height": 900})
    try:
        driver.create_room(host, "dice-derby", 6,
                           ("human", "human", "bot:heuristic", "bot:random", "bot:heuristic", "bot:random"),
                           "Aki", {"races": 4, "starting_money": 2000})
        link = host.page.get_by_test_id("share-link").input_value()
        driver.join_room(guest, link, "Ben")
        driver.start_match(host)
        guest.page.get_by_test_id("board").wait_for()
        for player in (host, guest):
            player.page.evaluate(WATCH)
        skipped: list[int] = []
        before_reload: dict[str, Any] = {}

        def on_step(step: int) -> None:
            if step == 3:
                # The big screen arrives late: it is shown what happened so far, not "Nothing yet".
                table.page.add_init_script(f"window.addEventListener('DOMContentLoaded', () => ({WATCH})())")
                table.page.goto(f"{link}?table=1")
                table.page.locator(".board.table").wait_for()
                table.page.locator(".stage-recent li").first.wait_for(timeout=5000)
            if step == 5:
                # A reload in the middle of the match: the seat is kept and the stage shows the recent
                # history at once, not "Nothing yet" (the watch starts again with the page).
                before_reload.update(watched(host))
                host.page.reload()
                host.page.get_by_test_id("board").wait_for()
                host.page.locator(".stage-recent li").first.wait_for(timeout=5000)
                host.page.evaluate(WATCH)
            if step >= 4 and not skipped:
                # Skip jumps to the newest: the guest's board shows at once the version received when it
                # was pressed (clicked in the page, so that the button cannot vanish under the pointer).
                newest = guest.page.evaluate("() => { const skip = document.querySelector('[data-testid=skip]');"
                                             " if (!skip) return null; const v = window.partygames.state.version;"
                                             " skip.click(); return v; }")
                if newest is not None:
                    skipped.append(newest)
                    guest.page.wait_for_function("() => Number(document.querySelector('[data-testid=board]')"
                                                 f".dataset.version) >= {newest}", timeout=2000)

        driver.play_to_results([host, guest], ("bid", "bet_win", "done"), timeout=400, on_step=on_step)
        table.page.get_by_test_id("results").wait_for(timeout=60_000)
        assert skipped, "the guest never had anything to skip"
        for player in (host, guest, table):
            seen = watched(player)
            assert seen["violations"] == [], (player.page.url, seen["violations"])
            # The watch ran and the feed told the races: many checks, well over a hundred events.
            assert seen["checks"] > 500 and seen["narrated"] > 100, seen
            assert player.errors == []
        assert watched(table)["recentOnArrival"] > 0 and watched(host)["recentOnArrival"] > 0
        assert before_reload["violations"] == [] and before_reload["narrated"] > 0, before_reload
    finally:
        for player in (host, guest, table):
            player.close()
