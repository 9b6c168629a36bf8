"""Issue 30's evening with real games: two people, each in their own browser context (profiles made silently on
the first visit), one makes a group on their profile page, the other joins it by its invite link. A room made for
the group plays Smuggling; "next game, same people" moves both phones and the big screen to Lucky Nine in their
seats; a second room of the group plays Musical Chairs. Both people act in every match through the page's own
controls. Then each profile page shows one rated match per game (a reload rates
nothing twice), the ratings in the order of the results and the history's replays; the group page shows the three
matches in tonight's scoreboard and the standings with the points worked out here by hand from the results
screens, in English and in Japanese; the big screen (1920x1080) shows the evening's scoreboard."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping

from playwright.sync_api import expect

from partygames.games import get as get_game
from tests.browser import driver
from tests.browser.conftest import ARTIFACTS
from tests.browser.server import PlatformProcess

# The three games of the evening, in order; the first two in one room (a series), the third in a second room.
SMUGGLING, LUCKY_NINE, MUSICAL_CHAIRS = "smuggling", "lucky-nine", "musical-chairs"
NOBODY_LEFT = get_game(LUCKY_NINE).labels.terminations["no_active_players"]


def hand_points(ranks: Mapping[int, int]) -> dict[int, float]:
    """The group's formula, by hand: 1 point for every seat finished ahead of, ½ for every seat tied with."""
    return {seat: sum(1.0 if rank < other else 0.5 if rank == other else 0.0
                      for them, other in ranks.items() if them != seat) for seat, rank in ranks.items()}


def shown(points: float) -> str:
    """Points as the group page writes them: 2½, ½."""
    whole, half = int(points), points % 1 >= 0.5
    return ("" if whole == 0 and half else str(whole)) + ("½" if half else "")


def placings(player: driver.Player) -> dict[int, int]:
    """Seat -> rank, as the results screen shows them."""
    rows = player.page.get_by_test_id("results").locator("tbody[data-seat]")
    return {int(str(row.get_attribute("data-seat"))): int(row.locator("tr.seat-result td").first.inner_text().split()[0])
            for row in rows.all()}


def named(text: str) -> re.Pattern[str]:
    """A value's label as the player reads it (their own name is marked "(you)", 「(あなた)」)."""
    return re.compile(rf"^{re.escape(text)}( \((you|あなた)\))?$")


def unfold(player: driver.Player, action: str) -> None:
    """Opens an action's folded form by its title, unless it is open."""
    box = player.page.locator(f".actions details[data-spec-box={action}]")
    if box.get_attribute("open") is None:
        box.locator("summary").click()


def smuggle(host: driver.Player, guest: driver.Player) -> None:
    """Two small games of Smuggling, each person smuggling once and inspecting once: Aki packs one unit (the
    "+" beside the amount), Ben packs nothing, and each inspector passes, so Aki's side wins by one unit."""
    end = time.monotonic() + 60
    while not (driver.is_over(host) and driver.is_over(guest)):
        assert time.monotonic() < end, "Smuggling did not end"
        acted = False
        for player in (host, guest):
            page = player.page
            offered = driver.enabled_actions(page)
            before = driver.version(player)
            if "pack" in offered:
                form = page.locator(".actions form[data-spec='pack']")
                if player is host:
                    form.locator("button[aria-label='+']").click()
                    expect(form.locator("input[data-param=amount]")).to_have_value("10000")
                form.locator("[data-action='pack']").click()
            elif "pass" in offered:
                page.locator(".actions [data-action='pass']:not([disabled])").first.click()
            else:
                continue
            acted = True
            page.wait_for_function(f"() => window.partygames.state.version > {before} || window.partygames.state.error")
        if not acted:
            time.sleep(0.1)


def test_an_evening_of_three_real_games_is_rated_once_and_scored_for_the_group(
        players: list[driver.Player], platform: PlatformProcess) -> None:
    host, guest = players
    for player in players:  # each browser gets its profile on the first visit: a cookie its scripts cannot read
        end = time.monotonic() + 15
        while not (cookies := [c for c in player.page.context.cookies() if c["name"] == "partygames_device"]):
            assert time.monotonic() < end, "no profile cookie"
            time.sleep(0.1)
        assert cookies[0]["httpOnly"]

    # Aki makes the group on the profile page; Ben opens its invite link and joins.
    page = host.page
    page.get_by_test_id("profile-link").click()
    page.get_by_test_id("group-name").fill("Friday table")
    page.get_by_test_id("group-make").click()
    page.wait_for_url(re.compile(r"/g/[a-f0-9]+$"))
    group = page.url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("group-title")).to_have_text("Friday table")
    link = page.get_by_test_id("group-invite-link").input_value()
    assert link.startswith(f"{platform.url}/g/{group}/join#")
    guest.page.goto(link)
    expect(guest.page.get_by_test_id("group-join")).to_contain_text("Friday table")
    assert "#" not in guest.page.url  # the token leaves the address bar
    guest.page.get_by_test_id("group-join-button").click()
    guest.page.wait_for_url(re.compile(rf"/g/{group}$"))
    expect(guest.page.get_by_test_id("group-members").locator("li")).to_have_count(2)

    def group_room(game: str, seats: int, kinds: tuple[str, ...], options: dict[str, object]) -> str:
        """A room made from the group page (the group picked in the lobby's form), Ben joined by its link, started."""
        page.goto(f"{platform.url}/g/{group}")
        page.get_by_test_id("group-new-room").click()
        expect(page.get_by_test_id("create-group")).to_have_value(group)
        code = driver.create_room(host, game, seats, kinds, "Aki", options)
        expect(page.get_by_test_id("room-group")).to_contain_text("Friday table")
        driver.join_room(guest, page.get_by_test_id("share-link").input_value(), "Ben")
        expect(guest.page.get_by_test_id("room-group")).to_contain_text("Friday table")
        driver.start_match(host)
        guest.page.get_by_test_id("board").wait_for()
        return code

    # 1. Smuggling, two seats, two small games (the fewest in which each person smuggles and inspects once).
    first = group_room(SMUGGLING, 2, ("human", "human"), {"small_games": 2})
    screen = host.page.context.new_page()  # the big screen of the room, in Aki's browser
    screen.set_viewport_size({"width": 1920, "height": 1080})
    screen.goto(f"{platform.url}/room/{first}?table=1")
    screen.get_by_test_id("board").wait_for()
    host.page.bring_to_front()  # (a page in the background gets few animation frames: every click would wait)
    smuggle(host, guest)
    ranks = {SMUGGLING: placings(guest)}
    assert ranks[SMUGGLING] == {0: 1, 1: 2}, ranks  # Aki's unit got through: Aki's side wins
    assert placings(host) == ranks[SMUGGLING]

    # 2. Next game, same people: Aki picks Lucky Nine; both phones and the big screen move, each in its seat.
    host.page.get_by_test_id(f"next-{LUCKY_NINE}").click()
    for player, seat in ((host, 0), (guest, 1), (driver.Player(screen), None)):
        expect(player.page.get_by_test_id("results")).to_have_count(0)
        expect(player.page.locator(f"[data-testid=board][data-game={LUCKY_NINE}]")).to_have_count(1)
        assert player.page.evaluate("() => window.partygames.state.seat") == seat
    # Each presses, passes after a hit, and drops out after the turn: the match ends with nobody left playing.
    acted = driver.play_to_results([host, guest], ("press", "pass", "drop_out"), timeout=60)
    assert acted.count("press") >= 2, acted
    # It ended as nobody was left playing.
    expect(host.page.get_by_test_id("results")).to_contain_text(NOBODY_LEFT("en"))
    expect(guest.page.get_by_test_id("results")).to_contain_text(NOBODY_LEFT("ja"))
    expect(screen.get_by_test_id("results")).to_be_visible()
    ranks[LUCKY_NINE] = placings(host)
    assert placings(guest) == ranks[LUCKY_NINE]

    # 3. A second room of the group: Musical Chairs, two players on the small test island (chair 1 at 50 m from
    # the totem, chair 2 at 60 m), in rounds, two chairs. Aki plans chair 1 and Ben chair 2; both sit; both
    # vote for Ben, the parent, who removes chair 1; chair 2 is barred to Ben, who sat there (he can only
    # pass): Aki sits and Ben is out when the race's 5 s run out.
    second = group_room(MUSICAL_CHAIRS, 2, ("human", "human"), {
        "tempo": "rounds", "players": 2, "chairs": 2, "island": "test", "speed": 1000, "race_seconds": 5})
    for player, chair in ((host, "chair 1"), (guest, "イス2")):
        unfold(player, "plan")
        form = player.page.locator(".actions form[data-spec=plan]")
        form.locator("[data-seq-option]").filter(has_text=named(chair)).click()
        form.locator("button[type=submit]").click()
    for player in (host, guest):
        player.page.locator(".actions button[data-action=vote]").filter(has_text=named("Ben")).click()
    guest.page.locator(".actions button[data-action=remove_chair]").filter(has_text=named("イス1")).click()
    unfold(host, "plan")
    form = host.page.locator(".actions form[data-spec=plan]")
    form.locator("[data-seq-option]").filter(has_text=named("chair 2")).click()
    form.locator("button[type=submit]").click()
    guest.page.locator(".actions button[data-action=pass]").click()
    for player in (host, guest):
        player.page.get_by_test_id("results").wait_for(timeout=30_000)
    ranks[MUSICAL_CHAIRS] = placings(host)
    assert ranks[MUSICAL_CHAIRS] == {0: 1, 1: 2}, ranks
    assert placings(guest) == ranks[MUSICAL_CHAIRS]

    # The points of each match by hand, from the results screens; Aki is seat 0 and Ben seat 1 in both rooms.
    points = {game: hand_points(r) for game, r in ranks.items()}
    order = (SMUGGLING, LUCKY_NINE, MUSICAL_CHAIRS)
    mine = {name: [points[game][seat] for game in order] for name, seat in (("Aki", 0), ("Ben", 1))}
    assert mine["Aki"][0] == 1 and mine["Ben"][0] == 0

    # Each profile: one rated match per game (a reload rates nothing twice), and the history with a replay of
    # the person's own seat in each match: Smuggling, the first room's earlier match, too (`#replay-1`: the page
    # of its own game, its match picked in the room's list of matches; docs/profiles.md).
    ratings: dict[str, dict[str, float]] = {}
    for player, name, seat in ((host, "Aki", 0), (guest, "Ben", 1)):
        profile = player.page
        profile.get_by_test_id("profile-link").click()
        profile.get_by_test_id("profile-name").wait_for()
        for reload in (False, True):
            if reload:
                profile.reload()
            table = profile.get_by_test_id("profile-ratings")
            expect(table.locator("tr[data-game]")).to_have_count(3)
            for game in order:
                expect(table.locator(f"tr[data-game='{game}']").get_by_test_id("rating-matches")).to_have_text("1")
        expect(profile.get_by_test_id("profile-name")).to_have_value(name)
        ratings[name] = {game: float(table.locator(f"tr[data-game='{game}']").get_by_test_id("rating-value")
                                     .inner_text().split()[0]) for game in order}
        history = profile.get_by_test_id("profile-match")
        expect(history).to_have_count(3)
        expect(profile.locator(f"[data-testid=profile-match][data-room='{first}']")).to_have_count(2)
        expect(profile.get_by_test_id("profile-replay")).to_have_count(3)
        for code, number, title in ((first, 1, ("Smuggling", "密輸ゲーム")), (first, 2, ("Lucky Nine", "ラッキーナイン")),
                                    (second, 1, ("Musical Chairs", "イス取りゲーム"))):
            profile.locator(f"[data-testid=profile-match][data-room='{code}'][data-match='{number}']") \
                .get_by_test_id("profile-replay").click()
            replay = profile.get_by_test_id("replay")
            expect(replay.locator("h1")).to_contain_text(title[player is guest])
            if code == first:  # two matches in that room: the list shows which one this is
                expect(profile.get_by_test_id("replay-match")).to_have_value(str(number))
            else:
                expect(profile.get_by_test_id("replay-match")).to_have_count(0)
            expect(profile.get_by_test_id("replay-seat")).to_have_value(str(seat))  # their own seat
            expect(profile.get_by_test_id("replay-last")).to_be_enabled()  # the match's steps are there
            if number == 2:  # the list steps back to the room's first match, Smuggling, in the same seat
                profile.get_by_test_id("replay-match").select_option("1")
                expect(replay.locator("h1")).to_contain_text(("Smuggling", "密輸ゲーム")[player is guest])
                expect(profile.locator("[data-testid=board] .sm-teams")).to_be_visible()  # drawn by its own renderer
                assert profile.url.endswith(f"/room/{code}#replay-1")
            profile.go_back()
            profile.get_by_test_id("profile-ratings").wait_for()
    # The two were rated against each other: in each game the one placed ahead has the higher rating.
    for game in order:
        aki, ben = ranks[game][0], ranks[game][1]
        rated = ratings["Aki"][game], ratings["Ben"][game]
        assert (rated[0] > rated[1]) if aki < ben else (rated[0] < rated[1]) if aki > ben else rated[0] == rated[1], \
            (game, ranks[game], rated)

    # The group page: tonight's three matches in order, each person's points in each and the total, most first,
    # the same as the standings (all three matches, counted once), each with a rating per game.
    guest.page.goto(f"{platform.url}/g/{group}")
    board = guest.page.get_by_test_id("group-scoreboard")
    expect(board.locator("th[data-match]")).to_have_count(3)
    assert board.locator("th[data-match]").evaluate_all("els => els.map((e) => e.dataset.match)") == \
        [f"{first}:1", f"{first}:2", f"{second}:1"]
    expect(board.get_by_test_id("scoreboard-row")).to_have_count(2)
    totals = {name: sum(each) for name, each in mine.items()}
    leader, other = sorted(totals, key=lambda name: -totals[name])
    rows = [row.split() for row in board.get_by_test_id("scoreboard-row").all_inner_texts()]
    by_name = {cells[1]: cells[2:] for cells in rows}
    for name, each in mine.items():
        assert by_name[name] == [shown(p) for p in each] + [shown(totals[name])], (name, by_name, ranks)
    if totals[leader] != totals[other]:
        assert [cells[1] for cells in rows] == [leader, other]
    standings = guest.page.get_by_test_id("standings-row")
    expect(standings.get_by_test_id("standings-matches")).to_have_text(["3", "3"])
    assert sorted(standings.get_by_test_id("standings-points").all_inner_texts()) == \
        sorted(shown(total) for total in totals.values())
    for row in standings.all():
        expect(row.locator(".rating-chip")).to_have_count(3)
    expect(guest.page.get_by_test_id("group-match")).to_have_count(3)
    expect(guest.page.get_by_test_id("group-formula")).to_contain_text("同順位")

    # On a phone (390 px) the page fits its width (a wide table scrolls inside its panel).
    guest.page.set_viewport_size({"width": 390, "height": 844})
    expect(board).to_contain_text("今夜")
    assert guest.page.evaluate("document.documentElement.scrollWidth") <= 390

    # The big screen of the last room, between matches: the evening's scoreboard; then the group page at
    # 1920x1080, its scoreboard in view and fitting the width (saved as a picture).
    screen.bring_to_front()
    screen.goto(f"{platform.url}/room/{second}?table=1")
    expect(screen.get_by_test_id("room-group").get_by_test_id("scoreboard-total")).to_have_text(
        [shown(totals[leader]), shown(totals[other])])
    screen.goto(f"{platform.url}/g/{group}?table=1")
    expect(screen.get_by_test_id("group-scoreboard").get_by_test_id("scoreboard-row")).to_have_count(2)
    expect(screen.get_by_test_id("group-formula")).to_contain_text("for every seat it finished ahead of")
    box = screen.get_by_test_id("group-scoreboard").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 1920 and box["y"] + box["height"] <= 1080
    assert screen.evaluate("document.documentElement.scrollWidth") <= 1920
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    screen.screenshot(path=str(ARTIFACTS / "group-evening.png"))
    screen.close()
    assert host.errors == [] and guest.errors == []
