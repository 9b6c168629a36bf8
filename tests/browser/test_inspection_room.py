"""Smuggling's inspection room in a real browser: a private chat of the two representatives, with the
countdown beside it, that nobody else receives."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser import driver
from tests.browser.server import PlatformProcess

# Rotation sends member 0 of each team in the first two small games: the humans at seats 0 and 1.
OPTIONS = {"team_size": 2, "small_games": 4, "representatives": "rotation"}
KINDS = ("human", "human", "bot:heuristic", "bot:equilibrium")
QUESTION = "How much is in the trunk?"
ANSWER = "Not a single yen"


@pytest.fixture
def trio(browser: Browser, platform: PlatformProcess) -> Iterator[list[driver.Player]]:
    opened = [driver.open_player(browser, platform, lang="en"), driver.open_player(browser, platform, lang="ja"),
              driver.open_player(browser, platform, lang="en")]
    yield opened
    for player in opened:
        player.close()


def state(player: driver.Player, key: str) -> object:
    return player.page.evaluate(f"() => window.partygames.state.{key}")


def chat_texts(player: driver.Player) -> list[str]:
    return [str(t) for t in player.page.eval_on_selector_all("[data-testid=chat] .chat-text", "els => els.map(e => e.textContent)")]


def test_the_representatives_talk_in_the_inspection_room_and_nobody_else_hears(
        trio: list[driver.Player], platform: PlatformProcess, artifacts: Path) -> None:
    host, guest, watcher = trio
    code = driver.create_room(host, "smuggling", 4, KINDS, "Aki", OPTIONS)
    driver.join_room(guest, f"{platform.url}/room/{code}", "Ben")
    driver.start_match(host)
    guest.page.get_by_test_id("board").wait_for()
    watcher.page.goto(f"{platform.url}/room/{code}")
    watcher.page.get_by_test_id("board").wait_for()
    players = {0: host, 1: guest}
    view = state(host, "view")
    assert isinstance(view, dict)
    smuggler, inspector = players[view["smuggler"]], players[view["inspector"]]
    assert {view["smuggler"], view["inspector"]} == {0, 1}
    # While the trunk is packed the room is not open yet.
    assert host.page.get_by_test_id("chat-room").count() == 0
    assert driver.act_once(smuggler, ("pack",)) == "pack"

    # The inspection opens the room for exactly the two, with the inspection's countdown beside it.
    for player in (smuggler, inspector):
        room = player.page.get_by_test_id("chat-room")
        expect(room).to_have_attribute("data-channel", "inspection:1")
        expect(room.get_by_test_id("countdown")).to_be_visible()
        assert int(room.get_by_test_id("countdown").get_attribute("data-left") or 0) > 0
        expect(player.page.get_by_test_id("chat-channel")).to_have_value("inspection:1")
    expect(guest.page.get_by_test_id("chat-room")).to_contain_text("検査室")
    expect(host.page.get_by_test_id("chat-room")).to_contain_text("Inspection room")
    assert watcher.page.get_by_test_id("chat-room").count() == 0
    inspector.page.get_by_test_id("chat-input").fill(QUESTION)
    inspector.page.get_by_test_id("chat-input").press("Enter")
    expect(smuggler.page.locator("[data-testid=chat] li[data-channel='inspection:1']")).to_contain_text(QUESTION)
    smuggler.page.get_by_test_id("chat-input").fill(ANSWER)
    smuggler.page.get_by_test_id("chat-input").press("Enter")
    expect(inspector.page.locator("[data-testid=chat] li[data-channel='inspection:1']").last).to_contain_text(ANSWER)
    for player in (host, guest):
        player.page.screenshot(path=str(artifacts / f"smuggling-inspection-room-seat{state(player, 'seat')}.png"),
                               full_page=True)
    # The declaration closes the room: the chat goes back to everyone.
    assert driver.act_once(inspector, ("pass",)) == "pass"
    for player in (smuggler, inspector):
        expect(player.page.get_by_test_id("chat-room")).to_have_count(0)
        expect(player.page.get_by_test_id("chat-channel")).not_to_have_value("inspection:1")

    driver.play_to_results([host, guest], ("pack", "pass"))
    # Afterwards the talk is still the two's: a reload brings it back to them and to nobody else.
    for player in (host, guest, watcher):
        player.page.reload()
        player.page.get_by_test_id("results").wait_for()
    for player in (host, guest):
        expect(player.page.locator("[data-testid=chat] li[data-channel='inspection:1']")).to_have_count(2)
    watcher.page.wait_for_timeout(500)
    assert QUESTION not in chat_texts(watcher) and ANSWER not in chat_texts(watcher)
    # The spectator's connection never held the talk (the bots' teammates hear only through the server,
    # which sends the room's messages to its two members alone).
    heard = state(watcher, "chat") or []
    assert isinstance(heard, list) and all(m["channel"] == "public" for m in heard)
    assert host.errors == [] and guest.errors == [] and watcher.errors == []
