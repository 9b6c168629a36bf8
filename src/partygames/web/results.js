// The results screen: seats by rank, scores, winners, and what the game adds (holdings, detail).
import { html } from "./lib.js";
import { t } from "./i18n.js";
import { formatValue, humanize, renderGeneric } from "./generic.js";

function Holdings({ holdings, game, ctx }) {
  const isEmpty = (v) => v === null || (typeof v === "object" && Object.keys(v).length === 0);
  const entries = Object.entries(holdings || {}).filter(([, v]) => !isEmpty(v));
  if (!entries.length) return null;
  const text = ([k, v]) => {
    // "Label: value", the label from the game's catalog; a game may word the value (null hides it).
    const custom = game && typeof game.holdingValue === "function" ? game.holdingValue(k, v, ctx.lang, ctx) : undefined;
    return custom === null ? null : `${ctx.label("holdings", k) || humanize(k)}: ${custom === undefined ? formatValue(v) : custom}`;
  };
  const shown = entries.map((entry) => text(entry)).filter((x) => x !== null);
  return html`<span class="holdings">${shown.map((x) => html`<span class="chip static">${x}</span>`)}</span>`;
}

export function Results({ result, game, ctx }) {
  if (!result) return null;
  const rows = [...result.seats].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  const custom = game && typeof game.renderResult === "function" ? game.renderResult(result, ctx) : null;
  const termination = ctx.label("terminations", result.termination);
  return html`<section class="panel results" data-testid="results">
    <h2>${t("results")}</h2>
    <table class="grid results-table">
      <thead><tr><th>${t("rank")}</th><th>${t("seat")}</th><th>${t("score")}</th><th>${t("holdings")}</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr class=${(r.is_winner ? "winner" : "") + (r.seat === ctx.seat ? " me" : "")}>
        <td>${r.rank}${r.is_winner ? html` <span class="badge">🏆 ${t("winner")}</span>` : null}</td>
        <td>${ctx.seatName(r.seat)}</td>
        <td class="num">${formatValue(r.score)}</td>
        <td><${Holdings} holdings=${r.holdings} game=${game} ctx=${ctx} /></td>
      </tr>`)}</tbody>
    </table>
    <p class="muted">${t("termination")}: ${termination || humanize(result.termination)}</p>
    ${custom || (result.detail && Object.keys(result.detail).length
      ? html`<details><summary>${t("details")}</summary>${renderGeneric({ ...result.detail }, ctx)}</details>`
      : null)}
  </section>`;
}
