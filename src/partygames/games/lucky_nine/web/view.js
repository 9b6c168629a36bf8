// Lucky Nine's renderer: the nine chests as a 3×3 machine (lit lamps, diamonds inside), the dropper's
// draws this turn, the players' diamonds, and each draw played as a chest opening.
const CHESTS = ["wood", "stone", "coal", "iron", "lapis", "redstone", "gold", "emerald", "diamond"];
const NAMES = {
  wood: ["Wood", "木"], stone: ["Stone", "石"], coal: ["Coal", "石炭"], iron: ["Iron", "鉄"],
  lapis: ["Lapis", "ラピス"], redstone: ["Redstone", "レッドストーン"], gold: ["Gold", "金"],
  emerald: ["Emerald", "エメラルド"], diamond: ["Diamond", "ダイヤ"],
};
const COLORS = {
  wood: "#9c6b30", stone: "#8a8a8a", coal: "#2f2f2f", iron: "#c9c0b6", lapis: "#2546a8",
  redstone: "#b3201a", gold: "#e0b21b", emerald: "#1a9b4b", diamond: "#4fd6d0",
};
const STATUS = { active: ["playing", "参加中"], dropped: ["dropped out", "ドロップアウト"], disqualified: ["out (could not pay)", "失格"] };
const L = (pair, lang) => (pair ? pair[lang === "ja" ? 1 : 0] : "");
const chestName = (c, lang) => L(NAMES[c], lang) || c;

function prizeName(view, kind, lang, count = 2) {
  if (kind === "diamond") return lang === "ja" ? "ダイヤ" : count === 1 ? "diamond" : "diamonds";
  return kind;
}

/** "1 diamond", "3 diamonds". */
const diamonds = (n) => `${n} diamond${n === 1 ? "" : "s"}`;

const VARIANTS = { triple_diamond: ["a: triple diamond", "a: トリプルダイヤ"], sweep_bonus: ["b: sweep bonus", "b: 総取りボーナス"],
  no_repeat: ["c: no repeated result", "c: 連続出目なし"], chain_bonus: ["d: chain bonus", "d: チェーンボーナス"] };

export function holdingValue(key, value, lang, ctx) {
  if (key === "diamonds") return ctx.html`<${ctx.Icon} name="diamond" /> ${value}`;
  if (key === "net") return `${value >= 0 ? "+" : ""}${value}`;
  if (key === "status") return L(STATUS[value], lang) || value;
  if (key === "prizes") return Object.keys(value || {}).length ? Object.entries(value).map(([k, n]) => `${k} ×${n}`).join(", ") : null;
  return undefined;
}

export function detailValue(key, value, lang, ctx) {
  if (key !== "prizes_left") return undefined;
  const left = Object.entries(value || {});
  return left.length ? left.map(([k, n]) => `${k} ×${n}`).join(", ") : ctx.t("none");
}

export function valueLabel(type, name, value, lang) {
  if (name === "kind") return value === "diamond" ? (lang === "ja" ? "ダイヤ全部" : "all the diamonds") : value;
  return null;
}

export function describeEvent(event, lang, ctx) {
  const d = event.data || {};
  const who = d.seat != null ? ctx.seatName(d.seat) : "";
  const ja = lang === "ja";
  switch (event.type) {
    case "draw":
      return d.hit
        ? ja ? `${who}: ドロッパーは${chestName(d.chest, lang)}! あたり` : `${who}: the dropper shows ${chestName(d.chest, lang)} — a hit!`
        : ja ? `${who}: ドロッパーは${chestName(d.chest, lang)}… ハズレ` : `${who}: the dropper shows ${chestName(d.chest, lang)} — empty, a miss`;
    case "take":
      return ja ? `${who} は${chestName(d.chest, lang)}チェストから${prizeName(null, d.kind, lang)}を${d.count}個取った`
        : `${who} takes ${d.count} ${prizeName(null, d.kind, lang, d.count)} from the ${chestName(d.chest, lang)} chest`;
    case "sweep_bonus":
      return ja ? `総取りボーナス: ${who} は${prizeName(null, d.kind, lang)}を${d.count}個` : `Sweep bonus: ${who} takes ${d.count} ${prizeName(null, d.kind, lang, d.count)}`;
    case "chain_bonus":
      return ja ? `チェーンボーナス(${d.hits}連続): ${who} にダイヤ${d.diamonds}個` : `Chain bonus (${d.hits} hits in a row): ${who} gets ${diamonds(d.diamonds)}`;
    case "pay": {
      const parts = Object.entries(d.paid || {}).map(([c, n]) => `${chestName(c, lang)} ${n}`).join(", ");
      return ja ? `${who} は賭け金${d.owed}を支払う(${parts || "なし"})` : `${who} pays the stake: ${d.owed} owed (${parts || "nothing"})`;
    }
    case "disqualified":
      return ja ? `${who} は払いきれず失格` : `${who} could not pay and is out`;
    case "pass":
      return ja ? `${who} はパス` : `${who} passes`;
    case "drop_out":
      return ja ? `${who} はドロップアウト` : `${who} drops out`;
    case "refill":
      return ja ? `全チェストが空: 主催者が${(d.chests || []).map((c) => chestName(c, lang)).join("・")}に${d.diamonds}個ずつ補充`
        : `Every chest is empty: the house puts ${diamonds(d.diamonds)} into ${(d.chests || []).map((c) => chestName(c, lang)).join(", ")}`;
    case "round_start": {
      const top = Object.entries(d.top_up || {}).map(([c, n]) => `${chestName(c, lang)} +${n}`).join(", ");
      return ja ? `ラウンド${d.round}開始(賭け金${d.stake})${top ? ` 補充: ${top}` : ""}` : `Round ${d.round} begins (stake ${d.stake})${top ? `; top-up: ${top}` : ""}`;
    }
    case "game_over":
      return ja ? `ゲーム終了。主催者がチェストの${d.house_collects}個を回収` : `Game over. The house collects ${diamonds(d.house_collects)} from the chests`;
    default:
      return undefined;
  }
}

function Chest({ html, Icon, chest, count, lit, drawn, lang }) {
  return html`<div class=${"ln-chest" + (lit ? " lit" : "") + (drawn ? " drawn" : "")} style=${`--c:${COLORS[chest]}`} data-chest=${chest}>
    <span class="ln-lamp" title=${lit ? (lang === "ja" ? "点灯" : "lit") : lang === "ja" ? "消灯" : "off"}></span>
    <span class="ln-block"></span>
    <span class="ln-name">${chestName(chest, lang)}</span>
    <span class="ln-count"><${Icon} name="diamond" /> ${count}</span>
  </div>`;
}

/** What is happening while `event` is told (the sticky banner): the dropper falling, before its chest shows;
 * a diamond count after it is news the stage tells at once. */
export function happening(event, view, lang, ctx) {
  const d = event.data || {};
  const who = d.seat != null ? ctx.seatName(d.seat) : "";
  if (event.type === "draw") return lang === "ja" ? `${who}: ドロッパーが落ちます` : `${who}: the dropper falls`;
  return describeEvent(event, lang, ctx);
}

export function renderEvent(event, ctx) {
  const { html, widgets } = ctx;
  const d = event.data || {};
  if (event.type === "draw") {
    return html`<div class="ln-event" style=${`--c:${COLORS[d.chest]}`}>
      <${widgets.Chest} open=${true} content=${d.hit ? html`<${ctx.Icon} name="sparkle" />` : "✗"} />
      <span class="ln-event-name">${chestName(d.chest, ctx.lang)}</span></div>`;
  }
  if (event.type === "take" || event.type === "sweep_bonus" || event.type === "chain_bonus") {
    return html`<div class="ln-event gain">+${d.count ?? d.diamonds} <${ctx.Icon} name=${d.kind && d.kind !== "diamond" ? "gift" : "diamond"} /></div>`;
  }
  if (event.type === "pay") return html`<div class="ln-event loss">−${Object.values(d.paid || {}).reduce((a, b) => a + b, 0)} <${ctx.Icon} name="diamond" /></div>`;
  return null;
}

function Machine({ view, ctx, big }) {
  const { html } = ctx;
  const lit = new Set(view.lit || []);
  return html`<div class=${"ln-machine" + (big ? " big" : "")}>
    ${CHESTS.map((c) => html`<${Chest} html=${html} Icon=${ctx.Icon} lang=${ctx.lang} chest=${c} count=${(view.chests || {})[c] ?? 0} lit=${lit.has(c)}
      drawn=${view.last_draw === c && (view.turn_draws || []).length > 0} />`)}
  </div>`;
}

function Status({ view, ctx }) {
  const { html, lang } = ctx;
  const ja = lang === "ja";
  const stakes = (view.stakes || []).map((s, i) => html`<span class=${"chip static" + (i + 1 === view.round ? " selected" : "")}>${s}</span>`);
  const prizes = Object.entries(view.prizes || {}).filter(([, n]) => n > 0);
  return html`<div class="panel ln-status">
    <div class="ln-facts">
      <div><span class="muted">${ja ? "ラウンド" : "Round"}</span> <strong>${view.round}/${view.rounds}</strong>
        ${view.laps > 1 ? html` <span class="muted">(${ja ? "周" : "lap"} ${view.lap}/${view.laps})</span>` : null}</div>
      <div><span class="muted">${ja ? "賭け金" : "Stake"}</span> <strong class="ln-stake"><${ctx.Icon} name="diamond" /> ${view.stake}</strong></div>
      <div><span class="muted">${ja ? "手番" : "Turn"}</span> <strong>${view.turn_seat != null ? ctx.seatName(view.turn_seat) : "—"}</strong>
        <span class="muted"> · ${ctx.label("phases", view.phase) || view.phase}</span></div>
      <div><span class="muted">${ja ? "主催者の収支" : "House ledger"}</span> ${view.house}</div>
    </div>
    <div class="ln-stakes"><span class="muted">${ja ? "賭け金表" : "Stakes"}</span> ${stakes}</div>
    ${(view.turn_draws || []).length
      ? html`<div class="ln-draws"><span class="muted">${ja ? "この手番の出目" : "Draws this turn"}</span>
          ${view.turn_draws.map((c) => html`<span class="chip static" style=${`border-color:${COLORS[c]}`}>${chestName(c, lang)}</span>`)}
          ${view.chain ? html`<span class="muted"> · ${ja ? "連続あたり" : "hits in a row"} ${view.chain}</span>` : null}</div>`
      : null}
    ${prizes.length ? html`<div><span class="muted">${ja ? "ダイヤチェストの賞品" : "Prizes in the diamond chest"}</span>
      ${prizes.map(([k, n]) => html`<span class="chip static"><${ctx.Icon} name="gift" /> ${k} ×${n}</span>`)}</div>` : null}
    ${Object.entries(view.variants || {}).some(([, on]) => on)
      ? html`<div class="muted small">${ja ? "変則" : "Variants"}: ${Object.entries(view.variants).filter(([, on]) => on).map(([k]) => L(VARIANTS[k], lang) || k).join(", ")}</div>`
      : null}
  </div>`;
}

function Players({ view, ctx }) {
  const { html, lang } = ctx;
  const ja = lang === "ja";
  return html`<div class="panel"><table class="grid ln-players">
    <thead><tr><th>${ja ? "プレイヤー" : "Player"}</th><th class="num"><${ctx.Icon} name="diamond" title=${ja ? "ダイヤ" : "Diamonds"} /></th><th>${ja ? "状態" : "Status"}</th><th>${ja ? "賞品" : "Prizes"}</th></tr></thead>
    <tbody>${(view.players || []).map((p) => html`<tr class=${(p.seat === view.turn_seat ? "ln-turn " : "") + (p.seat === ctx.seat ? "me" : "")} data-player=${p.seat}>
      <td>${p.seat === view.turn_seat ? "▶ " : ""}<${ctx.SeatDot} seat=${p.seat} />${ctx.seatName(p.seat)}</td>
      <td class="num"><strong>${p.diamonds}</strong> <span class="muted small">(${p.diamonds - view.start_diamonds >= 0 ? "+" : ""}${p.diamonds - view.start_diamonds})</span></td>
      <td>${L(STATUS[p.status], lang) || p.status}</td>
      <td>${Object.entries(p.prizes || {}).map(([k, n]) => html`<span class="chip static"><${ctx.Icon} name="gift" /> ${k} ×${n}</span>`)}</td>
    </tr>`)}</tbody></table></div>`;
}

const STYLE = `
.ln-machine { display: grid; grid-template-columns: repeat(3, 1fr); gap: .5rem; padding: .7rem; border-radius: 14px;
  background: #3b2b1a; border: 4px solid #1e140b; }
.ln-chest { position: relative; display: flex; flex-direction: column; align-items: center; gap: .15rem; padding: .5rem .2rem;
  border-radius: 10px; background: #00000040; color: #f3ead8; border: 2px solid transparent; }
.ln-chest .ln-block { width: 2.4rem; height: 2.4rem; border-radius: 6px; background: var(--c); box-shadow: inset 0 -6px 0 #0005, inset 0 4px 0 #fff3; }
.ln-chest .ln-name { font-size: .8rem; }
.ln-chest .ln-count { font-weight: 700; font-variant-numeric: tabular-nums; }
.ln-lamp { position: absolute; top: .35rem; right: .35rem; width: .7rem; height: .7rem; border-radius: 50%; background: #2a2a2a; border: 1px solid #000; }
.ln-chest.lit .ln-lamp { background: #ffe45c; box-shadow: 0 0 10px 3px #ffe45caa; }
.ln-chest.drawn { border-color: #ffe45c; animation: ln-flash .6s ease-out 2; }
@keyframes ln-flash { 50% { background: #ffe45c55; } }
.ln-machine.big .ln-block { width: 4.2rem; height: 4.2rem; }
.ln-machine.big .ln-name { font-size: 1.1rem; }
.ln-machine.big .ln-count { font-size: 1.5rem; }
.ln-status { display: flex; flex-direction: column; gap: .4rem; }
.ln-facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .3rem; }
.ln-stake { font-size: 1.2rem; }
.ln-players tr.ln-turn td { font-weight: 700; }
.ln-players tr.me td { background: var(--mine); }
.ln-event { display: flex; flex-direction: column; align-items: center; gap: .2rem; font-size: 1.6rem; font-weight: 800; }
.ln-event .chest-lid, .ln-event .chest-body { background: var(--c); }
.ln-event-name { font-size: 1rem; }
.ln-event.gain { color: var(--ok); } .ln-event.loss { color: var(--accent); } /* the theme's own: 4.5:1 in light and dark */
.ln-table { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: .8rem; align-items: start; }
@media (max-width: 700px) { .ln-table { grid-template-columns: 1fr; } }
`;

function styleTag(html) {
  return html`<style>${STYLE}</style>`;
}

export function render(view, ctx) {
  const { html } = ctx;
  return html`<div class="ln">${styleTag(html)}
    <${Status} view=${view} ctx=${ctx} />
    <${Machine} view=${view} ctx=${ctx} />
    <${Players} view=${view} ctx=${ctx} />
  </div>`;
}

/** The big screen the players gather around: the machine large, the standings beside it. */
export function renderTable(view, ctx) {
  const { html } = ctx;
  return html`<div class="ln ln-table">${styleTag(html)}
    <${Machine} view=${view} ctx=${ctx} big=${true} />
    <div><${Status} view=${view} ctx=${ctx} /><${Players} view=${view} ctx=${ctx} /></div>
  </div>`;
}
