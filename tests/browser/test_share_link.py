"""The share link on a phone (issue 29): over plain http at a LAN address a phone was told "Press Ctrl+C",
which it cannot do, with the field scrolled to the link's end. Now: the system share sheet where the page has
one, else the link selected from its start with words a finger can follow, in English and Japanese."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from playwright.sync_api import Browser, ViewportSize, expect

from tests.browser.chromium import LAN_HOST
from tests.browser.server import PlatformProcess

PHONE: ViewportSize = {"width": 390, "height": 844}


def test_a_phone_gets_the_share_sheet_or_the_link_selected_with_touch_words(browser: Browser, tmp_path: Path) -> None:
    platform = PlatformProcess(tmp_path)
    platform.args += ["--public-url", f"http://{LAN_HOST}:{platform.port}"]
    platform.start()
    try:
        created = httpx.post(f"{platform.url}/api/rooms", json={"game": "lucky-nine", "seats": 2, "name": "Aki"}).json()
        lan = f"http://{LAN_HOST}:{platform.port}/room/{created['code']}"
        for lang, hint in (("en", "The link is selected: touch and hold it, then choose Copy"),
                           ("ja", "リンクを選択しました: 長押しして「コピー」を選んでください")):
            # A phone over plain http at a LAN address: no share sheet, no clipboard API.
            context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                                          locale="ja-JP" if lang == "ja" else "en-US")
            context.add_init_script(f"localStorage.setItem('pg.lang', {json.dumps(lang)})")
            page = context.new_page()
            page.goto(lan)
            field = page.get_by_test_id("share-link")
            field.wait_for()
            # The rules arrive with the game's info and push the button down: click once they are there
            # (a click aimed before that shift lands beside the button on a busy machine).
            page.locator("details.rules").wait_for()
            page.get_by_test_id("copy-link").click()
            expect(page.get_by_test_id("copy-hint")).to_have_text(hint)
            assert "Ctrl" not in page.get_by_test_id("copy-hint").inner_text()
            # All of the link selected, the field showing its start (the address), not its end.
            state = field.evaluate("e => [e.value.slice(e.selectionStart, e.selectionEnd), e.scrollLeft, document.activeElement === e]")
            assert state == [lan, 0, True], state
            context.close()
        # Where the page has the share sheet (a secure context on a phone), the button offers it and it gets
        # the link.
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        context.add_init_script("localStorage.setItem('pg.lang', 'en'); window.__shared = [];"
                                "navigator.share = async (data) => { window.__shared.push(data); };")
        page = context.new_page()
        page.goto(f"{platform.url}/room/{created['code']}")
        button = page.get_by_test_id("copy-link")
        expect(button).to_have_text("Share")
        button.click()
        page.wait_for_function("() => window.__shared.length === 1")
        assert page.evaluate("() => window.__shared[0].url") == lan
        expect(page.get_by_test_id("copy-hint")).to_have_count(0)
        context.close()
    finally:
        platform.stop()
