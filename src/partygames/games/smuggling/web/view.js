// The Smuggling Game's renderer: North and South, the small game's smuggler and inspector, the
// accounts, the public ledger, and each inspection revealed as the trunk opening.
const ja = (lang) => lang === "ja";
const TEAM = { north: ["North", "北の国"], south: ["South", "南の国"] };
const L = (pair, lang) => (pair ? pair[ja(lang) ? 1 : 0] : null);
const teamName = (team, lang) => L(TEAM[team], lang) || team;
const OUTCOMES = {
  passed: ["passed: the trunk goes to the smuggler", "パス: アタッシュケースは密輸人へ"],
  caught: ["doubted and caught: the trunk goes to the inspector", "ダウト成功: アタッシュケースは検査官へ"],
  empty_doubted: ["doubted an empty trunk: the inspector pays half the doubt", "空のアタッシュケースをダウト: 検査官がダウト額の半分を支払う"],
  under_doubted: ["doubted too low: trunk and half the doubt to the smuggler", "ダウト額不足: アタッシュケースとダウト額の半分は密輸人へ"],
};

/** Yen in the client's one format (ctx.yen, web/money.js): "¥399,985,000", 「3億9998万5000円」. */
const yen = (n, lang, ctx, options = {}) => (ctx && ctx.yen ? ctx.yen(n, { ...options, lang }) : String(n ?? "—"));

export function valueLabel(type, name, value, lang, view, ctx) {
  if (name === "candidate") return ctx ? ctx.seatName(value) : null;
  if (name === "amount") return yen(value, lang, ctx);
  return null;
}
export function channelLabel(channel, lang) {
  const team = channel.startsWith("team:") ? channel.slice(5) : null;
  if (team && TEAM[team]) return ja(lang) ? `${teamName(team, lang)}(チーム内)` : `${teamName(team, lang)} team only`;
  // The inspection room of small game n: its smuggler and inspector only (the server decides who).
  const room = /^inspection:(\d+)$/.exec(channel);
  return room ? (ja(lang) ? `検査室(小ゲーム${room[1]})` : `Inspection room (small game ${room[1]})`) : null;
}

export function holdingValue(key, value, lang, ctx) {
  if (key === "team") return teamName(value, lang);
  if (key === "debt" && !value) return null;
  return typeof value === "number" ? yen(value, lang, ctx) : undefined;
}

export function detailValue(key, value, lang, ctx) {
  if (key === "winning_team" && value == null) return ja(lang) ? "なし(同額で引き分け: 全員が1位)" : "None: the totals are equal, a draw (everyone ranks first)";
  return typeof value === "number" ? yen(value, lang, ctx) : undefined;
}

/** The results' headline: the winning side with both sides' nets ("North wins: +¥… against −¥…"; a team's
 * net is its members' scores, their prizes less the loans), and the reader's own line: their team and net. */
export function resultHeadline(result, ctx) {
  const { html, lang } = ctx;
  const J = ja(lang);
  const nets = { north: 0, south: 0 };
  for (const s of result.seats) {
    const team = s.holdings && s.holdings.team;
    if (team in nets) nets[team] += s.score;
  }
  const money = (n) => yen(n, lang, ctx, { signed: true });
  const winner = (result.detail || {}).winning_team;
  const loser = winner === "north" ? "south" : "north";
  const line = winner in nets
    ? (J ? `${teamName(winner, lang)}の勝ち: ${money(nets[winner])} 対 ${money(nets[loser])}`
      : `${teamName(winner, lang)} wins: ${money(nets[winner])} against ${money(nets[loser])}`)
    : (J ? `引き分け: ${teamName("north", lang)} ${money(nets.north)}・${teamName("south", lang)} ${money(nets.south)}`
      : `A draw: ${teamName("north", lang)} ${money(nets.north)}, ${teamName("south", lang)} ${money(nets.south)}`);
  const mine = ctx.seat == null ? null : result.seats.find((s) => s.seat === ctx.seat);
  const team = mine && mine.holdings ? mine.holdings.team : null;
  return html`<div class="sm-headline">
    <p class=${"verdict" + (winner in nets ? "" : " tie")} data-testid="verdict"><${ctx.Icon} name="trophy" /> ${line} <small
      class="muted">${J ? "(チームの純額: 賞金−借金)" : "(the teams' nets: prizes less the loans)"}</small></p>
    ${mine ? html`<p class=${"sm-mine sm-" + team} data-testid="my-result"><${ctx.SeatDot} seat=${mine.seat} />${ctx.seatName(mine.seat)}: <strong>${teamName(team, lang)}</strong>${J ? "・純額 " : " · net "}<strong>${money(mine.score)}</strong></p>` : null}
  </div>`;
}

export function describeEvent(event, lang, ctx) {
  const d = event.data || {};
  const J = ja(lang);
  const who = (s) => (s == null ? "—" : ctx.seatName(s));
  switch (event.type) {
    case "vote_opened": return J ? `小ゲーム${d.small_game}: 密輸側は${teamName(d.smuggling_team, lang)}。代表者を投票` : `Small game ${d.small_game}: ${teamName(d.smuggling_team, lang)} smuggles; vote for representatives`;
    case "vote_cast": return J ? `${who(d.seat)} が投票した` : `${who(d.seat)} voted`;
    case "representatives": return J ? `小ゲーム${d.small_game}: 密輸人 ${who(d.smuggler)}、検査官 ${who(d.inspector)}` : `Small game ${d.small_game}: ${who(d.smuggler)} smuggles, ${who(d.inspector)} inspects`;
    case "trunk_packed": return J ? `${who(d.smuggler)} がアタッシュケースを詰めた` : `${who(d.smuggler)} packed the trunk`;
    case "trunk_contents": return J ? `あなたのアタッシュケース: ${yen(d.amount, lang, ctx)}` : `Your trunk holds ${yen(d.amount, lang, ctx)}`;
    case "settled": {
      const decl = d.declaration === "pass" ? (J ? "パス" : "pass") : `${J ? "ダウト" : "doubt"} ${yen(d.doubt, lang, ctx)}`;
      return J ? `${who(d.inspector)} の宣言: ${decl}。アタッシュケースの中身は ${yen(d.trunk, lang, ctx)} — ${L(OUTCOMES[d.outcome], lang) || d.outcome}`
        : `${who(d.inspector)} declares ${decl}. The trunk held ${yen(d.trunk, lang, ctx)} — ${L(OUTCOMES[d.outcome], lang) || d.outcome}`;
    }
    case "match_over": {
      const totals = Object.entries(d.totals || {}).map(([t, v]) => `${teamName(t, lang)} ${yen(v, lang, ctx)}`).join(", ");
      return J ? `ゲーム終了: ${totals}` : `Game over: ${totals}`;
    }
    default: return undefined;
  }
}

/** What is happening while `event` is told (the sticky banner): the declaration, before the trunk opens. */
export function happening(event, view, lang, ctx) {
  const d = event.data || {};
  const J = ja(lang);
  if (event.type === "settled") {
    const who = ctx.seatName(d.inspector);
    if (d.declaration === "pass") return J ? `${who} はパス: アタッシュケースを開けます` : `${who} passes: the trunk opens`;
    return J ? `${who} のダウト ${yen(d.doubt, lang, ctx)}: アタッシュケースを開けます` : `${who} doubts ${yen(d.doubt, lang, ctx)}: the trunk opens`;
  }
  if (event.type === "trunk_packed") return describeEvent(event, lang, ctx);
  return undefined;
}

export function renderEvent(event, ctx) {
  const { html, widgets, lang } = ctx;
  const d = event.data || {};
  if (event.type === "settled") {
    return html`<div class="sm-reveal">
      <span class="chip static">${d.declaration === "pass" ? (ja(lang) ? "パス" : "PASS") : `${ja(lang) ? "ダウト" : "DOUBT"} ${yen(d.doubt, lang, ctx)}`}</span>
      <${widgets.Chest} open=${true} content=${yen(d.trunk, lang, ctx)} />
    </div>`;
  }
  if (event.type === "trunk_packed") return html`<${widgets.Chest} open=${false} />`;
  return null;
}

function Teams({ view, ctx, big }) {
  const { html, lang } = ctx;
  const J = ja(lang);
  return html`<div class=${"sm-teams" + (big ? " big" : "")}>${Object.entries(view.teams || {}).map(([team, seats]) => html`
    <div class=${"panel sm-team sm-" + team + (team === view.my_team ? " mine" : "")}>
      <h3>${teamName(team, lang)} ${team === view.smuggling_team ? html`<span class="badge">${J ? "密輸側" : "smuggling"}</span>` : null}</h3>
      <div class="sm-total">${yen(view.team_totals[team], lang, ctx)}</div>
      <table class="grid"><thead><tr><th>${J ? "メンバー" : "Member"}</th><th class="num">${J ? "第3国口座" : "Third country"}</th><th class="num">${J ? "相手国口座" : "Opponent country"}</th></tr></thead>
      <tbody>${seats.map((s) => html`<tr class=${s === ctx.seat ? "me" : ""}>
        <td><${ctx.SeatDot} seat=${s} />${ctx.seatName(s)}${s === view.smuggler ? html` <${ctx.Icon} name="trunk" title=${J ? "密輸人" : "smuggler"} />` : ""}${s === view.inspector ? html` <${ctx.Icon} name="search" title=${J ? "検査官" : "inspector"} />` : ""}${view.voted && view.voted[s] ? " ✓" : ""}</td>
        <td class="num">${yen(view.accounts[s].third, lang, ctx)}</td><td class="num">${yen(view.accounts[s].opp, lang, ctx)}</td></tr>`)}</tbody></table>
    </div>`)}</div>`;
}

function Round({ view, ctx }) {
  const { html, lang } = ctx;
  const J = ja(lang);
  return html`<div class="panel sm-round">
    <div><span class="muted">${J ? "小ゲーム" : "Small game"}</span> <strong>${view.small_game}/${view.small_games}</strong></div>
    <div><span class="muted">${J ? "段階" : "Phase"}</span> <strong>${ctx.label("phases", view.phase) || view.phase}</strong></div>
    ${view.smuggler != null ? html`<div><span class="muted">${J ? "密輸人" : "Smuggler"}</span> <${ctx.Icon} name="trunk" /> <strong>${ctx.seatName(view.smuggler)}</strong></div>` : null}
    ${view.inspector != null ? html`<div><span class="muted">${J ? "検査官" : "Inspector"}</span> <${ctx.Icon} name="search" /> <strong>${ctx.seatName(view.inspector)}</strong></div>` : null}
    ${view.trunk != null ? html`<div class="sm-trunk"><span class="muted">${J ? "あなたのアタッシュケース" : "Your trunk"}</span> <strong>${yen(view.trunk, lang, ctx)}</strong></div>` : null}
    ${view.my_vote != null ? html`<div><span class="muted">${J ? "あなたの投票" : "Your vote"}</span> ${ctx.seatName(view.my_vote)}</div>` : null}
  </div>`;
}

function Ledger({ view, ctx }) {
  const { html, lang } = ctx;
  const J = ja(lang);
  const rows = [...(view.ledger || [])].reverse();
  if (!rows.length) return null;
  return html`<div class="panel"><h3>${J ? "公開台帳" : "Public ledger"}</h3><div class="table-wrap" tabindex="0"><table class="grid">
    <thead><tr><th>#</th><th><${ctx.Icon} name="trunk" title=${J ? "密輸人" : "Smuggler"} /></th><th><${ctx.Icon} name="search" title=${J ? "検査官" : "Inspector"} /></th><th class="num">${J ? "アタッシュケース" : "Trunk"}</th><th>${J ? "宣言" : "Declared"}</th><th>${J ? "結果" : "Outcome"}</th></tr></thead>
    <tbody>${rows.map((e) => html`<tr><td>${e.small_game}</td><td>${ctx.seatName(e.smuggler)}</td><td>${ctx.seatName(e.inspector)}</td>
      <td class="num">${yen(e.trunk, lang, ctx)}</td><td>${e.declaration === "pass" ? (J ? "パス" : "pass") : `${J ? "ダウト" : "doubt"} ${yen(e.doubt, lang, ctx)}`}</td>
      <td>${L(OUTCOMES[e.outcome], lang) || e.outcome}</td></tr>`)}</tbody></table></div></div>`;
}

const STYLE = `
.sm-teams { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .6rem; }
.sm-team.sm-north { border-top: 6px solid #2563eb; } .sm-team.sm-south { border-top: 6px solid #c2410c; }
.sm-team.mine { box-shadow: 0 0 0 2px var(--accent); }
.sm-total { font-size: 1.4rem; font-weight: 800; font-variant-numeric: tabular-nums; }
.sm-teams.big .sm-total { font-size: 2.2rem; }
.sm-round { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .3rem; }
.sm-trunk strong { font-size: 1.3rem; }
.sm-mine { font-size: 1.1rem; margin: .2rem 0 .6rem; }
.sm-reveal { display: flex; align-items: center; gap: 1rem; font-weight: 700; }
.sm-reveal .chest { width: 8rem; } .sm-reveal .chest-lid, .sm-reveal .chest-body { width: 8rem; background: #333; border-color: #111; }
tr.me td { background: var(--mine); }
`;

export function render(view, ctx) {
  const { html } = ctx;
  return html`<div class="sm"><style>${STYLE}</style>
    <${Round} view=${view} ctx=${ctx} /><${Teams} view=${view} ctx=${ctx} /><${Ledger} view=${view} ctx=${ctx} />
  </div>`;
}

export function renderTable(view, ctx) {
  const { html } = ctx;
  return html`<div class="sm"><style>${STYLE}</style>
    <${Teams} view=${view} ctx=${ctx} big=${true} /><${Round} view=${view} ctx=${ctx} /><${Ledger} view=${view} ctx=${ctx} />
  </div>`;
}
