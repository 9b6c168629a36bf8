// Action controls, generated only from the seat's legal-action specs (see docs/engine.md): a choice
// parameter becomes buttons (a picker when it has many values), an integer range a number input with a
// slider and quick buttons, a sequence (an ordered list of distinct values) buttons picked in order, with
// the order shown. Specs of one type with the same parameters are one form whose values must fit one of them.
import { html, useState, useEffect } from "./lib.js";
import { t, getLang } from "./i18n.js";
import { humanize, formatValue } from "./generic.js";
import { arrowFocus } from "./widgets.js";

// The view of the moment, so a game's value labels can name what a value stands for (a market slot's card).
let currentView = null;
let currentCtx = null;

/** An action type's or parameter's label from the game's catalog (`ctx.label`), else the key humanised. */
export const actionLabel = (ctx, type) => (ctx && ctx.label("actions", type)) || humanize(type);
const paramLabel = (ctx, name) => (ctx && ctx.label("params", name)) || humanize(name);

function valueLabel(game, type, name, value) {
  const custom = game && typeof game.valueLabel === "function" ? game.valueLabel(type, name, value, getLang(), currentView, currentCtx) : null;
  return custom == null || custom === "" ? formatValue(value) : custom;
}

function isRange(param) {
  return param && typeof param.min === "number" && typeof param.max === "number";
}

const isChoice = (param) => param && Array.isArray(param.choice);
const isSequence = (param) => param && Array.isArray(param.sequence);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** A list the sequence parameter allows: distinct values of the spec, between min_len and max_len long. */
function inSequence(param, value) {
  return Array.isArray(value) && value.length >= param.min_len && value.length <= param.max_len &&
    value.every((v, i) => param.sequence.some((c) => same(c, v)) && value.findIndex((w) => same(w, v)) === i);
}

function snap(param, value) {
  const step = param.step || 1;
  const n = Math.round((value - param.min) / step);
  return Math.min(param.max, Math.max(param.min, param.min + n * step));
}

function inRange(param, value) {
  const step = param.step || 1;
  return Number.isInteger(value) && value >= param.min && value <= param.max && (value - param.min) % step === 0;
}

/** The quick-pick values offered under a range input: the ends and a few points between. */
export function quickValues(param) {
  const values = new Set([param.min]);
  // Fractions of the maximum (not of the span) give round amounts when the minimum is one step.
  for (const fraction of [0.25, 0.5, 0.75]) values.add(snap(param, Math.max(param.min, param.max * fraction)));
  values.add(param.max);
  return [...values].sort((a, b) => a - b);
}

/** The typed figure as the game writes it (an amount of yen: "¥200,000,000", 「2億円」), under the input,
 * where that differs from the bare figure: a number field itself can only show digits. */
function reading(game, type, name, value, valid) {
  if (!valid) return null;
  const text = valueLabel(game, type, name, value);
  return text !== String(value) && text !== formatValue(value) ? html`<output class="reading" data-reading=${name}>${text}</output>` : null;
}

function RangeInput({ game, type, name, param, value, onChange }) {
  const step = param.step || 1;
  const valid = inRange(param, value);
  if (param.min === param.max) {
    return html`<div class="param"><span class="param-label">${paramLabel(currentCtx, name)}</span>
      <strong data-param=${name}>${valueLabel(game, type, name, param.min)}</strong></div>`;
  }
  return html`<div class="param range">
    <label class="param-label">${paramLabel(currentCtx, name)}
      <span class="muted"> (${t("min_max", valueLabel(game, type, name, param.min), valueLabel(game, type, name, param.max))}${step !== 1 ? `, ${t("step_of", valueLabel(game, type, name, step))}` : ""})</span></label>
    <div class="range-row">
      <button type="button" class="small" aria-label="−" disabled=${!valid || value - step < param.min}
        onClick=${() => onChange(snap(param, value - step))}>−</button>
      <input type="number" inputmode="numeric" data-param=${name} min=${param.min} max=${param.max} step=${step} aria-label=${paramLabel(currentCtx, name)}
        value=${Number.isFinite(value) ? value : ""} class=${valid ? "" : "invalid"}
        onInput=${(e) => onChange(e.target.value === "" ? NaN : Number(e.target.value))} />
      <button type="button" class="small" aria-label="+" disabled=${!valid || value + step > param.max}
        onClick=${() => onChange(snap(param, value + step))}>+</button>
    </div>
    ${reading(game, type, name, value, valid)}
    <input type="range" class="slider" data-slider=${name} min=${param.min} max=${param.max} step=${step} aria-label=${paramLabel(currentCtx, name)}
      value=${valid ? value : param.min} onInput=${(e) => onChange(Number(e.target.value))} />
    <div class="quick">
      ${quickValues(param).map(
        (v) => html`<button type="button" class=${"chip" + (v === value ? " selected" : "")} data-quick=${v}
          onClick=${() => onChange(v)}>${valueLabel(game, type, name, v)}</button>`,
      )}
    </div>
    ${valid ? null : html`<div class="field-error">${t("invalid_number", param.min, param.max, step)}</div>`}
  </div>`;
}

// More values than this and a choice is a picker (a select), not a row of buttons: a seat among 23 others.
const PICKER_FROM = 13;
const isPicker = (param) => param.choice.length >= PICKER_FROM;

/** A choice as a select: one option per value, by its label; `onChange` gets the value itself. */
function Picker({ game, type, name, param, value, onChange, label }) {
  const at = param.choice.findIndex((v) => same(v, value));
  return html`<select class="picker" data-param=${name} data-picker=${type} aria-label=${label}
    value=${String(Math.max(0, at))} onChange=${(e) => onChange(param.choice[Number(e.target.value)])}>
    ${param.choice.map((v, i) => html`<option value=${String(i)}>${valueLabel(game, type, name, v)}</option>`)}
  </select>`;
}

function ChoiceInput({ game, type, name, param, value, onChange }) {
  if (isPicker(param)) {
    return html`<label class="param choice"><span class="param-label">${paramLabel(currentCtx, name)}</span>
      <${Picker} game=${game} type=${type} name=${name} param=${param} value=${value} onChange=${onChange} label=${paramLabel(currentCtx, name)} /></label>`;
  }
  return html`<div class="param choice">
    <span class="param-label">${paramLabel(currentCtx, name)}</span>
    <div class="choices" role="radiogroup" onKeyDown=${arrowFocus}>
      ${param.choice.map(
        (v, i) => html`<button type="button" role="radio" aria-checked=${JSON.stringify(v) === JSON.stringify(value)}
          class=${"chip" + (JSON.stringify(v) === JSON.stringify(value) ? " selected" : "")}
          data-param=${name} data-index=${i} onClick=${() => onChange(v)}>${valueLabel(game, type, name, v)}</button>`,
      )}
    </div>
  </div>`;
}

/** How many values a sequence takes, in words: "exactly 3", "2 to 3", "up to 3". */
function sequenceCount(param) {
  if (param.min_len === param.max_len) return t("seq_exactly", param.min_len);
  if (param.min_len === 0) return t("seq_up_to", param.max_len);
  return t("seq_range", param.min_len, param.max_len);
}

/** An ordered list of distinct values: each pick is appended; the order is shown, with undo, clear
 * and a remove button per picked value. */
function SequenceInput({ game, type, name, param, value, onChange }) {
  const picked = Array.isArray(value) ? value : [];
  const full = picked.length >= param.max_len;
  const text = (v) => valueLabel(game, type, name, v);
  const labelId = `seq-${type}-${name}`;
  return html`<div class="param sequence" data-sequence=${name} role="group" aria-labelledby=${labelId}>
    <span class="param-label" id=${labelId}>${paramLabel(currentCtx, name)}
      <span class="muted"> — ${t("seq_hint", sequenceCount(param))}</span></span>
    <div class="seq-order" aria-live="polite">
      <span class="muted">${t("seq_order")}:</span>
      ${picked.length
        ? html`<ol class="seq-list" data-order=${name}>
            ${picked.map((v, i) => html`<li class="chip selected" data-position=${i + 1}>
              <span class="seq-pos" aria-hidden="true">${i + 1}</span><span class="seq-text">${text(v)}</span>
              <button type="button" class="seq-remove" aria-label=${t("seq_remove", text(v))}
                onClick=${() => onChange(picked.filter((_, j) => j !== i))}>×</button>
            </li>`)}
          </ol>`
        : html`<span class="muted seq-empty">${t("seq_empty")}</span>`}
    </div>
    <div class="choices" onKeyDown=${arrowFocus}>
      ${param.sequence.map((v, i) => {
        const at = picked.findIndex((p) => same(p, v));
        return html`<button type="button" class=${"chip" + (at >= 0 ? " selected" : "")} data-param=${name}
          data-index=${i} data-seq-option disabled=${at >= 0 || full}
          aria-label=${at >= 0 ? t("seq_placed", text(v), at + 1) : t("seq_add", text(v), picked.length + 1)}
          onClick=${() => onChange([...picked, v])}>${at >= 0 ? html`<span class="seq-pos" aria-hidden="true">${at + 1}</span>` : null}${text(v)}</button>`;
      })}
    </div>
    <div class="seq-tools">
      <button type="button" class="small" data-seq-undo disabled=${!picked.length}
        onClick=${() => onChange(picked.slice(0, -1))}>${t("seq_undo")}</button>
      <button type="button" class="small" data-seq-clear disabled=${!picked.length}
        onClick=${() => onChange([])}>${t("seq_clear")}</button>
      <span class="muted">${t("seq_picked", picked.length)}</span>
    </div>
  </div>`;
}

function initialValue(param) {
  if (isRange(param)) return param.min;
  if (isSequence(param)) return [];
  return param.choice && param.choice.length ? param.choice[0] : null;
}

function isValid(param, value) {
  if (isRange(param)) return inRange(param, value);
  if (isSequence(param)) return inSequence(param, value);
  return (param.choice || []).some((c) => same(c, value));
}

/** Whether `values` (one per parameter) are an action `spec` allows. */
const allows = (spec, values) => Object.entries(spec.params || {}).every(([n, p]) => isValid(p, values[n]));

/** Specs of one type taking the same parameters, none a sequence (the Quiz's two `give` specs: at least one
 * score marker, or none and at least one secret-money marker), as one form: each range spans theirs, each
 * choice holds all their values, and the values sent must fit one of them (`parts`). */
export function mergeSpecs(specs) {
  const merged = [];
  for (const spec of specs) {
    const names = Object.keys(spec.params || {}).sort().join(",");
    const mergeable = names && Object.values(spec.params).every((p) => isChoice(p) || isRange(p));
    const into = mergeable && merged.find((m) => m.spec.type === spec.type && m.names === names && m.mergeable);
    if (!into) {
      merged.push({ spec, parts: [spec], names, mergeable });
      continue;
    }
    const params = Object.fromEntries(Object.entries(into.spec.params).map(([n, p]) => {
      const q = spec.params[n];
      if (isRange(p) && isRange(q) && (p.step || 1) === (q.step || 1)) return [n, { ...p, min: Math.min(p.min, q.min), max: Math.max(p.max, q.max) }];
      if (isChoice(p) && isChoice(q)) return [n, { choice: [...p.choice, ...q.choice.filter((v) => !p.choice.some((c) => same(c, v)))] }];
      return [n, null];
    }));
    if (Object.values(params).some((p) => p === null)) merged.push({ spec, parts: [spec], names, mergeable: false });
    else Object.assign(into, { spec: { ...into.spec, params }, parts: [...into.parts, spec] });
  }
  return merged;
}

/** One spec. With no parameter it is one button; with one choice, one button per value; otherwise
 * a small form whose submit button sends the action. */
function SpecControl({ game, spec, parts = [spec], onAct, busy, folded }) {
  const params = Object.entries(spec.params || {});
  // The first values offered are the first spec's (a merged form's union may start on a pair none allows).
  const initial = () => Object.fromEntries(Object.entries(parts[0].params || {}).map(([n, p]) => [n, initialValue(p)]));
  const [values, setValues] = useState(initial);
  const signature = JSON.stringify(parts);
  useEffect(() => {
    // A new spec (a new turn) resets the form, keeping values that are still legal.
    setValues((old) => {
      const kept = Object.fromEntries(
        params.map(([n, p]) => {
          const value = old[n];
          // A list being picked is kept while it is still a start of an allowed list.
          const ok = isSequence(p) ? inSequence({ ...p, min_len: 0 }, value) : isValid(p, value);
          return [n, ok ? value : initialValue(p)];
        }),
      );
      return parts.length > 1 && !parts.some((part) => allows(part, kept)) ? initial() : kept;
    });
  }, [signature]);
  const title = actionLabel(currentCtx, spec.type);
  if (params.length === 0) {
    return html`<div class="spec"><button class="action primary" data-action=${spec.type} disabled=${busy}
      onClick=${() => onAct({ type: spec.type })}>${title}</button></div>`;
  }
  if (params.length === 1 && isChoice(params[0][1]) && isPicker(params[0][1])) {
    // Many values (a seat among many): one picker and one button.
    const [name, param] = params[0];
    const value = values[name];
    return html`<div class="spec" data-spec=${spec.type}>
      <div class="spec-title">${title}</div>
      <div class="picker-row">
        <${Picker} game=${game} type=${spec.type} name=${name} param=${param} value=${value} label=${paramLabel(currentCtx, name)}
          onChange=${(v) => setValues((old) => ({ ...old, [name]: v }))} />
        <button class="action primary" data-action=${spec.type} disabled=${busy} onClick=${() => onAct({ type: spec.type, [name]: value })}>${title}</button>
      </div>
    </div>`;
  }
  if (params.length === 1 && isChoice(params[0][1])) {
    const [name, param] = params[0];
    return html`<div class="spec">
      <div class="spec-title">${title}</div>
      <div class="choices" onKeyDown=${arrowFocus}>
        ${param.choice.map(
          (v, i) => html`<button class="action" data-action=${spec.type} data-param=${name} data-index=${i} disabled=${busy}
            onClick=${() => onAct({ type: spec.type, [name]: v })}>${valueLabel(game, spec.type, name, v)}</button>`,
        )}
      </div>
    </div>`;
  }
  const each = params.every(([n, p]) => (isChoice(p) ? true : isValid(p, values[n])));
  // A merged form: the values must go together in one of its specs (a gift of nothing fits none).
  const together = parts.length < 2 || parts.some((part) => allows(part, values));
  const complete = each && together;
  const submit = (e) => {
    e.preventDefault();
    if (complete) onAct({ type: spec.type, ...values });
  };
  const form = html`<form class="spec form" data-spec=${spec.type} onSubmit=${submit}>
    ${folded ? null : html`<div class="spec-title">${title}</div>`}
    ${params.map(([name, param]) => {
      const Input = isRange(param) ? RangeInput : isSequence(param) ? SequenceInput : ChoiceInput;
      return html`<${Input} game=${game} type=${spec.type} name=${name} param=${param} value=${values[name]}
        onChange=${(v) => setValues((old) => ({ ...old, [name]: v }))} />`;
    })}
    ${each && !together ? html`<div class="field-error" data-testid="not-together">${t("not_together")}</div>` : null}
    <button type="submit" class="action primary" data-action=${spec.type} disabled=${busy || !complete}>${title}</button>
  </form>`;
  // With many choices on a phone, each form folds to its title until the player opens it.
  return folded ? html`<details class="spec folded" data-spec-box=${spec.type}><summary class="spec-title">${title}</summary>${form}</details>` : form;
}

const isForm = (spec) => {
  const params = Object.values(spec.params || {});
  return params.length > 1 || (params.length === 1 && !isChoice(params[0]));
};

/** The panel of everything the seat may do now. */
export function ActionPanel({ game, specs, onAct, busy, error, view, ctx }) {
  currentView = view || null;
  // A seat offered as a value (a gift's receiver, a vote's candidate) is named as picked: "Kenta (offline)".
  currentCtx = ctx ? { ...ctx, seatName: ctx.pickName || ctx.seatName } : null;
  const controls = mergeSpecs(specs || []);
  return html`<section class="panel actions" aria-live="polite">
    <h2>${t("you_may")}</h2>
    ${error ? html`<div class="refused" role="alert" data-testid="refused">${t("refused", error)}</div>` : null}
    ${controls.length
      ? controls.map(({ spec, parts }, i) => html`<${SpecControl} key=${spec.type + i} game=${game} spec=${spec} parts=${parts} onAct=${onAct} busy=${busy}
          folded=${controls.filter(({ spec: s }) => isForm(s)).length > 1} />`)
      : html`<p class="muted">${t("nothing_to_do")}</p>`}
  </section>`;
}
