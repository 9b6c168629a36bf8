// Musical Chairs' renderer: the island in SVG (tap a chair to run there, the totem to run to it), everyone
// as a dot with their name, the chair numbers drawn above everything, a legend, your forbidden chair
// marked, the phase, the tally, the players (seated, running, out), the removed chairs and your medal
// wallet. Votes, gifts and plans use the platform's action controls (built from legal_actions).
// On a phone in the real-time tempo the map comes first, above the actions: tapping a chair is how you play.
const ja = (lang) => lang === "ja";
const T = (lang, en, jp) => (ja(lang) ? jp : en);

/** Yen in the client's one format (ctx.yen, web/money.js): "¥1,800,000,000"; 「18億円」, 「1億5000万円」, 「0円」. */
const yen = (value, lang, ctx) => ctx.yen(value, { lang });

/** What one medal is worth, in words: "100 million yen", 「1億円」. */
function medalWorth(value, lang, ctx) {
  if (ja(lang)) return yen(value, lang, ctx);
  return value % 1_000_000 === 0 ? `${(value / 1_000_000).toLocaleString("en-US")} million yen` : yen(value, lang, ctx);
}

/** A span of match time: "45 s", "5 min"; 「45秒」, 「5分」. */
function span(ms, lang) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s >= 60 && s % 60 === 0) return T(lang, `${s / 60} min`, `${s / 60}分`);
  return T(lang, `${s} s`, `${s}秒`);
}

/** Where a course {from, to, start, arrive} has got to at `now` (as the engine computes it). */
function position(motion, now) {
  if (now >= motion.arrive) return motion.to;
  if (now <= motion.start) return motion.from;
  const f = (now - motion.start) / (motion.arrive - motion.start);
  return [motion.from[0] + (motion.to[0] - motion.from[0]) * f, motion.from[1] + (motion.to[1] - motion.from[1]) * f];
}

const legal = (view, type) => (view.legal_actions || []).find((s) => s.type === type);

/** Names short enough for the map, per seat: "Aoi" for "Bot Aoi (heuristic)", "Aki" for "Aki (you)", at most
 * 9 characters; a bot whose short name is someone else's too keeps its "Bot", and a name still shared
 * gets its seat number. */
function shortNames(view, ctx) {
  const seats = (ctx.room && ctx.room.seats) || [];
  const you = ctx.t ? ` (${ctx.t("you")})` : null;
  const cut = (name) => (name.length > 9 ? `${name.slice(0, 8)}…` : name);
  const full = view.people.map((_, seat) => {
    const name = ctx.seatName(seat);
    return seat === ctx.seat && you && name.endsWith(you) ? name.slice(0, -you.length) : name;
  });
  const bot = (seat) => seats[seat] && seats[seat].kind === "bot";
  const unkind = (name) => name.replace(/\s*[(（][^()（）]*[)）]$/, "");
  let names = full.map((name, seat) => cut(bot(seat) ? unkind(name).replace(/^(Bot|ボット)\s*/, "") : name));
  const shared = (list) => (name) => list.filter((n) => n === name).length > 1;
  const first = shared(names);
  names = names.map((name, seat) => (first(name) && bot(seat) ? cut(unkind(full[seat])) : name));
  const second = shared(names);
  return names.map((name, seat) => (second(name) ? `${name} ${seat + 1}` : name));
}

const COLOURS = { me: "#e53935", player: "#1e88e5", gallery: "#9e9e9e" };
const CHAIR = { free: "#8d6e63", lit: "#ffd54a", edge: "#4e342e", held: "#7e57c2", forbidden: "#d32f2f" };

/** Where each person's dot goes: people at the same spot (the totem, a chair) are spread on a small
 * ring around it, so that each dot, and the chair's number, stays visible. */
function placed(view, z) {
  const spots = new Map();
  view.people.forEach((p, seat) => {
    if (!p.motion) return;
    const at = position(p.motion, view.now);
    const key = `${Math.round(at[0])},${Math.round(at[1])}`;
    if (!spots.has(key)) spots.set(key, []);
    spots.get(key).push({ seat, at });
  });
  const out = [];
  for (const group of spots.values()) {
    group.forEach(({ seat, at }, i) => {
      if (group.length === 1) {
        out.push({ seat, x: at[0], y: at[1], dx: 1, dy: 0 });
        return;
      }
      // None straight up, where a chair's number is: from below (an odd count) or either side (an even one).
      const angle = Math.PI / 2 + (group.length % 2 ? 0 : Math.PI / group.length) + (2 * Math.PI * i) / group.length;
      const r = 1.3 * z.dot + 0.4 * group.length;
      const dx = Math.cos(angle);
      const dy = Math.sin(angle);
      out.push({ seat, x: at[0] + r * dx, y: at[1] + r * dy, dx, dy });
    });
  }
  return out;
}

// A name's width in the island's units: measured with the page's font where a canvas can (the font size is in
// those units too, so the measure scales), else estimated (a CJK character is about 1 em, others 0.6 em).
let measurer = null;
function textWidth(text, size, bold) {
  if (measurer === null) {
    const canvas = typeof document !== "undefined" && document.createElement ? document.createElement("canvas") : null;
    measurer = (canvas && canvas.getContext && canvas.getContext("2d")) || false;
  }
  if (measurer) {
    const family = getComputedStyle(document.body).fontFamily || "sans-serif";
    measurer.font = `${bold ? 700 : 400} ${size}px ${family}`;
    return measurer.measureText(text).width;
  }
  return [...text].reduce((w, c) => w + (c.codePointAt(0) > 0x2e80 ? 1 : 0.6) * size, 0);
}

const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const overlapArea = (a, b) => Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x))
  * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

/** Where each name goes: beside its dot, on the first of several spots around it (right, left, below, above,
 * the corners, then farther out) that stays on the map and covers no other name, dot, chair or chair number;
 * a name put farther out gets a thin line to its dot. Names are placed one by one (yours first, then the
 * players', then the gallery's), so none is written over another, as "Kana" and "Nora" were. */
export function placeNames(labels, obstacles, bounds, size) {
  const placed = [];
  const taken = [...obstacles];
  const dirs = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1], [0.5, 1], [-0.5, 1], [0.5, -1], [-0.5, -1]];
  for (const label of labels) {
    const { x, y, w, gap } = label;
    const h = size * 1.15;
    let best = null;
    for (let ring = 0; ring < 6 && !(best && best.cost === 0); ring += 1) {
      const d = gap + ring * size * 0.9;
      for (const [dx, dy] of dirs) {
        // The box's near edge or corner sits `d` from the dot, in the direction (dx, dy).
        const bx = dx > 0 ? x + d * dx : dx < 0 ? x + d * dx - w : x - w / 2;
        const by = dy > 0 ? y + d * dy : dy < 0 ? y + d * dy - h : y - h / 2;
        const box = { x: bx, y: by, w, h };
        const inside = bx >= bounds.x && by >= bounds.y && bx + w <= bounds.x + bounds.w && by + h <= bounds.y + bounds.h;
        if (!inside) continue;
        const cost = taken.reduce((sum, o) => sum + (overlaps(box, o) ? overlapArea(box, o) : 0), 0);
        if (!best || cost < best.cost) best = { box, cost, ring };
        if (cost === 0) break;
      }
    }
    // Nowhere on the map at all (a name wider than the island): centred under the dot, clamped to the map.
    const box = best ? best.box : { x: Math.min(Math.max(bounds.x, x - w / 2), bounds.x + bounds.w - w), y: y + gap, w, h };
    taken.push(box);
    placed.push({ ...label, box, far: !!best && best.ring > 0 });
  }
  return placed;
}

// Sizes in metres: a phone draws the island some 370 px wide, a big screen three times that.
// `hit`: the radius a tap on a chair counts within (chairs stand 12 m apart at least).
const SIZES = { phone: { chair: 10, number: 9.5, dot: 2.8, me: 3.6, name: 6.5, hit: 8 },
  table: { chair: 8, number: 7, dot: 2, me: 2.6, name: 4.2, hit: 7 } };

// The chair the keyboard last stood on: the map's one Tab stop among the chairs (a roving tabindex).
let tabChair = null;

function island(view, ctx, big) {
  const { html, lang } = ctx;
  const z = big ? SIZES.table : SIZES.phone;
  const { width, height, totem, rx, ry } = view.island;
  const me = ctx.seat != null ? view.people[ctx.seat] : null;
  const canRun = !!legal(view, "run_to_chair");
  const run = (action) => ctx.send && ctx.send({ type: "action", action });
  const open = view.chairs.filter((c) => !c.removed);
  // By keyboard: Tab reaches one chair (the last one focused), the arrows move among the chairs and the totem
  // as drawn, Enter or Space runs there.
  const stop = open.some((c) => c.number === tabChair) ? tabChair : open.length ? open[0].number : null;
  const pressed = (e, action) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    if (action) run(action);
  };
  const chairs = open.map((c) => {
    const lit = c.occupant != null;
    const forbidden = me && me.last_chair === c.number;
    const label = T(lang, `Chair ${c.number}`, `イス${c.number}`) + (lit ? T(lang, " (taken)", "(着席済み)") : "")
      + (c.holder != null ? T(lang, " (held by the gallery)", "(ガヤが押さえています)") : "")
      + (forbidden ? T(lang, " (not for you this time)", "(今回は座れません)") : "");
    // A wide, invisible target around the chair: a finger on a phone is bigger than the chair's square.
    const action = canRun ? { type: "run_to_chair", chair: c.number } : null;
    return html`<g key=${c.number} class=${"mc-chair" + (lit ? " lit" : "") + (forbidden ? " forbidden" : "")} role="button"
        aria-label=${label} data-chair=${c.number} tabindex=${canRun ? (c.number === stop ? 0 : -1) : null}
        onFocus=${() => { tabChair = c.number; }} onKeyDown=${(e) => pressed(e, action)}
        onClick=${action ? () => run(action) : null}>
      <circle cx=${c.at[0]} cy=${c.at[1] - 3} r=${z.hit} fill="transparent" />
      <rect x=${c.at[0] - z.chair / 2} y=${c.at[1] - z.chair / 2} width=${z.chair} height=${z.chair} rx="1.5"
        fill=${lit ? CHAIR.lit : CHAIR.free} stroke=${forbidden ? CHAIR.forbidden : c.holder != null ? CHAIR.held : CHAIR.edge}
        stroke-width=${forbidden || c.holder != null ? 1.6 : 0.8} stroke-dasharray=${forbidden ? "2 1" : null} />
      <title>${label}</title>
    </g>`;
  });
  const dots = placed(view, z);
  const people = dots.map(({ seat, x, y }) => {
    const p = view.people[seat];
    const mine = seat === ctx.seat;
    const fill = mine ? COLOURS.me : p.role === "player" ? COLOURS.player : COLOURS.gallery;
    // A tap goes through a person to the chair or the totem they stand at.
    return html`<circle class="mc-person" data-seat=${seat} cx=${x} cy=${y} r=${mine ? z.me : z.dot} fill=${fill}
      stroke=${mine ? "#fff" : "#0006"} stroke-width=${mine ? 0.8 : 0.3} pointer-events="none" />`;
  });
  // On top: the names (the table names everyone; a phone, short of room, the players and you), and above
  // everything the chair numbers (above each chair, below one near the top shore).
  const numbers = open.map((c) => {
    const y = c.at[1] < 2 * z.chair ? c.at[1] + z.chair / 2 + z.number : c.at[1] - z.chair / 2 - 2;
    return html`<text class="mc-number" x=${c.at[0]} y=${y} text-anchor="middle" font-size=${z.number} font-weight="700"
      fill="#1b1b1b" stroke="#fff" stroke-width="1.8" paint-order="stroke" pointer-events="none">${c.number}</text>`;
  });
  const short = shortNames(view, ctx);
  // The names, placed so that none covers another, a dot, a chair or its number, and none leaves the map.
  const rank = (seat) => (seat === ctx.seat ? 0 : view.people[seat].role === "player" ? 1 : 2);
  const labelled = dots.filter(({ seat }) => big || seat === ctx.seat || view.people[seat].role === "player")
    .sort((a, b) => rank(a.seat) - rank(b.seat) || a.seat - b.seat)
    .map(({ seat, x, y }) => ({ seat, x, y, gap: 1.3 * z.dot, w: textWidth(short[seat], z.name, seat === ctx.seat) }));
  const obstacles = [
    ...dots.map(({ seat, x, y }) => {
      const r = seat === ctx.seat ? z.me : z.dot;
      return { x: x - r, y: y - r, w: 2 * r, h: 2 * r };
    }),
    ...open.map((c) => ({ x: c.at[0] - z.chair / 2, y: c.at[1] - z.chair / 2, w: z.chair, h: z.chair })),
    ...open.map((c) => {
      const y = c.at[1] < 2 * z.chair ? c.at[1] + z.chair / 2 : c.at[1] - z.chair / 2 - 2 - z.number;
      const w = textWidth(String(c.number), z.number, true);
      return { x: c.at[0] - w / 2, y, w, h: z.number * 1.1 };
    }),
  ];
  // The totem pole and its own name.
  const totemWord = T(lang, "Totem", "トーテム");
  const totemWidth = textWidth(totemWord, z.name, false);
  obstacles.push({ x: totem[0] - 2.5, y: totem[1] - 9, w: 5, h: 14 },
    { x: totem[0] - totemWidth / 2, y: totem[1] + view.totem_reach + 5 - z.name * 0.88, w: totemWidth, h: z.name * 1.15 });
  const bounds = { x: -5, y: -5, w: width + 10, h: height + 10 };
  const names = placeNames(labelled, obstacles, bounds, z.name).map(({ seat, x, y, box, far }) => html`<g class="mc-label">
    ${far ? html`<line x1=${x} y1=${y} x2=${Math.min(Math.max(x, box.x), box.x + box.w)} y2=${Math.min(Math.max(y, box.y), box.y + box.h)}
      stroke="#1116" stroke-width="0.4" pointer-events="none" />` : null}
    <text class="mc-name" data-seat=${seat} x=${box.x} y=${box.y + z.name * 0.88} text-anchor="start" font-size=${z.name}
      font-weight=${seat === ctx.seat ? 700 : 400} fill="#111" stroke="#fff" stroke-width="1.2" paint-order="stroke"
      pointer-events="none">${short[seat]}</text></g>`);
  return html`<svg class="mc-island" viewBox=${`-5 -5 ${width + 10} ${height + 10}`}
      style=${`width:100%;max-height:${big ? "calc(100vh - 18rem)" : "60vh"};background:#4fc3f7;border-radius:8px`}
      data-testid="island" onKeyDown=${(e) => ctx.widgets.arrowFocus(e, ".mc-chair[tabindex], [data-testid=totem][tabindex]", true)}>
    <ellipse cx=${totem[0]} cy=${totem[1]} rx=${rx} ry=${ry} fill="#c5e1a5" stroke="#fff59d" stroke-width="2" />
    <circle cx=${totem[0]} cy=${totem[1]} r=${view.totem_reach} fill="#fff9c4" opacity="0.6" />
    <g role="button" aria-label=${T(lang, "Totem pole", "トーテムポール")} data-testid="totem"
        tabindex=${legal(view, "run_to_totem") ? 0 : null} onKeyDown=${(e) => pressed(e, legal(view, "run_to_totem") ? { type: "run_to_totem" } : null)}
        onClick=${legal(view, "run_to_totem") ? () => run({ type: "run_to_totem" }) : null}>
      <circle cx=${totem[0]} cy=${totem[1]} r=${Math.min(view.totem_reach, 12)} fill="transparent" />
      <rect x=${totem[0] - 2.5} y=${totem[1] - 9} width="5" height="14" fill="#6d4c41" />
      <text x=${totem[0]} y=${totem[1] + view.totem_reach + 5} text-anchor="middle" font-size=${z.name} fill="#4e342e"
        stroke="#fff9c4" stroke-width="1" paint-order="stroke">${totemWord}</text>
    </g>
    ${chairs}${people}${names}${numbers}
  </svg>`;
}

/** What the map's marks mean. */
function legend(view, ctx) {
  const { html, lang } = ctx;
  const me = ctx.seat != null ? view.people[ctx.seat] : null;
  const dot = (colour) => html`<i class="mc-key dot" style=${`background:${colour}`}></i>`;
  const chair = (fill, edge, dashed = false) => html`<i class="mc-key chair"
    style=${`background:${fill};border:2px ${dashed ? "dashed" : "solid"} ${edge}`}></i>`;
  return html`<div class="mc-legend" data-testid="legend">
    ${me ? html`<span>${dot(COLOURS.me)}${T(lang, "You", "あなた")}</span>` : null}
    <span>${dot(COLOURS.player)}${T(lang, "Player", "プレイヤー")}</span>
    <span>${dot(COLOURS.gallery)}${T(lang, "Gallery", "ガヤ")}</span>
    <span>${chair(CHAIR.free, CHAIR.edge)}${T(lang, "Free chair", "空きイス")}</span>
    <span>${chair(CHAIR.lit, CHAIR.edge)}${T(lang, "Taken", "着席済み")}</span>
    <span>${chair(CHAIR.free, CHAIR.held)}${T(lang, "Held by the gallery", "ガヤが押さえている")}</span>
    ${me && me.last_chair != null ? html`<span>${chair(CHAIR.free, CHAIR.forbidden, true)}${T(lang, "Not for you", "あなたは座れない")}</span>` : null}
  </div>`;
}

/** The chair names of a wallet: "Aki × 3, Bot Aoi × 1". */
const medalList = (medals, ctx) => Object.entries(medals).map(([k, n]) => `${ctx.seatName(Number(k))} × ${n}`).join(", ");

function wallet(view, ctx) {
  const { html, lang } = ctx;
  if (!view.my_medals) return null;
  const rows = Object.entries(view.my_medals).map(([name, n]) =>
    html`<li>${T(lang, "Medals of", "メダル: ")} ${ctx.seatName(Number(name))} × ${n}</li>`);
  // Only each seat's latest showing, newest first: an earlier one is out of date (medals change hands).
  const latest = new Map();
  for (const s of view.shown_to_me || []) latest.set(s.from, s);
  const shown = [...latest.values()].reverse().map((s) => {
    const who = ctx.seatName(s.from);
    return html`<li data-shown-by=${s.from}>${T(lang, `${who} showed you`, `${who}が見せたメダル`)}: ${medalList(s.medals, ctx) || T(lang, "no medals", "なし")}</li>`;
  });
  const worth = medalWorth(view.medal_yen || 100_000_000, lang, ctx);
  return html`<div class="mc-wallet" data-testid="wallet"><h3>${T(lang, `Your medals (${worth} each if their player wins)`, `あなたのメダル(その人が勝てば1枚${worth})`)}</h3>
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

/** The phase's clock, ticking: on the big screen, where no phone's banner is read up close. */
function phaseClock(view, ctx) {
  const { html, widgets } = ctx;
  if (view.phase_ends == null || !widgets || !widgets.MatchCountdown) return null;
  const seconds = Math.max(1, Math.round((view.phase_ends - view.phase_started) / 1000));
  return html`<div class="mc-clock" data-testid="phase-clock"><${widgets.MatchCountdown} version=${view.version}
    now=${view.now} until=${view.phase_ends} seconds=${seconds} /></div>`;
}

function status(view, ctx, big) {
  const { html, lang } = ctx;
  const entry = view.history[view.history.length - 1];
  const tally = entry && (entry.runoff || entry.vote);
  const removed = view.history.filter((e) => e.removed).map((e) => e.removed);
  const me = ctx.seat != null ? view.people[ctx.seat] : null;
  // A phone's banner counts the phase down already; the big screen's clock is here, ticking.
  return html`<div class="mc-status">
    ${big ? null : role(view, ctx)}
    <p data-testid="mc-phase"><strong>${T(lang, "Period", "ピリオド")} ${view.period}</strong> — ${ctx.label("phases", view.phase) || view.phase}
      ${view.rerun ? T(lang, " (re-run)", "(やり直し)") : ""}</p>
    ${big ? phaseClock(view, ctx) : null}
    ${me && me.role === "player" && view.phase === "race"
      ? html`<p data-testid="watch">${me.chair != null ? T(lang, `Seated on chair ${me.chair}`, `イス${me.chair}に着席`) : me.touched ? T(lang, "Find a chair!", "イスへ!") : T(lang, "Touch the totem first", "まずトーテムにタッチ")}</p>` : null}
    ${view.phase === "gather" ? html`<p data-testid="gather">${gatherHint(view, lang)}</p>` : null}
    ${tally ? html`<p data-testid="tally">${T(lang, "Tally", "開票")}: ${Object.entries(tally.votes).map(([s, n]) => `${ctx.seatName(Number(s))} ${n}`).join(", ")}; ${T(lang, "abstained", "棄権")} ${tally.abstained}</p>` : null}
    ${view.parent != null ? html`<p>${T(lang, "Parent", "親")}: ${ctx.seatName(view.parent)}</p>` : null}
    ${removed.length ? html`<p>${T(lang, "Removed chairs", "除外されたイス")}: ${removed.join(", ")}</p>` : null}
  </div>`;
}

/** The banner's words in real time, where nobody has a turn and anyone may act at any moment: the phase
 * and what it asks of the reader (a player, a ガヤ, the parent, a spectator), never a bare "act whenever you
 * like" through the break, the race and the votes. */
export function banner(view, lang, ctx) {
  if (view.is_over || view.tempo !== "real-time") return null;
  const me = ctx.seat != null ? view.people[ctx.seat] : null;
  const player = !!me && me.role === "player" && me.out == null;
  const gallery = !!me && !player;
  const phase = ctx.label("phases", view.phase) || view.phase;
  const may = (legal(view, "vote") || {}).params;
  const blankOnly = !!may && may.candidate.choice.length === 1;
  let todo = "";
  switch (view.phase) {
    case "break":
      todo = player ? T(lang, "talk, give medals, stand where you will start; the race begins when the time is up",
        "会話・メダルの受け渡し・スタート地点へ移動。時間になるとレース開始")
        : gallery ? T(lang, "you are in the gallery: talk, give medals, walk the island", "あなたはガヤです: 会話・メダルの受け渡し・島を歩く")
          : T(lang, "talk and medals; the race begins when the time is up", "会話とメダル。時間になるとレース開始");
      break;
    case "race":
      todo = player
        ? me.chair != null ? T(lang, `you sit on chair ${me.chair}: stay there`, `イス${me.chair}に着席中: そのまま`)
          : me.touched ? T(lang, "run to a free chair (tap it on the map)", "空いているイスへ走る(地図でタップ)")
            : T(lang, "run to the totem pole and touch it, then to a chair", "トーテムポールにタッチしてからイスへ")
        : gallery ? T(lang, "you are in the gallery: stand at a free chair to hold it for a player",
          "あなたはガヤです: 空いているイスの所に立つと、プレイヤーのために押さえられます")
          : T(lang, "the players run for the chairs", "プレイヤーがイスを奪い合っています");
      break;
    case "gather":
      todo = T(lang, "seating is settled; the parent vote opens when the time is up", "着座確定。時間になると親決め投票");
      break;
    case "vote": case "runoff":
      todo = may
        ? blankOnly ? T(lang, "you may cast only a blank ballot here (go to the totem pole to vote)", "ここでは白票のみ(投票はトーテムポールへ)")
          : T(lang, "vote now: pick a player (Vote for the parent, first below)", "今すぐ投票: プレイヤーを選ぶ(下の「親決め投票」)")
        : me ? T(lang, "your ballot is cast; the votes are counted when the time is up", "投票済み。時間になると開票")
          : T(lang, "everyone votes in secret for the parent", "全員が親を無記名で投票中");
      break;
    case "remove":
      todo = legal(view, "remove_chair") ? T(lang, "you are the parent: remove a chair (first below)", "あなたが親です: 除外するイスを選ぶ(下の最初のボタン)")
        : T(lang, `${view.parent != null ? ctx.seatName(view.parent) : T(lang, "the parent", "親")} removes a chair`,
          `${view.parent != null ? ctx.seatName(view.parent) : "親"}がイスを除外します`);
      break;
    default: return null;
  }
  return `${phase}: ${todo}`;
}

/** Whom the reader is, on a phone: a ガヤ is told so (they run for no chair, they hold chairs and vote). */
function role(view, ctx) {
  const { html, lang } = ctx;
  const me = ctx.seat != null ? view.people[ctx.seat] : null;
  if (!me || view.is_over || me.role === "player") return null;
  const how = T(lang, "you run for no chair; you may hold a free chair for a player, vote for the parent and give medals",
    "イスには座れません。空いているイスをプレイヤーのために押さえ、親決め投票をし、メダルを渡せます");
  const who = me.out != null ? T(lang, `You are out (period ${me.out}) and in the gallery (ガヤ)`, `あなたは敗退し(第${me.out}ピリオド)、ガヤになりました`)
    : T(lang, "You are in the gallery (ガヤ)", "あなたはガヤです");
  return html`<p class="mc-role" data-testid="mc-role"><strong>${who}</strong>: ${how}.</p>`;
}

/** One player's state, in words: out, the winner, seated, running, or still in. */
function playerState(view, seat, lang) {
  const p = view.people[seat];
  const parent = view.parent === seat ? T(lang, " · parent", "・親") : "";
  if (view.winner === seat) return ["winner", T(lang, "Winner", "勝者")];
  if (p.out != null) return ["out", T(lang, `Out in period ${p.out}`, `第${p.out}ピリオドで敗退`)];
  if (p.chair != null) {
    const away = p.grace_until != null ? T(lang, " (stood up)", "(離席中)") : "";
    return ["seated", T(lang, `On chair ${p.chair}`, `イス${p.chair}に着席`) + away + parent];
  }
  if (view.phase === "race") return ["running", p.touched ? T(lang, "Touched the totem: to a chair", "タッチ済み: イスへ") : T(lang, "To the totem", "トーテムへ")];
  const last = p.last_chair != null ? T(lang, ` · last chair ${p.last_chair}`, `・前回イス${p.last_chair}`) : "";
  return ["in", T(lang, "In the game", "残っています") + last + parent];
}

/** The players, each with their state (seated, running, out), and the gallery. */
function roster(view, ctx, big) {
  const { html, lang } = ctx;
  const players = view.players || [];
  const left = (view.remaining || []).length;
  const rows = players.map((seat) => {
    const [state, text] = playerState(view, seat, lang);
    return html`<li data-seat=${seat} data-state=${state} class=${"mc-" + state}><${ctx.SeatDot} seat=${seat} />${ctx.seatName(seat)}
      <span class="muted"> — ${text}</span></li>`;
  });
  const gallery = view.people.map((_, seat) => seat).filter((seat) => !players.includes(seat));
  const title = T(lang, `Players (${left} of ${players.length} left)`, `プレイヤー(残り${left}/${players.length}人)`);
  const body = html`<ul class="mc-roster">${rows}</ul>
    ${gallery.length ? html`<p class="muted mc-gallery">${T(lang, "Gallery", "ガヤ")}: ${gallery.map((s) => ctx.seatName(s)).join(", ")}</p>` : null}`;
  return big
    ? html`<div class="mc-players" data-testid="mc-players"><h3>${title}</h3>${body}</div>`
    : html`<details class="mc-players" data-testid="mc-players"><summary>${title}</summary>${body}</details>`;
}

const STYLE = `
.mc-legend { display: flex; flex-wrap: wrap; gap: .2rem .8rem; font-size: .8rem; color: var(--muted); margin-top: .2rem; }
.mc-legend span { display: inline-flex; align-items: center; gap: .3rem; }
.mc-key { display: inline-block; flex: none; }
.mc-key.dot { width: .7rem; height: .7rem; border-radius: 50%; }
.mc-key.chair { width: .75rem; height: .75rem; border-radius: 3px; box-sizing: border-box; }
.mc-chair { cursor: pointer; }
/* A chair or the totem focused by keyboard: the ring drawn on the map itself, thick enough to see on the sea. */
.mc-island g[role=button]:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; }
.mc-chair:focus-visible rect { stroke: var(--focus); stroke-width: 2.2; }
.mc-status p { margin: .2rem 0; }
.mc-role { padding: .3rem .5rem; border-radius: 6px; background: #eceff1; color: #263238; }
.mc-roster { list-style: none; padding: 0; margin: .2rem 0; }
.mc-roster li { padding: .15rem 0; border-top: 1px dotted var(--line); }
.mc-roster li.mc-out { color: var(--muted); } /* dimmed, still legible (an opacity took it below 4.5:1) */
.mc-roster li.mc-winner { font-weight: 700; }
.mc-gallery { font-size: .85rem; }
.mc-players summary { cursor: pointer; }
.mc.table .mc-side { display: flex; flex-direction: column; gap: .6rem; }
/* A phone in real time: the map first, above the actions (tapping a chair is how you play), and above
   "what just happened", whose lines come and go and would move the chairs under a finger. */
@media (max-width: 799px) {
  .room-grid:has(> .board .mc.mc-live) > .board { order: -1; }
}
`;

export function render(view, ctx) {
  const { html } = ctx;
  const live = view.tempo === "real-time" && ctx.seat != null && !view.is_over;
  return html`<div class=${"mc" + (live ? " mc-live" : "")}><style>${STYLE}</style>${status(view, ctx, false)}
    <div>${island(view, ctx, false)}${legend(view, ctx)}</div>${wallet(view, ctx)}${roster(view, ctx, false)}</div>`;
}

export function renderTable(view, ctx) {
  const { html } = ctx;
  // The map with names and, beside it, the status (period, a ticking clock, tally, parent, removed chairs)
  // and the players: a big screen shows them all without scrolling.
  return html`<div class="mc table" style="display:flex;gap:1rem;align-items:flex-start"><style>${STYLE}</style>
    <div style="flex:3;min-width:0">${island(view, ctx, true)}${legend(view, ctx)}</div>
    <div class="mc-side" style="flex:1.3;min-width:0">${status(view, ctx, true)}${roster(view, ctx, true)}</div></div>`;
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

export function holdingValue(key, value, lang, ctx) {
  if (key === "payout") return yen(value, lang, ctx);
  if (key === "out_in_period") return value == null ? "—" : String(value);
  return undefined;
}

/** The result's detail: the payouts seat by seat, by name; no winner said in words. */
export function detailValue(key, value, lang, ctx) {
  const { html } = ctx;
  if (key === "winner" && value == null) return T(lang, "Nobody", "なし");
  if (key === "payouts" && Array.isArray(value)) {
    return html`<table class="kv per-seat mc-payouts" data-testid="payouts"><tbody>
      ${value.map((amount, seat) => html`<tr data-seat=${seat}><th><${ctx.SeatDot} seat=${seat} />${ctx.seatName(seat)}</th>
        <td class="num">${yen(amount, lang, ctx)}</td></tr>`)}</tbody></table>`;
  }
  return undefined;
}

/** A player's event as a sentence in the reader's language: the terminal's wording (terminal.py), the
 * seats by name, never the raw data. Movement (`course`, `arrived`) is hidden: the map shows it, and a
 * line per step would bury everything else; so is a real-time chair plan (`planned`), which is a way of
 * moving. */
export function describeEvent(event, lang, ctx) {
  const d = event.data || {};
  const who = (s) => (s == null ? T(lang, "nobody", "誰も") : ctx.seatName(s));
  const rounds = ctx && ctx.options && ctx.options.tempo === "rounds";
  switch (event.type) {
    case "course": case "arrived": return null;
    case "planned":
      return rounds ? T(lang, `${who(d.seat)} is ready for the race.`, `${who(d.seat)}がレースの行動を決めました。`) : null;
    case "break":
      return d.rerun
        ? T(lang, `Nobody sat: period ${d.period}'s race is run once more, after a break of ${span(d.ends - d.at, lang)} (talk, medals, free movement).`,
          `誰も座れなかったため、第${d.period}ピリオドのレースをやり直します。その前に${span(d.ends - d.at, lang)}の休憩(会話・メダル・自由移動)。`)
        : T(lang, `Period ${d.period}: a break of ${span(d.ends - d.at, lang)} (talk, medals, free movement).`,
          `第${d.period}ピリオド: ${span(d.ends - d.at, lang)}の休憩(会話・メダル・自由移動)。`);
    case "race_started":
      return T(lang, `GO${d.rerun ? " (re-run)" : ""}! Touch the totem pole, then find a chair: ${span(d.ends - d.at, lang)}.`,
        `スタート${d.rerun ? "(やり直し)" : ""}! トーテムポールにタッチしてからイスへ。制限時間${span(d.ends - d.at, lang)}。`);
    case "touched": return T(lang, `${who(d.seat)} touches the totem pole.`, `${who(d.seat)}がトーテムポールにタッチ。`);
    case "seated": return T(lang, `${who(d.seat)} sits on chair ${d.chair}.`, `${who(d.seat)}がイス${d.chair}に座りました。`);
    case "stood":
      return T(lang, `${who(d.seat)} stands up from chair ${d.chair}: the seat is kept ${span(d.until - d.at, lang)}.`,
        `${who(d.seat)}がイス${d.chair}から離れました(席は${span(d.until - d.at, lang)}残ります)。`);
    case "released": return T(lang, `Chair ${d.chair} is free again: ${who(d.seat)} left it.`, `${who(d.seat)}が離れたイス${d.chair}が空きました。`);
    case "held":
      return d.for == null
        ? T(lang, `${who(d.seat)} holds chair ${d.chair}: nobody may sit there for now.`, `${who(d.seat)}がイス${d.chair}を押さえました(今は誰も座れません)。`)
        : T(lang, `${who(d.seat)} holds chair ${d.chair} for ${who(d.for)}.`, `${who(d.seat)}がイス${d.chair}を${who(d.for)}のために押さえました。`);
    case "hold_ended": return T(lang, `${who(d.seat)} stops holding chair ${d.chair}.`, `${who(d.seat)}がイス${d.chair}を押さえるのをやめました。`);
    case "race_ended": {
      const n = Object.keys(d.seated || {}).length;
      return n
        ? T(lang, `The race is over: ${n} seated.`, `レース終了: ${n}人が着席。`)
        : T(lang, "The race is over: nobody sat.", "レース終了: 誰も座れませんでした。");
    }
    case "out": return T(lang, `${who(d.seat)} is out and joins the gallery.`, `${who(d.seat)}は敗退し、ガヤになりました。`);
    case "medals_void": return T(lang, `The medals bearing the name of ${who(d.name)} are void.`, `${who(d.name)}の名前のメダルは無効になりました。`);
    case "gather":
      return T(lang, `Seating is settled: the parent vote opens in ${span(d.ends - d.at, lang)}.`,
        `着座確定: ${span(d.ends - d.at, lang)}後に親決め投票です。`);
    case "vote_opened": {
      const names = (d.candidates || []).map(who);
      const listed = ja(lang) ? names.join("、") : names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names.join("");
      return d.phase === "runoff"
        ? T(lang, `A tie: the run-off vote is open, between ${listed}.`, `同数のため決選投票: 候補は${listed}です。`)
        : T(lang, `The parent vote is open; the candidates are ${listed}.`, `親決め投票が始まりました。候補は${listed}です。`);
    }
    case "ballot_cast": return T(lang, `${who(d.seat)} has voted.`, `${who(d.seat)}が投票しました。`);
    case "tally": {
      const votes = d.votes || {};
      const phase = ctx.label("phases", d.phase) || T(lang, "vote", "投票");
      const counts = (d.candidates || Object.keys(votes).map(Number))
        .map((c) => T(lang, `${who(c)} ${votes[String(c)] ?? 0}`, `${who(c)} ${votes[String(c)] ?? 0}票`)).join(T(lang, ", ", "、"));
      return T(lang, `Votes counted (${phase}): ${counts}; ${d.abstained} abstained.`, `開票(${phase}): ${counts}、棄権${d.abstained}。`);
    }
    case "parent":
      return d.by_lot
        ? T(lang, `${who(d.seat)} is the parent, by lot after a tied run-off, and removes a chair.`, `決選投票も同数のため、抽選で${who(d.seat)}が親に決まりました。親がイスを1つ除外します。`)
        : T(lang, `${who(d.seat)} is the parent and removes a chair.`, `${who(d.seat)}が親に決まりました。親がイスを1つ除外します。`);
    case "chair_removed":
      return d.by_lot || d.by == null
        ? T(lang, `Chair ${d.chair} leaves the game, by lot: the parent named none.`, `親が指定しなかったため、抽選でイス${d.chair}が除外されました。`)
        : T(lang, `${who(d.by)} removes chair ${d.chair} from the game.`, `${who(d.by)}がイス${d.chair}を除外しました。`);
    case "game_over":
      return d.winner != null
        ? T(lang, `The game is over: ${who(d.winner)} is the last player left and wins.`, `ゲーム終了: 最後の1人、${who(d.winner)}の勝利です。`)
        : T(lang, `The game is over: ${ctx.label("terminations", d.termination) || "no winner"}.`,
          `ゲーム終了: ${ctx.label("terminations", d.termination) || "勝者なし"}。`);
    case "medals_given":
      return T(lang, `${who(d.from)} gives ${who(d.to)} ${d.count} medal${d.count === 1 ? "" : "s"} bearing the name of ${who(d.name)}.`,
        `${who(d.from)}が${who(d.to)}に${who(d.name)}の名前のメダルを${d.count}枚渡しました。`);
    case "medals_shown": {
      const medals = medalList(d.medals || {}, ctx) || T(lang, "no medals", "なし");
      return T(lang, `${who(d.from)} shows ${who(d.to)} their medals: ${medals}.`, `${who(d.from)}が${who(d.to)}にメダルを見せました: ${medals}。`);
    }
    default: return undefined;
  }
}
