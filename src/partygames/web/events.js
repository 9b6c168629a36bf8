// "What just happened": the narrator plays the updates the connection received, in order, one event at
// a time on a stage (dice roll, cards turn over, chests open), and shows an update's view only once its
// events have been narrated, so that no part of the screen (board, buttons, results) runs ahead of the
// feed. "Skip" jumps to the newest. How long each event shows is the game's declaration
// (`Game.reveals`, in its info); the server paces the match by the same durations (docs/server.md).
import { html, useEffect, useReducer, useRef } from "./lib.js";
import { t, getLang } from "./i18n.js";
import { describeGeneric } from "./generic.js";

/** The room's own events, which no game has (the connection makes them from the room's seats): a bot takes
 * a seat over while its person is away, the person is back. Told at once, without a stage of their own. */
export const ROOM_EVENTS = ["stood_in", "came_back"];

/** A bot kind's name ("Heuristic"), from the game's info when the context has it. */
const botName = (kind, ctx) => (ctx.botTitle ? ctx.botTitle(kind) : null) || kind;

/** An event as a sentence: the game's own wording, else the generic one; null hides the event. A step a bot
 * played for an absent person (`event.standin`, docs/protocol.md) says so: the bot's, not the person's. */
export function describe(event, game, ctx) {
  const text = describeOwn(event, game, ctx);
  if (text == null || !event.standin) return text;
  return `${text} (${t("by_standin", botName(event.standin, ctx), ctx.seatName(event.for))})`;
}

function describeOwn(event, game, ctx) {
  // Every game's: a seat the match waited for ran out of time (the engine's `timed_out`).
  if (event.type === "timed_out") return t("timed_out", ctx.seatName(event.data.seat));
  if (event.type === "stood_in") return t("stood_in", ctx.seatName(event.data.seat), botName(event.data.bot, ctx));
  if (event.type === "came_back") return t("came_back", ctx.seatName(event.data.seat));
  if (game && typeof game.describeEvent === "function") {
    const text = game.describeEvent(event, getLang(), ctx);
    if (text !== undefined) return text;
  }
  return describeGeneric(event, ctx);
}

const DEFAULT_MS = 1000; // before the game's info has arrived
const SLACK_MS = 500; // network and rendering: how far the stage may trail the server's pacing
const BUDGET_MS = 6000; // a server that does not pace: the stage finishes within this of the newest update
const MIN_MS = 60; // catching up: each event still flashes by
const RECENT = 6;
const SETTLE_MS = 700; // a picture (a die rolling, a chest opening) settles by then, and then the sentence shows

/** The sentence with the players' names in their colours. */
const said = (event, game, ctx) => (ctx.paint ? ctx.paint(describe(event, game, ctx)) : describe(event, game, ctx));

/** The ms the game declares for showing `event` (0: only in the log). */
export function revealMs(event, reveals) {
  if (ROOM_EVENTS.includes(event.type)) return 0;
  if (!reveals) return DEFAULT_MS;
  const ms = reveals.durations ? reveals.durations[event.type] : undefined;
  return typeof ms === "number" ? ms : reveals.default ?? DEFAULT_MS;
}

const START = {
  taken: 0, // the `seq` of the last update taken from the connection
  pending: [], // updates taken and not shown yet, oldest first, each with the events still to narrate
  shown: null, // the update whose view the screen shows: {version, view, deadline}
  current: null, // the event on the stage: {event, duration, until}
  recent: [], // narrated events, newest first
  narrated: 0, // the highest event key narrated (or skipped): the log shows up to it
  revealEnd: null, // local ms by which the server expects the reveals received so far to end (null: it does not pace)
  match: null, // the room's match these updates belong to (`room.match`)
};

const lastKey = (events, key) => events.reduce((k, e) => Math.max(k, e.key), key);

function take(state, updates, isStaged, isTold) {
  let next = state;
  for (const u of updates) {
    if (u.seq <= next.taken) continue;
    const staged = u.events.filter(isStaged);
    // Told without a stage of their own (a game whose reveals take no time, e.g. real-time play): they join
    // the recent ones when their update is shown.
    const told = u.events.filter((e) => !staged.includes(e) && isTold(e));
    if (u.fresh) {
      // Someone arriving (a reload, a late spectator): the history is shown at once, not replayed.
      next = { ...next, pending: [], current: null, shown: u, recent: u.events.filter(isTold).reverse().slice(0, RECENT),
        narrated: lastKey(u.events, next.narrated) };
    } else {
      next = { ...next, pending: [...next.pending, { ...u, staged, told }] };
    }
    next = { ...next, taken: u.seq, revealEnd: u.revealEnd };
  }
  return next;
}

/** How long the stage shows `event` when `total` ms of declared reveals (this one included) are waiting:
 * its own duration, shortened when the stage would otherwise end after the server's pacing (a reconnect,
 * a tab in the background, a server with shorter reveals) or, when the server does not pace, after the
 * budget. */
function durationOf(own, total, state, now) {
  const available = state.revealEnd === null ? BUDGET_MS : state.revealEnd - now + SLACK_MS;
  const factor = total <= 0 ? 1 : Math.min(1, Math.max(0, available) / total);
  return Math.max(MIN_MS, Math.round(own * factor));
}

function advance(state, now, reveals) {
  if (state.current && now < state.current.until) return state;
  let { pending, shown, recent, narrated } = state;
  if (state.current) recent = [state.current.event, ...recent].slice(0, RECENT);
  let current = null;
  while (pending.length && !current) {
    const [head, ...rest] = pending;
    if (head.staged.length) {
      const [event, ...others] = head.staged;
      const total = pending.reduce((sum, u) => sum + u.staged.reduce((s, e) => s + revealMs(e, reveals), 0), 0);
      const duration = durationOf(revealMs(event, reveals), total, state, now);
      current = { event, duration, until: now + duration };
      narrated = Math.max(narrated, event.key);
      pending = [{ ...head, staged: others }, ...rest];
    } else {
      shown = head;
      narrated = lastKey(head.events, narrated);
      recent = [...head.told].reverse().concat(recent).slice(0, RECENT);
      pending = rest;
    }
  }
  return { ...state, pending, shown, recent, narrated, current };
}

function skip(state) {
  const events = state.pending.flatMap((u) => [...u.staged, ...u.told].sort((a, b) => a.key - b.key));
  const all = state.current ? [state.current.event, ...events] : events;
  const last = state.pending.length ? state.pending[state.pending.length - 1] : state.shown;
  return { ...state, pending: [], current: null, shown: last, recent: [...all].reverse().concat(state.recent).slice(0, RECENT),
    narrated: state.pending.reduce((k, u) => lastKey(u.events, k), state.narrated) };
}

function narrate(state, action) {
  switch (action.type) {
    case "take": return take(state, action.updates, action.isStaged, action.isTold);
    case "advance": return advance(state, action.now, action.reveals);
    case "skip": return skip(state);
    case "reset": return { ...START, taken: state.taken, match: action.match };
    default: return state;
  }
}

/** Narrates `updates` (the connection's, each `{seq, version, view, deadline, events, fresh, revealEnd}`,
 * oldest first) once `ready` (the game's renderer and info have loaded). Returns the narration: `shown`
 * (the update whose view to render), `current`, `head` (the update `current` belongs to, shown next),
 * `told` (its events told so far, `current` included), `recent`, `remaining` (events still to narrate),
 * `narrated` (the highest event key narrated) and `skip()`. */
export function useNarration(updates, { game, ctx, reveals, ready = true, match = null }) {
  const [held, dispatch] = useReducer(narrate, START);
  // A new match (play again, a series' next game): nothing of the last one is narrated or shown any more,
  // even for the one render before the reset below has run.
  const state = held.match === match ? held : { ...START, taken: held.taken, match };
  useEffect(() => {
    if (held.match !== match) dispatch({ type: "reset", match });
  }, [match]);
  useEffect(() => {
    if (!ready) return;
    const isTold = (e) => describe(e, game, ctx) !== null;
    const isStaged = (e) => revealMs(e, reveals) > 0 && isTold(e);
    dispatch({ type: "take", updates, isStaged, isTold });
  }, [updates, ready, match]);
  const idle = !state.current && state.pending.length > 0;
  useEffect(() => {
    if (idle) {
      dispatch({ type: "advance", now: Date.now(), reveals });
      return undefined;
    }
    if (!state.current) return undefined;
    const { until } = state.current;
    // A timer may fire a little early: the event has had its time either way.
    const timer = setTimeout(() => dispatch({ type: "advance", now: Math.max(Date.now(), until), reveals }), Math.max(0, until - Date.now()));
    return () => clearTimeout(timer);
  }, [state.current, idle]);
  const remaining = state.pending.reduce((n, u) => n + u.staged.length, 0);
  // The update whose events are on the stage (its view comes next), and those of them told so far.
  const head = state.current && state.pending.length ? state.pending[0] : null;
  const told = head ? head.events.filter((e) => e.key <= state.current.event.key) : [];
  return { ...state, remaining, head, told, skip: () => dispatch({ type: "skip" }) };
}

/** The stage: the event being narrated, the last few before it, and "Skip" while more is waiting. */
export function Stage({ narration, game, ctx, big = false }) {
  const { current, recent, remaining } = narration;
  const fast = current !== null && current.duration < 600;
  // The picture settles in about half of the event's time, so that the sentence has the rest.
  const settle = current ? Math.min(SETTLE_MS, Math.round(current.duration * 0.55)) : SETTLE_MS;
  const rich = current && game && typeof game.renderEvent === "function" ? game.renderEvent(current.event, { ...ctx, fast, settle }) : null;
  const waiting = remaining + (current ? 1 : 0);
  return html`<section class=${"panel stage" + (big ? " big" : "")} data-testid="stage" aria-live="polite">
    <h2>${t("what_happened")} ${remaining ? html`<button class="link small" data-testid="skip" onClick=${narration.skip}>${t("skip")} (${waiting})</button>` : null}</h2>
    ${current
      ? html`<div class=${"stage-current" + (fast ? " fast" : "")} key=${current.event.key} data-key=${current.event.key} style=${`--settle: ${settle}ms`}
          data-version=${current.event.version} data-event=${current.event.type}>
          ${rich ? html`<div class="stage-rich">${rich}</div>` : null}
          <div class="stage-text">${said(current.event, game, ctx)}</div>
        </div>`
      : recent.length === 0
        ? html`<p class="muted">${t("no_events")}</p>`
        : null}
    <ul class="stage-recent">
      ${recent.map((e) => html`<li key=${e.key} data-key=${e.key} data-version=${e.version} data-event=${e.type}>${said(e, game, ctx)}</li>`)}
    </ul>
  </section>`;
}

/** Every event this connection has narrated, newest first: the whole match as far as the connection has it
 * (a reload brings the match's history). Each event is worded once per language and renderer. */
export function EventLog({ events, narrated, game, ctx }) {
  const cache = useRef({ key: null, lines: new Map() });
  const room = ctx.room || {};
  const key = JSON.stringify([ctx.lang, !!game, room.match, (room.seats || []).map((s) => s.name)]);
  if (cache.current.key !== key) cache.current = { key, lines: new Map() };
  const { lines } = cache.current;
  const line = (e) => {
    if (!lines.has(e.key)) lines.set(e.key, describe(e, game, ctx) === null ? null : said(e, game, ctx));
    return lines.get(e.key);
  };
  const shown = events.filter((e) => e.key <= narrated && line(e) !== null).reverse();
  return html`<details class="panel log">
    <summary>${t("log")} (${shown.length})</summary>
    <ol reversed class="log-list">
      ${shown.map((e) => html`<li key=${e.key} data-version=${e.version}>${line(e)}</li>`)}
    </ol>
  </details>`;
}
