// The room screen: its lobby while open (seats, join, host controls), then the match (whose turn,
// what you may do, countdown, what just happened, chat), then the results and the replay.
import { html, useState, useEffect, useRef } from "./lib.js";
import { t, tr, getLang } from "./i18n.js";
import { api, loadSeat, saveSeat, forgetSeat, savedName, saveName, loadRenderer } from "./api.js";
import { useRoomConnection } from "./connection.js";
import { ActionPanel } from "./actions.js";
import { renderGeneric } from "./generic.js";
import { Stage, EventLog, useNarration, describe } from "./events.js";
import { Chat } from "./chat.js";
import { Results } from "./results.js";
import { Ledger } from "./night.js";
import { TableHeader, useFitToScreen } from "./table.js";
import { unescapeHtml } from "./text.js";
import * as widgets from "./widgets.js";
import { Icon } from "./icons.js";
import { seatName as nameOf, shortSeatName, paintNames, seatInk, SeatDot } from "./seats.js";
import { yen } from "./money.js";
import { copyOrSelect, canShare } from "./copy.js";
import { RoomGroup } from "./group.js";
import { Prose } from "./prose.js";
import { TablePresence, useServerNow, withAbsence, pickName, isAbsent } from "./presence.js";

/** Everything a game renderer gets besides the view (see web/README.md). `labels` is the game's label
 * catalog from its info (`/api/games`); `label(table, key)` reads it, null for a key it lacks. */
export function makeCtx({ room, seat, lang, table, send, markYou = true, labels = null }) {
  const seats = (room && room.seats) || [];
  const marked = (name, i) => (markYou && i === seat ? `${name} (${t("you")})` : name);
  const seatName = (i) => marked(nameOf(seats, i, lang), i);
  // Without a bot's kind ("Bot Aoi"): where room is short, as in the sticky banner.
  const shortName = (i) => marked(shortSeatName(seats, i, lang), i);
  const label = (name, key) => {
    const text = labels && labels[name] ? labels[name][key] : null;
    return text ? text[lang === "ja" ? "ja" : "en"] : null;
  };
  // A sentence with the seats' names in their colours (the feed, the results).
  const paint = (text) => paintNames(text, seats.map((_, i) => seatName(i)));
  // A seat offered to pick (an offer, a gift, a vote): its name marked "(offline)" while its person is gone.
  const pickSeatName = (i) => pickName(seatName(i), seats[i]);
  return { html, lang, t, tr, seat, seatName, shortName, pickName: pickSeatName, paint, label, widgets, Icon, SeatDot, table: !!table,
    options: (room && room.options) || {}, room, send, told: [],
    // Amounts of yen in the one format of the client (money.js), and what the results' scores count.
    yen: (n, options = {}) => yen(n, options.lang || lang, options), scoreUnit: (labels && labels.score_unit) || null };
}

function SeatList({ room, mySeat, canJoin, onJoinSeat }) {
  const lang = getLang();
  return html`<ul class="seat-list" data-testid="seats">
    ${room.seats.map((s) => html`<li class=${"seat-row" + (s.seat === mySeat ? " me" : "")} data-seat=${s.seat}>
      <span class="seat-no" style=${`background:${seatInk(s.seat)}`}>${s.seat + 1}</span>
      <span class="seat-name">${s.kind === "bot" ? html`<${Icon} name="bot" /> ${nameOf(room.seats, s.seat, lang)}` : s.taken ? unescapeHtml(s.name) : html`<span class="muted">${t("empty_seat")}</span>`}
        ${s.seat === mySeat ? html` <span class="badge">${t("you")}</span>` : null}
        ${s.seat === room.host_seat ? html` <span class="badge subtle">${t("host")}</span>` : null}</span>
      ${s.kind === "human" && s.taken ? html`<span class=${"dot " + (s.connected ? "on" : "off")} title=${s.connected ? t("connected") : t("disconnected")}></span>` : null}
      ${canJoin && s.kind === "human" && !s.taken ? html`<button class="small" onClick=${() => onJoinSeat(s.seat)}>${t("take_seat")}</button>` : null}
    </li>`)}
  </ul>`;
}

function ShareBox({ room }) {
  // null, "shared", "copied", or selected for the reader to copy: "by_hand" (Ctrl+C), "by_touch" (a phone)
  const [copied, setCopied] = useState(null);
  const link = room.link || `${location.origin}/room/${room.code}`;
  const copy = async (e) => {
    const outcome = await copyOrSelect(link, e.currentTarget.parentElement.querySelector("input"), tr(room.title) || "");
    setCopied(outcome);
    if (outcome === "copied" || outcome === "shared") setTimeout(() => setCopied(null), 1500);
  };
  return html`<div class="share">
    <div><span class="muted">${t("room_code")}</span> <strong class="room-code" data-testid="room-code">${room.code}</strong>
      ${room.private ? html` <span class="badge" data-testid="private-badge">${t("private_badge")}</span>` : null}</div>
    <div class="share-link"><span class="muted">${t("share_link")}</span>
      <input readonly value=${link} aria-label=${t("share_link")} data-testid="share-link" onFocus=${(e) => e.target.select()} />
      <button class="small" onClick=${copy} data-testid="copy-link">${copied === "copied" ? t("copied") : canShare() ? t("share") : t("copy")}</button>
      ${copied === "by_hand" || copied === "by_touch" ? html`<span class="copy-hint" role="status" data-testid="copy-hint">${t(copied === "by_touch" ? "copy_by_touch" : "copy_by_hand")}</span>` : null}
      <a class="button small subtle" href=${`/room/${room.code}?table=1`} target="_blank" rel="noopener" data-testid="table-link">${t("table_view")}</a></div>
  </div>`;
}

function RoomLobby({ room, held, info, onJoined, onError, allowJoin }) {
  const [name, setName] = useState(savedName());
  const [busy, setBusy] = useState(false);
  const [kind, setKind] = useState("");
  const mySeat = held.token ? held.seat : null;
  const canJoin = allowJoin && room.status === "open" && mySeat == null;
  const bots = (info && info.bots) || [];
  const join = async (seat) => {
    const trimmed = name.trim();
    if (!trimmed) return onError({ en: "Enter a display name first.", ja: "先に表示名を入力してください。" });
    setBusy(true);
    try {
      saveName(trimmed);
      const answer = await api.join(room.code, seat == null ? { name: trimmed } : { name: trimmed, seat });
      onJoined(saveSeat(room.code, { seat: answer.seat, token: answer.token, name: trimmed }));
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };
  const host = async (what) => {
    setBusy(true);
    try {
      if (what === "fill") await api.fillBots(room.code, held.hostToken, kind || undefined);
      else await api.start(room.code, held.hostToken);
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };
  const free = room.seats.filter((s) => s.kind === "human" && !s.taken).length;
  return html`<section class="panel room-lobby" data-testid="room-lobby">
    <${ShareBox} room=${room} />
    <h2>${t("waiting_players")} (${room.seats.filter((s) => s.taken).length}/${room.seats.length})</h2>
    <${SeatList} room=${room} mySeat=${mySeat} canJoin=${canJoin && name.trim()} onJoinSeat=${join} />
    ${canJoin && free > 0
      ? html`<form class="join-form" onSubmit=${(e) => { e.preventDefault(); join(null); }}>
          <label>${t("your_name")} <input name="name" maxlength="24" required placeholder=${t("name_placeholder")} value=${name}
            onInput=${(e) => setName(e.target.value)} data-testid="join-name" /></label>
          <button type="submit" class="primary" disabled=${busy} data-testid="join">${t("join")}</button>
        </form>`
      : null}
    ${held.hostToken
      ? html`<div class="host-controls">
          ${free > 0
            ? html`<div class="row"><label>${t("bot_kind")} <select value=${kind} onChange=${(e) => setKind(e.target.value)}>
                ${bots.map((b) => html`<option value=${b === (bots.includes("heuristic") ? "heuristic" : bots[0]) ? "" : b}>${tr((info.bot_titles || {})[b]) || b}</option>`)}</select></label>
                <button onClick=${() => host("fill")} disabled=${busy} data-testid="fill-bots">${t("fill_bots")}</button></div>`
            : null}
          <button class="primary big" onClick=${() => host("start")} disabled=${busy || free > 0} data-testid="start">${t("start")}</button>
        </div>`
      : html`<p class="muted">${t("waiting_for_host")}</p>`}
  </section>`;
}

/** What the banner says of the seat (`docs/protocol.md`, Turns): `turn` (the match waits for it), `optional`
 * (it may act, e.g. give markers, but nothing waits for it), `live` (real time: anyone may act at any
 * moment, nobody has a turn) or `waiting` (the match waits for others, or for nobody). */
export function bannerKind(view, seat, acted = false) {
  const awaited = seat != null && view.to_act.includes(seat) && !acted;
  if (awaited && view.turns.includes(seat)) return "turn";
  if (!view.turns.length && view.to_act.length) return "live";
  return awaited ? "optional" : "waiting";
}

/** The banner's words for `view` (`bannerKind`'s kind and its sentence), the seats named by `name`; in real
 * time the game's own (its view.js `banner`: the phase and what it asks of the reader), else "Live: …". */
export function bannerWords(view, seat, ctx, name, acted = false, game = null) {
  if (view.is_over) return { kind: "over", text: t("match_over") };
  const kind = bannerKind(view, seat, acted);
  if (kind === "turn") return { kind, text: t("your_turn") };
  if (kind === "live") {
    let own = null;
    try {
      own = game && typeof game.banner === "function" ? game.banner(view, ctx.lang, ctx) : null;
    } catch (error) {
      console.error("the game's banner failed; saying it generically", error);
    }
    return { kind, text: own || t(seat != null && view.to_act.includes(seat) ? "live_you" : "live") };
  }
  // Whom the table waits for (others acting at once is not your concern); an optional action is named by the
  // seat's first legal action (a game lists the optional one first).
  const others = view.turns.filter((s) => s !== seat).map(name);
  const waiting = others.length ? t("waiting_for", others.join(", ")) : "";
  const first = kind === "optional" && view.legal_actions.length ? view.legal_actions[0].type : null;
  const may = first ? t("may_act", ctx.label("actions", first) || first.replaceAll("_", " ")) : "";
  // Nobody awaited (a race running on its own): the phase says what the countdown is for.
  const phase = view.phase ? ctx.label("phases", view.phase) || "" : "";
  return { kind, text: [may, waiting].filter(Boolean).join(" · ") || phase };
}

/** Whether the banner and the buttons give way to the reveal on the stage, which tells the events that lead
 * from the shown update to `head` (the next). They do, unless it is the seat's turn and stays so with the same
 * actions: another seat's move meanwhile (a sealed bid) changes nothing for it. A seat that is not awaited, or
 * may act without being waited for (the Quiz's gift), a spectator, and a seat whose own action (`acted`),
 * a new phase or a new chapter (a race, a round: `Game.reveals`) is being told, watch the reveal. */
export function changesSituation({ shown, head, seat, acted, chapters }) {
  if (!shown || !head) return false;
  if (acted || head.view.is_over || shown.view.phase !== head.view.phase) return true;
  if (head.events.some((e) => chapters.includes(e.type))) return true;
  const mine = (view) => bannerKind(view, seat) === "turn";
  if (!mine(shown.view) || !mine(head.view)) return true;
  return JSON.stringify(shown.view.legal_actions) !== JSON.stringify(head.view.legal_actions);
}

/** What is happening while `event` is told, for the banner: the game's phrase (its view.js `happening`, e.g.
 * Dice Derby's "The race is on"), else the event's sentence, unless the stage shows a picture first (a die
 * rolling, a chest opening), whose outcome the banner must not tell before the stage: then "Revealing…". */
export function happening(event, view, game, ctx) {
  try {
    const own = game && typeof game.happening === "function" ? game.happening(event, view, ctx.lang, ctx) : null;
    if (own) return own;
    const picture = game && typeof game.renderEvent === "function" ? game.renderEvent(event, { ...ctx, fast: true, settle: 0 }) : null;
    return picture ? t("revealing") : describe(event, game, ctx) || t("revealing");
  } catch (error) {
    console.error("the game's happening failed; saying it generically", error);
    return t("revealing");
  }
}

// The banner sticks to the top of the page; its height, kept in the CSS variable --turn-height (0 without a
// banner, as in a replay), lets a game's own sticky panel stick just under it however its words wrap.
let bannerObserver = null;
function measureBanner(el) {
  if (bannerObserver) bannerObserver.disconnect();
  bannerObserver = null;
  const root = document.documentElement.style;
  if (!el) {
    root.setProperty("--turn-height", "0px");
    return;
  }
  const place = () => root.setProperty("--turn-height", `${Math.ceil(el.getBoundingClientRect().height)}px`);
  place();
  if (typeof ResizeObserver === "function") {
    bannerObserver = new ResizeObserver(place);
    bannerObserver.observe(el);
  }
}

/** The sticky banner, from the update being narrated, never a newer one: while the stage tells events that
 * change the seat's situation (`reveal`), it says what is happening and shows no countdown; otherwise whose
 * turn it is. Names are short ("Bot Aoi"), so that it stays one or two lines. `fresh`: the seat's turn has
 * just begun (the tab title and a vibration say so, and the banner pulses). */
function TurnBanner({ view, seat, ctx, deadline, acted, reveal, fresh, offset, game }) {
  // A seat the table waits for whose person is gone says so, with the time it has been gone (ticking).
  const seats = (ctx.room && ctx.room.seats) || [];
  const absent = !!view && view.turns.some((s) => s !== seat && seats[s] && (isAbsent(seats[s]) || seats[s].standin));
  const now = useServerNow(absent, offset);
  const waitedName = (i) => withAbsence(ctx.shortName(i), seats[i], now);
  const words = view ? bannerWords(view, seat, ctx, waitedName, acted, game) : null;
  const kind = reveal ? "reveal" : words && words.kind;
  const mine = kind === "turn";
  useEffect(() => {
    // A phone in a pocket or a tab in the background: say it is your turn.
    document.title = mine ? `▶ ${t("your_turn")} · ${t("app_title")}` : t("app_title");
  }, [mine]);
  useEffect(() => {
    if (fresh && navigator.vibrate) navigator.vibrate(60);
  }, [fresh]);
  if (!view) return null;
  if (kind === "over") return html`<div class="turn over" data-testid="turn" data-kind="over" ref=${measureBanner}>${words.text}</div>`;
  const names = ((ctx.room && ctx.room.seats) || []).map((_, i) => ctx.shortName(i));
  const text = reveal ? paintNames(reveal, names) : words.text;
  return html`<div class=${"turn " + (mine ? "mine" : kind) + (mine && fresh ? " fresh" : "")} data-testid="turn" data-kind=${kind} ref=${measureBanner}>
    <span class="turn-text">${text}</span>
    ${reveal ? null : html`<${widgets.Countdown} deadline=${deadline} />`}
  </div>`;
}

/** Whether the game's board offers every legal action itself (its renderer's `ownsActions`): then no
 * "What you may do" panel repeats its buttons; a refused action is still said. */
function ownsActions(game, view, ctx) {
  try {
    return !!(game && typeof game.ownsActions === "function" && game.ownsActions(view, ctx));
  } catch (error) {
    console.error("the game's ownsActions failed; showing the action panel", error);
    return false;
  }
}

function Board({ view, version, game, ctx }) {
  let content = null;
  try {
    const fn = ctx.table && game && game.renderTable ? game.renderTable : game && game.render;
    content = fn ? fn(view, ctx) : null;
  } catch (error) {
    console.error("the game renderer failed; showing the generic view", error);
  }
  return html`<section class=${"board" + (ctx.table ? " table" : "")} data-testid="board" data-game=${view.game} data-version=${version}>
    ${content || renderGeneric(view, ctx)}
  </section>`;
}

/** The host's choice once a match is over: the same people play again (same game, options and seats, a
 * new seed), or go on to another game in their seats (the room's `next_games`: one that follows this one,
 * a series, or any that seats them); the games that cannot seat them are listed greyed, with why. */
function NextMatch({ room, hostToken, onError }) {
  const [busy, setBusy] = useState(false);
  const go = async (game) => {
    setBusy(true);
    try {
      await api.nextMatch(room.code, hostToken, game);
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };
  const others = (room.next_games || []).filter((g) => g.id !== room.game);
  const refused = room.next_refused || [];
  return html`<button type="button" disabled=${busy} onClick=${() => go(null)} data-testid="play-again">${t("play_again")}</button>
    ${others.length || refused.length ? html`<span class="next-picker" role="group" aria-label=${t("next_same_people")} data-testid="next-picker">
      <span class="muted">${t("next_same_people")}:</span>
      ${others.map((g) => html`<button type="button" disabled=${busy} onClick=${() => go(g.id)} data-testid=${`next-${g.id}`}>
        ${t("next_game", tr(g.title) || g.id)}</button>`)}
      ${refused.map((g) => html`<button type="button" disabled=${true} title=${tr(g.why)} data-testid=${`next-refused-${g.id}`}>
        ${tr(g.title) || g.id}<small class="why">${t("next_cannot_seat", tr(g.why))}</small></button>`)}
    </span>` : null}`;
}

/** The bot seats whose kind the series' next game lacks (the Pandemic Game's Cautious in Musical Chairs): said
 * on every screen, not silently renamed (`room.bots_replaced`, docs/server.md). */
function BotsReplaced({ room, ctx }) {
  const replaced = (room && room.bots_replaced) || [];
  if (!replaced.length) return null;
  return html`<ul class="panel notice bots-replaced" data-testid="bots-replaced">
    ${replaced.map((r) => html`<li key=${r.seat} data-seat=${r.seat}>${t("bots_replaced", ctx.shortName(r.seat), tr(r.was.title) || r.was.bot,
      tr(r.was.game), tr(room.title) || room.game, tr(r.now.title) || r.now.bot)}</li>`)}
  </ul>`;
}

/** The version at which the seat's current turn began (null: it is not its turn): a turn continued after
 * the seat's own action (a ticket bought) began earlier. */
function useTurnStart(version, mine) {
  const last = useRef({ version: -1, mine: false, began: null });
  if (version !== last.current.version) {
    const began = !mine ? null : last.current.mine ? last.current.began : version;
    last.current = { version, mine, began };
  }
  return last.current.began;
}

const isPhone = () => typeof window.matchMedia === "function" && window.matchMedia("(max-width: 799px)").matches;

/** Scrolls `el`'s top just under the sticky banner, unless its top is in sight already or the player is
 * typing somewhere else (a chat line, an amount). It waits for the next frame: the screen that brought `el`
 * (the results replacing the buttons) is laid out by then, and a scroll begun before would be undone. */
function bringIntoView(el) {
  if (!el) return;
  requestAnimationFrame(() => {
    const active = document.activeElement;
    if (!el.isConnected || (active && ["INPUT", "TEXTAREA", "SELECT"].includes(active.tagName) && !el.contains(active))) return;
    const banner = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--turn-height")) || 0;
    const top = el.getBoundingClientRect().top;
    if (top >= banner - 1 && top <= window.innerHeight * 0.6) return;
    const still = typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollTo({ top: Math.max(0, window.scrollY + top - banner - 8), behavior: still ? "auto" : "smooth" });
  });
}

export function RoomPage({ code, table, lang, navigate }) {
  const [held, setHeld] = useState(() => loadSeat(code));
  const [problem, setProblem] = useState(null);
  // The room's game's renderer and info (its reveals, labels), for the game they were loaded for: after a
  // series' next game, nothing of the last game's renderer draws the new game's views.
  const [found, setFound] = useState({ id: null, game: null, info: null });
  const token = table ? null : held.token || null;
  const [state, send] = useRoomConnection(code, token);
  const room = state.room;
  const gameId = room && room.game;
  const loaded = !!gameId && found.id === gameId; // the renderer and the game's info have arrived
  const game = loaded ? found.game : null;
  const info = loaded ? found.info : null;

  useEffect(() => {
    if (!gameId) return undefined;
    let current = true;
    // ?generic=1 shows any game with the generic renderer (for checking a new game's view).
    const renderer = new URLSearchParams(location.search).get("generic") === "1" ? Promise.resolve(null) : loadRenderer(gameId);
    const described = api.games().then((games) => games.find((g) => g.id === gameId) || null);
    Promise.allSettled([renderer, described]).then(([r, d]) => {
      if (current) setFound({ id: gameId, game: r.status === "fulfilled" ? r.value : null, info: d.status === "fulfilled" ? d.value : null });
    });
    return () => { current = false; };
  }, [gameId]);

  useEffect(() => {
    // A token the server does not know (another database, a typo'd link): watch instead.
    if (state.fatal && state.fatal.code === "seat/bad_token" && held.token) {
      forgetSeat(code);
      setHeld(loadSeat(code));
    }
  }, [state.fatal]);

  const seat = table ? null : state.seat;
  useFitToScreen(!!table);
  const ctx = makeCtx({ room, seat, lang, table, send, labels: info && info.labels });
  ctx.botTitle = (kind) => (info && info.bot_titles && tr(info.bot_titles[kind])) || null;
  // Everything below shows the update being narrated, never a later one: the board, the buttons, the
  // countdown and the results wait until the stage has told what led to them.
  useEffect(() => widgets.forgetDrawn(), [room ? room.match : null]); // a new match counts its versions from 0 again
  const narration = useNarration(state.updates, { game, ctx, reveals: info && info.reveals, ready: loaded, match: room ? room.match : null });
  const shown = narration.shown;
  const view = shown ? shown.view : null;
  // An action of ours was confirmed in a version not shown yet: its buttons stay locked until then, and it is
  // no longer our turn.
  const confirming = shown != null && shown.version < state.ackedVersion;
  // While the stage tells events that change the seat's situation (a race after "Done betting", the doubt of
  // the inspector the table waited for), the banner says what is happening and the buttons wait for them.
  const chapters = (info && info.reveals && info.reveals.chapters) || [];
  const revealing = changesSituation({ shown, head: narration.head, seat, acted: confirming, chapters });
  const reveal = revealing ? happening(narration.current.event, view, game, { ...ctx, seatName: ctx.shortName }) : null;
  ctx.told = narration.told; // a board may show what the stage has told of the next update (a card just played)
  const over = !!view && view.is_over;
  const began = useTurnStart(shown ? shown.version : -1, !!view && !over && seat != null && view.turns.includes(seat));
  const fresh = began !== null && shown != null && began === shown.version;
  // On a phone, where the action is comes into view: the stage when a reveal begins, the buttons when a turn
  // does; and the results at the end, on any screen.
  useEffect(() => {
    if (revealing && !table && isPhone()) bringIntoView(document.querySelector("[data-testid=stage]"));
  }, [revealing]);
  useEffect(() => {
    if (fresh && !revealing && !table && isPhone()) {
      bringIntoView(document.querySelector(".actions") || document.querySelector(".board [data-action]:not([disabled])"));
    }
  }, [began]);
  useEffect(() => {
    if (over) bringIntoView(document.querySelector("[data-testid=results]"));
  }, [over]);
  useEffect(() => {
    window.partygames = { ...(window.partygames || {}), act: (action) => send({ type: "action", action }), state,
      narration: { version: shown ? shown.version : -1, remaining: narration.remaining + (narration.current ? 1 : 0), revealing } };
  });

  if (state.fatal && state.fatal.code === "room/not_found") {
    return html`<main class="page"><div class="panel error" role="alert">${tr(state.fatal)}</div>
      <a href="/" onClick=${(e) => { e.preventDefault(); navigate("/"); }}>${t("back_to_lobby")}</a></main>`;
  }
  const deadline = shown && !view.is_over ? shown.deadline : null;
  // The time limit the banner counts down, for a board that shows the same clock (the Quiz's "Memorise!").
  ctx.deadline = deadline;
  const status = room ? room.status : null;
  const title = room ? tr(room.title) || room.game : code;
  const result = view && view.is_over ? view.result || (room && room.result) : null;
  const connection = html`<span class=${"conn " + state.status} data-testid="conn">${state.status === "open" ? t("connected") : state.status === "connecting" ? t("connecting") : t("disconnected")}</span>`;
  return html`<main class=${"page room" + (table ? " table-mode" : "")} data-status=${status || "loading"}>
    ${table ? html`<${TableHeader} room=${room} code=${code} title=${title} status=${connection} />`
      : html`<header class="room-head">
        <a class="back" href="/" onClick=${(e) => { e.preventDefault(); navigate("/"); }}>← ${t("lobby")}</a>
        <h1>${title} <span class="room-code small" data-testid="room-code-head">${code}</span></h1>
        ${connection}
      </header>`}
    ${problem ? html`<div class="panel error" role="alert" onClick=${() => setProblem(null)}>${tr(problem)}</div>` : null}
    <${RoomGroup} code=${code} table=${table} over=${!!(view && view.is_over)} />
    ${!room ? html`<p class="muted">${t("loading")}</p>` : null}
    ${room && status === "open"
      ? html`${info ? html`<details class="panel rules"><summary>${t("how_to_play")}</summary><${Prose} text=${tr(room.summary || info.summary)} lang=${lang} /></details>` : null}
        <${RoomLobby} room=${room} held=${table ? { hostToken: held.hostToken } : held} info=${info} allowJoin=${!table} onJoined=${(h) => { setHeld(h); setProblem(null); }} onError=${setProblem} />`
      : null}
    ${room && status !== "open" && seat == null && !table ? html`<p class="muted spectating">${t("spectating")}</p>` : null}
    ${view
      ? html`
        <${TurnBanner} view=${view} seat=${seat} ctx=${ctx} deadline=${deadline} acted=${confirming} reveal=${reveal} fresh=${fresh} offset=${state.clockOffset} game=${game} />
        ${state.closed ? html`<div class="panel error" role="alert" data-testid="room-closed">${t("room_closed")}</div>` : null}
        ${!view.is_over ? html`<${TablePresence} room=${room} seat=${seat} ctx=${ctx} hostToken=${held.hostToken} info=${info}
          offset=${state.clockOffset} />` : null}
        ${view.is_over ? html`<${Results} result=${result} game=${game} ctx=${ctx} />
          <p class="after-match"><a class="button" href=${`/room/${code}#replay`} data-testid="open-replay"
            onClick=${(e) => { e.preventDefault(); navigate(`/room/${code}#replay`); }}>${t("replay")}</a>
            ${status === "over" && held.hostToken && !table
              ? html`<${NextMatch} room=${room} hostToken=${held.hostToken} onError=${setProblem} />` : null}
            <a class="button secondary" href="/" data-testid="back-to-lobby"
              onClick=${(e) => { e.preventDefault(); navigate("/"); }}>${t("back_to_lobby")}</a></p>
          <${Ledger} room=${room} seat=${seat} table=${table} />` : null}
        <${BotsReplaced} room=${room} ctx=${ctx} />
        <div class="room-grid" key=${`${room.match}:${gameId}`}>
          <${Stage} narration=${narration} game=${game} ctx=${ctx} big=${table} />
          ${seat != null && !view.is_over && !state.closed && !ownsActions(game, view, ctx) && (view.legal_actions.length || state.error)
            ? html`<${ActionPanel} game=${game} view=${view} ctx=${ctx} specs=${view.legal_actions} busy=${state.pending != null || confirming || revealing}
                error=${state.error ? tr(state.error) : null} onAct=${(action) => send({ type: "action", action })} />`
            : state.error && !table ? html`<div class="refused" role="alert">${t("refused", tr(state.error))}</div>` : null}
          <${Board} view=${view} version=${shown.version} game=${game} ctx=${ctx} />
          ${table ? null : html`<${Chat} messages=${state.chat} channels=${state.channels} game=${game} onSend=${send} disabled=${state.status !== "open"}
            deadline=${deadline} ctx=${ctx} direct=${!!(info && info.chat_direct)} />`}
          <${EventLog} events=${state.events} narrated=${narration.narrated} game=${game} ctx=${ctx} />
          ${info && !table ? html`<details class="panel rules"><summary>${t("how_to_play")}</summary><${Prose} text=${tr(room.summary || info.summary)} lang=${lang} /></details>` : null}
        </div>`
      : room && status === "open" && !table
        ? html`<${Chat} messages=${state.chat} channels=${state.channels} game=${game} onSend=${send} disabled=${state.status !== "open"}
            ctx=${ctx} direct=${!!(info && info.chat_direct)} />`
        : null}
  </main>`;
}
