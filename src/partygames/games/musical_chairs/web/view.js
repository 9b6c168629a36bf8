// Musical Chairs' renderer: the island in SVG (tap a chair to run there, the totem to run to it), your
// avatar highlighted, lit lamps, your forbidden chair marked, the tally, the removed chairs and your
// medal wallet. Votes, gifts and plans use the platform's action controls (built from legal_actions).
const ja = (lang) => lang === "ja";
const T = (lang, en, jp) => (ja(lang) ? jp : en);

/** Where a course {from, to, start, arrive} has got to at `now` (as the engine computes it). */
function position(motion, now) {
  if (now >= motion.arrive) return motion.to;
  if (now <= motion.start) return motion.from;
  const f = (now - motion.start) / (motion.arrive - motion.start);
  return [motion.from[0] + (motion.to[0] - motion.from[0]) * f, motion.from[1] + (motion.to[1] - motion.from[1]) * f];
}

const legal = (view, type) => (view.legal_actions || []).find((s) => s.type === type);

function island(view, ctx, big) {
  const { html, lang } = ctx;
  const { width, height, totem, rx, ry } = view.island;
  const me = ctx.seat != null ? view.people[ctx.seat] : null;
  const canRun = !!legal(view, "run_to_chair");
  const run = (action) => ctx.send && ctx.send({ type: "action", action });
  const chairs = view.chairs.filter((c) => !c.removed).map((c) => {
    const lit = c.occupant != null;
    const forbidden = me && me.last_chair === c.number;
    const label = T(lang, `Chair ${c.number}`, `イス${c.number}`) + (lit ? T(lang, " (taken)", "(着席済み)") : "")
      + (forbidden ? T(lang, " (not for you this time)", "(今回は座れません)") : "");
    return html`<g class=${"mc-chair" + (lit ? " lit" : "") + (forbidden ? " forbidden" : "")} role="button"
        aria-label=${label} data-chair=${c.number}
        onClick=${canRun ? () => run({ type: "run_to_chair", chair: c.number }) : null}>
      <rect x=${c.at[0] - 4} y=${c.at[1] - 4} width="8" height="8" rx="1.5"
        fill=${lit ? "#ffd54a" : "#8d6e63"} stroke=${forbidden ? "#d32f2f" : c.holder != null ? "#7e57c2" : "#4e342e"}
        stroke-width=${forbidden || c.holder != null ? 1.6 : 0.8} stroke-dasharray=${forbidden ? "2 1" : null} />
      <text x=${c.at[0]} y=${c.at[1] + 2.2} text-anchor="middle" font-size="6" fill="#1b1b1b">${c.number}</text>
    </g>`;
  });
  const people = view.people.map((p, seat) => {
    if (!p.motion) return null;
    const [x, y] = position(p.motion, view.now);
    const mine = seat === ctx.seat;
    const fill = mine ? "#e53935" : p.role === "player" ? "#1e88e5" : "#9e9e9e";
    return html`<circle cx=${x} cy=${y} r=${mine ? 3.2 : 2.2} fill=${fill} stroke=${mine ? "#fff" : "none"}
      stroke-width="0.8"><title>${ctx.seatName(seat)}</title></circle>`;
  });
  return html`<svg class="mc-island" viewBox=${`-5 -5 ${width + 10} ${height + 10}`}
      style=${`width:100%;max-height:${big ? "calc(100vh - 16rem)" : "60vh"};background:#4fc3f7;border-radius:8px`}
      data-testid="island">
    <ellipse cx=${totem[0]} cy=${totem[1]} rx=${rx} ry=${ry} fill="#c5e1a5" stroke="#fff59d" stroke-width="2" />
    <circle cx=${totem[0]} cy=${totem[1]} r=${view.totem_reach} fill="#fff9c4" opacity="0.6" />
    <g role="button" aria-label=${T(lang, "Totem pole", "トーテムポール")} data-testid="totem"
        onClick=${legal(view, "run_to_totem") ? () => run({ type: "run_to_totem" }) : null}>
      <rect x=${totem[0] - 2.5} y=${totem[1] - 9} width="5" height="14" fill="#6d4c41" />
      <text x=${totem[0]} y=${totem[1] - 11} text-anchor="middle" font-size="5">${T(lang, "Totem", "トーテム")}</text>
    </g>
    ${chairs}${people}
  </svg>`;
}

function wallet(view, ctx) {
  const { html, lang } = ctx;
  if (!view.my_medals) return null;
  const rows = Object.entries(view.my_medals).map(([name, n]) =>
    html`<li>${T(lang, "Medals of", "メダル: ")} ${ctx.seatName(Number(name))} × ${n}</li>`);
  // Only each seat's latest showing, newest first: an earlier one is out of date (medals change hands).
  const latest = new Map();
  for (const s of view.shown_to_me || []) latest.set(s.from, s);
  const shown = [...latest.values()].reverse().map((s) => {
    const medals = Object.entries(s.medals).map(([k, n]) => `${ctx.seatName(Number(k))} × ${n}`).join(", ");
    const who = ctx.seatName(s.from);
    return html`<li data-shown-by=${s.from}>${T(lang, `${who} showed you`, `${who}が見せたメダル`)}: ${medals || T(lang, "no medals", "なし")}</li>`;
  });
  return html`<div class="mc-wallet" data-testid="wallet"><h3>${T(lang, "Your medals (1億 yen each if their player wins)", "あなたのメダル(その人が勝てば1枚1億円)")}</h3>
    <ul>${rows.length ? rows : html`<li>—</li>`}</ul>${shown.length ? html`<ul>${shown}</ul>` : null}</div>`;
}

/** The gathering between the race and the parent vote (as the terminal says it). */
function gatherHint(view, lang) {
  if (view.vote_at_totem) {
    const reach = view.totem_reach;
    return T(lang, `Seating is settled. The parent vote opens when the time is up: only a ballot cast within ${reach} m of the totem pole counts.`,
      `着座確定。時間になると親決め投票が始まります。トーテムポールから${reach}m以内で投じた票だけが有効です。`);
  }
  return T(lang, "Seating is settled. The parent vote opens when the time is up.", "着座確定。時間になると親決め投票が始まります。");
}

function status(view, ctx) {
  const { html, lang } = ctx;
  const entry = view.history[view.history.length - 1];
  const tally = entry && (entry.runoff || entry.vote);
  const removed = view.history.filter((e) => e.removed).map((e) => e.removed);
  const me = ctx.seat != null ? view.people[ctx.seat] : null;
  const left = view.phase_ends != null ? Math.max(0, Math.ceil((view.phase_ends - view.now) / 1000)) : null;
  return html`<div class="mc-status">
    <p><strong>${T(lang, "Period", "ピリオド")} ${view.period}</strong> — ${ctx.label("phases", view.phase) || view.phase}
      ${view.rerun ? T(lang, " (re-run)", "(やり直し)") : ""}${left != null ? ` · ${left} s` : ""}</p>
    ${me && me.role === "player" && view.phase === "race"
      ? html`<p data-testid="watch">${me.chair != null ? "OK" : me.touched ? T(lang, "Find a chair!", "イスへ!") : T(lang, "Touch the totem first", "まずトーテムにタッチ")}</p>` : null}
    ${view.phase === "gather" ? html`<p data-testid="gather">${gatherHint(view, lang)}</p>` : null}
    ${tally ? html`<p data-testid="tally">${T(lang, "Tally", "開票")}: ${Object.entries(tally.votes).map(([s, n]) => `${ctx.seatName(Number(s))} ${n}`).join(", ")}; ${T(lang, "abstained", "棄権")} ${tally.abstained}</p>` : null}
    ${view.parent != null ? html`<p>${T(lang, "Parent", "親")}: ${ctx.seatName(view.parent)}</p>` : null}
    ${removed.length ? html`<p>${T(lang, "Removed chairs", "除外されたイス")}: ${removed.join(", ")}</p>` : null}
  </div>`;
}

export function render(view, ctx) {
  const { html } = ctx;
  return html`<div class="mc">${status(view, ctx)}${island(view, ctx, false)}${wallet(view, ctx)}</div>`;
}

export function renderTable(view, ctx) {
  const { html } = ctx;
  // The map and, beside it, the status (period, countdown, tally, parent, removed chairs): a big screen
  // shows both without scrolling.
  return html`<div class="mc table" style="display:flex;gap:1rem;align-items:flex-start">
    <div style="flex:3;min-width:0">${island(view, ctx, true)}</div>
    <div style="flex:1.3;min-width:0">${status(view, ctx)}</div></div>`;
}

/** Below the results table: when nobody sat twice, a sentence that nobody won (every seat ranks the same at
 * zero, and none is a winner). */
export function renderResult(result, ctx) {
  const { html, lang } = ctx;
  if (!result || result.termination !== "nobody_sat") return null;
  return html`<p class="verdict" data-testid="no-winner">${T(lang, "Nobody wins: nobody sat in the race nor in its re-run, and every medal is void.",
    "勝者なし: レースでもやり直しでも誰も座れず、メダルはすべて無効です。")}</p>`;
}

export function valueLabel(type, name, value, lang, view, ctx) {
  if (name === "candidate" && value === "blank") return T(lang, "Blank ballot (abstain)", "白票(棄権)");
  if (["candidate", "player", "to", "name"].includes(name) && ctx) return ctx.seatName(value);
  if (name === "chair" || name === "chairs") return T(lang, `chair ${value}`, `イス${value}`);
  return null;
}

export function holdingValue(key, value, lang) {
  if (key === "payout") return ja(lang) ? `${(value / 100_000_000).toLocaleString("ja-JP")}億円` : `¥${value.toLocaleString("en-US")}`;
  if (key === "out_in_period") return value == null ? "—" : String(value);
  return undefined;
}

export function describeEvent(event, lang, ctx) {
  const d = event.data || {};
  const who = (s) => ctx.seatName(s);
  switch (event.type) {
    case "course": case "arrived": case "stood": case "ballot_cast": case "planned": return null;
    case "race_ended": return T(lang, "The race is over.", "レース終了。");
    case "vote_opened": return T(lang, "The parent vote is open.", "親決め投票が始まりました。");
    case "gather": return T(lang, "Seating is settled: the parent vote follows the gathering.", "着座確定: 集合時間の後に親決め投票です。");
    case "race_started": return T(lang, "GO! Touch the totem pole, then find a chair.", "スタート! トーテムポールにタッチしてからイスへ。");
    case "touched": return T(lang, `${who(d.seat)} touched the totem`, `${who(d.seat)} がトーテムにタッチ`);
    case "seated": return T(lang, `${who(d.seat)} sits on chair ${d.chair}`, `${who(d.seat)} がイス${d.chair}に着席`);
    case "out": return T(lang, `${who(d.seat)} is out`, `${who(d.seat)} は敗退`);
    case "parent": return T(lang, `${who(d.seat)} is the parent`, `${who(d.seat)} が親に`);
    case "chair_removed": return T(lang, `Chair ${d.chair} leaves the game`, `イス${d.chair}が除外`);
    case "medals_given": return T(lang, `${who(d.from)} gave ${who(d.to)} ${d.count} medal(s) of ${who(d.name)}`, `${who(d.from)} が ${who(d.to)} に ${who(d.name)} のメダルを${d.count}枚`);
    case "medals_shown": return T(lang, `${who(d.from)} showed ${who(d.to)} their medals`, `${who(d.from)} が ${who(d.to)} にメダルを見せた`);
    default: return undefined;
  }
}
