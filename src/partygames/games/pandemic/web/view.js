// The Pandemic Game's renderer. Phone: a time-left bar, your watch as last read, the private rooms with
// their countdowns, the switch, and every other seat as a card with "offer contact" / "accept" /
// "decline". Table: the contact graph over time (with its legend and time marks) first, then the public
// odds panel and the rooms. Every button sends an action the view's legal actions list (in the rounds
// tempo, as this round's sealed move).
const ja = (lang) => lang === "ja";
const T = (lang, en, jp) => (ja(lang) ? jp : en);

const clock = (ms) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};
const pct = (odds, seat) => (odds && odds.worlds ? `${Math.round((100 * odds.infected[seat]) / odds.worlds)}%` : "—");
const share = (odds, seat) => (odds && odds.worlds ? odds.infected[seat] / odds.worlds : null);
const status = (infected, lang) => (infected ? T(lang, "infected", "感染") : T(lang, "healthy", "正常"));
const vaccines = (n, lang) => T(lang, `${n} ${n === 1 ? "vaccine" : "vaccines"}`, `ワクチン${n}本`);
const contactCount = (n, lang) => T(lang, `${n} ${n === 1 ? "contact" : "contacts"}`, `接触${n}回`);

/** The moves open to this seat, as intents ("press", "offer:3", "accept:3@5000"), from its legal actions. */
export function moves(view) {
  const found = new Set();
  for (const spec of view.legal_actions || []) {
    if (spec.type === "intend") return new Set(spec.params.intent.choice);
    const params = Object.entries(spec.params || {});
    if (!params.length) found.add(spec.type);
    for (const [, param] of params) for (const v of param.choice || []) found.add(`${spec.type}:${v}`);
  }
  return found;
}

function toAction(view, intent) {
  if (view.tempo === "rounds") return { type: "intend", intent };
  const [kind, arg] = intent.split(/:(.*)/s);
  if (kind === "offer") return { type: "offer", target: Number(arg) };
  if (kind === "accept" || kind === "decline") return { type: kind, offer: arg };
  return { type: kind };
}

function MoveButton({ view, ctx, intent, label, testid, primary }) {
  const { html } = ctx;
  const open = moves(view).has(intent);
  const chosen = view.my_intent === intent;
  return html`<button class=${(primary ? "primary " : "") + (chosen ? "selected" : "")} data-testid=${testid} data-action=${toAction(view, intent).type}
    disabled=${!open} onClick=${() => ctx.send({ type: "action", action: toAction(view, intent) })}>${label}${chosen ? " ✓" : ""}</button>`;
}

function Period({ view, ctx }) {
  const { html, lang } = ctx;
  if (view.periods <= 1 && !view.announcements.length && view.vaccine_threshold == null) return null;
  return html`<div class="pd-period muted">
    ${view.periods > 1 ? html`<span>${T(lang, `Period ${view.period + 1}/${view.periods}`, `ピリオド ${view.period + 1}/${view.periods}`)}
      ${view.phase === "break" ? html` <strong>${T(lang, `break until ${clock(view.period_ends_at)}`, `休憩中(${clock(view.period_ends_at)} に再開)`)}</strong>` : null}</span>` : null}
    ${view.announcements.map((a) => html`<span class="chip static">${T(lang, `after period ${a.period + 1}: ${a.healthy} healthy, ${a.infected} infected`, `ピリオド${a.period + 1}終了: 正常${a.healthy}人・感染${a.infected}人`)}</span>`)}
    ${view.vaccine_threshold != null ? html`<span>${T(lang, `qualify: healthy with ${view.vaccine_threshold}+ vaccines`, `突破条件: ワクチン${view.vaccine_threshold}本以上の正常者`)}</span>` : null}
  </div>`;
}

function TimeBar({ view, ctx }) {
  const { html, lang, widgets } = ctx;
  const left = view.ends_at - view.time;
  if (view.is_over) return null;
  if (view.tempo === "rounds") {
    return html`<div class="pd-time panel" data-testid="pd-time">
      <strong>${T(lang, "Time left", "残り時間")} ${clock(left)}</strong>
      <span class="muted">${T(lang, `round ${view.step + 1} (${view.step_seconds} s)`, `ラウンド${view.step + 1}(${view.step_seconds}秒)`)}</span>
      <span class="pd-bar"><span style=${`width:${(100 * left) / view.ends_at}%`}></span></span>
      <${Period} view=${view} ctx=${ctx} /></div>`;
  }
  return html`<div class="pd-time panel" data-testid="pd-time">
    <strong>${T(lang, "Game time", "ゲーム時間")}</strong> <${widgets.MatchCountdown} version=${view.version} now=${view.time} until=${view.ends_at} seconds=${view.ends_at / 1000} />
    <${Period} view=${view} ctx=${ctx} /></div>`;
}

function Watch({ view, ctx }) {
  const { html, lang } = ctx;
  const last = (view.readings || [])[view.readings.length - 1];
  const mine = share(view.my_odds, view.seat);
  return html`<div class="panel pd-watch" data-testid="pd-watch">
    <h3><${ctx.Icon} name="timer" /> ${T(lang, "Your watch", "あなたの腕時計")}</h3>
    ${last
      ? html`<div class="pd-reading ${last.infected ? "sick" : "well"}"><strong>${status(last.infected, lang)}</strong>${T(lang, ", ", "、")}${vaccines(last.vaccines, lang)}
          <span class="muted"> (${T(lang, `read at ${clock(last.t)}`, `${clock(last.t)} に確認`)})</span></div>`
      : html`<div class="muted">${T(lang, "Not read yet: visit a private room.", "まだ確認していません。個室で確認できます。")}</div>`}
    ${mine != null ? html`<div>${T(lang, "Chance you are infected now", "今あなたが感染している確率")}: <strong>${Math.round(100 * mine)}%</strong></div>` : null}
    <div class="pd-buttons" onKeyDown=${ctx.widgets.arrowFocus}>
      <${MoveButton} view=${view} ctx=${ctx} intent="press" testid="pd-press" label=${T(lang, "Press the switch", "スイッチを押す")} />
      ${view.tempo === "rounds" ? html`<${MoveButton} view=${view} ctx=${ctx} intent="wait" testid="pd-wait" label=${T(lang, "Wait this round", "このラウンドは待つ")} />` : null}
    </div>
    <p class="muted small">${T(lang, "The switch cures an infected watch that holds a vaccine (losing one); otherwise nothing happens. Nobody is told which.",
      "スイッチ: 感染者でワクチンがあれば1本失って正常に。それ以外は何も起きません。結果は誰にも知らされません。")}</p>
  </div>`;
}

function Rooms({ view, ctx }) {
  const { html, lang, widgets } = ctx;
  const me = view.seat;
  const visit = view.inside.find((v) => v.seat === me);
  const queued = view.queue.indexOf(me);
  const rooms = view.rooms || Math.max(view.inside.length, 1);
  // This stay's reading, once made (the countdown to it is then done with).
  const readAt = visit ? visit.since + view.read_seconds * 1000 : null;
  const reading = visit ? (view.readings || []).find((r) => r.t >= visit.since) || (view.time >= readAt ? { t: readAt } : null) : null;
  return html`<div class="panel pd-rooms" data-testid="pd-rooms">
    <h3>${T(lang, "Private rooms", "個室")} <span class="muted">${view.rooms ? `${view.inside.length}/${view.rooms}` : T(lang, "unlimited", "無制限")}</span></h3>
    <div class="chips">${Array.from({ length: rooms }, (_, i) => {
      const v = view.inside.find((x) => x.room === i + 1);
      return html`<span class=${"chip static" + (v && v.seat === me ? " selected" : "")}>${i + 1}: ${v ? ctx.seatName(v.seat) : T(lang, "free", "空き")}</span>`;
    })}</div>
    ${view.queue.length ? html`<div class="muted">${T(lang, "Queue", "順番待ち")}: ${view.queue.map((s) => ctx.seatName(s)).join(", ")}</div>` : null}
    ${visit && view.tempo !== "rounds" && !view.is_over ? html`<div class="pd-visit">
        ${reading
          ? html`<div class="pd-visit-row" data-testid="pd-read-done">${T(lang, `Watch read at ${clock(reading.t)}`, `${clock(reading.t)} に腕時計を確認済み`)}</div>`
          : html`<div class="pd-visit-row" data-testid="pd-read-in"><span>${T(lang, "Watch read in", "腕時計の確認まで")}</span>
              <${widgets.MatchCountdown} version=${view.version} now=${view.time} until=${readAt} seconds=${view.read_seconds} /></div>`}
        <div class="pd-visit-row"><span>${T(lang, "Stay ends in", "退室まで")}</span>
          <${widgets.MatchCountdown} version=${view.version} now=${view.time} until=${visit.since + view.stay_seconds * 1000} seconds=${view.stay_seconds} /></div></div>` : null}
    ${visit && view.tempo === "rounds" ? html`<div class="muted">${T(lang, `inside since ${clock(visit.since)}; read after ${view.read_seconds} s`, `${clock(visit.since)} から入室中。${view.read_seconds}秒で確認`)}</div>` : null}
    ${me != null ? html`<div class="pd-buttons" onKeyDown=${ctx.widgets.arrowFocus}>
      ${visit || queued >= 0
        ? html`<${MoveButton} view=${view} ctx=${ctx} intent="leave" testid="pd-leave" label=${queued >= 0 ? T(lang, "Leave the queue", "順番待ちをやめる") : T(lang, "Leave the room", "個室を出る")} />`
        : html`<${MoveButton} view=${view} ctx=${ctx} intent="visit" testid="pd-visit" label=${T(lang, "Go to a private room", "個室に行く")} primary=${true} />`}
    </div>` : null}
  </div>`;
}

/** A seat's chance of being infected, as the public log has it and as what this seat knows has it. */
function chance(view, s, lang) {
  const mine = view.seat != null && view.my_odds;
  if (!view.odds && !mine) return T(lang, "Chance infected: not known from public information", "感染確率: 公開情報からは不明");
  if (!mine) return T(lang, `Chance infected (public information): ${pct(view.odds, s)}`, `感染確率(公開情報から): ${pct(view.odds, s)}`);
  const open = view.odds ? T(lang, `${pct(view.odds, s)} public`, `公開情報で${pct(view.odds, s)}`) : null;
  const known = T(lang, `${pct(view.my_odds, s)} by what you know`, `あなたの情報で${pct(view.my_odds, s)}`);
  return T(lang, `Chance infected: ${[open, known].filter(Boolean).join(", ")}`, `感染確率: ${[open, known].filter(Boolean).join("・")}`);
}

function SeatCards({ view, ctx }) {
  const { html, lang } = ctx;
  const me = view.seat;
  const where = (s) => {
    const v = view.inside.find((x) => x.seat === s);
    if (v) return T(lang, `room ${v.room}`, `個室${v.room}`);
    if (view.queue.includes(s)) return T(lang, "waiting for a room", "個室の順番待ち");
    return T(lang, "in the hall", "ホール");
  };
  const contacts = new Map();
  for (const e of view.log) if (e.kind === "contact") for (const s of [e.a, e.b]) contacts.set(s, (contacts.get(s) || 0) + 1);
  const incoming = new Map((view.offers_to_me || []).map((o) => [o.from, o]));
  const seats = Array.from({ length: view.seats }, (_, i) => i).filter((s) => s !== me);
  return html`<div class="pd-cards" data-testid="pd-seats">${seats.map((s) => {
    const offer = incoming.get(s);
    const mineTo = view.my_offer && view.my_offer.to === s;
    const busy = view.busy_until[s] > view.time;
    return html`<div class=${"panel pd-card" + (offer ? " offered" : "")} data-testid=${`pd-seat-${s}`}>
      <div class="pd-name"><strong>${ctx.pickName ? ctx.pickName(s) : ctx.seatName(s)}</strong> ${busy ? html`<span class="badge subtle">${T(lang, "busy", "接触直後")}</span>` : null}
        ${view.submitted && view.submitted.includes(s) ? html`<span class="badge subtle">✓</span>` : null}</div>
      <div class="muted small">${where(s)} · ${contactCount(contacts.get(s) || 0, lang)}</div>
      <div class="small" data-testid=${`pd-chance-${s}`}>${chance(view, s, lang)}</div>
      ${offer ? html`<div class="pd-offer">${T(lang, "offers you contact", "接触を申し出ています")}</div>` : null}
      ${me != null ? html`<div class="pd-buttons" onKeyDown=${ctx.widgets.arrowFocus}>
        ${offer ? html`<${MoveButton} view=${view} ctx=${ctx} intent=${`accept:${offer.id}`} testid=${`pd-accept-${s}`} label=${T(lang, "Accept", "受ける")} primary=${true} />
          <${MoveButton} view=${view} ctx=${ctx} intent=${`decline:${offer.id}`} testid=${`pd-decline-${s}`} label=${T(lang, "Decline", "断る")} />` : null}
        ${mineTo ? html`<${MoveButton} view=${view} ctx=${ctx} intent="withdraw" testid=${`pd-withdraw-${s}`} label=${T(lang, "Withdraw offer", "申し出を取り下げる")} />`
          : html`<${MoveButton} view=${view} ctx=${ctx} intent=${`offer:${s}`} testid=${`pd-offer-${s}`} label=${T(lang, "Offer contact", "接触を申し出る")} />`}
      </div>` : null}
    </div>`;
  })}</div>`;
}

function Log({ view, ctx, last = 12 }) {
  const { html, lang } = ctx;
  const rows = view.log.slice(-last).reverse();
  return html`<div class="panel pd-log" data-testid="pd-log"><h3>${T(lang, "Contacts and presses (public)", "接触とスイッチ(公開)")}</h3>
    ${rows.length ? html`<ul>${rows.map((e) => html`<li><span class="muted">${clock(e.t)}</span> ${e.kind === "contact"
      ? T(lang, `${ctx.seatName(e.a)} touched ${ctx.seatName(e.b)}`, `${ctx.seatName(e.a)} と ${ctx.seatName(e.b)} が接触`)
      : T(lang, `${ctx.seatName(e.seat)} pressed the switch`, `${ctx.seatName(e.seat)} がスイッチを押した`)}</li>`)}</ul>`
      : html`<p class="muted">${T(lang, "Nothing yet.", "まだありません。")}</p>`}</div>`;
}

function Odds({ view, ctx }) {
  const { html, lang } = ctx;
  if (!view.odds) {
    return html`<div class="panel pd-odds" data-testid="pd-odds"><h3>${T(lang, "Public odds", "公開情報での感染確率")}</h3>
      <p class="muted">${T(lang, "Contacts or presses are private in this match: the public log no longer determines who is infected, so no exact odds are shown.",
        "このマッチでは接触かスイッチが非公開のため、公開情報から感染者を確定できず、正確な確率は表示しません。")}</p></div>`;
  }
  return html`<div class="panel pd-odds" data-testid="pd-odds">
    <h3>${T(lang, "Public odds: chance each seat is infected now", "公開情報での現在の感染確率")}</h3>
    <p class="muted small">${T(lang, `Exact: every way the ${view.infected_at_start} first infected could have been drawn (${view.odds.worlds} left), carried through the public contacts and presses.`,
      `初期感染者${view.infected_at_start}人のあらゆる組み合わせ(${view.odds.worlds}通り)を公開の接触とスイッチで追跡した正確な値。`)}</p>
    <div class="pd-odds-list">${Array.from({ length: view.seats }, (_, s) => html`<div class="pd-odd" data-seat=${s}>
      <span class="pd-odd-name">${ctx.seatName(s)}</span>
      <span class="pd-odd-bar"><span style=${`width:${100 * share(view.odds, s)}%`}></span></span>
      <span class="pd-odd-value">${pct(view.odds, s)}</span></div>`)}</div>
  </div>`;
}

// The width of a lane's name in the graph, in the page's own font (a canvas measures it), else a guess:
// a full-width character (kana, kanji, "(") an em, any other about 0.62 em.
let measurer = null;
function textWidth(text, size) {
  try {
    if (!measurer) measurer = document.createElement("canvas").getContext("2d");
    measurer.font = `${size}px ${getComputedStyle(document.body).fontFamily}`;
    return measurer.measureText(text).width;
  } catch {
    return [...text].reduce((w, c) => w + size * (c.codePointAt(0) >= 0x2e80 ? 1 : 0.62), 0);
  }
}

/** Time marks: the first step (15 s up to 30 min) that gives at most eight marks over the game. */
function ticks(end) {
  const step = [15, 30, 60, 120, 300, 600, 900, 1800].map((s) => s * 1000).find((s) => end / s <= 8) || 3_600_000;
  return Array.from({ length: Math.floor(end / step) + 1 }, (_, i) => i * step);
}

const PRESS = "#b86e00";
const CONTACT = "#2563eb";
const NOW = "#b3261e";

function Legend({ view, ctx }) {
  const { html, lang } = ctx;
  const swatch = (shape) => html`<svg class="pd-swatch" viewBox="0 0 24 16" width="1.5em" height="1em" aria-hidden="true">${shape}</svg>`;
  return html`<div class="pd-legend small" data-testid="pd-legend">
    <span>${swatch(html`<circle cx="12" cy="8" r="5" fill=${PRESS} />`)}${T(lang, "a switch press", "スイッチを押した")}</span>
    <span>${swatch(html`<line x1="12" x2="12" y1="1" y2="15" stroke=${CONTACT} stroke-width="3" /><circle cx="12" cy="2.5" r="2.5" fill=${CONTACT} /><circle cx="12" cy="13.5" r="2.5" fill=${CONTACT} />`)}${T(lang, "a contact between the seats at its two ends", "接触(線の両端の2人)")}</span>
    <span>${swatch(html`<line x1="12" x2="12" y1="0" y2="16" stroke=${NOW} stroke-width="2" stroke-dasharray="4 3" />`)}${T(lang, "now", "現在")}</span>
    <span class="muted">${T(lang, "across: game time (min:s)", "横軸: ゲーム時間(分:秒)")}</span>
    ${view.public_contacts === false ? html`<span class="muted">${T(lang, "contacts are secret in this match", "このマッチでは接触は非公開")}</span>` : null}
    ${view.public_presses === false ? html`<span class="muted">${T(lang, "presses are secret in this match", "このマッチではスイッチは非公開")}</span>` : null}
  </div>`;
}

function Graph({ view, ctx }) {
  // Seats as lanes, time left to right; each contact a line between the two lanes, each press a dot. Its
  // height is held to what a 1080p screen has left under the header, with lanes narrower for many seats.
  const { html, lang } = ctx;
  const width = 1000;
  const lane = Math.max(12, Math.min(28, Math.floor(240 / view.seats)));
  const font = Math.max(10, Math.min(16, lane - 6));
  const names = Array.from({ length: view.seats }, (_, s) => ctx.seatName(s));
  const left = Math.min(0.42 * width, 12 + Math.max(...names.map((n) => textWidth(n, font))) + 10);
  const right = 24;
  const top = 8;
  const bottom = top + lane * view.seats;
  const height = bottom + 28;
  const end = Math.max(1, view.ends_at);
  const x = (t) => left + ((width - left - right) * Math.min(t, end)) / end;
  const y = (s) => top + lane * (s + 0.5);
  const dot = Math.max(3, Math.min(6, lane / 4));
  return html`<div class="panel pd-graph" data-testid="pd-graph">
    <div class="pd-graph-head"><h3>${T(lang, "Contacts over time", "接触の時系列")}</h3><${Legend} view=${view} ctx=${ctx} /></div>
    <svg class="pd-plot" viewBox=${`0 0 ${width} ${height}`} role="img" aria-label=${T(lang, "contact graph over time", "接触の時系列グラフ")}>
      ${ticks(end).map((t) => html`<g class="pd-tick">
        <line x1=${x(t)} x2=${x(t)} y1=${top} y2=${bottom + 4} stroke="currentColor" stroke-opacity=".15" />
        <text x=${x(t)} y=${bottom + 20} font-size=${Math.min(14, font)} text-anchor="middle" fill="currentColor" fill-opacity=".7">${clock(t)}</text></g>`)}
      ${names.map((name, s) => html`<g class="pd-lane">
        <text x=${left - 10} y=${y(s)} dy=".35em" font-size=${font} text-anchor="end" fill="currentColor">${name}</text>
        <line x1=${left} x2=${width - right} y1=${y(s)} y2=${y(s)} stroke="currentColor" stroke-opacity=".3" stroke-width="1" /></g>`)}
      <line class="pd-now" x1=${x(view.time)} x2=${x(view.time)} y1=${top - 4} y2=${bottom + 4} stroke=${NOW} stroke-width="2" stroke-dasharray="4 3" />
      ${view.log.map((e) => (e.kind === "contact"
        ? html`<g><title>${clock(e.t)} ${T(lang, `${names[e.a]} touched ${names[e.b]}`, `${names[e.a]} と ${names[e.b]} が接触`)}</title>
            <line x1=${x(e.t)} x2=${x(e.t)} y1=${y(e.a)} y2=${y(e.b)} stroke=${CONTACT} stroke-width="3" />
            <circle cx=${x(e.t)} cy=${y(e.a)} r=${dot * 0.6} fill=${CONTACT} /><circle cx=${x(e.t)} cy=${y(e.b)} r=${dot * 0.6} fill=${CONTACT} /></g>`
        : html`<circle cx=${x(e.t)} cy=${y(e.seat)} r=${dot} fill=${PRESS}><title>${clock(e.t)} ${T(lang, `${names[e.seat]} pressed the switch`, `${names[e.seat]} がスイッチを押した`)}</title></circle>`))}
    </svg></div>`;
}

const STYLE = `
.pd { display: flex; flex-direction: column; gap: .6rem; }
.pd-time { position: sticky; top: var(--turn-height, 0px); z-index: 2; font-size: 1.2rem; display: flex; flex-wrap: wrap; align-items: center; gap: .2rem .8rem; }
.pd-time .countdown { display: flex; align-items: center; gap: .6rem; font-size: 1.4rem; flex: 1 1 12rem; }
.pd-time .countdown-bar { flex: 1; width: auto; height: 16px; }
.pd-time .pd-period { flex-basis: 100%; }
.pd-time .pd-bar { flex: 1 1 8rem; margin-top: 0; }
.pd-bar { display: block; height: 14px; background: var(--line); border-radius: 7px; overflow: hidden; margin-top: .3rem; }
.pd-bar span { display: block; height: 100%; background: var(--accent); }
.pd-table { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); align-items: start; }
.pd-table > .pd-time { grid-column: 1 / -1; }
.pd-table .pd-side { display: flex; flex-direction: column; gap: .6rem; }
.pd-table svg.pd-plot { max-height: 62vh; }
.pd-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .6rem; }
.pd-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .5rem; }
.pd-card.offered { box-shadow: 0 0 0 3px var(--accent); }
.pd-offer { color: var(--accent); font-weight: 700; }
.pd-buttons { display: flex; flex-wrap: wrap; gap: .3rem; margin-top: .3rem; }
.pd-buttons button.selected { outline: 3px solid var(--ok); }
.pd-buttons button.selected:focus-visible { outline-color: var(--focus); } /* focus is told apart from the choice (its ✓ stays) */
.pd-reading { font-size: 1.2rem; } .pd-reading.sick strong { color: var(--accent); } .pd-reading.well strong { color: var(--ok); }
.pd-odds-list { display: grid; grid-template-columns: fit-content(50%) minmax(4rem, 1fr) auto; align-items: center; gap: .2rem .6rem; }
.pd-odd { display: contents; }
.pd-odd-bar { height: 12px; background: var(--line); border-radius: 6px; overflow: hidden; }
.pd-odd-bar span { display: block; height: 100%; background: var(--accent); }
.pd-odd-value { text-align: right; font-variant-numeric: tabular-nums; }
.pd-log ul { list-style: none; padding: 0; margin: 0; max-height: 16rem; overflow: auto; }
.pd-graph svg.pd-plot { width: 100%; height: auto; display: block; }
.pd-graph-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: .2rem 1.2rem; }
.pd-graph-head h3 { margin: 0 0 .3rem; }
.pd-legend { display: flex; flex-wrap: wrap; gap: .2rem 1rem; align-items: center; }
.pd-legend span { display: inline-flex; align-items: center; gap: .25rem; }
.pd-visit { display: flex; flex-direction: column; gap: .2rem; margin-top: .3rem; }
.pd-visit-row { display: flex; flex-wrap: wrap; align-items: center; gap: .2rem .6rem; }
.pd-period { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; font-size: .95rem; }
.pd .small { font-size: .85rem; }
`;

export function render(view, ctx) {
  const { html } = ctx;
  return html`<div class="pd"><style>${STYLE}</style>
    <${TimeBar} view=${view} ctx=${ctx} />
    <div class="pd-grid">${ctx.seat != null ? html`<${Watch} view=${view} ctx=${ctx} />` : null}<${Rooms} view=${view} ctx=${ctx} /></div>
    <${SeatCards} view=${view} ctx=${ctx} />
    <${Log} view=${view} ctx=${ctx} />
    ${ctx.seat == null ? html`<${Odds} view=${view} ctx=${ctx} />` : null}
  </div>`;
}

export function renderTable(view, ctx) {
  // The graph is the show: right under the clock, above the fold of a 1080p screen; the odds and the
  // rooms below it.
  // A 1920x1080 screen shows it all without scrolling (issue 29): the graph beside the odds and the rooms, its
  // height held to the screen's.
  const { html } = ctx;
  return html`<div class="pd pd-table"><style>${STYLE}</style>
    <${TimeBar} view=${view} ctx=${ctx} />
    <${Graph} view=${view} ctx=${ctx} />
    <div class="pd-side"><${Odds} view=${view} ctx=${ctx} /><${Rooms} view=${view} ctx=${ctx} /></div>
  </div>`;
}

/** The board offers every move itself (the switch, the rooms, each seat's card): no action panel repeats them. */
export function ownsActions() {
  return true;
}

export function valueLabel(type, name, value, lang, view, ctx) {
  if (name === "target") return ctx ? ctx.seatName(value) : null;
  if (name === "offer") {
    const [from, at] = String(value).split("@");
    return ctx ? T(lang, `${ctx.seatName(Number(from))} (offered at ${clock(Number(at))})`, `${ctx.seatName(Number(from))}(${clock(Number(at))}に申し出)`) : null;
  }
  if (name === "intent" && ctx) {
    const [kind, arg] = String(value).split(/:(.*)/s);
    const who = arg ? ctx.seatName(Number(arg.split("@")[0])) : "";
    const words = {
      wait: T(lang, "wait", "待つ"), press: T(lang, "press the switch", "スイッチを押す"), visit: T(lang, "go to a room", "個室に行く"),
      leave: T(lang, "leave", "出る"), withdraw: T(lang, "withdraw your offer", "申し出を取り下げる"),
      offer: T(lang, `offer contact to ${who}`, `${who}に接触を申し出る`), accept: T(lang, `accept ${who}`, `${who}の申し出を受ける`),
      decline: T(lang, `decline ${who}`, `${who}の申し出を断る`),
    };
    return words[kind] || null;
  }
  return null;
}

/** The result's detail: seats by their names (as on the rest of the page), not their numbers. */
export function detailValue(key, value, lang, ctx) {
  if (!["passed", "cut_lot", "initial_infected"].includes(key)) return undefined;
  const { html } = ctx;
  if (value == null) return key === "cut_lot" ? T(lang, "none: no tie at the cut", "なし(ボーダーに同数なし)") : undefined;
  if (!Array.isArray(value) || !value.length) return html`<span class="muted">${ctx.t("none")}</span>`;
  return html`${value.map((s, i) => html`${i ? T(lang, ", ", "、") : ""}<${ctx.SeatDot} seat=${s} />${ctx.seatName(s)}`)}`;
}

export function holdingValue(key, value, lang) {
  if (key === "status") return status(value === "infected", lang);
  if (key === "passed" || key === "infected_at_start") return value ? "✓" : "—";
  return undefined;
}

export function eventDuration(event) {
  return event.type === "intent_submitted" ? 200 : 900;
}

export function describeEvent(event, lang, ctx) {
  const d = event.data || {};
  const who = (s) => (s == null ? "—" : ctx.seatName(s));
  switch (event.type) {
    case "offered": return T(lang, `${who(d.from)} offers contact to ${who(d.to)}`, `${who(d.from)} が ${who(d.to)} に接触を申し出た`);
    case "offer_lapsed": return T(lang, `The offer of ${who(d.from)} to ${who(d.to)} lapsed`, `${who(d.from)} から ${who(d.to)} への申し出が失効`);
    case "declined": return T(lang, `${who(d.to)} declined ${who(d.from)}'s offer`, `${who(d.to)} が ${who(d.from)} の申し出を断った`);
    case "contact": return T(lang, `${clock(d.t)} ${who(d.a)} touched ${who(d.b)}`, `${clock(d.t)} ${who(d.a)} と ${who(d.b)} が接触`);
    case "pressed": return T(lang, `${clock(d.t)} ${who(d.seat)} pressed the switch`, `${clock(d.t)} ${who(d.seat)} がスイッチを押した`);
    case "entered": return T(lang, `${who(d.seat)} entered room ${d.room}`, `${who(d.seat)} が個室${d.room}に入った`);
    case "queued": return T(lang, `${who(d.seat)} waits for a room`, `${who(d.seat)} が個室の順番待ち`);
    case "left": return T(lang, `${who(d.seat)} left room ${d.room}`, `${who(d.seat)} が個室${d.room}を出た`);
    case "left_queue": return T(lang, `${who(d.seat)} left the queue`, `${who(d.seat)} が順番待ちをやめた`);
    case "watch_read": return T(lang, `Your watch: ${status(d.infected, lang)}, ${vaccines(d.vaccines, lang)}`, `あなたの腕時計: ${status(d.infected, lang)}、${vaccines(d.vaccines, lang)}`);
    case "intent_void": return T(lang, "Your move could no longer be made", "あなたの行動は実行できなくなりました");
    case "intent_submitted": return null;
    case "step_order": return T(lang, `Round ${d.step + 1} is carried out`, `ラウンド${d.step + 1}を実行`);
    case "period_over": return d.healthy == null ? T(lang, `Period ${d.period + 1} is over`, `ピリオド${d.period + 1}終了`)
      : T(lang, `Period ${d.period + 1} is over: ${d.healthy} healthy, ${d.infected} infected`, `ピリオド${d.period + 1}終了: 正常${d.healthy}人・感染${d.infected}人`);
    case "period_started": return T(lang, `Period ${d.period + 1} begins`, `ピリオド${d.period + 1}開始`);
    case "time_up": return T(lang, `Time up: ${(d.passed || []).map(who).join(", ") || "nobody"} qualify`, `時間切れ: 予選突破は ${(d.passed || []).map(who).join("、") || "なし"}`);
    default: return undefined;
  }
}
