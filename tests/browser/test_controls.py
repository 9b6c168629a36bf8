"""Action controls come only from the legal-action specs: choices, ranges with their bounds and steps,
the countdown of a timed phase, and the generic renderer for any view."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, expect
from websockets.sync.client import connect

from partygames import games
from partygames.engine.text import Lang
from tests.browser import driver
from tests.browser.server import PlatformProcess

DERBY_KINDS = ("human", "human", "bot:heuristic", "bot:random", "bot:heuristic", "bot:random")


@pytest.fixture
def derby(browser: Browser, platform: PlatformProcess) -> Iterator[list[driver.Player]]:
    """A Dice Derby just started, the host reading English, the guest Japanese, each on their seat's page. (Made,
    joined and started through the HTTP API: the lobby's forms for it are test_matches' and test_reveals'.)"""
    created = driver.api_room(platform, "dice-derby", DERBY_KINDS, {"races": 4, "starting_money": 2000}, start=False)
    code = created["code"]
    joined = httpx.post(f"{platform.url}/api/rooms/{code}/join", json={"name": "Ben"}).json()
    started = httpx.post(f"{platform.url}/api/rooms/{code}/start", json={}, headers={"X-Host-Token": created["host_token"]})
    assert started.status_code == 200, started.text
    host = driver.open_seat(browser, platform, created, lang="en")
    guest = driver.open_seat(browser, platform, {**joined, "code": code, "host_token": None}, lang="ja", name="Ben")
    yield [host, guest]
    host.close()
    guest.close()


def test_a_public_room_s_stand_in_delay_is_set_in_the_lobby(browser: Browser, platform: PlatformProcess) -> None:
    host = driver.open_player(browser, platform, lang="en")
    page = host.page
    page.get_by_test_id("create-game").select_option("lucky-nine")
    expect(page.get_by_test_id("auto-standin")).to_be_checked()
    page.get_by_test_id("standin-after").fill("90")
    page.get_by_test_id("create-name").fill("Aki")
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r"/room/[A-Z0-9]+$"))
    room = httpx.get(f"{platform.url}/api/rooms/{page.url.rsplit('/', 1)[1]}").json()
    assert (room["auto_standin"], room["standin_after"]) == (True, 90)
    host.close()


def test_a_sealed_bid_is_made_from_the_choice_buttons_and_the_amount_range(derby: list[driver.Player]) -> None:
    host = derby[0]
    form = host.page.locator("form[data-spec=bid]")
    # The range is the spec's: 100 to the seat's money (2,000) in steps of 100.
    amount = form.locator("input[type=number][data-param=amount]")
    assert amount.get_attribute("min") == "100" and amount.get_attribute("max") == "2000"
    assert amount.get_attribute("step") == "100"
    form.locator("[data-param=horse]", has_text="d8").click()
    amount.fill("250")  # not a step of 100: refused before sending
    expect(form.locator(".field-error")).to_be_visible()
    expect(form.locator("button[type=submit]")).to_be_disabled()
    form.locator("input[type=range][data-slider=amount]").fill("1500")
    expect(amount).to_have_value("1500")
    form.locator("[data-quick='500']").click()
    expect(amount).to_have_value("500")
    form.locator("button[aria-label='+']").click()
    expect(amount).to_have_value("600")
    form.locator("button[type=submit]").click()
    expect(host.page.locator(".dd-facts")).to_contain_text("d8 600")
    # Sealed and awaiting the others: nothing more to do in this phase.
    expect(host.page.locator(".actions")).to_have_count(0)


def test_a_timed_phase_shows_a_countdown(derby: list[driver.Player]) -> None:
    for player in derby:
        countdown = player.page.get_by_test_id("countdown")
        expect(countdown).to_be_visible()
        left = int(countdown.get_attribute("data-left") or "0")
        assert 0 < left <= 120  # the auction's limit


def test_actions_parameters_and_phases_are_named_by_the_game_s_label_catalog(derby: list[driver.Player]) -> None:
    labels = games.get("dice-derby").labels
    langs: tuple[Lang, Lang] = ("en", "ja")  # the host reads English, the guest Japanese
    for player, lang in zip(derby, langs, strict=True):
        form = player.page.locator("form[data-spec=bid]")
        expect(form.locator(".spec-title")).to_have_text(labels.actions["bid"](lang))
        expect(form.locator(".param-label").first).to_contain_text(labels.params["horse"](lang))
        expect(player.page.locator(".dd-facts")).to_contain_text(labels.phases["auction"](lang))


def test_the_generic_renderer_shows_any_view_as_panels(derby: list[driver.Player]) -> None:
    host = derby[0]
    host.page.goto(host.page.url + "?generic=1")
    board = host.page.get_by_test_id("board")
    expect(board.locator(".generic-view")).to_be_visible()
    expect(board).to_contain_text("Horses")  # the view's key, named by the game's catalog
    # The controls do not depend on the renderer.
    assert "bid" in driver.enabled_actions(host.page)
    # In Japanese every key is named from the catalog (the game's view labels, else its other labels and
    # option titles), and the phase by its phase name: no English heading is left.
    guest = derby[1]
    guest.page.goto(guest.page.url + "?generic=1")
    board = guest.page.get_by_test_id("board")
    expect(board.locator(".generic-view")).to_be_visible()
    expect(board.locator("[data-key=horses] h3")).to_have_text("出走馬")
    expect(board.locator("[data-key=phase] dd")).to_have_text("馬主の入札")
    expect(board.locator(".generic-view thead th").first).to_be_visible()
    headings = board.locator(".generic-view dt, .generic-view h3, .generic-view thead th").all_inner_texts()
    assert "単勝オッズ" in headings and "払戻率(オッズ = 払戻率 ÷ 確率)" in headings  # an option's title
    english = [h for h in headings if re.search(r"[A-Za-z]{2,}", h)]
    assert not english, english


def test_a_team_chat_reaches_only_the_team(browser: Browser, platform: PlatformProcess) -> None:
    host = driver.open_player(browser, platform, lang="en")
    guest = driver.open_player(browser, platform, lang="en")
    code = driver.create_room(host, "smuggling", 4, ("human", "human", "bot:heuristic", "bot:random"), "Aki",
                              {"team_size": 2, "small_games": 2})
    driver.join_room(guest, f"{platform.url}/room/{code}", "Ben")
    driver.start_match(host)
    chat = host.page.locator(".chat")
    chat.locator("select").select_option("team:north")
    expect(chat.locator("select option:checked")).to_have_text("North team only")
    host.page.get_by_test_id("chat-input").fill("the trunk is empty")
    host.page.get_by_test_id("chat-input").press("Enter")
    expect(host.page.get_by_test_id("chat")).to_contain_text("the trunk is empty")
    host.page.get_by_test_id("chat-input").fill("hello all")
    chat.locator("select").select_option("public")
    host.page.get_by_test_id("chat-input").press("Enter")
    # Ben (South) sees the public line, never North's.
    expect(guest.page.get_by_test_id("chat")).to_contain_text("hello all")
    assert "the trunk is empty" not in guest.page.get_by_test_id("chat").inner_text()
    host.close()
    guest.close()


def test_a_spectator_s_chat_name_is_marked_as_a_spectator_s(browser: Browser, platform: PlatformProcess) -> None:
    # A spectator names themselves (here as the host): the page marks their line, in the reader's language.
    created = driver.api_room(platform, "lucky-nine", ("human", "bot:random"), name="Aki")
    host = driver.open_seat(browser, platform, created, lang="ja", name="Aki")
    with connect(f"{platform.ws_url}/ws/{created['code']}?name=Aki", open_timeout=10) as impostor:
        impostor.send(json.dumps({"type": "chat", "text": "I pass"}))
        host.page.get_by_test_id("chat-input").fill("no I don't")
        host.page.get_by_test_id("chat-input").press("Enter")
        lines = host.page.get_by_test_id("chat").locator("li")
        expect(lines).to_have_count(2)
    spectator = lines.filter(has_text="I pass")
    expect(spectator.get_by_test_id("chat-spectator")).to_have_text("観戦者")
    expect(spectator).to_contain_text("Aki 観戦者: I pass")
    expect(lines.filter(has_text="no I don't").get_by_test_id("chat-spectator")).to_have_count(0)
    assert host.errors == []
    host.close()


def test_every_platform_string_has_english_and_japanese(browser: Browser, platform: PlatformProcess) -> None:
    player = driver.open_player(browser, platform, lang="ja")
    missing = player.page.evaluate("async () => (await import('/static/i18n.js')).untranslated()")
    assert missing == []
    # The switch turns the page to English and back.
    player.page.get_by_test_id("lang").click()
    expect(player.page.get_by_test_id("create")).to_have_text("Create")
    player.page.get_by_test_id("lang").click()
    expect(player.page.get_by_test_id("create")).to_have_text("作成")
    player.close()


def test_the_lobby_offers_only_the_seat_counts_the_options_allow(browser: Browser, platform: PlatformProcess) -> None:
    player = driver.open_player(browser, platform, viewport={"width": 1280, "height": 900})
    page = player.page
    page.get_by_test_id("create-game").select_option("smuggling")
    seats = page.get_by_test_id("create-seats")
    # The team size follows the seats picked: any even count, and the lobby says what the match will be.
    expect(seats.locator("option")).to_have_text([str(n) for n in range(2, 19, 2)])
    seats.select_option("4")
    team = page.locator("[data-follows-seats=team_size]")
    expect(team).to_have_attribute("data-value", "2")
    expect(page.locator("[name=team_size]")).to_have_count(0)
    expect(page.get_by_test_id("match-outline")).to_have_text(
        "4 seats: 1 for people, 3 bots · Two teams of 2 players · 20 small games · about 33 min")
    page.locator("[data-testid=create-room] [name=small_games]").fill("3")
    expect(page.get_by_test_id("match-length")).to_have_text("Two teams of 2 players · 3 small games")
    # 3 x (30 + 30 + 120) s / 2, and 3 x 8.6 s of reveals (6 + 1 + 4 ballots x 0.4).
    expect(page.get_by_test_id("match-minutes")).to_have_text("about 5 min")
    seats.select_option("6")
    expect(team).to_have_attribute("data-value", "3")
    expect(page.locator("[data-seat-kind]")).to_have_count(6)
    # Options the server refuses are explained where the seats are chosen.
    page.locator("[data-testid=create-room] [name=small_games]").fill("500")
    expect(page.get_by_test_id("seat-counts-problem")).to_contain_text("small_games")
    page.locator("[data-testid=create-room] [name=small_games]").fill("3")
    expect(page.get_by_test_id("seat-counts-problem")).to_have_count(0)
    # Created, the room has the seats picked and the team size they give.
    page.get_by_test_id("create-name").fill("Aki")
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("seats").locator(".seat-row")).to_have_count(6)
    page.goto(platform.url + "/")
    page.get_by_test_id("create-game").select_option("last-man-standing")
    page.locator("[data-testid=create-room] [name=starting_chips]").fill("18")
    expect(seats.locator("option")).to_have_text(["4", "5", "6"])  # the entry fee for 7 is $20
    # A game whose small table spoils it starts from the seed's: the Pandemic Game's 12, not its smallest 4.
    page.get_by_test_id("create-game").select_option("pandemic")
    expect(seats).to_have_value("12")
    expect(page.locator("[data-seat-kind]")).to_have_count(12)
    page.get_by_test_id("create-game").select_option("lucky-nine")
    expect(seats).to_have_value("4")  # a party of four (docs/rules/lucky-nine.md, The default table)
    page.get_by_test_id("create-game").select_option("dice-derby")
    expect(seats).to_have_value("6")  # no usual table: the smallest
    player.close()


def test_bots_get_names_of_their_own_and_colours_in_the_players_language(browser: Browser, platform: PlatformProcess) -> None:
    player = driver.open_player(browser, platform, lang="ja")
    # Every seat but the host's starts as a bot.
    player.page.get_by_test_id("create-game").select_option("last-man-standing")
    expect(player.page.locator("[data-seat-kind]")).to_have_count(4)
    kinds = [player.page.locator(f"[data-seat-kind='{i}']").input_value() for i in range(4)]
    assert kinds == ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]
    driver.create_room(player, "last-man-standing", 4, ("human", "bot:random", "bot:heuristic", "bot:random"), "アキ")
    rows = player.page.get_by_test_id("seats").locator(".seat-row .seat-name")
    expect(rows).to_have_text([re.compile("アキ"), "ボット アオイ(ランダム)", "ボット ベン(ヒューリスティック)",
                               "ボット チカ(ランダム)"])
    player.page.get_by_test_id("lang").click()
    expect(rows.nth(2)).to_have_text("Bot Ben (heuristic)")
    colours = player.page.locator(".seat-row .seat-no").evaluate_all("els => els.map(e => getComputedStyle(e).backgroundColor)")
    assert len(set(colours)) == 4, colours
    player.close()


@pytest.mark.platform()  # a fresh server: the lobby's list is empty but for the private room
def test_a_host_makes_a_room_private_from_the_lobby_and_it_is_not_listed(browser: Browser,
                                                                         platform: PlatformProcess) -> None:
    host = driver.open_player(browser, platform, lang="ja")
    page = host.page
    checkbox = page.get_by_test_id("private")
    expect(checkbox.locator("xpath=..")).to_contain_text("非公開")
    page.get_by_test_id("create-game").select_option("lucky-nine")
    page.locator("[data-seat-kind='1']").select_option("human")  # a seat for the guest
    # The form has its length from the server (the outline above the checkboxes grows by it): only then is the
    # form still, so that a click lands where it was aimed.
    expect(page.get_by_test_id("match-minutes")).to_be_visible()
    # Bots stand in for leavers by default in a public room; a private one leaves it to the host's tap.
    standins = page.get_by_test_id("auto-standin")
    expect(standins).to_be_checked()
    expect(standins.locator("xpath=..")).to_contain_text("ボットが代わりに打つ")
    checkbox.check()
    expect(standins).not_to_be_checked()
    expect(page.get_by_test_id("standin-after")).to_have_count(0)
    page.get_by_test_id("create-name").fill("Aki")
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r"/room/[A-Z0-9]+$"))
    code = page.url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("private-badge")).to_have_text("非公開ルーム")
    assert httpx.get(f"{platform.url}/api/rooms/{code}").json()["auto_standin"] is False
    page.goto(platform.url + "/")
    expect(page.get_by_test_id("rooms")).to_contain_text("まだルームはありません。")  # the only room is private
    expect(page.locator(f"[data-room=\"{code}\"]")).to_have_count(0)
    # Its link still brings a guest in.
    guest = driver.open_player(browser, platform)
    driver.join_room(guest, f"{platform.url}/room/{code}", "Ben")
    expect(guest.page.get_by_test_id("private-badge")).to_have_text("Private room")
    host.close()
    guest.close()
