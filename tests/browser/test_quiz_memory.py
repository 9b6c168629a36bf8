"""It's a QUIZ? in real browsers: two humans (two contexts) and a bot play to the results screen, and
the raw WebSocket frames each human received prove that after memorising no face-down card's content
reached them (neither human peeks; the bots' peeks are their own)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import WebSocket

from tests.browser import driver
from tests.browser.server import PlatformProcess

# The random bot peeks often (and gives markers away): its looks must reach nobody else.
KINDS = ("human", "human", "bot:heuristic", "bot:random")
# Neither human ever peeks; each answers or takes secret money, passes, deals, moves nothing.
PREFER = ("ready", "pass", "answer", "secret_money", "open", "deal", "done", "stop", "call", "wait")


def _record(player: driver.Player) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []

    def on_socket(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)) if isinstance(payload, str) else None)

    player.page.on("websocket", on_socket)
    return frames


def _face_down_contents(view: dict[str, Any]) -> list[str]:
    """Every face-down card the view shows with its content (there must be none unless peeking)."""
    found = [c["card"] for row in view["rows"] if row for c in row if not c["open"] and c["word"] is not None]
    found += [w["card"] for w in view["board"] if w and not w["open"] and w["question"] is not None]
    return found


def test_after_memorising_no_face_down_word_reaches_a_seat_that_did_not_peek(
        players: list[driver.Player], platform: PlatformProcess, artifacts: Path) -> None:
    host, guest = players
    recorded = {"host": _record(host), "guest": _record(guest)}
    code = driver.create_room(host, "quiz", 4, KINDS, "Aki", {"memorise_seconds": 30})
    driver.join_room(guest, f"{platform.url}/room/{code}", "Ben")
    driver.start_match(host)
    guest.page.get_by_test_id("qz-rows").wait_for()
    # While memorising the whole table is open: thirty words on the rows.
    assert host.page.locator(".qz-slot[data-word]:not([data-word=''])").count() == 30
    host.page.screenshot(path=str(artifacts / "quiz-memorise-host.png"), full_page=True)
    clicked = driver.play_to_results([host, guest], PREFER)
    assert "ready" in clicked and ("answer" in clicked or "secret_money" in clicked)
    for player in (host, guest):
        player.page.get_by_test_id("results").wait_for()
        assert player.errors == []
    host.page.screenshot(path=str(artifacts / "quiz-results.png"), full_page=True)

    for who, frames in recorded.items():
        views = [f["view"] for f in frames if f.get("type") == "update" and f.get("view", {}).get("game") == "quiz"]
        turned = next(i for i, v in enumerate(views) if v["phase"] != "memorise")
        assert views[0]["phase"] == "memorise" and len(views) > turned + 10, who
        for view in views[turned:]:
            assert view["peek"] is None or ("word" not in view["peek"] and "question" not in view["peek"]), (who, view["peek"])
            assert _face_down_contents(view) == [], (who, view["version"])
        events = [e for f in frames if f.get("type") == "update" for e in f.get("events", [])]
        assert not [e for e in events if e["type"] == "card_seen"], who  # the bot's looks never reach a human
        # A bot's look is announced publicly, by place only.
        for event in events:
            if event["type"] == "looked":
                assert set(event["data"]) == {"seat", "card", "paid", "until"}
