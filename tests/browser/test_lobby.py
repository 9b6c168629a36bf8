"""The lobby in a real browser: every option value of every game titled in Japanese, each game said in one
line, the original rules as a preset, the Liar Game night made from its card; the share link copied, or selected where plain http has no
clipboard; and Smuggling's results headline."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, ViewportSize, expect

from partygames import games
from tests.browser import driver
from tests.browser.chromium import LAN_HOST
from tests.browser.server import PlatformProcess

WIDE = r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]"
WIDE_VIEW: ViewportSize = {"width": 1280, "height": 900}  # the options start open on a wide screen


def _choices(game_id: str) -> dict[str, dict[str, Any]]:
    """The game's choice options as its schema gives them: {name: field}, `X | None` unwrapped."""
    schema = games.get(game_id).options_class.describe()
    return {name: field for name, field in schema["properties"].items() if "enum" in field}


def test_the_create_room_form_in_japanese_titles_every_option_value_and_says_what_each_game_is(
        browser: Browser, platform: PlatformProcess) -> None:
    player = driver.open_player(browser, platform, lang="ja", viewport=WIDE_VIEW)
    page = player.page
    form = page.get_by_test_id("create-room")
    # Each card says in one line what its game is, in the reader's language.
    expect(page.get_by_test_id("blurb")).to_have_text([g.blurb.ja for g in games.all_games() if g.blurb])
    for game in games.all_games():
        page.get_by_test_id("create-game").select_option(game.id)
        expect(form.get_by_test_id("create-blurb")).to_have_text(game.blurb.ja if game.blurb else "")
        options = form.get_by_test_id("options")
        expect(options).to_have_attribute("open", "")
        # Every choice lists its values by their Japanese titles, the default said by its title too.
        raw: set[str] = set()
        for name, field in _choices(game.id).items():
            titles = [field["value_titles"][str(v)]["ja"] for v in field["enum"]]
            control = options.locator(f"select[name={name}]")
            expect(control.locator("option")).to_have_text(titles)
            expect(options.locator(f"label.option:has(select[name={name}]) .default")).to_have_text(
                f"既定値: {field['value_titles'][str(field['default'])]['ja']}")
            raw |= {v for v in field["enum"] if isinstance(v, str)}
        shown = options.inner_text()
        left = sorted(v for v in raw if re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", shown))
        assert not left, f"{game.id}: raw values in the Japanese form: {left}"
        # The summary reads as prose: no space where a source line was broken between Japanese words.
        form.locator("details.summary summary").click()
        for text in form.locator(".prose p, .prose li").all_inner_texts():
            assert not re.search(f"{WIDE} +{WIDE}", text), (game.id, text)
        form.locator("details.summary summary").click()
    # Smuggling starts as an evening's match; its original rules are a preset that fills seats and options.
    page.get_by_test_id("create-game").select_option("smuggling")
    preset, seats = form.get_by_test_id("create-preset"), form.get_by_test_id("create-seats")
    expect(preset).to_have_value("")
    expect(seats).to_have_value("6")
    expect(form.get_by_test_id("match-minutes")).to_have_text("約33分")
    preset.select_option("original")
    expect(seats).to_have_value("18")
    expect(form.locator("[name=small_games]")).to_have_value("50")
    expect(form.locator("[name=inspection_seconds]")).to_have_value("600")
    expect(form.get_by_test_id("preset-note")).to_have_text("9人ずつの2チーム・小ゲーム50回・検査ルーム10分")
    expect(form.get_by_test_id("match-minutes")).to_have_text("約5時間37分")
    form.locator("[name=small_games]").fill("40")  # changed by hand: no longer the preset
    expect(preset.locator("option:checked")).to_have_text("カスタム")
    preset.select_option("")
    expect(seats).to_have_value("6")
    expect(form.locator("[name=small_games]")).to_have_value("20")
    # Yen, one way per language across the client (web/money.js, every game's view through ctx.yen).
    amounts = [0, 5000, 399_985_000, -1_800_000_000, 150_000_000, 1_200_000_000_000]
    written = page.evaluate("""async (amounts) => { const { yen } = await import("/static/money.js");
      return amounts.flatMap((n) => [yen(n, "en", { signed: true }), yen(n, "ja", { signed: true }), yen(n, "ja")]); }""", amounts)
    assert written == [w for n in amounts for w in (_yen(n, "en"), _yen(n, "ja"), _yen(n, "ja").lstrip("+"))]
    assert written[6:9] == ["+¥399,985,000", "+3億9998万5000円", "3億9998万5000円"] and written[:3] == ["¥0", "0円", "0円"]
    # The Liar Game night (issue 30) is made from its own card: a room of the night's first round, the host seated.
    night = page.get_by_test_id("night-card")
    expect(night).to_contain_text("第四回戦予選: 感染ゲーム")
    night.get_by_test_id("night-seats").select_option("8")
    night.get_by_test_id("night-name").fill("あき")
    night.get_by_test_id("create-night").click()
    page.wait_for_url(re.compile(r"/room/[A-Z0-9]+$"))
    code = page.url.rsplit("/", 1)[1]
    room = httpx.get(f"{platform.url}/api/rooms/{code}").json()
    assert (room["game"], len(room["seats"]), room["options"]["team_size"]) == ("smuggling", 8, 4)
    assert room["seats"][0]["name"] == "あき" and room["seats"][0]["taken"]
    assert httpx.get(f"{platform.url}/api/rooms/{code}/ledger").json()["night"] == "liar-game"
    assert player.errors == []
    player.close()


def _page(browser: Browser, url: str, lang: str, wait_for: str, created: dict[str, Any] | None = None) -> driver.Player:
    """A browser at `url` reading `lang`; with `created` (a room's creation answer) in the host's seat."""
    context = browser.new_context(locale="ja-JP" if lang == "ja" else "en-US")
    script = f"localStorage.setItem('pg.lang', {json.dumps(lang)});"
    if created:
        held = {"seat": created["seat"], "token": created["token"], "name": "Aki", "hostToken": created["host_token"]}
        script += f" localStorage.setItem('pg.room.{created['code']}', {json.dumps(json.dumps(held))});"
    context.add_init_script(script)
    page = context.new_page()
    page.set_default_timeout(15_000)
    player = driver.Player(page)
    page.on("pageerror", lambda error: player.errors.append(str(error)))
    page.goto(url)
    page.get_by_test_id(wait_for).wait_for(timeout=60_000)
    return player


def test_the_share_link_is_copied_or_where_plain_http_has_no_clipboard_selected_with_a_hint(
        browser: Browser, tmp_path: Path) -> None:
    # The host gave the address phones use (`--public-url`): share links are built from it, never from the
    # request's Host header (issue #21, item 8).
    platform = PlatformProcess(tmp_path)
    platform.args += ["--public-url", f"http://{LAN_HOST}:{platform.port}"]
    platform.start()
    try:
        _share_link_copied(browser, platform)
    finally:
        platform.stop()


def _share_link_copied(browser: Browser, platform: PlatformProcess) -> None:
    created = httpx.post(f"{platform.url}/api/rooms", json={"game": "lucky-nine", "seats": 2, "name": "Aki"}).json()
    lan = f"http://{LAN_HOST}:{platform.port}/room/{created['code']}"
    for lang, hint in (("en", "Press Ctrl+C"), ("ja", "Ctrl+Cでコピー")):
        player = _page(browser, lan, lang, "share-link")
        page = player.page
        # A LAN name over plain http: not a secure context, so the page has no clipboard API.
        assert page.evaluate("() => [window.isSecureContext, typeof navigator.clipboard]") == [False, "undefined"]
        link = page.get_by_test_id("share-link").input_value()
        assert link == lan
        page.get_by_test_id("copy-link").click()
        expect(page.get_by_test_id("copy-hint")).to_have_text(hint)
        selected = page.evaluate("() => { const e = document.activeElement; return [e.dataset.testid, e.value.slice(e.selectionStart, e.selectionEnd)]; }")
        assert selected == ["share-link", link]
        assert player.errors == []
        player.close()
    # At 127.0.0.1 (a secure context) the link goes to the clipboard.
    player = _page(browser, f"{platform.url}/room/{created['code']}", "en", "share-link")
    player.page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=platform.url)
    player.page.get_by_test_id("copy-link").click()
    expect(player.page.get_by_test_id("copy-link")).to_have_text("Copied")
    assert player.page.evaluate("() => navigator.clipboard.readText()") == player.page.get_by_test_id("share-link").input_value()
    expect(player.page.get_by_test_id("copy-hint")).to_have_count(0)
    player.close()


def _yen(amount: int, lang: str) -> str:
    """An amount as the client writes it with a sign (web/money.js): "+¥1,234,000"; 「+123万4000円」."""
    sign = "−" if amount < 0 else "+" if amount > 0 else ""
    rest = abs(amount)
    if lang != "ja":
        return f"{sign}¥{rest:,}"
    text = ""
    for size, unit in ((10**12, "兆"), (10**8, "億"), (10**4, "万")):
        if rest >= size:
            text += f"{rest // size}{unit}"
            rest %= size
    return f"{sign}{text}{rest if rest or not text else ''}円"


def test_smuggling_s_results_name_the_winning_side_with_both_nets_and_each_person_s_team_and_net(
        browser: Browser, tmp_path: Path) -> None:
    # Aki (North) idles among bots: every time limit applies its default at once (pack nothing, pass, vote
    # by rotation), the bots play.
    server = PlatformProcess(tmp_path, deadline_scale=0.002).start()
    try:
        with httpx.Client(base_url=server.url) as http:
            created = http.post("/api/rooms", json={
                "game": "smuggling", "seats": 4, "options": {"small_games": 4}, "name": "Aki",
                "seat_kinds": ["human", "bot:heuristic", "bot:equilibrium", "bot:heuristic"]}).json()
            http.post(f"/api/rooms/{created['code']}/start", json={}, headers={"X-Host-Token": created["host_token"]})
            player = _page(browser, f"{server.url}/room/{created['code']}", "en", "results", created)
            result = http.get(f"/api/rooms/{created['code']}").json()["result"]
        nets = {"north": 0, "south": 0}
        for seat in result["seats"]:
            nets[seat["holdings"]["team"]] += int(seat["score"])  # whole yen (JSON carries it as 1.0e8)
        winner, mine = result["detail"]["winning_team"], {**result["seats"][0], "score": int(result["seats"][0]["score"])}
        page = player.page
        for lang, teams in (("en", {"north": "North", "south": "South"}), ("ja", {"north": "北の国", "south": "南の国"})):
            if winner is None:
                said = (f"A draw: North {_yen(nets['north'], lang)}, South {_yen(nets['south'], lang)}" if lang == "en"
                        else f"引き分け: 北の国 {_yen(nets['north'], lang)}・南の国 {_yen(nets['south'], lang)}")
            else:
                loser = "south" if winner == "north" else "north"
                said = (f"{teams[winner]} wins: {_yen(nets[winner], lang)} against {_yen(nets[loser], lang)}" if lang == "en"
                        else f"{teams[winner]}の勝ち: {_yen(nets[winner], lang)} 対 {_yen(nets[loser], lang)}")
            expect(page.get_by_test_id("verdict")).to_contain_text(said)
            own = (f"Aki (you): North · net {_yen(mine['score'], lang)}" if lang == "en"
                   else f"Aki (あなた): 北の国・純額 {_yen(mine['score'], lang)}")
            expect(page.get_by_test_id("my-result")).to_have_text(own)
            # The score column is each seat's net, in yen.
            expect(page.locator(".results-table tbody[data-seat='0'] .seat-result td.num")).to_have_text(
                _yen(mine["score"], lang).lstrip("+"))
            page.get_by_test_id("lang").click()
        assert player.errors == []
        player.close()
    finally:
        server.stop()
