"""A sequence parameter (an ordered list of distinct choices) in the browser, on the order toy of
tests/toy_game.py: the values are picked by clicking them in order, the order is shown, undo, remove
and clear change it, and the action is sent only when its length is allowed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import driver
from tests.browser.server import PlatformProcess


@pytest.fixture(scope="module")
def order_platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlatformProcess]:
    """The platform with the toy games of ordered choices; one for the module's tests, each in a room of its own."""
    server = PlatformProcess(tmp_path_factory.mktemp("order"), games="tests.toy_game:ORDER_GAMES").start()
    yield server
    server.stop()


def _state_view(page: Page) -> dict[str, Any]:
    view: dict[str, Any] = page.evaluate("() => window.partygames.state.view")
    return view


def _order(form: Any) -> list[str]:
    return [text.strip() for text in form.locator(".seq-list .seq-text").all_inner_texts()]


def test_a_player_picks_values_in_order_corrects_them_and_sends_the_list(
        browser: Browser, order_platform: PlatformProcess) -> None:
    host = driver.open_player(browser, order_platform, lang="en")
    driver.create_room(host, "order-toy", 2, ("human", "bot:random"), "Aki", {"picks": 3})
    driver.start_match(host)
    page = host.page
    form = page.locator("form[data-spec=guess]")
    submit = form.get_by_role("button", name="Guess")
    expect(form).to_contain_text("pick 1 to 3, in order")
    expect(form).to_contain_text("nothing picked yet")
    expect(submit).to_be_disabled()  # at least one fruit first

    form.get_by_role("button", name="Add kiwi as number 1").click()
    form.get_by_role("button", name="Add apple as number 2").click()
    form.get_by_role("button", name="Add mango as number 3").click()
    assert _order(form) == ["kiwi", "apple", "mango"]
    expect(form).to_contain_text("3 picked")
    # A picked fruit cannot be picked again, and three is the most: every other button is off too.
    expect(form.get_by_role("button", name="apple: number 2")).to_be_disabled()
    expect(form.get_by_role("button", name="Add lemon as number 4")).to_be_disabled()
    expect(submit).to_be_enabled()

    form.get_by_role("button", name="Undo last").click()
    assert _order(form) == ["kiwi", "apple"]
    form.get_by_role("button", name="Remove kiwi").click()
    assert _order(form) == ["apple"]
    form.get_by_role("button", name="Clear").click()
    expect(form).to_contain_text("nothing picked yet")
    expect(submit).to_be_disabled()

    form.get_by_role("button", name="Add peach as number 1").click()
    form.get_by_role("button", name="Add lemon as number 2").click()
    assert _order(form) == ["peach", "lemon"]
    submit.click()
    # The server took exactly that order: it is the seat's guess, and the match ends with the bot's.
    page.get_by_test_id("results").wait_for()
    assert _state_view(page)["my_guess"] == ["peach", "lemon"]
    assert host.errors == []
    host.close()


def test_the_order_controls_speak_japanese_and_two_players_play_to_the_results(
        browser: Browser, order_platform: PlatformProcess) -> None:
    host = driver.open_player(browser, order_platform, lang="ja")
    guest = driver.open_player(browser, order_platform, lang="en")
    code = driver.create_room(host, "order-toy", 2, ("human", "human"), "Aki", {"picks": 2})
    driver.join_room(guest, f"{order_platform.url}/room/{code}", "Ben")
    driver.start_match(host)
    form = host.page.locator("form[data-spec=guess]")
    expect(form).to_contain_text("順に 1〜2 個選んでください")
    expect(form).to_contain_text("まだ選んでいません")
    form.get_by_role("button", name="lemon を 1 番目に追加").click()
    expect(form).to_contain_text("1 個選択中")
    expect(form.get_by_role("button", name="lemon: 1 番目")).to_be_disabled()
    for name in ("1 つ戻す", "すべて外す", "lemon を外す"):
        expect(form.get_by_role("button", name=name)).to_be_enabled()
    # The rest as players do: the host sends the one lemon; the guest, with nothing picked, clicks the
    # first fruit offered (the apple), then sends.
    driver.play_to_results([host, guest], prefer=["guess"], timeout=60)
    assert _state_view(host.page)["guesses"] == [["lemon"], ["apple"]]
    assert host.errors == [] and guest.errors == []
    host.close()
    guest.close()
