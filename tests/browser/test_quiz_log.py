"""It's a QUIZ?'s event log in a real browser keeps no note of the table (書き留めたりしてはいけません): the
opened row's words show on the stage, in order, while they are announced, but once the parent has dealt
them face down (in that order, one line per row) no log line names any of them, so the log cannot pair
a word with its new place. Two humans (the host reads English, the guest Japanese) play question 1."""

from __future__ import annotations

import contextlib
import time
from typing import Any

from playwright.sync_api import Error

from tests.browser import driver
from tests.browser.server import PlatformProcess

# Nobody answers (both take secret money), so the parent stays and deals the opened row by hand.
PREFER = ("ready", "secret_money", "deal", "done", "pass", "wait", "open", "stop")

# Every rich picture the stage drew of an opened row or a dealt card, as text.
WATCH_STAGE = """() => {
  const seen = window.__qzStage = { rows: [], dealt: [] };
  const note = () => {
    document.querySelectorAll("[data-testid=qz-row-reveal]").forEach((el) => {
      const words = [...el.querySelectorAll(".card")].map((c) => c.textContent.trim());
      if (!seen.rows.some((r) => r.join("|") === words.join("|"))) seen.rows.push(words);
    });
    document.querySelectorAll("[data-testid=qz-dealt]").forEach((el) => {
      const text = el.textContent.replace(/\\s+/g, " ").trim();
      if (!seen.dealt.includes(text)) seen.dealt.push(text);
    });
  };
  new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""

# The words of the row question 1 opened, in the page's language, and the lines of its event log.
READ = """() => {
  const state = window.partygames.state;
  const lang = localStorage.getItem("pg.lang") === "ja" ? "ja" : "en";
  const opened = state.events.find((e) => e.type === "row_opened");
  const words = opened ? opened.data.words.map((w) => state.view.deck.answers[w][lang]) : null;
  const dealt = state.events.filter((e) => e.type === "card_dealt").map((e) => e.data);
  const log = [...document.querySelectorAll(".log .log-list li")].map((li) => li.textContent.replace(/\\s+/g, " ").trim());
  return { words, dealt, log, question: state.view ? state.view.question : 0, phase: state.view ? state.view.phase : null };
}"""


def _read(player: driver.Player) -> dict[str, Any]:
    found: dict[str, Any] = player.page.evaluate(READ)
    return found


def _play_question_1(players: list[driver.Player], timeout: float = 120) -> None:
    """Both humans act until both views are past question 1's deal and moves."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if all(_read(p)["question"] >= 2 for p in players):
            return
        acted = False
        for player in players:
            if _read(player)["question"] >= 2:
                continue
            if driver.act_and_confirm(player, PREFER):
                acted = True
        if not acted:
            time.sleep(0.15)
    raise AssertionError(f"question 1 did not end within {timeout} s: {[_read(p) for p in players]}")


def test_the_log_names_no_dealt_word_while_the_stage_announced_them(
        players: list[driver.Player], platform: PlatformProcess) -> None:
    host, guest = players
    code = driver.create_room(host, "quiz", 2, ("human", "human"), "Aki", {"memorise_seconds": 30})
    driver.join_room(guest, f"{platform.url}/room/{code}", "Ben")
    driver.start_match(host)
    for player in players:
        player.page.get_by_test_id("qz-rows").wait_for()
        player.page.evaluate(WATCH_STAGE)
    _play_question_1(players)
    for player, lang in ((host, "en"), (guest, "ja")):
        page = player.page
        skip = page.get_by_test_id("skip")
        if skip.count():
            with contextlib.suppress(Error):
                skip.click(timeout=2000)
        # The log holds what the stage has narrated: wait for every deal to be in it.
        deal_text = "goes face down to the end of" if lang == "en" else "の列の末尾へ(伏せて)"
        page.wait_for_function(
            "([text, n]) => [...document.querySelectorAll('.log .log-list li')].filter((li) => li.textContent.includes(text)).length >= n",
            arg=[deal_text, 3], timeout=20_000)
        read = _read(player)
        words, log = read["words"], read["log"]
        assert words is not None and len(words) == 3 and len(read["dealt"]) == 3, read
        # The stage announced the row in its order, and each card as it was dealt (the seed's 告げます).
        stage = page.evaluate("() => window.__qzStage")
        assert words in stage["rows"], (stage, words)
        assert any(words[0] in text and f"Q{read['dealt'][0]['row'] + 1}" in text for text in stage["dealt"]), stage
        # The log: no word of the row anywhere; the row's line and one line per deal, naming rows only.
        for line in log:
            named = [w for w in words if w in line]
            assert not named, f"the log line {line!r} names {named}, a word dealt face down ({lang})"
        assert any(("row is opened" if lang == "en" else "の列を公開") in line for line in log), log
        dealt_lines = [line for line in log if deal_text in line]
        assert len(dealt_lines) == 3, log
        for deal in read["dealt"]:
            assert any(f"Q{deal['row'] + 1}" in line for line in dealt_lines), (deal, dealt_lines)
        assert player.errors == []
