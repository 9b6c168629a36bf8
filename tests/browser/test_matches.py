"""Two browser contexts join one room and play a full match of each game to the results screen (the games
with a scripted browser test of their own are played there, see SETUPS)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from partygames.engine.text import Lang
from partygames.games import get as get_game
from tests.browser import driver
from tests.browser.server import PlatformProcess


@dataclass(frozen=True)
class Setup:
    """A small, quick match of one game: seats, who sits where, options, and which buttons to prefer."""

    seats: int
    kinds: tuple[str, ...]
    prefer: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    table: bool = False  # a big-screen spectator watches too (the games played around a table)


SETUPS: dict[str, Setup] = {
    "lucky-nine": Setup(3, ("human", "human", "bot:heuristic"), ("pass", "drop_out", "claim", "press"),
                        {"rounds": 4}, table=True),
    # Six seats at least: two humans and four bots; each human bids once and buys one win ticket a race.
    "dice-derby": Setup(6, ("human", "human", "bot:heuristic", "bot:random", "bot:heuristic", "bot:random"),
                        ("bid", "bet_win", "done"), {"races": 4, "starting_money": 2000}, table=True),
    "last-man-standing": Setup(4, ("human", "human", "bot:heuristic", "bot:random"), ("hire", "play")),
    # Played by a test of their own, two humans and a big screen to the results, named in the docstring:
    # Musical Chairs (test_musical_chairs.py: a gift, a secret vote), the Pandemic Game (test_pandemic.py:
    # a contact between the humans) and It's a QUIZ? (test_quiz_memory.py: what each browser receives).
    "smuggling": Setup(4, ("human", "human", "bot:heuristic", "bot:equilibrium"), ("vote", "pack", "doubt", "pass"),
                       {"team_size": 2, "small_games": 4}),
}


def implemented() -> list[str]:
    from partygames.games import all_games

    ids = {g.id for g in all_games()}
    return [g for g in SETUPS if g in ids]


@pytest.mark.parametrize("game", implemented())
def test_two_players_play_a_full_match_to_the_results_screen(
        game: str, players: list[driver.Player], platform: PlatformProcess, artifacts: Path,
        browser: Browser) -> None:
    setup = SETUPS[game]
    host, guest = players
    host.page.screenshot(path=str(artifacts / "lobby.png"), full_page=True)
    code = driver.create_room(host, game, setup.seats, setup.kinds, "Aki", setup.options)
    link = host.page.get_by_test_id("share-link").input_value()
    assert link.endswith(f"/room/{code}")
    driver.join_room(guest, link, "Ben")
    host.page.screenshot(path=str(artifacts / f"{game}-room-lobby.png"), full_page=True)
    driver.start_match(host)
    guest.page.get_by_test_id("board").wait_for()
    table = None
    if setup.table:
        table = driver.open_player(browser, platform, viewport={"width": 1600, "height": 900})
        table.page.goto(f"{link}?table=1")
        table.page.locator(".board.table").wait_for()
    shots: set[int] = set()

    def snap(step: int) -> None:
        if step in (2, 6) and step not in shots:
            shots.add(step)
            host.page.screenshot(path=str(artifacts / f"{game}-play-{step}-host.png"), full_page=True)
            guest.page.screenshot(path=str(artifacts / f"{game}-play-{step}-guest-ja.png"), full_page=True)
            if table:
                table.page.screenshot(path=str(artifacts / f"{game}-play-{step}-table.png"))

    clicked = driver.play_to_results([host, guest], setup.prefer, on_step=snap)
    assert clicked, "the humans were never offered an action"
    for player in (host, guest):
        results = player.page.get_by_test_id("results")
        results.wait_for()
        # Every seat is on the results table, by name.
        for name in ("Aki", "Ben"):
            assert name in results.inner_text()
    host.page.screenshot(path=str(artifacts / f"{game}-results.png"), full_page=True)
    guest.page.screenshot(path=str(artifacts / f"{game}-results-ja.png"), full_page=True)
    # The guest plays in Japanese: the results heading is the Japanese one.
    assert "結果" in guest.page.get_by_test_id("results").inner_text()
    # How the match ended is named by the game's label catalog, in each player's language.
    terminations = get_game(game).labels.terminations.values()
    readers: list[tuple[driver.Player, Lang]] = [(host, "en"), (guest, "ja")]
    for player, lang in readers:
        shown = player.page.get_by_test_id("results").inner_text()
        assert any(text(lang) in shown for text in terminations), shown
    assert host.errors == [] and guest.errors == []
    if table:
        # The big screen watches: the public view, no controls, the results at the end.
        table.page.get_by_test_id("results").wait_for()
        assert table.page.locator(".actions").count() == 0
        table.page.screenshot(path=str(artifacts / f"{game}-results-table.png"))
        assert table.errors == []
        table.close()
