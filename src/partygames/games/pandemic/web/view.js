// The Pandemic Game's renderer. Phone: a time-left bar, your watch as last read, the private rooms with
// their countdowns, the switch, and every other seat as a card with "offer contact" / "accept" /
// "decline". Table: the contact graph over time and the public odds panel. Every button sends an action
// the view's legal actions list (in the rounds tempo, as this round's sealed move).
const ja = (lang) => lang === "ja";
const T = (lang, en, jp) => (ja(lang) ? jp : en);

const clock = (ms) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};
const pct = (odds, seat) => (odds && odds.worlds ? `${Math.round((100 * odds.infected[seat]) / odds.worlds)}%` : "—");
const share = (odds, seat) => (odds && odds.worlds ? odds.infected[seat] / odds.worlds : null);
const status = (infected, lang) => (infected ? T(lang, "infected", "感染") : T(lang, "healthy", "正常"));

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
  return html`<button class=${(primary ? "primary " : "") + (chosen ? "selected" : "")} data-testid=${testid}
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
      <span class="muted"> · ${T(lang, `round ${view.step + 1}`, `ラウンド${view.step + 1}`)} (${view.step_seconds} s)</span>
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
    <h3>⌚ ${T(lang, "Your watch", "あなたの腕時計")}</h3>
    ${last
      ? html`<div class="pd-reading ${last.infected ? "sick" : "well"}"><strong>${status(last.infected, lang)}</strong>,
          ${T(lang, `${last.vaccines} vaccines`, `ワクチン${last.vaccines}本`)}
          <span class="muted"> (${T(lang, `read at ${clock(last.t)}`, `${clock(last.t)} に確認`)})</span></div>`
      : html`<div class="muted">${T(lang, "Not read yet: visit a private room.", "まだ確認していません。個室で確認できます。")}</div>`}
    ${mine != null ? html`<div>${T(lang, "Chance you are infected now", "今あなたが感染している確率")}: <strong>${Math.round(100 * mine)}%</strong></div>` : null}
    <div class="pd-buttons">
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
  return html`<div class="panel pd-rooms" data-testid="pd-rooms">
    <h3>${T(lang, "Private rooms", "個室")} <span class="muted">${view.rooms ? `${view.inside.length}/${view.rooms}` : T(lang, "unlimited", "無制限")}</span></h3>
    <div class="chips">${Array.from({ length: rooms }, (_, i) => {
      const v = view.inside.find((x) => x.room === i + 1);
      return html`<span class=${"chip static" + (v && v.seat === me ? " selected" : "")}>${i + 1}: ${v ? ctx.seatName(v.seat) : T(lang, "free", "空き")}</span>`;
    })}</div>
    ${view.queue.length ? html`<div class="muted">${T(lang, "Queue", "順番待ち")}: ${view.queue.map((s) => ctx.seatName(s)).join(", ")}</div>` : null}
    ${visit && view.tempo !== "rounds" && !view.is_over ? html`<div class="pd-visit">
        ${T(lang, "Watch read in", "腕時計の確認まで")} <${widgets.MatchCountdown} version=${view.version} now=${view.time} until=${visit.since + view.read_seconds * 1000} seconds=${view.read_seconds} />
        ${T(lang, "Stay ends in", "退室まで")} <${widgets.MatchCountdown} version=${view.version} now=${view.time} until=${visit.since + view.stay_seconds * 1000} seconds=${view.stay_seconds} /></div>` : null}
    ${visit && view.tempo === "rounds" ? html`<div class="muted">${T(lang, `inside since ${clock(visit.since)}; read after ${view.read_seconds} s`, `${clock(visit.since)} から入室中。${view.read_seconds}秒で確認`)}</div>` : null}
    ${me != null ? html`<div class="pd-buttons">
      ${visit || queued >= 0
        ? html`<${MoveButton} view=${view} ctx=${ctx} intent="leave" testid="pd-leave" label=${queued >= 0 ? T(lang, "Leave the queue", "順番待ちをやめる") : T(lang, "Leave the room", "個室を出る")} />`
        : html`<${MoveButton} view=${view} ctx=${ctx} intent="visit" testid="pd-visit" label=${T(lang, "Go to a private room", "個室に行く")} primary=${true} />`}
    </div>` : null}
  </div>`;
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
      <div class="pd-name"><strong>${ctx.seatName(s)}</strong> ${busy ? html`<span class="badge subtle">${T(lang, "busy", "接触直後")}</span>` : null}
        ${view.submitted && view.submitted.includes(s) ? html`<span class="badge subtle">✓</span>` : null}</div>
      <div class="muted small">${where(s)} · ${T(lang, `${contacts.get(s) || 0} contacts`, `接触${contacts.get(s) || 0}回`)}</div>
      <div class="small">${T(lang, "infected", "感染確率")}: ${pct(view.odds, s)}${me != null && view.my_odds ? html` <span class="muted">(${T(lang, "to you", "あなたの推定")} ${pct(view.my_odds, s)})</span>` : null}</div>
      ${offer ? html`<div class="pd-offer">${T(lang, "offers you contact", "接触を申し出ています")}</div>` : null}
      ${me != null ? html`<div class="pd-buttons">
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
    ${Array.from({ length: view.seats }, (_, s) => html`<div class="pd-odd" data-seat=${s}>
      <span class="pd-odd-name">${ctx.seatName(s)}</span>
      <span class="pd-odd-bar"><span style=${`width:${100 * share(view.odds, s)}%`}></span></span>
      <span class="pd-odd-value">${pct(view.odds, s)}</span></div>`)}
  </div>`;
}

function Graph({ view, ctx }) {
  // Seats as lanes, time left to right; each contact a line between the two lanes, each press a dot.
  const { html, lang } = ctx;
  const width = 900;
  const lane = 28;
  const left = 140;
  const height = lane * view.seats + 30;
  const x = (t) => left + ((width - left - 10) * t) / view.ends_at;
  const y = (s) => 20 + lane * s;
  return html`<div class="panel pd-graph" data-testid="pd-graph"><h3>${T(lang, "Contacts over time", "接触の時系列")}</h3>
    <svg viewBox=${`0 0 ${width} ${height}`} role="img" aria-label=${T(lang, "contact graph over time", "接触の時系列グラフ")}>
      ${Array.from({ length: view.seats }, (_, s) => html`<g>
        <text x="4" y=${y(s) + 4} font-size="13" fill="currentColor">${ctx.seatName(s)}</text>
        <line x1=${left} x2=${width - 10} y1=${y(s)} y2=${y(s)} stroke="#bbb" stroke-width="1" /></g>`)}
      <line x1=${x(view.time)} x2=${x(view.time)} y1="10" y2=${height - 10} stroke="#b3261e" stroke-dasharray="4 3" />
      ${view.log.map((e) => (e.kind === "contact"
        ? html`<line x1=${x(e.t)} x2=${x(e.t)} y1=${y(e.a)} y2=${y(e.b)} stroke="#2563eb" stroke-width="3"><title>${clock(e.t)}</title></line>`
        : html`<circle cx=${x(e.t)} cy=${y(e.seat)} r="5" fill="#b86e00"><title>${clock(e.t)}</title></circle>`))}
    </svg></div>`;
}

const STYLE = `
.pd-time { position: sticky; top: 0; z-index: 2; font-size: 1.2rem; }
.pd-time .countdown { display: flex; align-items: center; gap: .6rem; font-size: 1.4rem; }
.pd-time .countdown-bar { flex: 1; width: auto; height: 16px; }
.pd-bar { display: block; height: 14px; background: var(--line); border-radius: 7px; overflow: hidden; margin-top: .3rem; }
.pd-bar span { display: block; height: 100%; background: var(--accent); }
.pd-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .6rem; }
.pd-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .5rem; }
.pd-card.offered { box-shadow: 0 0 0 3px var(--accent); }
.pd-offer { color: var(--accent); font-weight: 700; }
.pd-buttons { display: flex; flex-wrap: wrap; gap: .3rem; margin-top: .3rem; }
.pd-buttons button.selected { outline: 3px solid var(--ok); }
.pd-reading { font-size: 1.2rem; } .pd-reading.sick strong { color: var(--accent); } .pd-reading.well strong { color: var(--ok); }
.pd-odd { display: grid; grid-template-columns: 9rem 1fr 3.5rem; align-items: center; gap: .4rem; }
.pd-odd-bar { height: 12px; background: var(--line); border-radius: 6px; overflow: hidden; }
.pd-odd-bar span { display: block; height: 100%; background: var(--accent); }
.pd-odd-value { text-align: right; font-variant-numeric: tabular-nums; }
.pd-log ul { list-style: none; padding: 0; margin: 0; max-height: 16rem; overflow: auto; }
.pd-graph svg { width: 100%; height: auto; }
.pd-period { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; font-size: .95rem; }
.small { font-size: .85rem; }
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
  const { html } = ctx;
  return html`<div class="pd"><style>${STYLE}</style>
    <${TimeBar} view=${view} ctx=${ctx} />
    <div class="pd-grid"><${Odds} view=${view} ctx=${ctx} /><${Rooms} view=${view} ctx=${ctx} /></div>
    <${Graph} view=${view} ctx=${ctx} />
  </div>`;
}

export function valueLabel(type, name, value, lang, view, ctx) {
  if (name === "target") return ctx ? ctx.seatName(value) : null;
  if (name === "offer") {
    const [from, at] = String(value).split("@");
    return ctx ? T(lang, `${ctx.seatName(Number(from))} (${clock(Number(at))})`, `${ctx.seatName(Number(from))}(${clock(Number(at))})`) : null;
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
    case "watch_read": return T(lang, `Your watch: ${status(d.infected, lang)}, ${d.vaccines} vaccines`, `あなたの腕時計: ${status(d.infected, lang)}、ワクチン${d.vaccines}本`);
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
