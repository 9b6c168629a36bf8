"""An evening through its seams (issue #29): two people on phones and the big screen play a Pandemic Game,
then the host's "Next: Musical Chairs" turns every screen to the new game without a reload (the bots the new
game lacks are said, not silently renamed); then a Lucky Nine table plays again, a person leaves during the
rematch, a bot stands in for them only after the grace, never drops them out, the feed says when it takes
the seat and when the person is back, and its steps read as the bot's; last, a reload during a Dice Derby race
goes on showing the race, and nothing runs ahead of it; a Quiz's memorising clock reads as its banner's; and
(issue 30) a Liar Game night's first round shows its yen ledger on the big screen and each person's own line on
their phone, then "next game, same people": the host picks Lucky Nine, which declares no series with Smuggling,
and both phones and the big screen move to it in their seats; the games that cannot seat four say why."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.browser import driver
from tests.browser.server import PlatformProcess

PHONE: ViewportSize = {"width": 390, "height": 844}
BIG_SCREEN: ViewportSize = {"width": 1920, "height": 1080}
QUICK = {"rounds": 4, "first_press_seconds": 5, "press_seconds": 5, "decide_seconds": 5, "claim_seconds": 5, "dropout_seconds": 5}


# Time limits 10 times faster, reveals at a tenth of their length (a Dice Derby race: about 3 s), a short grace.
@pytest.mark.platform(deadline_scale=0.1, settings={"standin_grace": 2, "presence_interval": 0.1, "reveal_scale": 0.1})
def test_an_evening_hands_over_to_the_next_game_and_stands_in_for_a_leaver(browser: Browser,
                                                                           platform: PlatformProcess) -> None:
    host = driver.open_player(browser, platform, lang="en", viewport=PHONE)
    guest = driver.open_player(browser, platform, lang="ja", viewport=PHONE)
    code = driver.create_room(host, "pandemic", 5, ("human", "human", "bot:cautious", "bot:heuristic", "bot:random"),
                              "Aki", {"minutes": 1, "rooms": 0, "read_seconds": 5, "qualifiers": 2})
    driver.join_room(guest, f"{platform.url}/room/{code}", "Ben")
    driver.start_match(host)
    table = driver.open_player(browser, platform, lang="en", viewport=BIG_SCREEN)
    table.page.goto(f"{platform.url}/room/{code}?table=1")
    screens = (host, guest, table)
    for player in screens:
        player.page.get_by_test_id("results").wait_for(timeout=60_000)
    # The hand-over: every screen shows Musical Chairs' board, no result and no Pandemic board left over.
    host.page.get_by_test_id("next-musical-chairs").click()
    for player in screens:
        page = player.page
        expect(page.get_by_test_id("results")).to_have_count(0)
        expect(page.locator("[data-testid=board][data-game=musical-chairs]")).to_have_count(1)
        expect(page.locator("[data-testid=board][data-game=pandemic]")).to_have_count(0)
        # Musical Chairs' own board (its island), none of the Pandemic board, and no script error on the way.
        expect(page.locator("[data-testid=board] [data-testid=island]")).to_have_count(1)
        expect(page.locator("[data-testid=board] [data-testid=pd-time]")).to_have_count(0)
        assert player.errors == [], player.errors
        # The Pandemic Game's Cautious bot plays Heuristic in Musical Chairs, which has no Cautious: said so.
        expect(page.get_by_test_id("bots-replaced")).to_contain_text("慎重派" if player is guest else "cautious")
    expect(host.page.get_by_test_id("bots-replaced")).to_contain_text("it plays heuristic now")
    # The phones' buttons are live: an action of the new game is offered and taken.
    for player in (host, guest):
        player.page.locator(".board [data-action]:not([disabled]), .actions [data-action]:not([disabled])").first.wait_for()
    for player in screens:
        assert player.errors == [], player.errors
    for player in screens:
        player.close()

    # Another table of the evening: Lucky Nine, played again; Ben leaves as the rematch begins.
    created = driver.api_room(platform, "lucky-nine", ("human", "human", "bot:random"), QUICK, start=False)
    lucky = created["code"]
    ben_seat = httpx.post(f"{platform.url}/api/rooms/{lucky}/join", json={"name": "Ben"}).json()
    httpx.post(f"{platform.url}/api/rooms/{lucky}/start", json={}, headers={"X-Host-Token": created["host_token"]})
    aki = driver.open_seat(browser, platform, created, viewport=PHONE)
    ben = driver.open_seat(browser, platform, {**ben_seat, "code": lucky, "host_token": None}, lang="ja", viewport=PHONE,
                           name="Ben")
    for player in (aki, ben):
        player.page.get_by_test_id("results").wait_for(timeout=60_000)
    ben.close()
    aki.page.get_by_test_id("play-again").click()
    expect(aki.page.get_by_test_id("results")).to_have_count(0)
    # The stand-in comes only after the grace (and once Ben's time ran out while away); the feed says so.
    log = aki.page.locator(".log .log-list")
    expect(log.locator("li", has_text="takes over Ben's seat")).to_have_count(1, timeout=30_000)
    # Its steps are its own, and it never drops Ben out.
    expect(log.locator("li", has_text="stand-in").first).to_be_attached(timeout=30_000)
    assert not [line for line in driver.log_lines(aki) if "Ben drops out" in line]
    # Ben comes back: the feed says so, and the seat is his again.
    ben = driver.open_seat(browser, platform, {**ben_seat, "code": lucky, "host_token": None}, lang="ja", viewport=PHONE,
                           name="Ben")
    expect(log.locator("li", has_text="Ben is back")).to_have_count(1, timeout=15_000)
    # Ben's own (Japanese) feed says he is back, and marks what the bot played for him as the bot's.
    ben_log = ben.page.locator(".log .log-list")
    expect(ben_log.locator("li", has_text="が戻り、また自分で打ちます")).to_have_count(1, timeout=15_000)
    expect(ben_log.locator("li", has_text="の代打ち").first).to_be_attached()
    assert aki.errors == [] and ben.errors == []
    aki.close()
    ben.close()

    # The last table: Dice Derby. Aki reloads while the first race is being shown: the race goes on being
    # shown from where the table is, and nothing on the page runs ahead of it (the next race's betting).
    created = driver.api_room(platform, "dice-derby", ("human", *["bot:random"] * 5),
                              {"races": 4, "bidding_seconds": 5, "betting_seconds": 5})
    derby = driver.open_seat(browser, platform, created, viewport=PHONE)
    page = derby.page
    page.locator("[data-testid=stage] .stage-current[data-event=roll]").first.wait_for(timeout=30_000)
    page.reload()
    page.locator("[data-testid=stage] .stage-current").first.wait_for(timeout=5000)
    watched = page.evaluate("""() => ({ kind: document.querySelector("[data-testid=turn]").dataset.kind,
      playing: Number(document.querySelector("[data-testid=stage] .stage-current").dataset.version),
      shown: window.partygames.narration.version, latest: window.partygames.state.version,
      race: window.partygames.state.events.filter((e) => e.type === "race_result").map((e) => e.version) })""")
    # The banner says what is happening; the stage plays the step still being shown, which holds the race; the
    # board shows the match as it was before it.
    assert watched["kind"] == "reveal" and watched["playing"] > watched["shown"], watched
    assert watched["playing"] in watched["race"] and watched["shown"] < watched["latest"], watched
    # Then the next race's betting, once the race has been shown.
    expect(page.get_by_test_id("turn")).not_to_have_attribute("data-kind", "reveal", timeout=15_000)
    assert derby.errors == []
    derby.close()

    # A Quiz table: the board's "Memorise!" clock and the banner's read the same time limit, also after a reload.
    created = driver.api_room(platform, "quiz", ("human", "bot:random", "bot:random"), {"memorise_seconds": 300})
    quiz = driver.open_seat(browser, platform, created, viewport=PHONE)
    page = quiz.page
    clocks = """() => [document.querySelector("[data-testid=qz-memorise] [data-testid=countdown]").dataset.left,
      document.querySelector("[data-testid=turn] [data-testid=countdown]").dataset.left].map(Number)"""
    page.get_by_test_id("qz-memorise").wait_for()
    page.wait_for_timeout(1500)
    page.reload()
    page.get_by_test_id("qz-memorise").wait_for()
    board, banner = page.evaluate(clocks)
    assert abs(board - banner) <= 1 and banner < 30, (board, banner)
    assert quiz.errors == []
    quiz.close()

    # A Liar Game night (issue 30), made through the API: a quick Smuggling round (time limits run out by
    # themselves); its yen ledger shows on the big screen for everyone and on each phone for its own person. Then
    # "next game, same people": the host picks Lucky Nine, which does not follow Smuggling, and both phones and
    # the big screen move to it in their seats.
    made = httpx.post(f"{platform.url}/api/nights", json={
        "night": "liar-game", "seats": 4, "seat_kinds": ["human", "human", "bot:heuristic", "bot:heuristic"],
        "name": "Aki", "options": {"smuggling": {"small_games": 1, "vote_seconds": 5, "packing_seconds": 5,
                                                "inspection_seconds": 5}}}).json()
    night = made["code"]
    ben_seat = httpx.post(f"{platform.url}/api/rooms/{night}/join", json={"name": "Ben"}).json()
    httpx.post(f"{platform.url}/api/rooms/{night}/start", json={}, headers={"X-Host-Token": made["host_token"]})
    aki = driver.open_seat(browser, platform, made, viewport=PHONE)
    ben = driver.open_seat(browser, platform, {**ben_seat, "code": night, "host_token": None}, lang="ja",
                           viewport=PHONE, name="Ben")
    table = driver.open_player(browser, platform, lang="ja", viewport=BIG_SCREEN)
    table.page.goto(f"{platform.url}/room/{night}?table=1")
    screens = (aki, ben, table)
    for player in screens:
        player.page.get_by_test_id("results").wait_for(timeout=30_000)
    book = httpx.get(f"{platform.url}/api/rooms/{night}/ledger").json()
    balances = [p["balance"] for p in book["people"]]
    # The big screen: every person's line, in Japanese; each phone: its own.
    expect(table.page.get_by_test_id("ledger-row")).to_have_count(4)
    expect(table.page.get_by_test_id("ledger")).to_contain_text("円の収支")
    expect(table.page.get_by_test_id("ledger-next")).to_contain_text("第四回戦予選")
    for player, seat in ((aki, 0), (ben, 1)):
        row = player.page.get_by_test_id("ledger-row")
        expect(row).to_have_count(1)
        expect(row).to_have_attribute("data-seat", str(seat))
        expect(row.get_by_test_id("ledger-balance")).to_have_attribute("data-yen", str(balances[seat]))
    expect(aki.page.get_by_test_id("ledger")).to_contain_text("Balance")
    # Dice Derby (6-30 seats) cannot seat four: greyed, saying why.
    refused = aki.page.get_by_test_id("next-refused-dice-derby")
    expect(refused).to_be_disabled()
    expect(refused).to_contain_text("not 4")
    aki.page.get_by_test_id("next-lucky-nine").click()
    moved: tuple[tuple[driver.Player, int | None], ...] = ((aki, 0), (ben, 1), (table, None))
    for player, held in moved:
        page = player.page
        expect(page.get_by_test_id("results")).to_have_count(0)
        expect(page.locator("[data-testid=board][data-game=lucky-nine]")).to_have_count(1)
        assert page.evaluate("() => window.partygames.state.seat") == held
        assert player.errors == [], player.errors
    for player in screens:
        player.close()
