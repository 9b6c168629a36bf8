"""Musical Chairs (イス取りゲーム) in real browsers: two humans (players Aki and Ben) and two ガヤ bots play
a scripted match to the results screen, with a big screen watching from the start.

The script, on the small test island (everyone at the totem, chair 1 at 50 m, chair 2 at 60 m) in the
rounds tempo with two chairs and the ガヤ off the island, so that nothing is left to chance:
break 1: Aki shows Ben its medals, gives Ben 5 of them (a private gift) and shows them again (Ben's wallet
keeps the latest showing only), then Aki plans chair 1 and Ben chair 2; both
sit. The parent vote: Aki votes for Aki and Ben for Ben, the ガヤ (no medals) cast blank ballots, a 1-1
tie; the run-off: both vote for Ben, who is the parent and removes chair 1. Break 2: only chair 2 is left,
Ben sat on it last time (「2回続けて同じ番号のイスに座ることは出来ません」), so Aki sits and Ben is out
when the race runs out: Aki wins, and Aki's medals pay 1億 each: 18億 to Aki, 5億 to Ben (the gift).

The raw WebSocket frames and the replays after the end show that the gift's amounts reached only giver
and receiver, and that each ballot reached only its caster, while the tallies are public."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from partygames.games import get as get_game
from tests.browser import driver
from tests.browser.server import PlatformProcess

KINDS = ("human", "human", "bot:heuristic", "bot:heuristic")
OPTIONS = {"tempo": "rounds", "players": 2, "gallery": 2, "chairs": 2, "island": "test", "speed": 1000,
           "gallery_on_island": False, "medals": 23, "first_break_seconds": 60, "break_seconds": 60,
           "race_seconds": 5, "vote_seconds": 60, "remove_seconds": 60}
AKI, BEN = 0, 1
GIFT = 5
# Each human's ballot in each vote: different in the first (a tie), so that a leak would show.
BALLOTS = {(AKI, "vote"): AKI, (BEN, "vote"): BEN, (AKI, "runoff"): BEN, (BEN, "runoff"): BEN}


def _dicts(value: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object inside a frame, at any depth, but for the seat's own legal actions (whose specs
    name the parameters, "candidate" among them)."""
    if isinstance(value, dict):
        yield value
        for key, item in value.items():
            if key != "legal_actions":
                yield from _dicts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _dicts(item)


def _updates(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f for f in frames if f.get("type") == "update" and f.get("view", {}).get("game") == "musical-chairs"]


def _phase(page: Page, phase: str) -> None:
    page.wait_for_function("phase => window.partygames.state.view && window.partygames.state.view.phase === phase",
                           arg=phase)


def _named(text: str) -> re.Pattern[str]:
    """A value's label as the player reads it (their own name is marked "(you)", 「(あなた)」)."""
    return re.compile(rf"^{re.escape(text)}( \((you|あなた)\))?$")


def _voted(page: Page, seat: int) -> None:
    """Waits until the page knows that `seat` has cast its ballot."""
    page.wait_for_function("seat => window.partygames.state.view.voted.includes(seat)", arg=seat)


def _click(page: Page, action: str, text: str) -> None:
    """One button of a single-choice action, by the value's label."""
    page.locator(f".actions button[data-action={action}]").filter(has_text=_named(text)).click()


def _unfold(page: Page, action: str) -> None:
    """Opens an action's folded form by its title, unless it is open."""
    box = page.locator(f".actions details[data-spec-box={action}]")
    if box.get_attribute("open") is None:
        box.locator("summary").click()


def _plan(page: Page, chair: str) -> None:
    """Opens the folded plan form, picks one chair and seals the plan."""
    _unfold(page, "plan")
    form = page.locator(".actions form[data-spec=plan]")
    form.locator("[data-seq-option]").filter(has_text=_named(chair)).click()
    form.locator("button[type=submit]").click()


def give_medals(page: Page, to: str, count: int) -> None:
    """Opens the folded gift form, picks the receiver by name, types the count and gives."""
    _unfold(page, "give")
    form = page.locator(".actions form[data-spec=give]")
    form.locator("[data-param=to]").filter(has_text=_named(to)).click()
    form.locator("input[data-param=count]").fill(str(count))
    form.locator("button[type=submit]").click()


def _replay(platform: PlatformProcess, code: str, seat: int | None, held: dict[str, Any] | None = None) -> dict[str, Any]:
    """The replay as `seat` saw it (None: the public one), asked with what a browser `held` for the room: a seat's
    replay is its person's (`token`) and the host's (`hostToken`)."""
    query = "" if seat is None else f"?seat={seat}"
    headers = {} if held is None else {"X-Seat-Token": held.get("token") or "", "X-Host-Token": held.get("hostToken") or ""}
    request = urllib.request.Request(f"{platform.url}/api/rooms/{code}/replay{query}", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        replay: dict[str, Any] = json.load(answer)
    return replay


def _held(player: driver.Player, code: str) -> dict[str, Any]:
    """What the player's browser holds for the room (its seat token; the host's token for its maker)."""
    held: dict[str, Any] = player.page.evaluate("code => JSON.parse(localStorage.getItem(`pg.room.${code}`) || '{}')", code)
    return held


def _assert_no_gift(frames: list[dict[str, Any]], who: str) -> None:
    """Nothing of the gift: no transfer, no medal holdings, no amounts."""
    assert frames, who
    for frame in frames:
        view = frame.get("view") or {}
        # (a ガヤ's own wallet is empty: it was given nothing)
        assert not view.get("my_medals") and view.get("my_transfers", []) == [], (who, view.get("version"))
        for d in _dicts(frame):
            assert d.get("type") not in ("medals_given", "medals_shown"), (who, d)
            assert not {"from", "to", "count"} <= d.keys(), (who, d)


def _changed(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    return {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}


def _assert_ballots_secret(frames: list[dict[str, Any]], seat: int | None, who: str) -> set[tuple[str, int]]:
    """A seat's frames carry its own ballot (while its vote is open) and nobody else's: within an open
    vote, another seat's ballot changes nothing in this seat's view but who has voted (`voted`, and
    who is still awaited and whose turn it is). Returns the (phase, voter) ballots seen so, in the middle
    of a vote."""
    seen: set[tuple[str, int]] = set()
    for before, after in pairwise(frames):
        old, new = before["view"], after["view"]
        if old["phase"] != new["phase"] or new["phase"] not in ("vote", "runoff"):
            continue
        voters = {e["data"]["seat"] for e in after["events"] if e["type"] == "ballot_cast"}
        allowed = {"version", "now", "voted", "to_act", "turns"} | ({"my_ballot", "legal_actions"} if seat in voters else set())
        assert _changed(old, new) <= allowed, (who, new["version"], _changed(old, new) - allowed)
        seen |= {(new["phase"], voter) for voter in voters}
    for frame in frames:
        view = frame.get("view") or {}
        ballot = view.get("my_ballot")
        if seat is None or ballot is None:
            assert ballot is None, (who, view.get("version"))
        else:
            assert ballot == BALLOTS[(seat, view["phase"])], (who, view["phase"], ballot)
        for d in _dicts(frame):
            assert "candidate" not in d and "ballots" not in d, (who, d)
            if d.get("type") == "ballot_cast":
                assert set(d["data"]) == {"seat", "at"}, (who, d)  # that a seat voted, never for whom
    return seen


def test_a_private_gift_and_a_secret_vote_between_two_humans_to_the_results(
        players: list[driver.Player], platform: PlatformProcess, artifacts: Path, browser: Browser) -> None:
    aki, ben = players  # Aki reads English, Ben Japanese
    frames = {"aki": driver.record_frames(aki), "ben": driver.record_frames(ben)}
    code = driver.create_room(aki, "musical-chairs", 4, KINDS, "Aki", OPTIONS)
    link = f"{platform.url}/room/{code}"
    driver.join_room(ben, link, "Ben")
    driver.start_match(aki)
    table = driver.open_player(browser, platform, viewport={"width": 1600, "height": 900})
    frames["table"] = driver.record_frames(table)
    table.page.goto(f"{link}?table=1")
    table.page.locator(".board.table").wait_for()
    for player in (aki, ben):
        player.page.get_by_test_id("island").wait_for()
        expect(player.page.get_by_test_id("wallet")).to_contain_text("× 23")

    # Break 1: Aki shows Ben its medals; the gift, seen in both wallets at once; Aki shows them again, and
    # Ben's wallet keeps only the latest showing. Then the sealed plans start the race.
    showings = ben.page.get_by_test_id("wallet").locator("[data-shown-by]")
    _click(aki.page, "show_medals", "Ben")
    expect(showings).to_have_text(["Akiが見せたメダル: Aki × 23"])
    told = ben.page.locator("[data-testid=stage] .stage-recent li[data-event=medals_shown]")
    expect(told.first).to_contain_text("AkiがBen (あなた)にメダルを見せました: Aki × 23。")
    give_medals(aki.page, "Ben", GIFT)
    expect(aki.page.get_by_test_id("wallet")).to_contain_text("Aki (you) × 18")
    expect(ben.page.get_by_test_id("wallet")).to_contain_text(f"Aki × {GIFT}")
    expect(ben.page.get_by_test_id("wallet")).to_contain_text("Ben (あなた) × 23")
    _click(aki.page, "show_medals", "Ben")
    expect(showings).to_have_text(["Akiが見せたメダル: Aki × 18"])
    _plan(aki.page, "chair 1")
    _plan(ben.page, "イス2")

    # Both sit; the parent vote: a tie, then the run-off for Ben.
    for player in (aki, ben):
        _phase(player.page, "vote")
    aki.page.screenshot(path=str(artifacts / "musical-chairs-vote-aki.png"), full_page=True)
    # Ben votes first in the vote and Aki first in the run-off, each ballot reaching the other human's
    # page in the middle of the vote (the last ballot closes it, the tally then changes every view).
    _click(ben.page, "vote", "Ben")
    _voted(aki.page, BEN)
    _click(aki.page, "vote", "Aki")
    for player in (aki, ben):
        _phase(player.page, "runoff")
    expect(table.page.get_by_test_id("tally")).to_contain_text("Aki 1, Ben 1; abstained 2")
    expect(ben.page.get_by_test_id("tally")).to_contain_text("Aki 1, Ben (あなた) 1; 棄権 2")
    _click(aki.page, "vote", "Ben")
    _voted(ben.page, AKI)
    _click(ben.page, "vote", "Ben")
    expect(table.page.get_by_test_id("tally")).to_contain_text("Aki 0, Ben 2; abstained 2")
    expect(table.page.locator(".mc-status")).to_contain_text("Parent: Ben")
    table.page.screenshot(path=str(artifacts / "musical-chairs-parent-table.png"))

    # The parent removes chair 1; chair 2 is barred to Ben, who can only pass; Aki sits, Ben is out.
    _click(ben.page, "remove_chair", "イス1")
    _phase(aki.page, "break")
    expect(table.page.locator(".mc-status")).to_contain_text("Removed chairs: 1")
    expect(ben.page.locator(".mc-chair.forbidden[data-chair='2']")).to_have_count(1)
    passing = ben.page.locator(".actions button[data-action=pass]")
    expect(passing).to_be_visible()
    expect(ben.page.locator(".actions [data-spec=plan]")).to_have_count(0)
    _plan(aki.page, "chair 2")
    passing.click()

    for player in (aki, ben, table):
        player.page.get_by_test_id("results").wait_for(timeout=30_000)
    terminations = get_game("musical-chairs").labels.terminations
    shown = {name: p.page.get_by_test_id("results").inner_text() for name, p in (("aki", aki), ("ben", ben))}
    assert terminations["last_player"]("en") in shown["aki"] and terminations["last_player"]("ja") in shown["ben"]
    # Aki's medals pay: 18 to Aki, and Ben's 5 from the gift (Ben's own are void).
    assert "¥1,800,000,000" in shown["aki"] and "¥500,000,000" in shown["aki"], shown["aki"]
    assert "18億円" in shown["ben"] and "5億円" in shown["ben"], shown["ben"]
    aki.page.screenshot(path=str(artifacts / "musical-chairs-results.png"), full_page=True)
    ben.page.screenshot(path=str(artifacts / "musical-chairs-results-ja.png"), full_page=True)
    table.page.screenshot(path=str(artifacts / "musical-chairs-results-table.png"))
    assert aki.errors == [] and ben.errors == [] and table.errors == []
    table.close()

    # The frames: the gift reached giver and receiver, with its amount, and not the big screen.
    updates = {who: _updates(f) for who, f in frames.items()}
    gift = {"from": AKI, "to": BEN, "name": AKI, "count": GIFT}
    for who in ("aki", "ben"):
        given = [e["data"] for f in updates[who] for e in f["events"] if e["type"] == "medals_given"]
        assert [{k: d[k] for k in gift} for d in given] == [gift], who
    _assert_no_gift(updates["table"], "table")
    # The big screen does not even count the gift or the showings: its versions run on one by one, and it
    # witnessed fewer steps than the giver.
    table_versions = [f["version"] for f in updates["table"]]
    assert table_versions == sorted(set(table_versions)), table_versions
    assert table_versions[-1] < updates["aki"][-1]["version"], (table_versions[-1], updates["aki"][-1]["version"])
    # Each ballot reached its caster only; the tallies reached everyone.
    witnessed = {"aki": {("vote", BEN)}, "ben": {("runoff", AKI)}, "table": {("vote", BEN), ("runoff", AKI)}}
    for who, seat in (("aki", AKI), ("ben", BEN), ("table", None)):
        assert witnessed[who] <= _assert_ballots_secret(updates[who], seat, who), who
        history = updates[who][-1]["view"]["history"][0]
        assert history["vote"] == {"candidates": [AKI, BEN], "votes": {"0": 1, "1": 1}, "abstained": 2}, who
        assert history["runoff"]["votes"] == {"0": 0, "1": 2} and history["parent"] == BEN, who
        assert history["removed"] == 1 and not history["removed_by_lot"], who

    # The replays, after the end, too: the ballots stay secret for ever (a ガヤ's seat and the public one see
    # that they were cast, never for whom), and the gift and the showings are not even there: the steps are
    # those each perspective witnessed, numbered as it counted them; each human sees its own.
    held = {AKI: _held(aki, code), BEN: _held(ben, code)}
    assert held[AKI].get("hostToken") and held[BEN].get("token") and not held[BEN].get("hostToken")
    for seat in (None, 2, 3):  # (the ガヤ's seats: the host's, Aki's)
        replay = _replay(platform, code, seat, held[AKI])
        actions = [s["action"] for s in replay["steps"]
                   if s["action"] and s["seat"] != seat and s["action"]["type"] in ("give", "show_medals", "vote")]
        votes = 8 if seat is None else 6  # two votes of four seats, less the ガヤ's own two
        assert actions == [{"type": "vote"}] * votes, (seat, actions)
        bare = [s for s in replay["steps"][1:] if s["action"] is None and s["source"] != "wake"]
        assert bare == [], (seat, bare)
        assert [s["version"] for s in replay["steps"]] == list(range(len(replay["steps"]))), seat
        _assert_no_gift(replay["steps"], f"replay {seat}")
    assert len(_replay(platform, code, None)["steps"]) - 1 == table_versions[-1]
    for seat in (AKI, BEN):
        steps = _replay(platform, code, seat, {"token": held[seat]["token"]})["steps"]
        mine = [s["action"] for s in steps if s["seat"] == seat and s["action"]["type"] in ("give", "vote")]
        theirs = [s["action"] for s in steps if s["seat"] == 1 - seat and s["action"]["type"] == "vote"]
        expected = [{"type": "vote", "candidate": BALLOTS[(seat, phase)]} for phase in ("vote", "runoff")]
        assert mine == ([{"type": "give", **{k: gift[k] for k in ("to", "name", "count")}}] if seat == AKI else []) \
            + expected, (seat, mine)
        assert theirs == [{"type": "vote"}] * 2, (seat, theirs)
    # Nor can Ben read Aki's ballots by asking for Aki's replay: a seat's replay is its own (and the host's).
    with pytest.raises(urllib.error.HTTPError) as refused:
        _replay(platform, code, AKI, {"token": held[BEN]["token"]})
    assert refused.value.code == 403 and json.load(refused.value)["error"]["code"] == "replay/forbidden"
