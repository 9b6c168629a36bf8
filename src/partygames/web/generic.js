// The renderer every game gets for free: the view as readable key/value panels, and events as
// sentences. Game renderers may reuse these helpers.
import { html } from "./lib.js";
import { t, tr } from "./i18n.js";

/** The view keys every game has (engine/match.py COMMON_VIEW_KEYS, kept equal by tests/test_labels.py);
 * the generic panels show the rest. */
export const COMMON_KEYS = new Set(["game", "seat", "seats", "version", "to_act", "turns", "is_over", "legal_actions", "result"]);

export function humanize(key) {
  const text = String(key).replace(/[_-]+/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function isBilingual(value) {
  return value && typeof value === "object" && !Array.isArray(value) && typeof value.en === "string" && typeof value.ja === "string";
}

export function formatValue(value) {
  if (value === null || value === undefined) return "—";
  if (value === true) return t("yes");
  if (value === false) return t("no");
  if (isBilingual(value)) return tr(value);
  if (typeof value === "number") return Number.isInteger(value) ? value.toLocaleString("en-US") : String(value);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** A view key's name in the reader's language: the game's catalog (`labels.view`, which the server fills
 * from the game's view, detail, holding and parameter labels and its option titles), else the key itself. */
export function keyLabel(ctx, key) {
  return (ctx && ctx.label && ctx.label("view", key)) || humanize(key);
}

/** A value as words: a phase by the catalog's phase names, any other word by its value names. */
function valueText(ctx, key, value) {
  if (typeof value === "string" && ctx && ctx.label) {
    const named = (key === "phase" && ctx.label("phases", value)) || ctx.label("values", value);
    if (named) return named;
  }
  return formatValue(value);
}

const isScalar = (v) => v == null || ["string", "number", "boolean"].includes(typeof v) || isBilingual(v);

function Value({ value, name, seats, ctx, depth }) {
  const seatName = ctx.seatName;
  if (isScalar(value)) return html`<span class="value">${valueText(ctx, name, value)}</span>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return html`<span class="muted">${t("none")}</span>`;
    if (value.every(isScalar)) {
      if (seats && value.length === seats) {
        // One value per seat: a small table with the seats' names.
        return html`<table class="kv per-seat"><tbody>
          ${value.map((v, i) => html`<tr><th>${seatName(i)}</th><td>${valueText(ctx, name, v)}</td></tr>`)}
        </tbody></table>`;
      }
      return html`<span class="chips">${value.map((v) => html`<span class="chip static">${valueText(ctx, name, v)}</span>`)}</span>`;
    }
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      const columns = [...new Set(value.flatMap((v) => Object.keys(v)))];
      const perSeat = seats && value.length === seats;
      return html`<div class="table-wrap" tabindex="0"><table class="grid"><thead><tr>
          ${perSeat ? html`<th>${t("seat")}</th>` : null}
          ${columns.map((c) => html`<th>${keyLabel(ctx, c)}</th>`)}</tr></thead>
        <tbody>${value.map((row, i) => html`<tr>
          ${perSeat ? html`<th>${seatName(i)}</th>` : null}
          ${columns.map((c) => html`<td><${Value} value=${row[c]} name=${c} seats=${0} ctx=${ctx} depth=${depth + 1} /></td>`)}
        </tr>`)}</tbody></table></div>`;
    }
    return html`<ol class="list">${value.map((v) => html`<li><${Value} value=${v} name=${name} seats=${0} ctx=${ctx} depth=${depth + 1} /></li>`)}</ol>`;
  }
  return html`<${KeyValues} data=${value} seats=${seats} ctx=${ctx} depth=${depth + 1} />`;
}

function KeyValues({ data, seats, ctx, depth }) {
  return html`<dl class=${"kv depth-" + Math.min(depth, 3)}>
    ${Object.entries(data).map(([k, v]) => html`<div class="kv-row" data-key=${k}><dt>${keyLabel(ctx, k)}</dt>
      <dd><${Value} value=${v} name=${k} seats=${seats} ctx=${ctx} depth=${depth} /></dd></div>`)}
  </dl>`;
}

/** Any game's view as key/value panels (the keys common to every view are left to the room screen). */
export function renderGeneric(view, ctx) {
  const own = Object.fromEntries(Object.entries(view || {}).filter(([k]) => !COMMON_KEYS.has(k)));
  const scalars = Object.entries(own).filter(([, v]) => isScalar(v));
  const others = Object.entries(own).filter(([, v]) => !isScalar(v));
  return html`<div class="generic-view">
    ${scalars.length
      ? html`<div class="panel"><${KeyValues} data=${Object.fromEntries(scalars)} seats=${view.seats} ctx=${ctx} depth=${0} /></div>`
      : null}
    ${others.map(([k, v]) => html`<div class="panel" data-key=${k}><h3>${keyLabel(ctx, k)}</h3>
      <${Value} value=${v} name=${k} seats=${view.seats} ctx=${ctx} depth=${1} /></div>`)}
  </div>`;
}

/** An event as one line: its type and its data (seat numbers shown by name). */
export function describeGeneric(event, ctx) {
  const data = event.data || {};
  if (isBilingual(data.text)) return tr(data.text);
  const parts = Object.entries(data).map(([k, v]) => {
    if ((k === "seat" || k === "player" || k === "winner") && Number.isInteger(v)) return ctx.seatName(v);
    return `${keyLabel(ctx, k)}: ${valueText(ctx, k, v)}`;
  });
  return `${humanize(event.type)}${parts.length ? " — " + parts.join(", ") : ""}`;
}
