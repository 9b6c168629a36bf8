"""Musical Chairs' screens read as a player reads them: every event a sentence in English and Japanese (never
its raw data), the payouts by name, the big screen's players and ticking clock, and on a phone in real time
the island above the actions.

The played match, in real time on the small test island with quick runners: Aki (English) and Ben
(Japanese) are humans of the gallery (ガヤ), three heuristic bots are the players and a fourth is a ガヤ too
(it holds the chair nearest the totem, chair 1, for the player whose medals it was given); Aki taps chair 3
on the map and holds it. A big screen watches from the start."""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Error, Page, ViewportSize, expect

from partygames.games import musical_chairs
from tests.browser import driver
from tests.browser.server import PlatformProcess

PHONE: ViewportSize = {"width": 390, "height": 844}
BIG_SCREEN: ViewportSize = {"width": 1920, "height": 1080}
KINDS = ["human", "human", "bot:heuristic", "bot:heuristic", "bot:heuristic", "bot:heuristic"]
OPTIONS = {"tempo": "real-time", "players": 3, "gallery": 3, "player_seats": [2, 3, 4], "island": "test",
           "speed": 100, "first_break_seconds": 20, "break_seconds": 5, "race_seconds": 8, "vote_seconds": 5,
           "remove_seconds": 5}
AKI, BEN = 0, 1
PLAYERS = ("Bot Aoi (heuristic)", "Bot Ben (heuristic)", "Bot Chika (heuristic)")

# What a line may not hold: data structures, snake_case keys, the generic renderer's "Type — Key: value",
# its field names (in either language), raw match times in ms, JavaScript's placeholders.
RAW = {
    "a data structure": re.compile(r"[{}\[\]]"),
    "a raw key": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "the generic 'Type — Key: value'": re.compile(r" — "),
    "a raw field": re.compile(r"\b(At|Ends|Until|Phase|Period|Candidates|Votes|Abstained|Termination|Re-run|Held for"
                              r"|Chair number|By lot|Seated|Medals bearing the name of \(seat\)|Winner|Motion|Target):"
                              r"|位置・時刻|メダルの名前\(席\)|イスの番号:"),
    "a time in ms": re.compile(r"\b\d{1,3}(,\d{3})+\b|\b\d{4,}\b"),
    "a placeholder": re.compile(r"undefined|\bnull\b|NaN|\[object"),
}

# Every event the game emits (rules.py and race.py) with data as the rules write it, in each of its forms.
SAMPLES: list[tuple[str, dict[str, Any]]] = [
    ("break", {"period": 2, "rerun": False, "at": 65378, "ends": 80378}),
    ("break", {"period": 1, "rerun": True, "at": 45000, "ends": 90000}),
    ("race_started", {"period": 1, "rerun": False, "at": 20000, "ends": 80000}),
    ("race_started", {"period": 1, "rerun": True, "at": 90000, "ends": 150000}),
    ("touched", {"seat": 0, "at": 21000}),
    ("course", {"seat": 0, "motion": {"from": [1, 2], "to": [3, 4], "start": 1000, "arrive": 2000},
                "target": {"kind": "totem"}}),
    ("arrived", {"seat": 0, "at": 2000, "target": {"kind": "chair", "chair": 2}}),
    ("stood", {"seat": 1, "chair": 2, "at": 30000, "until": 40000}),
    ("released", {"seat": 1, "chair": 2, "at": 40000}),
    ("held", {"seat": 2, "chair": 2, "for": 1, "at": 3571}),
    ("held", {"seat": 2, "chair": 3, "for": None, "at": 3571}),
    ("hold_ended", {"seat": 2, "chair": 2, "at": 5000}),
    ("seated", {"seat": 0, "chair": 1, "at": 23000}),
    ("race_ended", {"period": 1, "at": 45000, "seated": {"0": 1, "1": 2}}),
    ("race_ended", {"period": 1, "at": 45000, "seated": {}}),
    ("gather", {"period": 1, "at": 45000, "ends": 345000}),
    ("out", {"seat": 3, "period": 1, "at": 45000}),
    ("medals_void", {"name": 3}),
    ("vote_opened", {"phase": "vote", "candidates": [1, 2], "at": 45000, "ends": 90000}),
    ("vote_opened", {"phase": "runoff", "candidates": [1, 2], "at": 90000, "ends": 135000}),
    ("ballot_cast", {"seat": 1, "at": 50000}),
    ("tally", {"phase": "vote", "candidates": [1, 2], "votes": {"1": 2, "2": 3}, "abstained": 3}),
    ("tally", {"phase": "runoff", "candidates": [1, 2], "votes": {"1": 2, "2": 2}, "abstained": 0}),
    ("parent", {"seat": 2, "by_lot": False, "at": 90000}),
    ("parent", {"seat": 2, "by_lot": True, "at": 135000}),
    ("chair_removed", {"chair": 3, "by": 2, "by_lot": False, "at": 100000}),
    ("chair_removed", {"chair": 3, "by": 2, "by_lot": True, "at": 120000}),
    ("game_over", {"termination": "last_player", "winner": 0, "at": 45000}),
    ("game_over", {"termination": "nobody_sat", "winner": None, "at": 150000}),
    ("planned", {"seat": 0, "at": 1000}),
    ("medals_given", {"from": 0, "to": 1, "name": 0, "count": 5, "at": 2000}),
    ("medals_given", {"from": 0, "to": 1, "name": 2, "count": 1, "at": 2000}),
    ("medals_shown", {"from": 0, "to": 1, "medals": {"0": 18, "2": 1}, "at": 3000}),
    ("medals_shown", {"from": 3, "to": 1, "medals": {}, "at": 3000}),
]
NAMES = {"en": ["Aki", "Ben", "Chika", "Daichi"], "ja": ["アキ", "ベン", "チカ", "ダイチ"]}
SEAT_KEYS = ("seat", "from", "to", "name", "for", "winner", "by")
# Movement is drawn on the map, never told (a line per step would bury the rest); a chair plan is told
# in the rounds tempo only (there it says who is ready; in real time it is a way of moving).
HIDDEN = {"course", "arrived"}

DESCRIBE = """async ({ samples, names, lang, tempo }) => {
  const game = await import("/games/musical-chairs/view.js");
  const info = (await (await fetch("/api/games")).json()).find((g) => g.id === "musical-chairs");
  const label = (table, key) => { const t = info.labels[table] && info.labels[table][key]; return t ? t[lang] : null; };
  const ctx = { lang, seat: null, seatName: (i) => names[i], label, t: (k) => k, options: { tempo }, room: null };
  return samples.map(([type, data]) => game.describeEvent({ type, data, version: 1 }, lang, ctx));
}"""


def emitted_types() -> set[str]:
    """The event types rules.py and race.py emit."""
    folder = Path(musical_chairs.__file__).parent
    return {m for name in ("rules.py", "race.py") for m in re.findall(r'Event\("(\w+)"', (folder / name).read_text())}


def raw_in(line: str) -> list[str]:
    return [what for what, pattern in RAW.items() if pattern.search(line)]


def assert_readable(lines: list[str], lang: str, where: str) -> None:
    """Each line a sentence: no raw data; a Japanese line is in Japanese."""
    assert lines, where
    for line in lines:
        assert not raw_in(line), (where, line, raw_in(line))
        if lang == "ja":
            assert re.search(r"[ぁ-んァ-ヶ一-龯]", line), (where, line)


def test_every_event_the_game_emits_reads_as_a_sentence_in_both_languages(
        browser: Browser, platform: PlatformProcess) -> None:
    assert {t for t, _ in SAMPLES} == emitted_types(), "a new event needs a sentence (view.js) and a sample here"
    player = driver.open_player(browser, platform)
    for lang in ("en", "ja"):
        for tempo in ("real-time", "rounds"):
            said = player.page.evaluate(DESCRIBE, {"samples": SAMPLES, "names": NAMES[lang], "lang": lang, "tempo": tempo})
            for (kind, data), line in zip(SAMPLES, said, strict=True):
                hidden = kind in HIDDEN or (kind == "planned" and tempo == "real-time")
                if hidden:
                    assert line is None, (kind, lang, line)
                    continue
                assert isinstance(line, str) and line.strip(), (kind, lang, tempo, line)
                assert_readable([line], lang, f"{kind} ({tempo})")
                # Every seat in the data by its name (never its number).
                for key in SEAT_KEYS:
                    if isinstance(data.get(key), int) and not (kind == "chair_removed" and data["by_lot"]):
                        assert NAMES[lang][data[key]] in line, (kind, lang, key, line)
                for seat in data.get("candidates", []):
                    assert NAMES[lang][seat] in line, (kind, lang, line)
    # Yen as each language writes it (the client's one format, web/money.js, which the game's view writes
    # through ctx.yen): no 億 in English, no 0億円 in Japanese.
    amounts = player.page.evaluate("""async () => { const { yen } = await import("/static/money.js");
      return [0, 100000000, 1800000000, 150000000, 12345].flatMap((v) => [yen(v, "en"), yen(v, "ja")]); }""")
    assert amounts == ["¥0", "0円", "¥100,000,000", "1億円", "¥1,800,000,000", "18億円", "¥150,000,000", "1億5000万円",
                       "¥12,345", "1万2345円"]
    assert player.errors == []
    player.close()


def _open(browser: Browser, platform: PlatformProcess, code: str, held: dict[str, Any] | None, lang: str,
          viewport: ViewportSize, query: str = "") -> driver.Player:
    context = browser.new_context(viewport=viewport, locale="ja-JP" if lang == "ja" else "en-US")
    script = f"localStorage.setItem('pg.lang', {json.dumps(lang)});"
    if held:
        script += f" localStorage.setItem('pg.room.{code}', {json.dumps(json.dumps(held))});"
    context.add_init_script(script)
    page = context.new_page()
    page.set_default_timeout(15_000)
    player = driver.Player(page)
    page.on("pageerror", lambda error: player.errors.append(str(error)))
    page.goto(f"{platform.url}/room/{code}{query}")
    page.get_by_test_id("board").wait_for()
    return player


def _lines(page: Page, selector: str) -> list[str]:
    return [text.strip() for text in page.locator(selector).all_inner_texts() if text.strip()]


def _shown(page: Page) -> int:
    return int(page.evaluate("() => window.partygames.narration.version"))


def test_a_real_time_match_reads_well_on_phones_and_the_big_screen(
        browser: Browser, platform: PlatformProcess, artifacts: Path) -> None:
    with httpx.Client(base_url=platform.url) as http:
        created = http.post("/api/rooms", json={"game": "musical-chairs", "seats": len(KINDS), "options": OPTIONS,
                                                "seat_kinds": KINDS, "name": "Aki"}).json()
        code = created["code"]
        joined = http.post(f"/api/rooms/{code}/join", json={"name": "Ben"}).json()
        started = http.post(f"/api/rooms/{code}/start", json={}, headers={"X-Host-Token": created["host_token"]})
        assert started.status_code == 200, started.text
    aki = _open(browser, platform, code, {"seat": created["seat"], "token": created["token"], "name": "Aki",
                                          "hostToken": created["host_token"]}, "en", PHONE)
    ben = _open(browser, platform, code, {"seat": joined["seat"], "token": joined["token"], "name": "Ben"}, "ja", PHONE)
    table = _open(browser, platform, code, None, "en", BIG_SCREEN, "?table=1")

    # The big screen lists the players, each with their state, and its phase clock ticks (the view does not
    # change meanwhile: the first break is quiet once everyone has walked to the totem).
    roster = table.page.get_by_test_id("mc-players")
    expect(roster.locator("li[data-seat]")).to_have_count(3)
    for name in PLAYERS:
        expect(roster).to_contain_text(name)
    clock = table.page.get_by_test_id("phase-clock").get_by_test_id("countdown")
    ticked = False
    for _ in range(8):
        version, left = _shown(table.page), int(clock.get_attribute("data-left") or 0)
        time.sleep(1.3)
        if _shown(table.page) == version and int(clock.get_attribute("data-left") or 0) < left:
            ticked = True
            break
    assert ticked, "the big screen's phase clock does not tick"

    # On a phone in real time the island comes before the actions, on the first screen, with its legend; the
    # English wallet says the medal's worth in English.
    page = aki.page
    page.evaluate("window.scrollTo(0, 0)")
    island, actions = page.get_by_test_id("island").bounding_box(), page.locator(".actions").bounding_box()
    assert island and actions and island["y"] < actions["y"] and island["y"] < PHONE["height"] / 2, (island, actions)
    expect(page.get_by_test_id("legend")).to_contain_text("Gallery")
    expect(ben.page.get_by_test_id("legend")).to_contain_text("ガヤ")
    wallet = page.get_by_test_id("wallet").locator("h3")
    expect(wallet).to_contain_text("100 million yen each")
    assert "億" not in wallet.inner_text()
    expect(ben.page.get_by_test_id("wallet").locator("h3")).to_contain_text("1枚1億円")
    page.screenshot(path=str(artifacts / "musical-chairs-phone-map-first.png"))
    table.page.screenshot(path=str(artifacts / "musical-chairs-table-players.png"))

    # Aki taps chair 3 on the map and holds it (for nobody): the map is how one plays.
    page.locator("[data-testid=island] .mc-chair[data-chair='3']").click()
    page.wait_for_function("() => (window.partygames.state.view.people[0].target || {}).chair === 3")

    lines: dict[str, set[str]] = {"aki": set(), "ben": set(), "table": set()}
    pages = {"aki": aki, "ben": ben, "table": table}
    end = time.monotonic() + 240
    while not all(driver.is_over(p) for p in pages.values()):
        assert time.monotonic() < end, "no results after 240 s"
        for who, player in pages.items():
            lines[who] |= set(_lines(player.page, "[data-testid=stage] .stage-text, [data-testid=stage] li"))
            # The humans vote when asked (quicker than waiting for the vote's end).
            if who != "table" and "vote" in driver.enabled_actions(player.page):
                with contextlib.suppress(Error):
                    player.page.locator(".actions button[data-action=vote]:not([disabled])").first.click(timeout=2000)
        time.sleep(0.25)

    # Every line of "what just happened" and of the log, for every page: a sentence, in its reader's language.
    for who, player in pages.items():
        player.page.locator("details.log summary").click()
        lines[who] |= set(_lines(player.page, ".log-list li"))
        assert_readable(sorted(lines[who]), "ja" if who == "ben" else "en", who)
    told = set(table.page.evaluate("() => window.partygames.state.events.map((e) => e.type)"))
    assert {"race_started", "seated", "held", "game_over"} <= told, told
    assert any("Aki holds chair 3" in line for line in lines["table"]), sorted(lines["table"])
    assert any("Akiがイス3を押さえました" in line for line in lines["ben"]), sorted(lines["ben"])

    # The results: the payouts seat by seat, by name; 0 yen is 0円 in Japanese, never 0億円.
    for player, lang in ((aki, "en"), (ben, "ja")):
        payouts = player.page.get_by_test_id("payouts").locator("tr")
        expect(payouts).to_have_count(len(KINDS))
        expect(payouts.nth(2)).to_contain_text("Bot Aoi" if lang == "en" else "ボット アオイ")
    results = ben.page.get_by_test_id("results").inner_text()
    assert "0億円" not in results and "0円" in results, results
    assert "億" not in aki.page.get_by_test_id("results").inner_text()
    # The score column is the payout, in yen as each language writes it.
    for player, mark in ((aki, "¥"), (ben, "円")):
        scores = player.page.locator(".results-table .seat-result td.num").all_inner_texts()
        assert scores and all(mark in s for s in scores), scores
    # The big screen's players at the end: the winner, and the others out.
    expect(roster.locator("li[data-state=out]").first).to_be_visible()
    table.page.screenshot(path=str(artifacts / "musical-chairs-table-end.png"))
    for player in pages.values():
        assert player.errors == []
        player.close()
