// The results screen: seats by rank, scores, winners (a tie said as one), what each seat holds, and the
// game's result details as a table named from its label catalog.
import { html } from "./lib.js";
import { t } from "./i18n.js";
import { formatValue, humanize } from "./generic.js";
import { Icon } from "./icons.js";
import { SeatDot } from "./seats.js";

const isEmpty = (v) => v === null || v === undefined || (typeof v === "object" && Object.keys(v).length === 0);
const SEAT_KEYS = new Set(["seat", "seats", "winner", "winners", "owner", "player", "players"]);
const WORD = /^[a-z][a-z_]*$/;
/** A figure (right-aligned), not a seat number. */
const isFigure = (name, value) => typeof value === "number" && !SEAT_KEYS.has(name);

/** A key's label from the game's catalog (`table`); a key the catalog lacks is shown humanised and
 * marked, so a test finds every missing translation. */
function Label({ ctx, table, name }) {
  // A detail keyed by a word the game holds as a value (Smuggling's totals by team) is labelled there.
  const text = ctx.label(table, name) || (table === "details" ? ctx.label("values", name) : null);
  return text ? html`${text}` : html`<span data-untranslated=${`${table}.${name}`}>${humanize(name)}</span>`;
}

function Holdings({ holdings, game, ctx }) {
  const entries = Object.entries(holdings || {}).filter(([, v]) => !isEmpty(v));
  const shown = entries.map(([k, v]) => {
    // "Label: value", the label from the game's catalog; a game may word the value (null hides it).
    const custom = game && typeof game.holdingValue === "function" ? game.holdingValue(k, v, ctx.lang, ctx) : undefined;
    return custom === null ? null : html`<span class="chip static"><${Label} ctx=${ctx} table="holdings" name=${k} />: ${custom === undefined ? formatValue(v) : custom}</span>`;
  }).filter((x) => x !== null);
  return shown.length ? html`<span class="holdings">${shown}</span>` : null;
}

/** One value of the result's detail: the game's wording (`detailValue`), seats by name, words from the
 * catalog, a list of rows as a small table, an object as labelled rows. */
function DetailValue({ name, value, game, ctx }) {
  const custom = game && typeof game.detailValue === "function" ? game.detailValue(name, value, ctx.lang, ctx) : undefined;
  if (custom !== undefined) return custom;
  if (value === null || value === undefined) return html`<span class="muted">—</span>`;
  if (SEAT_KEYS.has(name) && (Number.isInteger(value) || (Array.isArray(value) && value.every(Number.isInteger)))) {
    const seats = Array.isArray(value) ? value : [value];
    return seats.length ? html`${seats.map((s, i) => html`${i ? ", " : ""}<${SeatDot} seat=${s} />${ctx.seatName(s)}`)}` : html`<span class="muted">${t("none")}</span>`;
  }
  if (typeof value === "string") return WORD.test(value) ? html`<${Label} ctx=${ctx} table="values" name=${value} />` : value;
  if (typeof value !== "object") return formatValue(value);
  if (Array.isArray(value)) {
    if (!value.length) return html`<span class="muted">${t("none")}</span>`;
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      const columns = [...new Set(value.flatMap((v) => Object.keys(v)))];
      return html`<div class="table-wrap" tabindex="0"><table class="grid detail-rows">
        <thead><tr>${columns.map((c) => html`<th><${Label} ctx=${ctx} table="details" name=${c} /></th>`)}</tr></thead>
        <tbody>${value.map((row) => html`<tr>${columns.map((c) => html`<td class=${isFigure(c, row[c]) ? "num" : ""}>
          <${DetailValue} name=${c} value=${row[c]} game=${game} ctx=${ctx} /></td>`)}</tr>`)}</tbody></table></div>`;
    }
    return html`${value.map((v, i) => html`${i ? ", " : ""}<${DetailValue} name=${name} value=${v} game=${game} ctx=${ctx} />`)}`;
  }
  return html`<${DetailTable} detail=${value} game=${game} ctx=${ctx} nested=${true} />`;
}

/** The result's detail as rows "label | value", every label from the game's catalog. */
export function DetailTable({ detail, game, ctx, nested = false }) {
  const rows = Object.entries(detail || {});
  return html`<table class=${"kv detail" + (nested ? " nested" : "")} data-testid=${nested ? null : "result-detail"}><tbody>
    ${rows.map(([k, v]) => html`<tr><th><${Label} ctx=${ctx} table="details" name=${k} /></th>
      <td class=${isFigure(k, v) ? "num" : ""}><${DetailValue} name=${k} value=${v} game=${game} ctx=${ctx} /></td></tr>`)}
  </tbody></table>`;
}

/** A seat's score as the game writes it (its view's `scoreValue`: the Quiz's prize), else in the unit its
 * labels declare (`score_unit` "yen": the client's one yen format), else the figure. */
function scoreText(score, game, ctx) {
  try {
    const custom = game && typeof game.scoreValue === "function" ? game.scoreValue(score, ctx.lang, ctx) : undefined;
    if (custom !== undefined && custom !== null) return custom;
  } catch (error) {
    console.error("the game's scoreValue failed; showing the figure", error);
  }
  return ctx.scoreUnit === "yen" && typeof score === "number" ? ctx.yen(score) : formatValue(score);
}

/** The game's own headline (`resultHeadline`: Smuggling names the winning side with both sides' nets),
 * else null. */
function gameHeadline(result, game, ctx) {
  try {
    return game && typeof game.resultHeadline === "function" ? game.resultHeadline(result, ctx) || null : null;
  } catch (error) {
    console.error("the game's resultHeadline failed; saying who won instead", error);
    return null;
  }
}

/** Who won, in a sentence: nobody (no seat is a winner: nobody sat, nobody passed), a tie when every seat
 * ranks first, else the first-placed seats (a team). */
function Verdict({ rows, ctx }) {
  if (rows.length && !rows.some((r) => r.is_winner)) {
    return html`<p class="verdict none" data-testid="verdict">${t("nobody_wins")}</p>`;
  }
  const first = rows.filter((r) => r.rank === 1);
  if (!first.length) return null;
  const tie = first.length === rows.length && rows.length > 1;
  return html`<p class=${"verdict" + (tie ? " tie" : "")} data-testid="verdict">
    <${Icon} name="trophy" /> ${tie ? (rows.length === 2 ? t("tie_two") : t("tie_all", rows.length)) : t("won_by", first.map((r) => ctx.seatName(r.seat)).join(", "))}</p>`;
}

/** A winner who lost money (a member of the winning team whose own net is negative): both are said. */
const lostMoney = (row, ctx) => ctx.scoreUnit === "yen" && typeof row.score === "number" && row.score < 0;

export function Results({ result, game, ctx }) {
  if (!result) return null;
  const rows = [...result.seats].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  const custom = game && typeof game.renderResult === "function" ? game.renderResult(result, ctx) : null;
  return html`<section class="panel results" data-testid="results">
    <h2>${t("results")}</h2>
    ${gameHeadline(result, game, ctx) || html`<${Verdict} rows=${rows} ctx=${ctx} />`}
    <table class="grid results-table">
      <thead><tr><th>${t("rank")}</th><th>${t("seat")}</th><th class="num">${t("score")}</th></tr></thead>
      ${rows.map((r) => html`<tbody class=${(r.is_winner ? "winner" : "") + (r.seat === ctx.seat ? " me" : "")} data-seat=${r.seat}>
        <tr class="seat-result">
          <td>${r.rank}${r.is_winner ? html` <span class="badge" data-testid="winner-badge"><${Icon} name="trophy" /> ${t("winner")}</span>` : null}
            ${r.is_winner && lostMoney(r, ctx) ? html` <span class="badge subtle" data-testid="own-loss">${t("winner_lost_money")}</span>` : null}</td>
          <td><${SeatDot} seat=${r.seat} />${ctx.seatName(r.seat)}</td>
          <td class="num">${scoreText(r.score, game, ctx)}</td>
        </tr>
        <tr class="seat-holdings"><td colspan="3"><${Holdings} holdings=${r.holdings} game=${game} ctx=${ctx} /></td></tr>
      </tbody>`)}
    </table>
    <p class="muted">${t("termination")}: <${Label} ctx=${ctx} table="terminations" name=${result.termination} /></p>
    ${custom}
    ${result.detail && Object.keys(result.detail).length
      ? html`<details class="result-details" open><summary>${t("details")}</summary><${DetailTable} detail=${result.detail} game=${game} ctx=${ctx} /></details>`
      : null}
  </section>`;
}
