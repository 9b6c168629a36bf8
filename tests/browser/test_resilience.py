"""A reload, a server killed mid-match, a refused action and the replay, in a real browser."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser import driver
from tests.browser.server import PlatformProcess

LUCKY_NINE = ("lucky-nine", 3, ("human", "human", "bot:heuristic"), {"rounds": 4})
# Never drop out: the match lasts long enough to interrupt it.
STAY_IN = ("pass", "stay", "claim", "press")


def start_lucky_nine(host: driver.Player, guest: driver.Player, platform: PlatformProcess) -> str:
    game, seats, kinds, options = LUCKY_NINE
    code = driver.create_room(host, game, seats, kinds, "Aki", options)
    driver.join_room(guest, f"{platform.url}/room/{code}", "Ben")
    driver.start_match(host)
    guest.page.get_by_test_id("board").wait_for()
    return code


def seat_of(player: driver.Player) -> int | None:
    seat = player.page.evaluate("() => window.partygames.state.seat")
    return None if seat is None else int(seat)


def test_a_reloaded_page_is_back_in_its_seat_and_can_act(players: list[driver.Player], platform: PlatformProcess,
                                                         artifacts: Path) -> None:
    host, guest = players
    start_lucky_nine(host, guest, platform)
    seat_before = seat_of(guest)
    assert seat_before == 1
    # Into the second round, then a quiet moment: the match waits for a person.
    while guest.page.evaluate("() => window.partygames.state.view.round") < 2:
        if not any([driver.act_and_confirm(player, STAY_IN) for player in (host, guest)]):
            time.sleep(0.1)
    driver.settled(guest)
    before = driver.log_lines(guest)
    guest.page.reload()
    guest.page.get_by_test_id("board").wait_for()
    expect(guest.page.get_by_test_id("conn")).to_have_text("接続中")
    assert seat_of(guest) == seat_before
    # The log holds the whole match's history again: the first round's lines too (older than round 2's start,
    # newest first), not only this round's.
    driver.settled(guest)
    assert driver.log_lines(guest) == before
    second = next(i for i, line in enumerate(before) if "ラウンド2開始" in line)
    assert len(before) - second - 1 >= 4, before
    # The board marks the guest's own seat, and no join form is offered again.
    expect(guest.page.locator(".ln-players tr.me")).to_contain_text("Ben")
    assert guest.page.get_by_test_id("join").count() == 0
    guest.page.screenshot(path=str(artifacts / "reload-guest-ja.png"), full_page=True)
    driver.play_to_results([host, guest], ("pass", "drop_out", "claim", "press"))
    assert host.errors == [] and guest.errors == []


@pytest.mark.platform()  # a server of its own: it is killed
def test_the_page_reconnects_and_play_continues_after_the_server_is_killed(
        players: list[driver.Player], platform: PlatformProcess, artifacts: Path) -> None:
    host, guest = players
    start_lucky_nine(host, guest, platform)
    for _ in range(4):
        for player in (host, guest):
            driver.act_once(player, STAY_IN)
    version_before = driver.version(host)
    platform.kill()
    # Both pages notice the loss (their own words for "connected" are gone).
    expect(host.page.get_by_test_id("conn")).not_to_have_text("connected")
    expect(guest.page.get_by_test_id("conn")).not_to_have_text("接続中")
    host.page.screenshot(path=str(artifacts / "restart-disconnected.png"), full_page=True)
    platform.start()
    expect(host.page.get_by_test_id("conn")).to_have_text("connected", timeout=20_000)
    expect(guest.page.get_by_test_id("conn")).to_have_text("接続中", timeout=20_000)
    # Same seats, no lost versions, and the match goes on to its end.
    assert seat_of(host) == 0 and seat_of(guest) == 1
    assert driver.version(host) >= version_before
    driver.play_to_results([host, guest], ("pass", "drop_out", "claim", "press"))
    assert host.errors == [] and guest.errors == []


def test_a_refused_action_shows_the_servers_reason_in_the_players_language(
        players: list[driver.Player], platform: PlatformProcess) -> None:
    host, guest = players
    start_lucky_nine(host, guest, platform)
    # Lucky Nine starts with seat 0: the guest (seat 1) is not awaited. The page offers no action, so
    # the illegal one is sent through the page's own connection.
    assert driver.enabled_actions(guest.page) == []
    guest.page.evaluate("() => window.partygames.act({type: 'press'})")
    refusal = guest.page.get_by_role("alert")
    expect(refusal).to_contain_text("あなたの手番ではありません")
    host.page.evaluate("() => window.partygames.act({type: 'claim', kind: 'nothing'})")
    expect(host.page.get_by_test_id("refused")).to_contain_text("not allowed now")
    # Nothing changed: the host can still press the button.
    assert "press" in driver.enabled_actions(host.page)


def test_the_replay_steps_through_a_finished_match_with_each_seats_view(
        players: list[driver.Player], platform: PlatformProcess, artifacts: Path) -> None:
    host, guest = players
    start_lucky_nine(host, guest, platform)
    driver.play_to_results([host, guest], ("pass", "drop_out", "claim", "press"))
    host.page.get_by_test_id("open-replay").click()
    page = host.page
    page.get_by_test_id("replay").wait_for()
    expect(page.get_by_test_id("replay-step")).to_contain_text("Step 0 /")
    page.get_by_test_id("replay-next").click()
    expect(page.get_by_test_id("replay-step")).to_contain_text("Step 1 /")
    expect(page.get_by_test_id("step-action")).to_contain_text("Aki")
    page.get_by_test_id("replay-seat").select_option("")  # the public view
    expect(page.get_by_test_id("board")).to_be_visible()
    page.get_by_test_id("replay-seat").select_option("1")
    expect(page.locator(".ln-players tr.me")).to_have_count(1)
    expect(page.locator(".ln-players tr.me")).to_contain_text("Ben")
    page.screenshot(path=str(artifacts / "replay.png"), full_page=True)
    # The stepper's arrows are SVG icons drawn at the text's size (⏮ and ⏭ are empty boxes in the CJK fonts).
    stepper = page.locator(".stepper")
    for name in ("to-start", "back", "forward", "to-end"):
        box = stepper.locator(f"svg[data-icon='{name}']").bounding_box()
        assert box is not None and box["width"] >= 10, (name, box)
    assert not re.search("[⏮⏭◀▶]", stepper.inner_text())
    # Autoplay walks on by itself at the chosen speed, and a manual step pauses it.
    page.get_by_test_id("replay-speed").select_option("4")
    page.get_by_test_id("replay-autoplay").click()
    # Step 3 shows for 375 ms at x4: polled at every frame (`expect` polls ever more slowly and could miss it).
    page.wait_for_function("document.querySelector('[data-testid=replay-step]').textContent.includes('Step 3 /')",
                           polling="raf", timeout=5000)
    page.get_by_test_id("replay-prev").click()
    expect(page.get_by_test_id("replay-autoplay")).to_have_attribute("aria-pressed", "false")
    assert host.errors == []


def test_chat_reaches_the_other_player_as_plain_text(players: list[driver.Player], platform: PlatformProcess) -> None:
    host, guest = players
    start_lucky_nine(host, guest, platform)
    text = "<b>hi</b> & 'co'"
    host.page.get_by_test_id("chat-input").fill(text)
    host.page.get_by_test_id("chat-input").press("Enter")
    line = guest.page.get_by_test_id("chat").locator("li").last
    expect(line).to_contain_text(f"Aki: {text}")
    # Shown as text, never as markup.
    assert guest.page.get_by_test_id("chat").locator("b").count() == 0


def test_a_host_who_only_watches_sees_bots_play_a_whole_match(
        players: list[driver.Player], platform: PlatformProcess) -> None:
    host = players[0]
    page = host.page
    page.get_by_test_id("watch-only").check()
    driver.create_room(host, "lucky-nine", 2, ("bot:heuristic", "bot:random"), "Host", {"rounds": 4})
    page.get_by_test_id("start").click()
    try:
        page.get_by_test_id("results").wait_for(timeout=60_000)
    except PlaywrightTimeout:
        # It timed out once in a full run (passing alone and under load since): say where the match and the
        # page stood then.
        code = page.url.rsplit("/", 1)[-1]
        room = httpx.get(f"{platform.url}/api/rooms/{code}", timeout=10).json()
        raise AssertionError(f"no results after 60 s; the room: status {room.get('status')!r}, version "
                             f"{room.get('version')!r}; the page: {page.inner_text('body')[:1500]!r}; the server's "
                             f"log ends: {platform.log.read_text(encoding='utf-8')[-2000:]!r}") from None
    expect(page.locator(".spectating")).to_be_visible()
    assert page.locator(".actions").count() == 0
    assert host.errors == []


def test_join_by_code_fill_the_rest_with_bots_and_find_the_room_in_the_list(
        players: list[driver.Player], platform: PlatformProcess) -> None:
    host, guest = players
    code = driver.create_room(host, "lucky-nine", 4, ("human",) * 4, "Aki", {"rounds": 4})
    page = guest.page
    page.get_by_test_id("join-code").fill(code.lower())  # codes are case-insensitive
    page.locator("form.join input").nth(1).fill("Ben")
    page.locator("form.join button[type=submit]").click()
    page.locator(".seat-row.me").wait_for()
    expect(page.locator(".seat-row.me")).to_contain_text("Ben")
    # Two human seats are still free: the host cannot start until bots fill them.
    expect(host.page.get_by_test_id("start")).to_be_disabled()
    host.page.get_by_test_id("fill-bots").click()
    expect(host.page.locator(".seat-row:has([data-icon=bot])")).to_have_count(2)
    host.page.get_by_test_id("start").click()
    page.get_by_test_id("board").wait_for()
    page.goto(platform.url + "/")
    listed = page.locator(f"[data-room='{code}']")
    expect(listed).to_contain_text("対戦中")  # playing, in the guest's Japanese
    expect(listed).to_contain_text("4/4")
