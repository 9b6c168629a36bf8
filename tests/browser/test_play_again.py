"""After the results, the host starts the next match for the same people in the same room, and anyone
can go back to the lobby."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser import driver

PREFER = ("pass", "drop_out", "claim", "press")


def test_the_host_plays_again_with_the_same_people_and_a_guest_goes_back_to_the_lobby(
        players: list[driver.Player]) -> None:
    host, guest = players
    code = driver.create_room(host, "lucky-nine", 3, ("human", "human", "bot:heuristic"), "Aki", {"rounds": 4})
    driver.join_room(guest, f"{host.page.url.split('/room/')[0]}/room/{code}", "Ben")
    driver.start_match(host)
    driver.play_to_results([host, guest], PREFER)
    expect(guest.page.get_by_test_id("play-again")).to_have_count(0)  # the host's choice only
    host.page.get_by_test_id("play-again").click()
    for player in (host, guest):
        # A new match: no results, the board again, the same seats.
        expect(player.page.get_by_test_id("results")).to_have_count(0)
        player.page.get_by_test_id("board").wait_for()
        assert player.page.evaluate("() => window.partygames.state.room.match") == 2
    seats = host.page.evaluate("() => window.partygames.state.room.seats.map((s) => s.name)")
    assert seats[:2] == ["Aki", "Ben"]
    driver.play_to_results([host, guest], PREFER)
    guest.page.get_by_test_id("back-to-lobby").click()
    guest.page.wait_for_url(lambda url: "/room/" not in url)
