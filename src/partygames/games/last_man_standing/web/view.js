// Last Man Standing's renderer: the market of fighters for hire, your hand, the arena of living
// fighters, the pot, and each fight revealed card by card with its kills and bounties.
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const ja = (lang) => lang === "ja";
const split = (card) => ({ face: String(card).slice(0, -1), suit: String(card).slice(-1) });
const cardText = (card) => (card ? `${split(card).face}${SUIT[split(card).suit] || ""}` : "?");

export function valueLabel(type, name, value, lang, view) {
  if (name === "card") return cardText(value);
  if (name === "slot") {
    const slot = view && (view.market || []).find((m) => m.slot === value);
    return slot ? `${cardText(slot.card)} · $${slot.price}` : `#${value}`;
  }
  return null;
}
export function holdingValue(key, value) {
  return key === "chips" ? `$${value}` : undefined;
}

export function detailValue(key, value) {
  if (key === "card") return cardText(value);
  return ["pot", "set_aside", "unawarded"].includes(key) ? `$${value}` : undefined;
}

export function describeEvent(event, lang, ctx) {
  const d = event.data || {};
  const J = ja(lang);
  const who = (s) => ctx.seatName(s);
  switch (event.type) {
    case "hired":
      return J ? `${who(d.seat)} が ${cardText(d.card)} を $${d.price} で雇った${d.refill ? `(補充 ${cardText(d.refill)})` : ""}`
        : `${who(d.seat)} hires ${cardText(d.card)} for $${d.price}${d.refill ? ` (new in the market: ${cardText(d.refill)})` : ""}`;
    case "round_started": return J ? `第${d.round}ラウンド: 全員カードを1枚伏せて出す` : `Round ${d.round}: everyone plays one card face down`;
    case "played_face_down": return J ? `${who(d.seat)} がカードを伏せた` : `${who(d.seat)} played a card face down`;
    case "fight": {
      const plays = (d.plays || []).map((c, s) => `${who(s)} ${cardText(c)}`).join(", ");
      const kills = (d.kills || []).map((k) => J ? `${cardText(k.killer.card)}(${who(k.killer.owner)})が${cardText(k.victim.card)}(${who(k.victim.owner)})を倒し$${k.paid}`
        : `${cardText(k.killer.card)} (${who(k.killer.owner)}) kills ${cardText(k.victim.card)} (${who(k.victim.owner)}), +$${k.paid}`);
      return (J ? `第${d.round}ラウンドの戦闘: ${plays}。` : `Round ${d.round} fight: ${plays}. `) + (kills.length ? kills.join("; ") : J ? "誰も倒れず" : "Nobody dies") + (J ? `。場 $${d.pot}` : `. Pot $${d.pot}`);
    }
    case "game_over": {
      const base = J ? "ゲーム終了" : "Game over";
      return d.survivors != null ? `${base}: ${J ? `生存${d.survivors}体で各 $${d.share}` : d.survivors === 1 ? `the one survivor takes $${d.share}` : `${d.survivors} survivors share $${d.share} each`}` : base;
    }
    default: return undefined;
  }
}

/** What is happening while `event` is told (the sticky banner): the fight, before its cards are read. */
export function happening(event, view, lang, ctx) {
  const d = event.data || {};
  if (event.type === "fight") return ja(lang) ? `第${d.round}ラウンド: 全員のカードが表に` : `Round ${d.round}: every card turns over`;
  if (event.type === "played_face_down" || event.type === "hired") return describeEvent(event, lang, ctx);
  return undefined;
}

/** Whether `seat` has played this round: the view says so, or the stage has just told it (the next view is
 * shown once the stage is done). */
const played = (view, ctx, seat) => !!view.has_played[seat]
  || (ctx.told || []).some((e) => e.type === "played_face_down" && e.data && e.data.seat === seat);

function Card({ ctx, card, flip, small }) {
  if (!card) return ctx.html`<${ctx.widgets.Card} face=${null} small=${small} />`;
  const { face, suit } = split(card);
  return ctx.html`<${ctx.widgets.Card} face=${face} suit=${suit} flip=${flip} small=${small} />`;
}

export function renderEvent(event, ctx) {
  const { html } = ctx;
  const d = event.data || {};
  if (event.type === "fight") {
    return html`<div class="lms-fight">
      <div class="lms-row">${(d.plays || []).map((c, s) => html`<span class="lms-play"><${Card} ctx=${ctx} card=${c} flip=${true} />
        <small>${ctx.seatName(s)}</small></span>`)}</div>
      ${(d.kills || []).length ? html`<div class="lms-kills">${d.kills.map((k) => html`<span class="chip static">${cardText(k.killer.card)} <${ctx.Icon} name="swords" title=${ja(ctx.lang) ? "倒した" : "kills"} /> ${cardText(k.victim.card)} +$${k.paid}</span>`)}</div>` : null}
    </div>`;
  }
  if (event.type === "hired") return html`<div class="lms-row"><${Card} ctx=${ctx} card=${d.card} flip=${true} /> <strong>$${d.price}</strong></div>`;
  if (event.type === "played_face_down") return html`<${Card} ctx=${ctx} card=${null} />`;
  return null;
}

function Facts({ view, ctx }) {
  const { html, lang } = ctx;
  const J = ja(lang);
  return html`<div class="panel lms-facts">
    <div><span class="muted">${J ? "段階" : "Phase"}</span> <strong>${ctx.label("phases", view.phase) || view.phase}</strong></div>
    <div><span class="muted">${J ? "ラウンド" : "Round"}</span> <strong>${view.round}/${view.rounds}</strong></div>
    <div><span class="muted">${J ? "場のチップ" : "Pot"}</span> <strong class="lms-pot">$${view.pot}</strong></div>
    <div><span class="muted">${J ? "参加料" : "Entry fee"}</span> $${view.entry_fee}${view.set_aside ? html` <span class="muted">(${J ? "別置き" : "set aside"} $${view.set_aside})</span>` : null}</div>
    ${view.drafter != null ? html`<div><span class="muted">${J ? "雇用の番" : "Hiring"}</span> <strong>${ctx.seatName(view.drafter)}</strong></div>` : null}
  </div>`;
}

function Market({ view, ctx }) {
  const { html, lang } = ctx;
  if (view.phase !== "draft") return null;
  return html`<div class="panel"><h3>${ja(lang) ? "市場" : "Market"} <span class="muted small">(${ja(lang) ? "山札" : "deck"} ${view.deck_count})</span></h3>
    <div class="lms-row">${(view.market || []).map((m) => html`<span class="lms-slot"><${Card} ctx=${ctx} card=${m.card} /><strong>$${m.price}</strong></span>`)}
      <span class="lms-slot"><${Card} ctx=${ctx} card=${null} /><small>${view.deck_count}</small></span></div>
  </div>`;
}

function Hand({ view, ctx }) {
  const { html, lang } = ctx;
  if (view.my_hand == null) return null;
  return html`<div class="panel"><h3>${ja(lang) ? "あなたの手札" : "Your hand"}</h3>
    <div class="lms-row">${view.my_hand.map((c) => html`<${Card} ctx=${ctx} card=${c} />`)}
      ${view.my_played ? html`<span class="lms-slot"><${Card} ctx=${ctx} card=${view.my_played} /><small>${ja(lang) ? "伏せた" : "face down"}</small></span>` : null}</div>
  </div>`;
}

function Arena({ view, ctx, big }) {
  const { html, lang } = ctx;
  if (view.phase === "draft") return null;
  return html`<div class=${"panel felt lms-arena" + (big ? " big" : "")}><h3>${ja(lang) ? "アリーナ(生存中の傭兵)" : "Arena: fighters still standing"}</h3>
    <div class="lms-row">${(view.arena || []).length ? view.arena.map((f) => html`<span class="lms-play"><${Card} ctx=${ctx} card=${f.card} /><small>${ctx.seatName(f.owner)}</small></span>`)
      : html`<span class="muted">${ja(lang) ? "なし" : "nobody"}</span>`}</div>
  </div>`;
}

function Players({ view, ctx }) {
  const { html, lang } = ctx;
  const J = ja(lang);
  return html`<div class="panel"><table class="grid">
    <thead><tr><th>${J ? "プレイヤー" : "Player"}</th><th class="num">$</th><th class="num">${J ? "手札" : "Hand"}</th><th>${J ? "公開済みの傭兵" : "Known hires"}</th>${view.phase === "play" ? html`<th>${J ? "出した" : "Played"}</th>` : null}</tr></thead>
    <tbody>${(view.chips || []).map((c, s) => html`<tr data-seat=${s} class=${(s === ctx.seat ? "me " : "") + (s === view.drafter ? "lms-turn" : "")}>
      <td>${s === view.drafter ? "▶ " : ""}<${ctx.SeatDot} seat=${s} />${ctx.seatName(s)}</td><td class="num">${c}</td><td class="num">${view.hand_counts[s]}</td>
      <td>${(view.known_cards[s] || []).map((k) => html`<span class="chip static">${cardText(k)}</span>`)}</td>
      ${view.phase === "play" ? html`<td data-played=${played(view, ctx, s) ? "yes" : "no"}>${played(view, ctx, s) ? "✓" : "…"}</td>` : null}</tr>`)}</tbody></table></div>`;
}

function History({ view, ctx }) {
  const { html, lang } = ctx;
  if (!(view.history || []).length) return null;
  return html`<details class="panel" open><summary>${ja(lang) ? "戦闘の記録" : "Fights so far"}</summary>
    <ol>${view.history.map((h) => html`<li>${describeEvent({ type: "fight", data: { ...h, pot: "" } }, lang, ctx).replace(/[.。] ?(Pot|場) \$$/, "")}</li>`)}</ol></details>`;
}

const STYLE = `
.lms-row { display: flex; flex-wrap: wrap; gap: .4rem; align-items: flex-end; }
.lms-slot, .lms-play { display: inline-flex; flex-direction: column; align-items: center; gap: .1rem; }
.lms-facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr)); gap: .3rem; }
.lms-pot { font-size: 1.3rem; }
.lms-fight { display: flex; flex-direction: column; gap: .4rem; align-items: center; }
.lms-kills { display: flex; flex-wrap: wrap; justify-content: center; }
tr.lms-turn td { font-weight: 700; }
tr.me td { background: var(--mine); }
.lms-arena.big .card { width: 4.5rem; height: 6.3rem; font-size: 2rem; }
`;

export function render(view, ctx) {
  const { html } = ctx;
  return html`<div class="lms"><style>${STYLE}</style>
    <${Facts} view=${view} ctx=${ctx} /><${Hand} view=${view} ctx=${ctx} /><${Market} view=${view} ctx=${ctx} />
    <${Arena} view=${view} ctx=${ctx} /><${Players} view=${view} ctx=${ctx} /><${History} view=${view} ctx=${ctx} />
  </div>`;
}

export function renderTable(view, ctx) {
  const { html } = ctx;
  return html`<div class="lms"><style>${STYLE}</style>
    <${Facts} view=${view} ctx=${ctx} /><${Market} view=${view} ctx=${ctx} /><${Arena} view=${view} ctx=${ctx} big=${true} />
    <${Players} view=${view} ctx=${ctx} /><${History} view=${view} ctx=${ctx} />
  </div>`;
}
