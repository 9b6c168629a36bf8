"""Drives the client the way a player does: the lobby's forms, the room's buttons, nothing else."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from playwright.sync_api import Browser, Error, Page, ViewportSize, WebSocket, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.server import PlatformProcess

PHONE: ViewportSize = {"width": 412, "height": 880}


@dataclass
class Player:
    """One browser context (its own localStorage, so its own seat tokens) and its page."""

    page: Page
    errors: list[str] = field(default_factory=list)

    def close(self) -> None:
        self.page.context.close()


def open_player(browser: Browser, server: PlatformProcess, lang: str = "en",
                viewport: ViewportSize | None = None) -> Player:
    context = browser.new_context(viewport=viewport or PHONE, locale="ja-JP" if lang == "ja" else "en-US")
    context.add_init_script(f"localStorage.setItem('pg.lang', {json.dumps(lang)})")
    page = context.new_page()
    page.set_default_timeout(15_000)
    player = Player(page)
    page.on("pageerror", lambda error: player.errors.append(str(error)))
    page.goto(server.url + "/")
    page.get_by_test_id("create-room").wait_for()
    return player


def api_room(server: PlatformProcess, game: str, kinds: Sequence[str], options: dict[str, Any] | None = None,
             host_plays: bool = True, name: str = "Aki", start: bool = True) -> dict[str, Any]:
    """A room made and started through the HTTP API (when the lobby's forms are not the point): the host in
    the first human seat (or watching), `kinds` per seat. Returns the creation's answer (code, tokens)."""
    body: dict[str, Any] = {"game": game, "seats": len(kinds), "options": options or {}, "seat_kinds": list(kinds),
                            "name": name}
    if not host_plays:
        body["host_seat"] = None
    with httpx.Client(base_url=server.url, timeout=30) as http:
        created: dict[str, Any] = http.post("/api/rooms", json=body).json()
        if not start:  # (people join first)
            return created
        started = http.post(f"/api/rooms/{created['code']}/start", json={}, headers={"X-Host-Token": created["host_token"]})
        assert started.status_code == 200, started.text
    return created


def open_seat(browser: Browser, server: PlatformProcess, created: dict[str, Any], lang: str = "en",
              viewport: ViewportSize | None = None, query: str = "", name: str = "Aki") -> Player:
    """A page holding `created`'s seat and host tokens (as the browser that made the room), on its room."""
    context = browser.new_context(viewport=viewport or PHONE, locale="ja-JP" if lang == "ja" else "en-US",
                                  reduced_motion="reduce")
    held = json.dumps({"seat": created["seat"], "token": created["token"], "name": name, "hostToken": created["host_token"]})
    context.add_init_script(f"localStorage.setItem('pg.lang', {json.dumps(lang)}); "
                            f"localStorage.setItem('pg.room.{created['code']}', {json.dumps(held)})")
    page = context.new_page()
    page.set_default_timeout(15_000)
    player = Player(page)
    page.on("pageerror", lambda error: player.errors.append(str(error)))
    page.goto(f"{server.url}/room/{created['code']}{query}")
    page.get_by_test_id("board").wait_for()
    return player


def log_lines(player: Player) -> list[str]:
    """The event log's lines, newest first, as the page writes them."""
    lines = player.page.eval_on_selector_all(".log .log-list li", "els => els.map((li) => li.textContent.replace(/\\s+/g, ' ').trim())")
    return [str(line) for line in lines]


def settled(player: Player, quiet: float = 1.0, timeout: float = 30) -> None:
    """Waits until the page has narrated all it received and nothing new came for `quiet` seconds."""
    end = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while time.monotonic() < end:
        now = player.page.evaluate("() => [window.partygames.state.version, window.partygames.narration.remaining]")
        if now != last:
            last, since = now, time.monotonic()
        elif now[1] == 0 and time.monotonic() - since >= quiet:
            return
        time.sleep(0.1)
    raise AssertionError(f"the page did not settle within {timeout} s: {last}")


def record_frames(player: Player) -> list[dict[str, Any]]:
    """Every JSON frame the page's WebSockets receive from now on, raw (what reached this browser,
    whatever the page shows of it): the secrecy tests read them."""
    frames: list[dict[str, Any]] = []

    def on_socket(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)) if isinstance(payload, str) else None)

    player.page.on("websocket", on_socket)
    return frames


def create_room(player: Player, game: str, seats: int, kinds: Sequence[str], name: str,
                options: dict[str, Any] | None = None) -> str:
    """Fills the lobby's create-room form; returns the room code from the room page's URL. An option the
    form shows as following the seat count (a team size) is not typed: the seats picked must give it."""
    page = player.page
    page.get_by_test_id(f"pick-{game}").click()
    page.get_by_test_id("create-game").select_option(game)
    form = page.get_by_test_id("create-room")
    if options:
        # The options are folded on a phone: unfold them as a player would.
        box = form.get_by_test_id("options")
        if box.get_attribute("open") is None:
            box.locator("summary").click()
    follows = {key: value for key, value in (options or {}).items() if form.locator(f"[data-follows-seats={key}]").count()}
    for key, value in (options or {}).items():
        if key in follows:
            continue
        control = form.locator(f"[name={key}]")
        tag = control.evaluate("e => e.tagName + ':' + (e.type || '')")
        if tag == "SELECT:select-one":
            control.select_option(json.dumps(value))
        elif tag.endswith(":checkbox"):
            control.set_checked(bool(value))
        elif isinstance(value, list) and tag == "INPUT:text":  # a list of figures or words: "2, 3, 4"
            control.fill(", ".join(map(str, value)))
        else:
            control.fill(json.dumps(value) if isinstance(value, (list, dict)) else str(value))
    page.get_by_test_id("create-seats").select_option(str(seats))
    for key, value in follows.items():
        expect(form.locator(f"[data-follows-seats={key}]")).to_have_attribute("data-value", str(value))
    for i, kind in enumerate(kinds):
        page.locator(f"[data-seat-kind='{i}']").select_option(kind)
    page.get_by_test_id("create-name").fill(name)
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r"/room/[A-Z0-9]+$"))
    code = page.url.rsplit("/", 1)[1]
    page.get_by_test_id("room-code").wait_for()
    return code


def join_room(player: Player, link: str, name: str) -> None:
    """Opens a share link and joins with a display name."""
    page = player.page
    page.goto(link)
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join").click()
    page.locator(".seat-row.me").wait_for()


def start_match(host: Player) -> None:
    """Fills any free seat with bots and starts. A guest who has just joined may not be on the host's
    page yet: the button then goes away as their seat arrives, and either way no seat is free after."""
    page = host.page
    fill = page.get_by_test_id("fill-bots")
    if fill.count():
        with contextlib.suppress(PlaywrightTimeoutError):
            fill.click(timeout=5000)
    expect(fill).to_have_count(0)
    page.get_by_test_id("start").click()
    page.get_by_test_id("board").wait_for()


# An action's button: in the action panel, or on the board of a game that offers its actions itself
# (`ownsActions` in its view.js).
ACTION_BUTTONS = ".actions [data-action]{0}, .board [data-action]{0}"


def enabled_actions(page: Page) -> list[str]:
    """The action types the page offers now (enabled buttons in the action panel or on the board)."""
    found = page.eval_on_selector_all(ACTION_BUTTONS.format(":not([disabled])"), "els => els.map(e => e.dataset.action)")
    return [str(x) for x in found]


def unfinished_orders(page: Page) -> list[str]:
    """The action types whose form waits for values to be picked in order (a sequence parameter)."""
    found = page.eval_on_selector_all(".actions form[data-spec]:has([data-seq-option]):has([type=submit][disabled])",
                                      "els => els.map(e => e.dataset.spec)")
    return [str(x) for x in found]


def act_once(player: Player, prefer: Sequence[str]) -> str | None:
    """Clicks one offered action, the first of `prefer` that is offered, else the first offered; an
    action whose form needs values picked in order gets the first ones still offered, one click each.
    Returns the action type clicked, or None when there is nothing to do."""
    page = player.page
    offered = enabled_actions(page)
    orders = [kind for kind in unfinished_orders(page) if kind not in offered]
    if not offered and not orders:
        return None
    choice = next((p for p in prefer if p in offered or p in orders), (offered or orders)[0])
    button = page.locator(ACTION_BUTTONS.format(f"[data-action='{choice}']:not([disabled])")).first
    try:
        # A folded form opens by its title, as a player would open it.
        box = page.locator(f".actions details[data-spec-box='{choice}']:not([open])")
        if box.count():
            box.first.locator("summary").click(timeout=2000)
        if choice in orders:
            form = page.locator(f".actions form[data-spec='{choice}']")
            submit = form.locator("button[type=submit]")
            for _ in range(16):
                # (a short wait: when the view has moved on the form is gone, and the page's default
                # timeout, 15 s, would stall both players' loop until the phase's time limit)
                if submit.is_enabled(timeout=2000):
                    break
                form.locator("[data-seq-option]:not([disabled])").first.click(timeout=2000)
        button.click(timeout=2000)
    except Error:
        return None  # the view moved on under the pointer; the next round looks again
    return choice


def is_over(player: Player) -> bool:
    return player.page.get_by_test_id("results").count() > 0


def version(player: Player) -> int:
    value = player.page.evaluate("() => (window.partygames && window.partygames.state) ? window.partygames.state.version : -1")
    return int(value)


def act_and_confirm(player: Player, prefer: Sequence[str]) -> str | None:
    """`act_once`, then waits (up to 5 s) for the update that confirms or refuses it, so that the next look
    sees its outcome (no double clicks). Returns the action type clicked, if any."""
    before = version(player)
    choice = act_once(player, prefer)
    if choice:
        with contextlib.suppress(Error):
            player.page.wait_for_function(
                f"() => window.partygames && window.partygames.state && "
                f"(window.partygames.state.version > {before} || window.partygames.state.error)",
                timeout=5000)
    return choice


def play_to_results(players: Sequence[Player], prefer: Sequence[str], timeout: float = 240,
                    on_step: Any = None) -> list[str]:
    """Lets every player act (by `prefer`) until all of them see the results screen."""
    clicked: list[str] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if all(is_over(p) for p in players):
            return clicked
        acted = False
        for player in players:
            choice = act_and_confirm(player, prefer)
            if choice:
                clicked.append(choice)
                acted = True
                if on_step:
                    on_step(len(clicked))
        if not acted:
            time.sleep(0.15)
    raise AssertionError(f"no results screen after {timeout} s; clicked {clicked[-20:]}")
