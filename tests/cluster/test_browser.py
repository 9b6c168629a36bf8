"""In a real browser, a player whose page and socket reach a process that does not own the room plays a
whole match: that process follows the owner and forwards the player's actions to it (issue #20)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cluster.conftest import Cluster

pytest.importorskip("playwright")


def test_a_player_on_a_process_that_does_not_own_the_room_plays_a_whole_match(database: str, tmp_path: Path,
                                                                               browser: object) -> None:
    from playwright.sync_api import Browser

    from tests.browser import driver
    from tests.browser.test_play_again import PREFER

    assert isinstance(browser, Browser)
    cluster = Cluster(database, tmp_path, 2, bot_delay=0.05, games=None,
                      settings={"reveal_scale": 0.0}).start()
    first, second = cluster.servers
    try:
        host = driver.open_player(browser, first, lang="en")  # type: ignore[arg-type]
        guest = driver.open_player(browser, second, lang="ja")  # type: ignore[arg-type]
        code = driver.create_room(host, "lucky-nine", 3, ("human", "human", "bot:heuristic"), "Aki", {"rounds": 4})
        driver.join_room(guest, f"{second.url}/room/{code}", "Ben")  # the guest's page is on the other process
        driver.start_match(host)
        assert cluster.owner(code) is first
        driver.play_to_results([host, guest], PREFER)
        assert guest.page.evaluate("() => window.partygames.state.room.status") == "over"
        shown = guest.page.get_by_test_id("results").inner_text()
        assert "Aki" in shown and "Ben" in shown
        assert host.errors == [] and guest.errors == []
        host.close()
        guest.close()
    finally:
        cluster.stop()
