"""Smuggling writes money as money everywhere (issue 29): the banner's "doubts 200000000" and the amount field
were raw yen; a results amount kept its minus sign on a line of its own; a winner who lost money was only a
"Winner" (now "Winner" and "but lost money": the team won, the person lost); and the Japanese called the case both アタッシュケース and トランク.

The client's own modules, in the page the platform serves: the game's view.js with the room's real ctx
(`makeCtx`), the results and the action panel rendered by Preact."""

from __future__ import annotations

import re

from playwright.sync_api import Browser

from tests.browser import driver
from tests.browser.server import PlatformProcess

RENDER = """async ({ lang }) => {
  const game = await import("/games/smuggling/view.js");
  const { makeCtx } = await import("/static/room.js");
  const { Results } = await import("/static/results.js");
  const { ActionPanel } = await import("/static/actions.js");
  const { html, render } = await import("/static/lib.js");
  const { setLang } = await import("/static/i18n.js");
  setLang(lang);
  const info = (await (await fetch("/api/games")).json()).find((g) => g.id === "smuggling");
  const seats = [0, 1].map((seat) => ({ seat, kind: "human", taken: true, name: ["Alice", "Ben"][seat] }));
  const ctx = makeCtx({ room: { seats, options: {} }, seat: 0, lang, labels: info.labels });
  const settled = { type: "settled", version: 3, data: { small_game: 1, smuggler: 1, inspector: 0, trunk: 100000000,
    declaration: "doubt", doubt: 200000000, outcome: "caught", votes: null, totals: { north: 0, south: 0 }, transfers: [] } };
  const packed = { type: "trunk_packed", version: 2, data: { smuggler: 1 } };
  const contents = { type: "trunk_contents", version: 2, data: { amount: 40000000 } };
  const texts = [game.happening(settled, {}, lang, ctx), game.describeEvent(settled, lang, ctx),
    game.describeEvent(packed, lang, ctx), game.describeEvent(contents, lang, ctx)];
  // The results in a phone's width: a winning team's member who lost money, and the other side.
  const box = document.createElement("div");
  box.style.width = "340px";
  box.style.overflow = "auto";
  document.body.append(box);
  const result = { termination: "all_played", detail: {}, seats: [
    { seat: 0, rank: 1, score: -217386667, is_winner: true, holdings: {} },
    { seat: 1, rank: 2, score: 217386667, is_winner: false, holdings: {} }] };
  render(html`<${Results} result=${result} game=${game} ctx=${ctx} />`, box);
  const cell = box.querySelector("tbody[data-seat='0'] td.num");
  const range = document.createRange();
  range.selectNodeContents(cell);
  const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  const badge = [...box.querySelectorAll("tbody[data-seat='0'] .badge")].map((b) => b.textContent.trim()).join(" | ");
  const overflow = box.scrollWidth - box.clientWidth;
  // The amount field of packing the trunk, with 200,000,000 typed.
  const panel = document.createElement("div");
  document.body.append(panel);
  const spec = { type: "pack", params: { amount: { min: 0, max: 100000000, step: 10000 } } };
  render(html`<${ActionPanel} game=${game} specs=${[spec]} view=${{}} ctx=${ctx} onAct=${() => {}} busy=${false} />`, panel);
  const input = panel.querySelector("input[data-param=amount]");
  input.value = "20000000";
  input.dispatchEvent(new Event("input", { bubbles: true }));
  await new Promise((r) => setTimeout(r, 50));
  const reading = panel.querySelector("[data-reading=amount]");
  const pageText = document.body.innerText;
  box.remove(); panel.remove();
  return { texts, cellText: cell.textContent.trim(), cellLines: lines,
           badge, overflow, reading: reading ? reading.textContent : null, pageText };
}"""


def test_smuggling_writes_money_as_money_and_says_a_winner_lost_money(browser: Browser,
                                                                      platform: PlatformProcess) -> None:
    player = driver.open_player(browser, platform)
    for lang, doubt, reading, badge, amount in (
            ("en", "Alice (you) doubts ¥200,000,000: the trunk opens", "¥20,000,000", "Winner | but lost money",
             "−¥217,386,667"),
            ("ja", "Alice (あなた) のダウト 2億円: アタッシュケースを開けます", "2000万円", "勝者 | 本人は損失",
             "−2億1738万6667円")):
        said = player.page.evaluate(RENDER, {"lang": lang})
        assert said["texts"][0] == doubt, said["texts"]
        for text in said["texts"]:
            assert not re.search(r"\d{5,}", text), text  # no raw figure of yen
            assert "トランク" not in text, text  # one word for the case: アタッシュケース
        assert said["reading"] == reading, said
        assert said["badge"] == badge and said["cellText"] == amount, said
        # One line at the row's height, however narrow the phone: the minus sign stays with its amount.
        assert said["cellLines"] == 1, said
        assert said["overflow"] <= 0, said  # and the row still fits a phone's width
    assert player.errors == []
    player.close()
