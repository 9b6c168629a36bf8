// Dice Derby's renderer: six horses are six dice (gate 1 = d4 … gate 6 = d20). The odds board, the
// owners, your tickets and money, and each race played roll by roll: dice tumble, the lowest drops out.
const FACES = [4, 6, 8, 10, 12, 20];
const COLORS = ["#e8e8e8", "#2b2b2b", "#d33", "#2563eb", "#e3b505", "#16a34a"]; // the usual gate colours
const TEXT = ["#111", "#fff", "#fff", "#fff", "#111", "#fff"];
const ja = (lang) => lang === "ja";
const die = (gate) => `d${FACES[gate - 1]}`;
const yen = (n) => (typeof n === "number" ? n.toLocaleString("en-US") : n);
const pairText = (pair) => String(pair).split("-").map((g) => die(Number(g))).join("–");

export function valueLabel(type, name, value, lang) {
  if (name === "horse") return die(value);
  if (name === "pair") return pairText(value);
  if (name === "ticket") {
    const [kind, pick] = String(value).split(":");
    return kind === "win" ? `${ja(lang) ? "単勝" : "win"} ${die(Number(pick))}` : `${ja(lang) ? "連複" : "quinella"} ${pairText(pick)}`;
  }
  if (name === "amount") return yen(value);
  return null;
}
export function holdingValue(key, value) {
  if (key === "money") return yen(value);
  if (key === "prize" || key === "price") return value ? yen(value) : null;
  if (key === "loans") return value || null;
  if (key === "horse") return value ? die(value) : null;
  return undefined;
}

export function detailValue(key, value, lang, ctx) {
  if (key === "first" || key === "second") return ctx.html`<span class="dd-gate" style=${gateStyle(value)}>${value}</span> ${die(value)}`;
  return key === "amount" || key === "house" ? yen(value) : undefined;
}

function tickets(list, lang) {
  return (list || []).map((t) => `${t.kind === "win" ? (ja(lang) ? "単勝" : "win") : ja(lang) ? "連複" : "quinella"} ${t.kind === "win" ? die(Number(t.pick)) : pairText(t.pick)} ${yen(t.stake)}`).join(", ");
}

export function describeEvent(event, lang, ctx) {
  const d = event.data || {};
  const J = ja(lang);
  const who = (s) => (s == null ? "" : ctx.seatName(s));
  const gates = (list) => (list || []).map((g) => die(g)).join(", ");
  switch (event.type) {
    case "bid_sealed": return J ? `${who(d.seat)} が入札を封印` : `${who(d.seat)} sealed a bid`;
    case "my_bid": return d.horse == null ? (J ? "あなたは入札しませんでした" : "You passed the auction") : J ? `あなたの入札: ${die(d.horse)} に ${yen(d.amount)}` : `Your sealed bid: ${yen(d.amount)} for ${die(d.horse)}`;
    case "auction_result": {
      const how = { highest: J ? "最高額" : "highest bid", tie_lot: J ? "同額抽選" : "tie, by lot", unbid_lot: J ? "入札なし・抽選" : "no bids, by lot" }[d.how] || d.how;
      return J ? `${die(d.gate)} の馬主は ${who(d.owner)}(${yen(d.price)}・${how})` : `${die(d.gate)} goes to ${who(d.owner)} for ${yen(d.price)} (${how})`;
    }
    case "betting_open": return J ? `第${d.race}レースの投票開始` : `Race ${d.race}: betting is open`;
    case "ticket_bought": return J ? `購入: ${tickets([d], lang)}(残り ${yen(d.available)})` : `Bought ${tickets([d], lang)} (left: ${yen(d.available)})`;
    case "ticket_cancelled": return J ? `取消: ${tickets([d], lang)}` : `Cancelled ${tickets([d], lang)}`;
    case "loan_taken": return J ? `${yen(d.amount)} を借りた(返済 ${yen(d.repay)})` : `Borrowed ${yen(d.amount)} (repay ${yen(d.repay)})`;
    case "betting_done": return J ? `${who(d.seat)} が投票完了` : `${who(d.seat)} is done betting`;
    case "betting_closed": {
      const n = Object.keys(d.tickets || {}).length;
      return J ? `第${d.race}レース投票締切(${n}人が購入)` : `Race ${d.race}: betting closed (${n} bought tickets)`;
    }
    case "furlong_start": return d.stage === "runoff" ? (J ? `決定戦 ${d.furlong}ハロン目: ${gates(d.runners)}` : `Run-off, furlong ${d.furlong}: ${gates(d.runners)}`)
      : J ? `${d.furlong}ハロン目: ${gates(d.runners)}` : `Furlong ${d.furlong}: ${gates(d.runners)} run`;
    case "roll": return J ? `${die(d.gate)} の出目は ${d.value}` : `${die(d.gate)} rolls ${d.value}`;
    case "out": {
      const why = { lowest: J ? `最小の目 ${d.value}` : `lowest, ${d.value}`, tie: J ? `同じ目 ${d.value}・多面体が脱落` : `tied on ${d.value}; the bigger die goes out`, fall: J ? "落馬" : "fell" }[d.reason] || d.reason;
      return J ? `${gates(d.gates)} 脱落(${why})` : `${gates(d.gates)} out (${why})`;
    }
    case "fall": return J ? `${gates(d.gates)} が落馬!` : `${gates(d.gates)} fell!`;
    case "furlong_rerun": return J ? `全員落馬: ${d.furlong}ハロン目をやり直し` : `Everyone fell: furlong ${d.furlong} is run again`;
    case "runoff_start": return J ? `2着決定戦: ${gates(d.runners)}` : `Run-off for second place: ${gates(d.runners)}`;
    case "runoff_end": return J ? `2着は ${die(d.gate)}` : `${die(d.gate)} takes second place`;
    case "quinella_decided": return J ? `連複確定: ${gates(d.pair)}` : `Quinella decided: ${gates(d.pair)}`;
    case "race_result": return J ? `第${d.race}レース: 1着 ${die(d.first)}、2着 ${die(d.second)}` : `Race ${d.race}: ${die(d.first)} wins, ${die(d.second)} second`;
    case "win_paid":
    case "quinella_paid": {
      const kind = event.type === "win_paid" ? (J ? "単勝" : "Win") : J ? "連複" : "Quinella";
      const pick = event.type === "win_paid" ? die(Number(d.pick)) : pairText(d.pick);
      const winners = (d.winners || []).map((w) => `${who(w.seat)} +${yen(w.payout)}`).join(", ");
      return `${kind} ${pick} ×${d.odds}: ${winners || (J ? "的中なし" : "no winning tickets")}`;
    }
    case "prizes": return (d.prizes || []).map((p) => (J ? `${die(p.gate)} の馬主 ${who(p.owner)} に賞金 ${yen(p.amount)}` : `Owner's prize ${yen(p.amount)} to ${who(p.owner)} (${die(p.gate)})`)).join("; ");
    case "loans_repaid": {
      const list = Object.entries(d.repaid || {});
      return list.length ? (J ? "借金返済: " : "Loans repaid: ") + list.map(([s, n]) => `${who(Number(s))} ${yen(n)}`).join(", ") : null;
    }
    case "match_over": return J ? "全レース終了" : "All races run";
    default: return undefined;
  }
}

// The race told roll by roll: the banner says it is on rather than each roll before the die settles.
const RACE = new Set(["furlong_start", "roll", "out", "fall", "furlong_rerun", "runoff_start", "runoff_end", "quinella_decided", "race_result"]);

/** What is happening while `event` is told (the sticky banner): the race, as a whole. */
export function happening(event, view, lang) {
  if (RACE.has(event.type)) return ja(lang) ? "レース中" : "The race is on";
  return undefined;
}

export function renderEvent(event, ctx) {
  const { html, widgets } = ctx;
  const d = event.data || {};
  if (event.type === "roll") {
    return html`<div class="dd-roll"><span class="dd-gate" style=${gateStyle(d.gate)}>${d.gate}</span>
      <${widgets.Die} value=${d.value} sides=${d.faces || FACES[d.gate - 1]} roll=${!ctx.fast} duration=${ctx.settle} /></div>`;
  }
  if (event.type === "out" || event.type === "fall") {
    return html`<div class="dd-roll out">${(d.gates || []).map((g) => html`<span class="dd-gate" style=${gateStyle(g)}>${g}</span>`)} ✗</div>`;
  }
  if (event.type === "race_result") {
    return html`<div class="dd-podium"><span><${ctx.Icon} name="first" /> <span class="dd-gate" style=${gateStyle(d.first)}>${d.first}</span> ${die(d.first)}</span>
      <span><${ctx.Icon} name="second" /> <span class="dd-gate" style=${gateStyle(d.second)}>${d.second}</span> ${die(d.second)}</span></div>`;
  }
  return null;
}

const gateStyle = (gate) => `background:${COLORS[gate - 1]};color:${TEXT[gate - 1]}`;

function Facts({ view, ctx }) {
  const { html, lang } = ctx;
  const J = ja(lang);
  const me = view.me;
  return html`<div class="panel dd-facts">
    <div><span class="muted">${J ? "段階" : "Phase"}</span> <strong>${ctx.label("phases", view.phase) || view.phase}</strong></div>
    <div><span class="muted">${J ? "レース" : "Race"}</span> <strong>${view.race}/${view.races}</strong></div>
    ${me ? html`<div><span class="muted">${J ? "所持金" : "Money"}</span> <strong class="dd-money">${yen(me.money)}</strong></div>
      ${view.phase === "betting" ? html`<div><span class="muted">${J ? "使える額" : "Available"}</span> <strong>${yen(me.available)}</strong></div>` : null}
      ${me.horse ? html`<div><span class="muted">${J ? "あなたの馬" : "Your horse"}</span> <span class="dd-gate" style=${gateStyle(me.horse)}>${me.horse}</span> ${die(me.horse)}</div>` : null}
      ${me.bid ? html`<div><span class="muted">${J ? "あなたの入札" : "Your bid"}</span> ${me.bid.horse ? `${die(me.bid.horse)} ${yen(me.bid.amount)}` : J ? "なし" : "pass"}</div>` : null}` : null}
  </div>`;
}

function OddsBoard({ view, ctx, big }) {
  const { html, lang } = ctx;
  const J = ja(lang);
  const mine = view.me && view.me.horse;
  const last = view.last_race;
  return html`<div class=${"panel dd-board" + (big ? " big" : "")}>
    <h3>${J ? "出走表" : "Race card"}</h3>
    <table class="grid"><thead><tr><th>${J ? "枠" : "Gate"}</th><th>${J ? "馬" : "Horse"}</th><th>${J ? "馬主" : "Owner"}</th>
      <th class="num">${J ? "単勝" : "Win odds"}</th><th>${J ? "前走" : "Last race"}</th></tr></thead>
    <tbody>${(view.horses || []).map((h) => html`<tr class=${h.gate === mine ? "me" : ""} data-gate=${h.gate}>
      <td><span class="dd-gate" style=${gateStyle(h.gate)}>${h.gate}</span></td>
      <td><strong>${h.die}</strong>${h.boost ? html` <span class="badge">×1.5${h.boost > 1 ? `^${h.boost}` : ""}</span>` : null}</td>
      <td>${h.owner == null ? html`<span class="muted">—</span>` : (ctx.shortName || ctx.seatName)(h.owner)}${h.price ? html` <span class="muted small">(${yen(h.price)})</span>` : null}</td>
      <td class="num">${h.win_odds == null ? "—" : `×${h.win_odds}`}</td>
      <td>${last ? (last.first === h.gate ? html`<${ctx.Icon} name="first" title=${J ? "1着" : "first"} />` : last.second === h.gate ? html`<${ctx.Icon} name="second" title=${J ? "2着" : "second"} />` : "") : ""}</td>
    </tr>`)}</tbody></table>
  </div>`;
}

function Quinella({ view, ctx }) {
  const { html, lang } = ctx;
  const entries = Object.entries(view.quinella_odds || {});
  if (!entries.length) return null;
  return html`<details class="panel dd-quinella"><summary>${ja(lang) ? "連複オッズ" : "Quinella odds"}</summary>
    <div class="dd-qgrid">${entries.map(([p, x]) => html`<span class="chip static">${pairText(p)} <strong>×${x}</strong></span>`)}</div>
  </details>`;
}

function MyTickets({ view, ctx }) {
  const { html, lang } = ctx;
  const me = view.me;
  if (!me || view.phase !== "betting") return null;
  return html`<div class="panel dd-tickets"><h3>${ja(lang) ? "あなたの馬券" : "Your tickets"}</h3>
    ${me.tickets.length ? html`<ul>${me.tickets.map((t) => html`<li>${tickets([t], lang)}</li>`)}</ul>` : html`<p class="muted">${ja(lang) ? "まだありません" : "none yet"}</p>`}
    ${me.pending_loans ? html`<p>${ja(lang) ? "借入" : "Loans"}: ${me.pending_loans}</p>` : null}
  </div>`;
}

/** The last race furlong by furlong: one row per furlong, one column per gate. */
function LastRace({ view, ctx, big }) {
  const { html, lang } = ctx;
  const race = view.last_race;
  if (!race) return null;
  const J = ja(lang);
  return html`<div class=${"panel dd-race" + (big ? " big" : "")} data-race=${race.race}>
    <h3>${J ? `第${race.race}レース` : `Race ${race.race}`}: <${ctx.Icon} name="first" /> ${die(race.first)} <${ctx.Icon} name="second" /> ${die(race.second)}</h3>
    <div class="table-wrap" tabindex="0"><table class="grid dd-furlongs"><thead><tr><th><span class="sr-only">${J ? "ハロン" : "Furlong"}</span></th>${FACES.map((f, i) => html`<th><span class="dd-gate" style=${gateStyle(i + 1)}>${i + 1}</span></th>`)}</tr></thead>
    <tbody>${(race.furlongs || []).map((f) => {
      const rolls = Object.fromEntries(f.rolls || []);
      return html`<tr><th>${f.stage === "runoff" ? (J ? "決" : "R") : ""}${f.furlong}${f.rerun ? "↺" : ""}</th>
        ${FACES.map((_, i) => {
          const g = i + 1;
          const out = (f.out || []).includes(g);
          const fell = (f.fallen || []).includes(g);
          return html`<td class=${"num" + (out ? " dd-out" : "")}>${rolls[g] ?? ""}${fell ? "⤓" : ""}${out ? "✗" : ""}</td>`;
        })}</tr>`;
    })}</tbody></table></div>
  </div>`;
}

function Standings({ view, ctx }) {
  const { html, lang } = ctx;
  const J = ja(lang);
  const order = (view.money || []).map((m, s) => s).sort((a, b) => view.money[b] - view.money[a]);
  return html`<div class="panel"><h3>${J ? "所持金" : "Money"}</h3><table class="grid">
    <thead><tr><th>${J ? "プレイヤー" : "Player"}</th><th class="num">${J ? "所持金" : "Money"}</th><th class="num">${J ? "賞金" : "Prizes"}</th>
      ${view.phase === "betting" ? html`<th>${J ? "投票" : "Bets"}</th>` : null}</tr></thead>
    <tbody>${order.map((s) => html`<tr class=${s === ctx.seat ? "me" : ""}>
      <td><${ctx.SeatDot} seat=${s} />${ctx.seatName(s)}</td><td class="num">${yen(view.money[s])}${view.debt[s] ? html` <span class="muted small">(−${yen(view.debt[s])})</span>` : null}</td>
      <td class="num">${yen(view.prize[s])}</td>
      ${view.phase === "betting" ? html`<td>${view.done[s] ? "✓" : "…"}</td>` : null}</tr>`)}</tbody></table></div>`;
}

const STYLE = `
.dd-gate { display: inline-flex; align-items: center; justify-content: center; min-width: 1.6rem; height: 1.6rem; border-radius: 4px;
  font-weight: 800; border: 1px solid #0006; }
.dd-facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr)); gap: .3rem; }
.dd-money { font-size: 1.2rem; }
.dd-board tr.me td { background: var(--mine); }
.dd-board.big table { font-size: 1.15rem; }
.dd-board th { white-space: normal; }
.dd-qgrid { display: flex; flex-wrap: wrap; }
.dd-furlongs td.dd-out { color: var(--accent); font-weight: 700; }
.dd-race.big table { font-size: 1.4rem; }
.dd-roll { display: flex; align-items: center; gap: .6rem; font-size: 1.4rem; font-weight: 800; }
.dd-roll.out { color: var(--accent); }
.dd-podium { display: flex; gap: 1.2rem; font-size: 1.4rem; font-weight: 700; }
.dd-table { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: .8rem; align-items: start; }
@media (max-width: 700px) { .dd-table { grid-template-columns: 1fr; } }
`;

export function render(view, ctx) {
  const { html } = ctx;
  return html`<div class="dd"><style>${STYLE}</style>
    <${Facts} view=${view} ctx=${ctx} />
    <${OddsBoard} view=${view} ctx=${ctx} />
    <${MyTickets} view=${view} ctx=${ctx} />
    <${Quinella} view=${view} ctx=${ctx} />
    <${LastRace} view=${view} ctx=${ctx} />
    <${Standings} view=${view} ctx=${ctx} />
  </div>`;
}

/** The big screen: race card and the last race side by side, standings below. */
export function renderTable(view, ctx) {
  const { html } = ctx;
  return html`<div class="dd"><style>${STYLE}</style>
    <${Facts} view=${view} ctx=${ctx} />
    <div class="dd-table">
      <${OddsBoard} view=${view} ctx=${ctx} big=${true} />
      <div><${LastRace} view=${view} ctx=${ctx} big=${true} /><${Standings} view=${view} ctx=${ctx} /></div>
    </div>
    <${Quinella} view=${view} ctx=${ctx} />
  </div>`;
}
