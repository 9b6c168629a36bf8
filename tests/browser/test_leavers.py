"""People leave, and the table copes (issue #23), with two people in two browsers: the one who stays sees
the leaver offline (and for how long), the leaver's turn runs out of time and the feed says so, the host hands
the seat to a bot with one tap (and can take it back), play goes on, and the leaver who opens the room again
plays their own seat."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.browser import driver
from tests.browser.server import PlatformProcess
from tests.server.client import Lobby, Socket, human_room

# Last Man Standing, where nobody leaves the game early (a bot standing in cannot take a seat out of it): a
# draft, one hire at a time, then rounds played by all at once. Every decision may last 5 s (its least),
# scaled to 2 s: a leaver's turn costs seconds.
TIMES: dict[str, object] = {"draft_seconds": 5, "play_seconds": 5}
SCALE = 0.4
KINDS = ("human", "human", "bot:heuristic", "bot:random")
PREFER = ("hire", "play")


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlatformProcess]:
    """The real platform with short time limits (counted once the reveals before them have been shown, as the
    page shows them) and presence told within a tenth of a second; one for the module's tests, each in rooms
    of its own."""
    server = PlatformProcess(tmp_path_factory.mktemp("quick"), settings={"presence_interval": 0.1, "reveal_scale": 1}, deadline_scale=SCALE).start()
    yield server
    server.stop()


def two_people(server: PlatformProcess, game: str = "last-man-standing", kinds: Sequence[str] = KINDS,
               options: dict[str, object] = TIMES) -> tuple[dict[str, object], dict[str, object]]:
    """A started room for Aki (the host, seat 0), Kenta (the next human seat) and bots, where only the host
    hands a seat to a bot."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        created = http.post("/api/rooms", json={
            "game": game, "seats": len(kinds), "seat_kinds": list(kinds), "name": "Aki",
            "options": options, "auto_standin": False, "standin_after": 10}).json()
        joined = http.post(f"/api/rooms/{created['code']}/join", json={"name": "Kenta"}).json()
        started = http.post(f"/api/rooms/{created['code']}/start", json={}, headers={"X-Host-Token": created["host_token"]})
        assert started.status_code == 200, started.text
    return created, {"code": created["code"], "seat": joined["seat"], "token": joined["token"], "host_token": None}


def play_until(players: list[driver.Player], done: Callable[[], bool], timeout: float = 20) -> None:
    """Everyone present acts until `done`."""
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, ("not reached in time", [p.page.get_by_test_id("turn").inner_text() for p in players],
                                        [driver.log_lines(p)[:12] for p in players])
        for player in players:
            driver.act_once(player, PREFER)
        time.sleep(0.1)


def lines_about(player: driver.Player, name: str) -> list[str]:
    return [line for line in driver.log_lines(player) if name in line]


def test_a_leaver_is_shown_offline_timed_out_handed_to_a_bot_and_plays_again_on_return(
        browser: Browser, quick: PlatformProcess, artifacts: Path) -> None:
    created, kenta_seat = two_people(quick)
    aki = driver.open_seat(browser, quick, created, lang="en", name="Aki")
    kenta = driver.open_seat(browser, quick, kenta_seat, lang="ja", name="Kenta")
    aki_page, strip = aki.page, aki.page.get_by_test_id("presence")
    expect(strip.get_by_test_id("presence-1")).to_have_text("online")
    expect(aki_page.get_by_test_id("hand-to-bot-1")).to_have_count(0)  # (he is here: no bot may take his seat)
    expect(kenta.page.get_by_test_id("presence").get_by_test_id("presence-0")).to_have_text("オンライン")
    # Kenta's page goes to the background (another tab, a locked phone): he is away.
    kenta.page.evaluate("() => { Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});"
                        " document.dispatchEvent(new Event('visibilitychange')); }")
    expect(strip.get_by_test_id("presence-1")).to_have_text("away")
    # He closes it (his browser keeps his seat's token): Aki sees him offline, and for how long, on the host's
    # phone and on the big screen.
    context = kenta.page.context
    kenta.page.close()
    expect(strip.get_by_test_id("presence-1")).to_have_text(re.compile(r"^offline \d+:\d\d$"))
    big = aki.page.context.new_page()
    big.goto(f"{quick.url}/room/{created['code']}?table=1")
    expect(big.get_by_test_id("presence").get_by_test_id("presence-1")).to_have_text(re.compile(r"^offline \d+:\d\d$"))
    big.close()
    # The table waits for him, and the banner says he is gone; his time runs out, and the feed says so.
    banner = aki_page.get_by_test_id("turn")
    waited: list[str] = []

    def waited_and_timed_out() -> bool:
        if re.match(r"Waiting for Kenta \(offline \d+:\d\d\)", banner.inner_text()):
            waited.append(banner.inner_text())
        return bool(waited) and any("Kenta ran out of time: the default was played" in line for line in driver.log_lines(aki))

    play_until([aki], waited_and_timed_out)
    aki_page.screenshot(path=str(artifacts / "leaver-offline-en.png"), full_page=True)
    # One tap hands his seat to a bot; the host may take it back, and hand it again.
    aki_page.get_by_test_id("hand-to-bot-1").click()
    expect(strip.get_by_test_id("standin-1")).to_have_text("A bot stands in for Kenta")
    aki_page.get_by_test_id("take-back-1").click()
    expect(strip.get_by_test_id("standin-1")).to_have_count(0)
    aki_page.get_by_test_id("hand-to-bot-1").click()
    expect(strip.get_by_test_id("standin-1")).to_have_text("A bot stands in for Kenta")
    # Play goes on: the bot plays Kenta's turns, and no more of them run out of time.
    before = lines_about(aki, "Kenta")
    timeouts = sum("ran out of time" in line for line in before)
    play_until([aki], lambda: len([x for x in lines_about(aki, "Kenta") if "ran out of time" not in x])
               > len([x for x in before if "ran out of time" not in x]) + 2)
    assert sum("ran out of time" in line for line in lines_about(aki, "Kenta")) == timeouts
    # Kenta opens the room again in the same browser: his seat is his again, from his next turn.
    back = driver.Player(context.new_page())
    back.page.on("pageerror", lambda error: back.errors.append(str(error)))
    back.page.goto(f"{quick.url}/room/{created['code']}")
    back.page.get_by_test_id("board").wait_for()
    expect(strip.get_by_test_id("presence-1")).to_have_text("online")
    expect(strip.get_by_test_id("standin-1")).to_have_count(0)
    acted: list[str] = []

    def kenta_plays() -> bool:
        choice = driver.act_once(back, PREFER)
        if choice:
            acted.append(choice)
        return bool(acted)

    play_until([aki], kenta_plays)
    expect(back.page.get_by_test_id("presence").get_by_test_id("presence-1")).to_have_text("オンライン")
    expect(back.page.get_by_test_id("standin-1")).to_have_count(0)
    back.page.screenshot(path=str(artifacts / "leaver-back-ja.png"), full_page=True)
    assert aki.errors == [] and back.errors == []
    aki.close()


def test_a_seat_offered_to_pick_is_marked_offline_while_its_person_is_gone(
        browser: Browser, quick: PlatformProcess) -> None:
    # Smuggling's first move: each team votes for its representative among its members (Aki and Kenta, North).
    created, kenta_seat = two_people(quick, "smuggling", ("human", "bot:heuristic", "human", "bot:heuristic"),
                                     {"team_size": 2, "small_games": 1})
    assert kenta_seat["seat"] == 2
    aki = driver.open_seat(browser, quick, created, lang="en", name="Aki")
    kenta = driver.open_seat(browser, quick, kenta_seat, lang="ja", name="Kenta")
    choices = aki.page.locator(".actions [data-param=candidate]")
    expect(choices).to_have_text(["Aki (you)", "Kenta"])
    context = kenta.page.context
    kenta.page.close()
    expect(choices).to_have_text(["Aki (you)", "Kenta (offline)"])
    # Kenta's page, as he reads it: Aki is marked the same way once she has gone, in Japanese.
    back = context.new_page()
    back.goto(f"{quick.url}/room/{created['code']}")
    expect(choices).to_have_text(["Aki (you)", "Kenta"])
    aki.close()
    expect(back.locator(".actions [data-param=candidate]")).to_have_text(["Aki(オフライン)", "Kenta (あなた)"])
    back.context.close()


def test_a_big_table_counts_the_people_there_and_lists_those_who_are_gone(
        browser: Browser, quick: PlatformProcess) -> None:
    # Eight people: the host in a browser, five more connected, two who never came.
    lobby = Lobby(quick.url)
    created, tokens = human_room(lobby, "last-man-standing", seats=8, auto_standin=False)
    sockets = [Socket(quick.ws_url, created["code"], token) for token in tokens[1:6]]
    host = driver.open_seat(browser, quick, created, lang="en", name="P0")
    strip = host.page.get_by_test_id("presence")
    expect(strip.get_by_test_id("presence-count")).to_have_text("6 online")
    expect(strip.locator("[data-seat]")).to_have_count(2)
    for seat in (6, 7):
        expect(strip.get_by_test_id(f"presence-{seat}")).to_have_text("offline")
    sockets[0].close()  # P1 leaves: listed, and counted no more
    expect(strip.get_by_test_id("presence-count")).to_have_text("5 online")
    expect(strip.get_by_test_id("presence-1")).to_have_text(re.compile(r"^offline \d+:\d\d$"))
    for sock in sockets[1:]:
        sock.close()
    lobby.http.close()
    host.close()
