// It's a QUIZ?'s renderer: the black cards with their rows, the board of white cards, everyone's
// markers, the memorising countdown, a peek shown large for its seconds and then turned face down.
// Face-down cards come from the view as null: the client never holds what the seat may not see.
const ja = (lang) => lang === "ja";
const L = (lang, en, jaText) => (ja(lang) ? jaText : en);
const KIND = { score: ["score", "得点"], money: ["secret money", "裏金"] };
const CHOICE = { answer: ["answer", "解答"], secret_money: ["secret money", "裏金"], peek: ["peek", "覗き見"] };
const pick = (pair, lang) => (pair ? pair[ja(lang) ? 1 : 0] : "");

// The deck of the match last rendered: events and replays name words with it (it never changes in a match).
let lastDeck = null;
const deckOf = (view) => (view && view.deck) || lastDeck;
const word = (view, id, lang) => (id == null || !deckOf(view) ? "?" : deckOf(view).answers[id][ja(lang) ? "ja" : "en"]);
const question = (view, id, lang) => (id == null || !deckOf(view) ? "?" : deckOf(view).questions[id][ja(lang) ? "ja" : "en"]);

/** A card id as a player reads it, never the id itself: "Q3's row, card 2" for an answer card (`a2.1`),
 * "white card at place 7" for a white card (`w7`). In a sentence (`inSentence`) the English reads "card 2
 * of Q3's row", "the white card at place 7". */
export function cardName(card, lang, inSentence = false) {
  const answer = /^a(\d+)\.(\d+)$/.exec(card);
  if (answer) {
    const q = +answer[1] + 1;
    const i = +answer[2] + 1;
    return L(lang, inSentence ? `card ${i} of Q${q}'s row` : `Q${q}'s row, card ${i}`, `Q${q}の列の${i}枚目`);
  }
  const white = /^w(\d+)$/.exec(card);
  if (white) return L(lang, `${inSentence ? "the " : ""}white card at place ${white[1]}`, `位置${white[1]}の白カード`);
  return String(card);
}

/** The question-8 prize (scoring.PRIZE, 10^12 points): the seed's 「1億万点」 in Japanese, and in English
 * the same amount in English words (no Japanese numeral on an English page). */
const PRIZE = 1e12;
const prizeName = (lang) => L(lang, "1 trillion (the prize)", "1億万");

/** Points, with the question-8 prize written as the seed writes it: "1億万 + 14" (English: "1 trillion
 * (the prize) + 14"). */
export function points(total, lang) {
  if (total >= PRIZE) return `${prizeName(lang)}${total > PRIZE ? " + " + (total - PRIZE) : ""}`;
  return L(lang, `${total} pt`, `${total}点`);
}

export function valueLabel(type, name, value, lang, view, ctx) {
  if (name === "words" || name === "word") return word(view, value, lang);
  if (name === "card" && typeof value === "string") return cardName(value, lang);
  if (name === "card" || name === "cards") return L(lang, `place ${value}`, `位置${value}`);
  if (name === "row") return `Q${value + 1} ${question(view, value, lang)}`;
  if (name === "kind") return pick(KIND[value], lang);
  if (name === "to") return ctx ? ctx.seatName(value) : null;
  return null;
}

/** The results' score: points, the prize written as the seed writes it. */
export function scoreValue(score, lang) {
  return points(score, lang);
}

export function holdingValue(key, value, lang) {
  if (key === "prize") return value ? L(lang, "1 trillion points", "1億万点") : null;
  if (key === "total") return points(value, lang);
  return undefined;
}

/** The result's detail: question 8's winner by name (`prize_winner` is a seat), and in the tie-break's
 * calls each card by its place and each word as the word, not as ids. */
export function detailValue(key, value, lang, ctx) {
  const { html } = ctx;
  if (key === "prize_winner") {
    if (value == null) return html`<span class="muted">${L(lang, "nobody (no sole winner)", "なし(単独の勝者なし)")}</span>`;
    return html`<${ctx.SeatDot} seat=${value} />${ctx.seatName(value)}`;
  }
  if (key === "tiebreak" && value == null) return html`<span class="muted">${L(lang, "none (no tie)", "なし(同点なし)")}</span>`;
  if (key === "card" && typeof value === "string") return cardName(value, lang);
  if ((key === "word" || key === "actual") && Number.isInteger(value) && deckOf(null)) return word(null, value, lang);
  return undefined;
}

export function eventDuration(event) {
  if (event.type === "sheets_revealed") return 900 + 700 * ((event.data.sheets || []).length);
  if (event.type === "row_opened") return 2200;
  if (["memorise_vote", "sheet_written", "passed", "peek_ended"].includes(event.type)) return 400;
  return 1100;
}

export function describeEvent(event, lang, ctx) {
  const d = event.data || {};
  const who = (s) => (s == null ? "—" : ctx.seatName(s));
  const J = ja(lang);
  switch (event.type) {
    case "memorise_vote": return J ? `${who(d.seat)}: ${d.vote === "extend" ? "延長に賛成" : "記憶完了"}` : `${who(d.seat)}: ${d.vote === "extend" ? "extend" : "ready"}`;
    case "memorise_extended": return J ? "全員の合意で記憶の時間を60秒延長" : "Everyone agreed: 60 s more to memorise";
    case "cards_turned": return J ? "40枚のカードが裏返されました" : "The forty cards are turned face down";
    case "parent_drawn": return J ? `最初の親は ${who(d.parent)}` : `${who(d.parent)} is the first parent`;
    case "selection_started": return J ? `第${d.question}問: 問題の選択` : `Question ${d.question}: selection`;
    case "placed": return J ? `${who(d.seat)} が位置${d.card}に${pick(KIND[d.kind], lang)}マーカー` : `${who(d.seat)} puts a ${pick(KIND[d.kind], lang)} marker on place ${d.card}`;
    case "passed": return J ? `${who(d.seat)} はパス` : `${who(d.seat)} passes`;
    case "question_opened": return J ? `第${d.question}問: ${question(null, d.asked, lang)}` : `Question ${d.question}: ${question(null, d.asked, lang)}`;
    case "field_filled": return J ? "得点・裏金マーカー各2個が場に" : "2 score and 2 secret-money markers go to the field";
    case "field_cleared": return J ? "場のマーカーはストックへ(最終問題)" : "The field goes back to the stock (last question)";
    case "sheet_written": return J ? `${who(d.seat)} が記入した` : `${who(d.seat)} has written`;
    case "sheets_revealed": return J ? "一斉に公開" : "The sheets are revealed";
    case "secret_money_taken": return J ? `裏金: ${d.takers.map(who).join("、")} が${d.each}個ずつ` : `Secret money: ${d.takers.map(who).join(", ")} take ${d.each} each`;
    case "peeks_started": return J ? `覗き見: 1枚につきマーカー${d.cost}個` : `Peeking: ${d.cost} marker(s) a card`;
    case "looked": return J ? `${who(d.seat)} が${cardName(d.card, lang)}を覗き見` : `${who(d.seat)} peeks at ${cardName(d.card, lang, true)}`;
    // The content lives only in the view while the peek lasts (the peek card above): the log keeps no word.
    case "card_seen": return J ? `${cardName(d.card, lang)}を見ています` : `You see ${cardName(d.card, lang, true)}`;
    case "card_shown": return J ? `${who(d.seat)} が${d.to.map(who).join("、")}にカードを見せた` : `${who(d.seat)} shows the card to ${d.to.map(who).join(", ")}`;
    case "peek_ended": return null;
    case "peek_turn_ended": return J ? `${who(d.seat)} の覗き見終了` : `${who(d.seat)} stops peeking`;
    // The words show on the stage, in order (renderEvent), and not in this line: the parent then deals them
    // face down in that order, one `card_dealt` line per row, so a log keeping both would pair every word
    // with its new place (書き留めたりしてはいけません).
    case "row_opened": return J ? `Q${d.asked + 1}の列を公開(正解${d.words.length}枚)` : `Q${d.asked + 1}'s row is opened: ${d.words.length} correct answer(s)`;
    case "scored": {
      const winners = d.winners.map(who).join(J ? "、" : ", ");
      if (!d.winners.length) return J ? "正解者なし" : "Nobody answered rightly";
      return J ? `最多正解: ${winners}` : `Most correct: ${winners}`;
    }
    // The word shows on the stage while the card moves (renderEvent); the log keeps only the row (and no
    // line names the words of the row it came from: row_opened).
    case "card_dealt": return J ? `正解カード1枚を Q${d.row + 1} の列の末尾へ(伏せて)` : `A card goes face down to the end of Q${d.row + 1}'s row`;
    case "white_moved": return J ? `白カード: 位置${d.from} → ${d.to}` : `White card moved: place ${d.from} → ${d.to}`;
    case "white_swapped": return J ? `白カード: 位置${d.cards[0]} と ${d.cards[1]} を入れ替え` : `White cards swapped: places ${d.cards[0]} and ${d.cards[1]}`;
    case "given": return J ? `${who(d.seat)} → ${who(d.to)}: 得点${d.score}・裏金${d.money}` : `${who(d.seat)} gives ${who(d.to)} ${d.score} score, ${d.money} secret money`;
    case "tiebreak_started": return J ? `同点決勝: ${d.seats.map(who).join("、")}` : `Tie-break: ${d.seats.map(who).join(", ")}`;
    case "called": return J ? `${who(d.seat)}: 「${word(null, d.word, lang)}」→ 実際は「${word(null, d.actual, lang)}」${d.right ? "(的中)" : "(失格)"}`
      : `${who(d.seat)} calls "${word(null, d.word, lang)}": it is "${word(null, d.actual, lang)}"${d.right ? " (right)" : " (out)"}`;
    case "match_over": return J ? `優勝: ${who(d.winner)}` : `${who(d.winner)} wins`;
    default: return undefined;
  }
}

/** What is happening while `event` is told (the sticky banner): its sentence, which never tells more than
 * the stage (an opened row's words and a dealt card's word are on the stage only). */
export function happening(event, view, lang, ctx) {
  return describeEvent(event, lang, ctx);
}

export function renderEvent(event, ctx) {
  const { html, widgets, lang } = ctx;
  const d = event.data || {};
  if (event.type === "sheets_revealed") {
    return html`<div class="qz-reveal">${d.sheets.map((sheet, seat) => html`
      <div class="qz-sheet" style=${`animation-delay:${seat * 0.7}s`}>
        <strong>${ctx.seatName(seat)}</strong>
        <span>${pick(CHOICE[sheet.choice], lang)}</span>
        ${sheet.words ? html`<span class="qz-words">${sheet.words.map((w) => word(null, w, lang)).join(" → ")}</span>` : null}
      </div>`)}</div>`;
  }
  if (event.type === "row_opened") {
    return html`<div class="qz-row-reveal" data-testid="qz-row-reveal">${d.words.map((w) => html`<${widgets.Card} face=${word(null, w, lang)} flip=${!ctx.fast} />`)}</div>`;
  }
  if (event.type === "card_dealt") {
    return html`<div class="qz-dealt" data-testid="qz-dealt"><${widgets.Card} face=${word(null, d.word, lang)} />
      <span>→ Q${d.row + 1}</span></div>`;
  }
  return null;
}

/** A countdown to a match time `until` (ms), counted from when this view was first drawn (not from each
 * redraw: the stage redraws the board as it narrates). */
function countdown(view, until, seconds, widgets, html) {
  if (until == null) return null;
  return html`<${widgets.MatchCountdown} version=${view.version} now=${view.now || 0} until=${until} seconds=${seconds} />`;
}

/** The memorising time left: the phase's time limit, the very clock the banner counts down (after "Play again"
 * or a reload the view's own match time may be stale); from the view only where the room gives no deadline. */
function memoriseCountdown(view, ctx) {
  const { html, widgets } = ctx;
  if (ctx.deadline) return html`<${widgets.Countdown} deadline=${ctx.deadline} />`;
  return countdown(view, view.memorise_until, view.extensions ? null : ctx.options.memorise_seconds, widgets, html);
}

/** Score markers (gold) and secret money (black), as counts beside a dot of each colour. */
function dots(markers, html) {
  return html`<span class="qz-counts"><span class="qz-count"><span class="qz-dot score"></span>${markers.score}</span> <span class="qz-count"><span class="qz-dot money"></span>${markers.money}</span></span>`;
}

function Status({ view, ctx }) {
  const { html, lang } = ctx;
  const J = ja(lang);
  const turn = view.turn != null ? view.turn : view.peeker != null ? view.peeker : view.phase === "tiebreak" && view.tiebreak ? view.tiebreak.turn
    : ["open", "deal", "move"].includes(view.phase) ? view.parent : null;
  return html`<div class="panel qz-status" data-testid="qz-status">
    <div><span class="muted">${J ? "問題" : "Question"}</span> <strong>${view.question || "—"}/${view.rounds_total}</strong></div>
    <div><span class="muted">${J ? "段階" : "Phase"}</span> <strong data-testid="qz-phase" data-phase=${view.phase}>${ctx.label("phases", view.phase) || view.phase}</strong></div>
    ${view.parent != null ? html`<div><span class="muted">${J ? "親" : "Parent"}</span> <${ctx.Icon} name="crown" /> <strong>${ctx.seatName(view.parent)}</strong></div>` : null}
    ${turn != null ? html`<div><span class="muted">${J ? "手番" : "Turn"}</span> <strong>${ctx.seatName(turn)}</strong></div>` : null}
    <div><span class="muted">${J ? "場" : "Field"}</span> <strong>${dots(view.field, html)}</strong></div>
    <div><span class="muted">${J ? "ストック" : "Stock"}</span> ${dots(view.stock, html)}</div>
    ${view.peek_cost != null ? html`<div><span class="muted">${J ? "覗き見の費用" : "Peek cost"}</span> <strong>${view.peek_cost}</strong>/${J ? "枚" : "card"}</div>` : null}
    ${view.moves_left != null ? html`<div><span class="muted">${J ? "白カードの移動" : "White-card moves left"}</span> <strong>${view.moves_left}</strong></div>` : null}
    ${view.phase === "memorise" ? html`<div class="qz-memorise" data-testid="qz-memorise"><strong>${J ? "覚えてください!" : "Memorise!"}</strong>
      ${memoriseCountdown(view, ctx)}</div>` : null}
    ${view.asked != null ? html`<div class="qz-asked" data-testid="qz-asked">? <strong>${question(view, view.asked, lang)}</strong></div>` : null}
  </div>`;
}

function PeekCard({ view, ctx }) {
  const { html, lang, widgets } = ctx;
  const peek = view.peek;
  const J = ja(lang);
  if (peek && ("word" in peek || "question" in peek)) {
    const face = "word" in peek ? word(view, peek.word, lang) : question(view, peek.question, lang);
    const seconds = ctx.options.peek_seconds || 10;
    return html`<div class="panel qz-peek" data-testid="qz-peek" data-card=${peek.card}>
      <div class="muted">${peek.seat === ctx.seat ? (J ? "覗き見中" : "You are peeking at") : (J ? `${ctx.seatName(peek.seat)} が見せています` : `${ctx.seatName(peek.seat)} shows you`)}: ${cardName(peek.card, lang)}</div>
      <div class="qz-peek-face">${face}</div>
      ${countdown(view, peek.until, seconds, widgets, html)}
    </div>`;
  }
  if (peek) return html`<div class="panel qz-peek-other muted">◉ ${ctx.seatName(peek.seat)}: ${cardName(peek.card, lang)}</div>`;
  if (view.phase === "peek" && view.looks && view.looks[ctx.seat] > 0) {
    // The card just looked at is gone: shown turning face down again.
    return html`<div class="panel qz-peek-gone"><span class="card down qz-turn-down"><span class="card-back"></span></span>
      <span class="muted">${J ? "カードは伏せられました" : "The card is face down again"}</span></div>`;
  }
  return null;
}

function Rows({ view, ctx, big }) {
  const { html, lang, widgets } = ctx;
  return html`<div class=${"panel qz-rows" + (big ? " big" : "")} data-testid="qz-rows">
    ${view.rows.map((row, q) => (row == null ? null : html`<div class=${"qz-row" + (q === view.asked ? " asked" : "")} data-row=${q}>
      <div class="qz-question"><span class="qz-qno">Q${q + 1}</span> ${question(view, q, lang)}</div>
      <div class="qz-cards">${row.map((card) => html`<span class="qz-slot" data-card=${card.card} data-word=${card.word == null ? "" : card.word}>
        <${widgets.Card} small=${!big} face=${card.word == null ? null : word(view, card.word, lang)} /></span>`)}</div>
    </div>`))}
  </div>`;
}

function Board({ view, ctx }) {
  const { html, lang } = ctx;
  return html`<div class="panel qz-board-wrap"><h3>${ja(lang) ? "白い問題カード" : "White question cards"}</h3><div class="qz-board" data-testid="qz-board">
    ${view.board.map((white, place) => html`<div class=${"qz-place" + (white ? (white.question != null ? " up" : " down") : " empty")} data-place=${place}>
      <span class="qz-place-no">${place}</span>
      ${white && white.question != null ? html`<span class="qz-white-q">Q${white.question + 1}</span>` : null}
      ${white && white.markers.score + white.markers.money ? html`<span class="qz-markers">${dots(white.markers, html)}</span>` : null}
    </div>`)}
  </div></div>`;
}

/** A seat's mark for the phase: written or not, its vote, its sheet's choice once revealed, a pass. */
function mark(view, seat, lang) {
  const J = ja(lang);
  const parts = [view.written ? (view.written[seat] ? "✓" : "…") : "",
    view.votes && view.votes[seat] ? (view.votes[seat] === "extend" ? "»" : "✓") : "",
    view.sheets && view.sheets[seat] ? pick(CHOICE[view.sheets[seat].choice], lang) : "",
    view.passed && view.passed[seat] ? (J ? "パス" : "passed") : ""];
  return parts.filter(Boolean).join(" ");
}

/** The seats with their markers; each seat's mark for the phase (a pass, a sheet written) under its name,
 * so that a narrow column (the big screen's side) holds it. */
function Seats({ view, ctx }) {
  const { html, lang } = ctx;
  const J = ja(lang);
  return html`<div class="panel"><table class="grid qz-seats" data-testid="qz-seats">
    <thead><tr><th>${J ? "席" : "Seat"}</th><th class="num"><span class="qz-dot score"></span> ${J ? "得点" : "Score"}</th><th class="num"><span class="qz-dot money"></span> ${J ? "裏金" : "Secret"}</th></tr></thead>
    <tbody>${view.held.map((held, seat) => {
      const said = mark(view, seat, lang);
      return html`<tr class=${seat === ctx.seat ? "me" : ""}>
        <td><span class="qz-name">${view.parent === seat ? html`<${ctx.Icon} name="crown" /> ` : ""}${ctx.seatName(seat)}</span>
          ${said ? html`<span class="qz-mark muted" data-testid="qz-mark">${said}</span>` : null}</td>
        <td class="num">${held.score}</td><td class="num">${held.money}</td></tr>`;
    })}</tbody></table></div>`;
}

function Extras({ view, ctx }) {
  const { html, lang } = ctx;
  const J = ja(lang);
  const last = view.rounds.length ? view.rounds[view.rounds.length - 1] : null;
  return html`<div class="qz-extras">
    ${view.my_sheet ? html`<div class="panel">${J ? "あなたの記入" : "Your sheet"}: <strong>${pick(CHOICE[view.my_sheet.choice], lang)}</strong>
      ${view.my_sheet.words ? " " + view.my_sheet.words.map((w) => word(view, w, lang)).join(" → ") : ""}</div>` : null}
    ${view.pending && view.pending.length ? html`<div class="panel qz-pending">${J ? "配る正解カード" : "Cards to deal"}: ${view.pending.map((w) => html`<span class="chip static">${word(view, w, lang)}</span>`)}</div>` : null}
    ${last ? html`<div class="panel muted" data-testid="qz-last">${J ? `第${last.question}問` : `Question ${last.question}`}: ${question(view, last.asked, lang)} —
      ${last.winners.length ? (J ? "最多正解 " : "most correct ") + last.winners.map((s) => ctx.seatName(s)).join(", ") : (J ? "正解者なし" : "nobody right")}</div>` : null}
    ${view.tiebreak ? html`<div class="panel"><h3>${J ? "同点決勝" : "Tie-break"}</h3>${view.tiebreak.calls.map((c) => html`<div>${ctx.seatName(c.seat)}: ${word(view, c.word, lang)} ${c.right ? "○" : "×"} (${word(view, c.actual, lang)})</div>`)}</div>` : null}
    ${view.result ? html`<div class="panel qz-winner"><${ctx.Icon} name="trophy" /> ${ctx.seatName(view.winner)} — ${points(view.totals[view.winner], lang)}</div>` : null}</div>`;
}

const STYLE = `
.qz-status { display: flex; flex-wrap: wrap; align-items: center; gap: .2rem 1.2rem; }
.qz-status > div { min-width: 0; }
.qz-memorise, .qz-asked { flex-basis: 100%; font-size: 1.1rem; }
.qz-memorise { display: flex; flex-wrap: wrap; align-items: center; gap: .2rem .6rem; }
/* The ten rows are memorised at a glance: each row's cards side by side as small word tiles, the rows in
   one screen (a phone: the question above its cards; wider: beside them; the table: two columns). */
.qz-rows { display: grid; grid-template-columns: minmax(0, 1fr); gap: .15rem; align-content: start; }
.qz-row { display: grid; grid-template-columns: minmax(7rem, 13rem) minmax(0, 1fr); gap: .1rem .5rem; align-items: center;
  padding: .1rem .3rem; border-radius: 6px; }
.qz-rows:not(.big) .qz-row:nth-child(even) { background: color-mix(in srgb, var(--line) 25%, transparent); }
.qz-row.asked { background: var(--mine); box-shadow: 0 0 0 2px var(--accent); }
.qz-question { font-weight: 600; font-size: .85rem; line-height: 1.2; } .qz-qno { color: var(--accent); }
.qz-cards { display: flex; flex-wrap: wrap; gap: .2rem; }
.qz-cards .card, .qz-cards .card.small { width: auto; min-width: 1.7rem; height: 1.7rem; margin: 0; padding: 0 .35rem;
  font-size: .8rem; border-radius: 5px; white-space: nowrap; }
@media (max-width: 599px) {
  .qz-row { grid-template-columns: minmax(0, 1fr); }
  .qz-question { font-size: .8rem; }
  .qz-cards .card, .qz-cards .card.small { height: 1.55rem; min-width: 1.5rem; padding: 0 .3rem; font-size: .78rem; }
}
/* A wide player view: the white cards beside the seats, under the rows. */
.qz:not(.qz-table) { display: flex; flex-direction: column; gap: .5rem; }
.qz-lower { display: flex; flex-direction: column; gap: .5rem; }
@media (min-width: 1100px) { body:not(.table-mode) .qz-lower { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.2fr); align-items: start; } }
.qz-board { display: grid; grid-template-columns: repeat(4, 1fr); gap: .3rem; max-width: 22rem; }
.qz-place { position: relative; aspect-ratio: 3 / 2; border-radius: 6px; border: 1px dashed #bbb; display: flex; align-items: center; justify-content: center; }
.qz-place.down { background: repeating-linear-gradient(45deg, #eee, #eee 5px, #fff 5px, #fff 10px); border: 2px solid #555; }
.qz-place.up { background: #fff; border: 2px solid var(--accent); }
.qz-place.down, .qz-place.up { color: #1d1b18; } /* a card's face is light in either theme, so its words are dark */
.qz-place-no { position: absolute; top: 1px; left: 4px; font-size: .65rem; color: var(--muted); }
.qz-place.down .qz-place-no, .qz-place.up .qz-place-no { color: #595959; } /* on the card's own light face, in either theme */
.qz-white-q { font-weight: 800; } .qz-markers { position: absolute; bottom: 1px; right: 3px; font-size: .7rem; }
.qz-peek { text-align: center; border: 3px solid var(--accent); }
.qz-peek-face { font-size: 2.6rem; font-weight: 800; margin: .6rem 0; animation: qz-up .4s ease-out; }
.qz-peek-gone { display: flex; gap: .6rem; align-items: center; }
/* On a phone the board comes after the action panel (the peek's card picker alone is dozens of buttons):
   the peeked card and its countdown float at the bottom of the screen while the peek lasts. */
@media (max-width: 799px) {
  .qz-peek { position: fixed; left: .5rem; right: .5rem; bottom: .5rem; z-index: 20; padding: .4rem .8rem;
    box-shadow: 0 6px 24px #0007; }
  .qz-peek .qz-peek-face { font-size: 2rem; margin: .15rem 0; }
  .qz-peek .countdown { justify-content: center; }
}
.qz-turn-down { animation: qz-down .6s ease-in; }
@keyframes qz-up { from { transform: rotateY(90deg); } to { transform: rotateY(0); } }
@keyframes qz-down { from { transform: rotateY(-90deg) scale(1.6); } to { transform: rotateY(0) scale(1); } }
.qz-reveal { display: flex; flex-direction: column; gap: .3rem; }
.qz-sheet { opacity: 0; animation: qz-in .4s ease-out forwards; display: flex; gap: .6rem; }
@keyframes qz-in { from { opacity: 0; transform: translateY(.4rem); } to { opacity: 1; transform: none; } }
.qz-row-reveal { display: flex; flex-wrap: wrap; justify-content: center; gap: .3rem; max-width: 100%; } .qz-row-reveal .card { width: auto; padding: 0 .4rem; }
.qz-dot { display: inline-block; width: .7em; height: .7em; border-radius: 50%; vertical-align: middle; margin-right: .15em; }
.qz-dot.score { background: #e0a800; border: 1px solid #8a6700; } .qz-dot.money { background: #222; border: 1px solid #000; }
.qz-count, .qz-counts { white-space: nowrap; }
/* The table: the rows in two columns beside the white cards and the seats, all of it above the fold. */
.qz-table { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 1fr); gap: .5rem; align-items: start; }
.qz-table > .qz-status, .qz-table > .qz-extras { grid-column: 1 / -1; }
.qz-table .qz-side { display: flex; flex-direction: column; gap: .5rem; min-width: 0; }
.qz-table .qz-status { gap: .2rem 1.4rem; font-size: .85rem; padding: .4rem .8rem; }
.qz-table .qz-memorise { flex-basis: auto; font-size: 1rem; }
.qz-rows.big { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: .25rem .6rem; padding: .4rem .6rem; }
.qz-rows.big .qz-row { grid-template-columns: minmax(0, 1fr); }
.qz-rows.big .qz-question { font-size: .8rem; }
body.table-mode .qz-rows.big .card { width: auto; height: 1.6rem; min-width: 1.6rem; padding: 0 .3rem; font-size: .8rem; }
.qz-table .qz-board { max-width: none; } .qz-table .qz-place { aspect-ratio: 2 / 1; }
.qz-table .qz-board-wrap, .qz-table .qz-side > .panel { padding: .4rem .6rem; }
.qz-seats th { white-space: nowrap; }
.qz-mark { display: block; font-size: .85em; }
.qz-table .qz-seats { font-size: .8rem; table-layout: fixed; } .qz-table .qz-seats th, .qz-table .qz-seats td { padding: .1rem .3rem; }
.qz-table .qz-seats th { white-space: normal; }
.qz-table .qz-name { display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
.qz-table .qz-seats th:nth-child(2), .qz-table .qz-seats th:nth-child(3) { width: 4.6rem; }
.qz-dealt { display: flex; gap: .6rem; align-items: center; font-weight: 700; } .qz-dealt .card { width: auto; padding: 0 .4rem; }
body.table-mode .qz-dealt .card, body.table-mode .qz-row-reveal .card { width: auto; min-width: 4rem; padding: 0 .5rem; }
.qz-winner { font-size: 1.3rem; font-weight: 800; }
tr.me td { background: var(--mine); }
@media (prefers-reduced-motion: reduce) { .qz-peek-face, .qz-turn-down, .qz-sheet { animation: none; opacity: 1; } }
`;

export function render(view, ctx) {
  const { html } = ctx;
  lastDeck = view.deck;
  return html`<div class="qz"><style>${STYLE}</style>
    <${Status} view=${view} ctx=${ctx} /><${PeekCard} view=${view} ctx=${ctx} /><${Extras} view=${view} ctx=${ctx} />
    <${Rows} view=${view} ctx=${ctx} /><div class="qz-lower"><${Board} view=${view} ctx=${ctx} /><${Seats} view=${view} ctx=${ctx} /></div>
  </div>`;
}

export function renderTable(view, ctx) {
  const { html } = ctx;
  lastDeck = view.deck;
  return html`<div class="qz qz-table"><style>${STYLE}</style>
    <${Status} view=${view} ctx=${ctx} /><${Rows} view=${view} ctx=${ctx} big=${true} />
    <div class="qz-side"><${Board} view=${view} ctx=${ctx} /><${Seats} view=${view} ctx=${ctx} /></div><${Extras} view=${view} ctx=${ctx} />
  </div>`;
}
