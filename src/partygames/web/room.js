// The room screen: its lobby while open (seats, join, host controls), then the match (whose turn,
// what you may do, countdown, what just happened, chat), then the results and the replay.
import { html, useState, useEffect } from "./lib.js";
import { t, tr, getLang } from "./i18n.js";
import { api, loadSeat, saveSeat, forgetSeat, savedName, saveName, loadRenderer } from "./api.js";
import { useRoomConnection } from "./connection.js";
import { ActionPanel } from "./actions.js";
import { renderGeneric } from "./generic.js";
import { Stage, EventLog, useNarration } from "./events.js";
import { Chat } from "./chat.js";
import { Results } from "./results.js";
import { TableHeader } from "./table.js";
import { unescapeHtml } from "./text.js";
import * as widgets from "./widgets.js";
import { Icon } from "./icons.js";
import { seatName as nameOf, paintNames, seatColour, SeatDot } from "./seats.js";
import { yen } from "./money.js";
import { copyOrSelect } from "./copy.js";
import { Prose } from "./prose.js";

/** Everything a game renderer gets besides the view (see web/README.md). `labels` is the game's label
 * catalog from its info (`/api/games`); `label(table, key)` reads it, null for a key it lacks. */
export function makeCtx({ room, seat, lang, table, send, markYou = true, labels = null }) {
  const seats = (room && room.seats) || [];
  const seatName = (i) => {
    const name = nameOf(seats, i, lang);
    return markYou && i === seat ? `${name} (${t("you")})` : name;
  };
  const label = (name, key) => {
    const text = labels && labels[name] ? labels[name][key] : null;
    return text ? text[lang === "ja" ? "ja" : "en"] : null;
  };
  // A sentence with the seats' names in their colours (the feed, the results).
  const paint = (text) => paintNames(text, seats.map((_, i) => seatName(i)));
  return { html, lang, t, tr, seat, seatName, paint, label, widgets, Icon, SeatDot, table: !!table,
    options: (room && room.options) || {}, room, send,
    // Amounts of yen in the one format of the client (money.js), and what the results' scores count.
    yen: (n, options = {}) => yen(n, options.lang || lang, options), scoreUnit: (labels && labels.score_unit) || null };
}

function SeatList({ room, mySeat, canJoin, onJoinSeat }) {
  const lang = getLang();
  return html`<ul class="seat-list" data-testid="seats">
    ${room.seats.map((s) => html`<li class=${"seat-row" + (s.seat === mySeat ? " me" : "")} data-seat=${s.seat}>
      <span class="seat-no" style=${`background:${seatColour(s.seat)}`}>${s.seat + 1}</span>
      <span class="seat-name">${s.kind === "bot" ? html`<${Icon} name="bot" /> ${nameOf(room.seats, s.seat, lang)}` : s.taken ? unescapeHtml(s.name) : html`<span class="muted">${t("empty_seat")}</span>`}
        ${s.seat === mySeat ? html` <span class="badge">${t("you")}</span>` : null}
        ${s.seat === room.host_seat ? html` <span class="badge subtle">${t("host")}</span>` : null}</span>
      ${s.kind === "human" && s.taken ? html`<span class=${"dot " + (s.connected ? "on" : "off")} title=${s.connected ? t("connected") : t("disconnected")}></span>` : null}
      ${canJoin && s.kind === "human" && !s.taken ? html`<button class="small" onClick=${() => onJoinSeat(s.seat)}>${t("take_seat")}</button>` : null}
    </li>`)}
  </ul>`;
}

function ShareBox({ room }) {
  const [copied, setCopied] = useState(null); // null, "copied", or "by_hand": selected, press Ctrl+C
  const link = room.link || `${location.origin}/room/${room.code}`;
  const copy = async (e) => {
    const outcome = await copyOrSelect(link, e.currentTarget.parentElement.querySelector("input"));
    setCopied(outcome);
    if (outcome === "copied") setTimeout(() => setCopied(null), 1500);
  };
  return html`<div class="share">
    <div><span class="muted">${t("room_code")}</span> <strong class="room-code" data-testid="room-code">${room.code}</strong>
      ${room.private ? html` <span class="badge" data-testid="private-badge">${t("private_badge")}</span>` : null}</div>
    <div class="share-link"><span class="muted">${t("share_link")}</span>
      <input readonly value=${link} data-testid="share-link" onFocus=${(e) => e.target.select()} />
      <button class="small" onClick=${copy} data-testid="copy-link">${copied === "copied" ? t("copied") : t("copy")}</button>
      ${copied === "by_hand" ? html`<span class="copy-hint" role="status" data-testid="copy-hint">${t("copy_by_hand")}</span>` : null}
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

function TurnBanner({ view, seat, ctx, deadline, acted = false }) {
  // `acted`: our action is confirmed in a version the stage has not reached yet; it is no longer our turn.
  const kind = view && !view.is_over ? bannerKind(view, seat, acted) : null;
  const mine = kind === "turn";
  useEffect(() => {
    // A phone in a pocket or a tab in the background: say it is your turn.
    document.title = mine ? `▶ ${t("your_turn")} · ${t("app_title")}` : t("app_title");
    if (mine && navigator.vibrate) navigator.vibrate(60);
  }, [mine]);
  if (!view) return null;
  if (view.is_over) return html`<div class="turn over" data-testid="turn" ref=${measureBanner}>${t("match_over")}</div>`;
  // Your turn, or whom the table waits for: never both (others acting at once is not your concern).
  const others = view.turns.filter((s) => s !== seat).map((s) => ctx.seatName(s));
  const waiting = others.length ? t("waiting_for", others.join(", ")) : "";
  // An optional action is named by the seat's first legal action (a game lists the optional one first).
  const first = kind === "optional" && view.legal_actions.length ? view.legal_actions[0].type : null;
  const may = first ? t("may_act", ctx.label("actions", first) || first.replaceAll("_", " ")) : "";
  // Nobody awaited (a race running on its own, a reveal): the phase says what the countdown is for.
  const phase = view.phase ? ctx.label("phases", view.phase) || "" : "";
  const text = mine ? t("your_turn")
    : kind === "live" ? t(seat != null && view.to_act.includes(seat) ? "live_you" : "live")
    : [may, waiting].filter(Boolean).join(" · ") || phase;
  return html`<div class=${"turn " + (mine ? "mine" : kind)} data-testid="turn" data-kind=${kind} ref=${measureBanner}>
    <span>${text}</span>
    <${widgets.Countdown} deadline=${deadline} />
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
 * new seed), or play a game that follows this one (the room's `next_games`, a series). */
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
  return html`<button type="button" disabled=${busy} onClick=${() => go(null)} data-testid="play-again">${t("play_again")}</button>
    ${others.map((g) => html`<button type="button" disabled=${busy} onClick=${() => go(g.id)} data-testid=${`next-${g.id}`}>
      ${t("next_game", tr(g.title) || g.id)}</button>`)}`;
}

export function RoomPage({ code, table, lang, navigate }) {
  const [held, setHeld] = useState(() => loadSeat(code));
  const [problem, setProblem] = useState(null);
  const [game, setGame] = useState(null);
  const [info, setInfo] = useState(null);
  const [loaded, setLoaded] = useState(false); // the renderer and the game's info (its reveals) have arrived
  const token = table ? null : held.token || null;
  const [state, send] = useRoomConnection(code, token);
  const room = state.room;
  const gameId = room && room.game;

  useEffect(() => {
    if (!gameId) return;
    // ?generic=1 shows any game with the generic renderer (for checking a new game's view).
    const renderer = new URLSearchParams(location.search).get("generic") === "1" ? Promise.resolve(null) : loadRenderer(gameId);
    const described = api.games().then((games) => setInfo(games.find((g) => g.id === gameId) || null));
    Promise.allSettled([renderer.then(setGame), described]).then(() => setLoaded(true));
  }, [gameId]);

  useEffect(() => {
    // A token the server does not know (another database, a typo'd link): watch instead.
    if (state.fatal && state.fatal.code === "seat/bad_token" && held.token) {
      forgetSeat(code);
      setHeld(loadSeat(code));
    }
  }, [state.fatal]);

  const seat = table ? null : state.seat;
  const ctx = makeCtx({ room, seat, lang, table, send, labels: info && info.labels });
  // Everything below shows the update being narrated, never a later one: the board, the buttons, the
  // countdown and the results wait until the stage has told what led to them.
  const narration = useNarration(state.updates, { game, ctx, reveals: info && info.reveals, ready: loaded });
  const shown = narration.shown;
  useEffect(() => {
    window.partygames = { ...(window.partygames || {}), act: (action) => send({ type: "action", action }), state,
      narration: { version: shown ? shown.version : -1, remaining: narration.remaining + (narration.current ? 1 : 0) } };
  });

  if (state.fatal && state.fatal.code === "room/not_found") {
    return html`<main class="page"><div class="panel error" role="alert">${tr(state.fatal)}</div>
      <a href="/" onClick=${(e) => { e.preventDefault(); navigate("/"); }}>${t("back_to_lobby")}</a></main>`;
  }
  const view = shown ? shown.view : null;
  const deadline = shown && !view.is_over ? shown.deadline : null;
  // An action of ours was confirmed in a version not shown yet: its buttons stay locked until then.
  const confirming = shown != null && shown.version < state.ackedVersion;
  // ...and if that action ended our turn (a "done"), the banner stops saying it is our turn.
  const turnDone = confirming && seat != null && !!state.view && !state.view.to_act.includes(seat);
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
    ${!room ? html`<p class="muted">${t("loading")}</p>` : null}
    ${room && status === "open"
      ? html`${info ? html`<details class="panel rules"><summary>${t("how_to_play")}</summary><${Prose} text=${tr(info.summary)} lang=${lang} /></details>` : null}
        <${RoomLobby} room=${room} held=${table ? { hostToken: held.hostToken } : held} info=${info} allowJoin=${!table} onJoined=${(h) => { setHeld(h); setProblem(null); }} onError=${setProblem} />`
      : null}
    ${room && status !== "open" && seat == null && !table ? html`<p class="muted spectating">${t("spectating")}</p>` : null}
    ${view
      ? html`
        <${TurnBanner} view=${view} seat=${seat} ctx=${ctx} deadline=${deadline} acted=${turnDone} />
        ${view.is_over ? html`<${Results} result=${result} game=${game} ctx=${ctx} />
          <p class="after-match"><a class="button" href=${`/room/${code}#replay`} data-testid="open-replay"
            onClick=${(e) => { e.preventDefault(); navigate(`/room/${code}#replay`); }}>${t("replay")}</a>
            ${status === "over" && held.hostToken && !table
              ? html`<${NextMatch} room=${room} hostToken=${held.hostToken} onError=${setProblem} />` : null}
            <a class="button secondary" href="/" data-testid="back-to-lobby"
              onClick=${(e) => { e.preventDefault(); navigate("/"); }}>${t("back_to_lobby")}</a></p>` : null}
        <div class="room-grid">
          <${Stage} narration=${narration} game=${game} ctx=${ctx} big=${table} />
          ${seat != null && !view.is_over && !ownsActions(game, view, ctx) && (view.legal_actions.length || state.error)
            ? html`<${ActionPanel} game=${game} view=${view} ctx=${ctx} specs=${view.legal_actions} busy=${state.pending != null || confirming}
                error=${state.error ? tr(state.error) : null} onAct=${(action) => send({ type: "action", action })} />`
            : state.error && !table ? html`<div class="refused" role="alert">${t("refused", tr(state.error))}</div>` : null}
          <${Board} view=${view} version=${shown.version} game=${game} ctx=${ctx} />
          ${table ? null : html`<${Chat} messages=${state.chat} channels=${state.channels} game=${game} onSend=${send} disabled=${state.status !== "open"}
            deadline=${deadline} ctx=${ctx} direct=${!!(info && info.chat_direct)} />`}
          <${EventLog} events=${state.events} narrated=${narration.narrated} game=${game} ctx=${ctx} />
          ${info && !table ? html`<details class="panel rules"><summary>${t("how_to_play")}</summary><${Prose} text=${tr(info.summary)} lang=${lang} /></details>` : null}
        </div>`
      : room && status === "open" && !table
        ? html`<${Chat} messages=${state.chat} channels=${state.channels} game=${game} onSend=${send} disabled=${state.status !== "open"}
            ctx=${ctx} direct=${!!(info && info.chat_direct)} />`
        : null}
  </main>`;
}
