// The renderer every game gets for free: the view as readable key/value panels, and events as
// sentences. Game renderers may reuse these helpers.
import { html } from "./lib.js";
import { t, tr } from "./i18n.js";

/** The view keys every game has (docs/engine.md); the generic panels show the rest. */
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

const isScalar = (v) => v == null || ["string", "number", "boolean"].includes(typeof v) || isBilingual(v);

function Value({ value, seats, seatName, depth }) {
  if (isScalar(value)) return html`<span class="value">${formatValue(value)}</span>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return html`<span class="muted">${t("none")}</span>`;
    if (value.every(isScalar)) {
      if (seats && value.length === seats) {
        // One value per seat: a small table with the seats' names.
        return html`<table class="kv per-seat"><tbody>
          ${value.map((v, i) => html`<tr><th>${seatName(i)}</th><td>${formatValue(v)}</td></tr>`)}
        </tbody></table>`;
      }
      return html`<span class="chips">${value.map((v) => html`<span class="chip static">${formatValue(v)}</span>`)}</span>`;
    }
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      const columns = [...new Set(value.flatMap((v) => Object.keys(v)))];
      const perSeat = seats && value.length === seats;
      return html`<div class="table-wrap"><table class="grid"><thead><tr>
          ${perSeat ? html`<th>${t("seat")}</th>` : null}
          ${columns.map((c) => html`<th>${humanize(c)}</th>`)}</tr></thead>
        <tbody>${value.map((row, i) => html`<tr>
          ${perSeat ? html`<th>${seatName(i)}</th>` : null}
          ${columns.map((c) => html`<td><${Value} value=${row[c]} seats=${0} seatName=${seatName} depth=${depth + 1} /></td>`)}
        </tr>`)}</tbody></table></div>`;
    }
    return html`<ol class="list">${value.map((v) => html`<li><${Value} value=${v} seats=${0} seatName=${seatName} depth=${depth + 1} /></li>`)}</ol>`;
  }
  return html`<${KeyValues} data=${value} seats=${seats} seatName=${seatName} depth=${depth + 1} />`;
}

function KeyValues({ data, seats, seatName, depth }) {
  return html`<dl class=${"kv depth-" + Math.min(depth, 3)}>
    ${Object.entries(data).map(([k, v]) => html`<div class="kv-row"><dt>${humanize(k)}</dt>
      <dd><${Value} value=${v} seats=${seats} seatName=${seatName} depth=${depth} /></dd></div>`)}
  </dl>`;
}

/** Any game's view as key/value panels (the keys common to every view are left to the room screen). */
export function renderGeneric(view, ctx) {
  const own = Object.fromEntries(Object.entries(view || {}).filter(([k]) => !COMMON_KEYS.has(k)));
  const scalars = Object.entries(own).filter(([, v]) => isScalar(v));
  const others = Object.entries(own).filter(([, v]) => !isScalar(v));
  return html`<div class="generic-view">
    ${scalars.length
      ? html`<div class="panel"><${KeyValues} data=${Object.fromEntries(scalars)} seats=${view.seats} seatName=${ctx.seatName} depth=${0} /></div>`
      : null}
    ${others.map(([k, v]) => html`<div class="panel"><h3>${humanize(k)}</h3>
      <${Value} value=${v} seats=${view.seats} seatName=${ctx.seatName} depth=${1} /></div>`)}
  </div>`;
}

/** An event as one line: its type and its data (seat numbers shown by name). */
export function describeGeneric(event, ctx) {
  const data = event.data || {};
  if (isBilingual(data.text)) return tr(data.text);
  const parts = Object.entries(data).map(([k, v]) => {
    if ((k === "seat" || k === "player" || k === "winner") && Number.isInteger(v)) return ctx.seatName(v);
    return `${humanize(k)}: ${formatValue(v)}`;
  });
  return `${humanize(event.type)}${parts.length ? " — " + parts.join(", ") : ""}`;
}
