// "What just happened": the events of each update played one at a time on a stage (dice roll, cards
// turn over, chests open), and the full log underneath.
import { html, useState, useEffect, useRef } from "./lib.js";
import { t, getLang } from "./i18n.js";
import { describeGeneric } from "./generic.js";

/** An event as a sentence: the game's own wording, else the generic one; null hides the event. */
export function describe(event, game, ctx) {
  if (game && typeof game.describeEvent === "function") {
    const text = game.describeEvent(event, getLang(), ctx);
    if (text !== undefined) return text;
  }
  return describeGeneric(event, ctx);
}

/** The sentence with the players' names in their colours. */
const said = (event, game, ctx) => (ctx.paint ? ctx.paint(describe(event, game, ctx)) : describe(event, game, ctx));

const BUDGET_MS = 6000;

function ownDuration(event, game) {
  const custom = game && typeof game.eventDuration === "function" ? game.eventDuration(event) : null;
  return typeof custom === "number" ? custom : 1100;
}

/** How long the stage shows `event` with `rest` still waiting: its own duration, shortened in
 * proportion when the whole queue would take longer than BUDGET_MS (a reconnect, fast bots), so
 * the stage never lags far behind the game. */
function durationOf(event, game, rest) {
  const own = ownDuration(event, game);
  const total = rest.reduce((sum, e) => sum + ownDuration(e, game), own);
  return total <= BUDGET_MS ? own : Math.max(150, Math.round((own * BUDGET_MS) / total));
}

/** Plays the events of `batch` it has not played yet (by `key`), one by one. */
export function Stage({ batch, game, ctx, big = false, onBusy }) {
  const [queue, setQueue] = useState([]);
  const [current, setCurrent] = useState(null);
  const [duration, setDuration] = useState(0);
  const [recent, setRecent] = useState([]);
  const seen = useRef(new Set());

  useEffect(() => {
    const fresh = (batch || []).filter((e) => !seen.current.has(e.key) && describe(e, game, ctx) !== null);
    fresh.forEach((e) => seen.current.add(e.key));
    if (fresh.length) setQueue((q) => [...q, ...fresh]);
  }, [batch]);

  useEffect(() => {
    if (current || !queue.length) return undefined;
    const [next, ...rest] = queue;
    setCurrent(next);
    setDuration(durationOf(next, game, rest));
    setQueue(rest);
    return undefined;
  }, [queue, current]);

  useEffect(() => {
    if (!current) return undefined;
    const timer = setTimeout(() => {
      setRecent((r) => [current, ...r].slice(0, 6));
      setCurrent(null);
    }, duration);
    return () => clearTimeout(timer);
  }, [current]);

  const busy = current !== null || queue.length > 0;
  useEffect(() => {
    if (onBusy) onBusy(busy);
  }, [busy]);

  const skip = () => {
    setRecent((r) => [...[...queue].reverse(), ...(current ? [current] : []), ...r].slice(0, 6));
    setQueue([]);
    setCurrent(null);
  };
  const rich = current && game && typeof game.renderEvent === "function" ? game.renderEvent(current, { ...ctx, fast: duration < 600 }) : null;
  return html`<section class=${"panel stage" + (big ? " big" : "")} data-testid="stage" aria-live="polite">
    <h2>${t("what_happened")} ${queue.length ? html`<button class="link small" onClick=${skip}>${t("skip")} (${queue.length})</button>` : null}</h2>
    ${current
      ? html`<div class=${"stage-current" + (duration < 600 ? " fast" : "")} key=${current.key} data-event=${current.type}>
          ${rich ? html`<div class="stage-rich">${rich}</div>` : null}
          <div class="stage-text">${said(current, game, ctx)}</div>
        </div>`
      : recent.length === 0
        ? html`<p class="muted">${t("no_events")}</p>`
        : null}
    <ul class="stage-recent">
      ${recent.map((e) => html`<li key=${e.key} data-event=${e.type}>${said(e, game, ctx)}</li>`)}
    </ul>
  </section>`;
}

/** Every event this connection has seen, newest first. */
export function EventLog({ events, game, ctx }) {
  const shown = events.filter((e) => describe(e, game, ctx) !== null).slice(-150).reverse();
  return html`<details class="panel log">
    <summary>${t("log")} (${shown.length})</summary>
    <ol reversed class="log-list">
      ${shown.map((e) => html`<li key=${e.key}><span class="muted">v${e.version}</span> ${said(e, game, ctx)}</li>`)}
    </ol>
  </details>`;
}
