// The room's WebSocket as an explicit state machine: connecting -> open -> (closed -> connecting …).
// It reconnects with backoff and asks for what it missed (`sync` since the last version it saw).
import { useEffect, useReducer, useRef } from "./lib.js";

const INITIAL = {
  status: "connecting", // connecting | open | closed | gone
  seat: null, // the seat this connection acts for (null: spectator)
  room: null,
  view: null,
  version: -1,
  deadline: null,
  events: [], // every event this connection has seen, oldest first, each with a `key`
  // The updates received, oldest first (the last ones), each with its view, deadline and events and a
  // growing `seq`: the narrator (events.js) shows them in order, each view once its events are told.
  updates: [],
  ackedVersion: -1, // the version of the last update that confirmed an action of this connection
  chat: [],
  error: null, // the last error for this connection ({code, en, ja, ref})
  pending: null, // client id of the action awaiting an answer
  fatal: null, // an error after which reconnecting is pointless (bad token, no such room)
  closed: false, // the room was closed (`room/closed`): nobody was at the table for a long time
  clockOffset: 0, // the server's clock minus ours, in seconds (from `pong` and deadlines): presence's "offline 1:23"
};

let eventCounter = 0;
let updateCounter = 0;
const KEEP_UPDATES = 300;
// The events kept for the log: a whole match as the server keeps it (its last 1000 versions, a few events each).
const KEEP_EVENTS = 5000;

function withKeys(events, version) {
  return (events || []).map((event) => ({ ...event, version: event.version ?? version, key: ++eventCounter }));
}

/** The room's seats changed hands during the match: a bot took a seat over for its absent person (`standin`
 * set), or the person is back (cleared). The feed says so, as the room's own events (`stood_in`, `came_back`),
 * in an update of their own that changes nothing else: they take their turn after what the stage tells now. */
function withStandins(state, room) {
  if (!room || !state.room || !state.view || !Array.isArray(room.seats)) return state;
  const before = state.room.seats || [];
  const events = [];
  room.seats.forEach((s, i) => {
    const was = before[i] && before[i].standin ? before[i].standin.bot : null;
    const now = s.standin ? s.standin.bot : null;
    if (was === now) return;
    if (now) events.push({ type: "stood_in", data: { seat: i, bot: now } });
    else events.push({ type: "came_back", data: { seat: i } });
  });
  if (!events.length) return state;
  const received = withKeys(events, state.version);
  const last = state.updates.length ? state.updates[state.updates.length - 1] : null;
  const update = { seq: ++updateCounter, version: state.version, view: state.view, deadline: state.deadline, events: received,
    fresh: false, revealEnd: last ? last.revealEnd : null };
  return { ...state, events: [...state.events, ...received].slice(-KEEP_EVENTS), updates: [...state.updates, update].slice(-KEEP_UPDATES) };
}

function reducer(state, msg) {
  switch (msg.type) {
    case "_status":
      return { ...state, status: msg.status, ...(msg.status === "open" ? {} : { pending: null }) };
    case "_pending":
      return { ...state, pending: msg.id, error: null };
    case "_clear_pending":
      return msg.id === state.pending ? { ...state, pending: null } : state;
    case "_clear_error":
      return { ...state, error: null };
    case "welcome": {
      const next = { ...state, seat: msg.seat ?? null, name: msg.name ?? null, room: msg.room ?? state.room,
        channels: msg.channels || ["public"], fatal: null, chat: [], closed: !!(msg.room && msg.room.status === "closed") };
      if (msg.room && state.room && msg.room.match !== state.room.match) {
        // Back after the room's next match began (a reconnect, a takeover): nothing of the last one stays shown.
        return { ...next, view: null, version: -1, deadline: null, events: [], updates: [], ackedVersion: -1, pending: null, error: null };
      }
      return next;
    }
    case "pong":
      return typeof msg.at === "number" ? { ...state, clockOffset: msg.at - Date.now() / 1000 } : state;
    case "room":
      if (msg.room && state.room && msg.room.match !== state.room.match) {
        // The room's next match has begun (play again, or a series): its versions count from 0 again.
        return { ...state, room: msg.room, view: null, version: -1, deadline: null, events: [], updates: [], ackedVersion: -1,
          pending: null, error: null };
      }
      return { ...withStandins(state, msg.room), room: msg.room ?? state.room,
        closed: state.closed || !!(msg.room && msg.room.status === "closed") };
    case "channels":
      // The match opened or closed a channel this connection may post to (docs/protocol.md, Chat).
      return { ...state, channels: msg.channels || ["public"] };
    case "update": {
      const received = withKeys(msg.events, msg.version);
      if (typeof msg.version === "number" && msg.version <= state.version && state.view) {
        // Versions only grow: an older or equal update adds nothing (docs/protocol.md).
        return { ...state, pending: (msg.acks || []).includes(state.pending) ? null : state.pending };
      }
      let deadline = msg.deadline ?? null;
      if (deadline) {
        // Count down from `remaining` at receipt: the two clocks may differ.
        const remaining = typeof deadline.remaining === "number" ? deadline.remaining : null;
        const local = remaining !== null ? Date.now() / 1000 + remaining : deadline.ends_at;
        deadline = { ...deadline, local_ends_at: local };
      }
      // (a deadline's end in both clocks tells how far apart they are, until a pong says it better)
      const clockOffset = deadline && typeof deadline.ends_at === "number" && state.clockOffset === 0
        ? deadline.ends_at - deadline.local_ends_at : state.clockOffset;
      const version = msg.version ?? state.version;
      const view = msg.view ?? state.view;
      // `reveal`: seconds until the server expects these events to have been shown (null: it does not pace).
      const revealEnd = typeof msg.reveal === "number" ? Date.now() + msg.reveal * 1000 : null;
      const update = { seq: ++updateCounter, version, view, deadline, events: received, fresh: !!msg.fresh, revealEnd };
      // A fresh update's events are the match's history: the log keeps only those it did not have.
      const known = msg.fresh ? received.filter((e) => e.version > state.version) : received;
      const acked = (msg.acks || []).length > 0;
      return {
        ...state,
        view,
        version,
        deadline,
        clockOffset,
        events: [...state.events, ...known].slice(-KEEP_EVENTS),
        updates: [...state.updates, update].slice(-KEEP_UPDATES),
        // (never above the current version: a room's next match counts its versions from 0 again)
        ackedVersion: acked ? version : Math.min(state.ackedVersion, version),
        // The sender's confirmation is `acks`; a refusal stays shown until the player acts again.
        pending: (msg.acks || []).includes(state.pending) ? null : state.pending,
        error: acked ? null : state.error,
      };
    }
    case "chat":
      return { ...state, chat: [...state.chat, { ...msg, key: ++eventCounter }].slice(-200) };
    case "error": {
      const fatalCodes = ["seat/bad_token", "room/not_found"]; // what the server sends before closing 4401, 4404
      const fatal = msg.fatal || fatalCodes.includes(msg.code) ? msg : state.fatal;
      return { ...state, error: msg, pending: msg.ref != null && msg.ref === state.pending ? null : state.pending, fatal,
        closed: state.closed || msg.code === "room/closed" };
    }
    default:
      return state;
  }
}

function socketUrl(code, token, since) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams();
  if (token) query.set("token", token);
  if (since >= 0) query.set("since", String(since));
  const text = query.toString();
  return `${scheme}://${location.host}/ws/${encodeURIComponent(code)}${text ? "?" + text : ""}`;
}

/** Connects to a room; returns [state, send]. `send` returns the client id of the message. */
export function useRoomConnection(code, token) {
  const [state, dispatch] = useReducer(reducer, INITIAL);
  const socket = useRef(null);
  const versionRef = useRef(-1);
  const nextId = useRef(1);
  versionRef.current = state.version;

  useEffect(() => {
    let closed = false;
    let attempt = 0;
    let retry = null;
    let lastHeard = Date.now();
    // A phone that sleeps or changes network may lose the socket without a close: ping, and give up
    // on a socket that has been silent too long (the reconnect asks for what was missed).
    const heartbeat = setInterval(() => {
      const ws = socket.current;
      if (!ws || ws.readyState !== WebSocket.OPEN) return;
      if (Date.now() - lastHeard > 45000) ws.close();
      else ws.send(JSON.stringify({ type: "ping" }));
    }, 15000);
    const connect = () => {
      dispatch({ type: "_status", status: "connecting" });
      const ws = new WebSocket(socketUrl(code, token, versionRef.current));
      socket.current = ws;
      ws.onopen = () => {
        attempt = 0;
        lastHeard = Date.now();
        dispatch({ type: "_status", status: "open" });
        // The server counts a new connection as in view: say so if the page is hidden. The first pong sets
        // the clock offset.
        if (document.visibilityState === "hidden") ws.send(JSON.stringify({ type: "presence", away: true }));
        ws.send(JSON.stringify({ type: "ping" }));
      };
      ws.onmessage = (message) => {
        lastHeard = Date.now();
        let data;
        try {
          data = JSON.parse(message.data);
        } catch {
          return;
        }
        if (data && typeof data.type === "string") dispatch(data);
        // The room's match moved to another server process (a takeover): this socket's room is stale. Come
        // back at once; the new welcome and the update since our version show the room as it is.
        if (data && data.type === "error" && data.code === "room/moved" && socket.current === ws) {
          attempt = -1; // (the next try waits the shortest time)
          ws.close();
        }
      };
      ws.onclose = (closeEvent) => {
        if (socket.current === ws) socket.current = null;
        if (closed) return;
        // 4404 (no such room) and 4401 (bad token) mean: do not come back.
        if (closeEvent.code === 4404 || closeEvent.code === 4401) {
          dispatch({ type: "_status", status: "gone" });
          const code = closeEvent.code === 4404 ? "room/not_found" : "seat/bad_token";
          const en = closeEvent.code === 4404 ? "No room with that code." : "Your seat token is not valid for this room.";
          const ja = closeEvent.code === 4404 ? "そのコードのルームはありません。" : "この席のトークンはこのルームでは無効です。";
          dispatch({ type: "error", code, en, ja, fatal: true });
          return;
        }
        dispatch({ type: "_status", status: "closed" });
        attempt += 1;
        retry = setTimeout(connect, Math.min(5000, 250 * 2 ** Math.min(attempt, 5)));
      };
    };
    // A page hidden (another tab, a phone locked) is "away" for the others; shown again, "online".
    const onVisibility = () => {
      const ws = socket.current;
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "presence", away: document.visibilityState === "hidden" }));
    };
    document.addEventListener("visibilitychange", onVisibility);
    connect();
    window.partygames = {
      ...(window.partygames || {}),
      // Test and debugging hooks: send a raw message, drop the connection.
      sendRaw: (obj) => socket.current && socket.current.send(JSON.stringify(obj)),
      drop: () => socket.current && socket.current.close(),
    };
    return () => {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      document.removeEventListener("visibilitychange", onVisibility);
      if (socket.current) socket.current.close();
      socket.current = null;
    };
  }, [code, token]);

  const send = (message) => {
    const id = `c${nextId.current++}`;
    const ws = socket.current;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      dispatch({ type: "error", code: "net/not_connected", en: "Not connected; try again in a moment.", ja: "接続されていません。少し待ってからもう一度どうぞ。", ref: id });
      return id;
    }
    // Only actions carry an id (docs/protocol.md); the server refuses unknown fields on other frames.
    ws.send(JSON.stringify(message.type === "action" ? { ...message, id } : message));
    if (message.type === "action") {
      dispatch({ type: "_pending", id });
      // Never leave the controls locked if an answer goes missing.
      setTimeout(() => dispatch({ type: "_clear_pending", id }), 8000);
    }
    return id;
  };
  return [state, send, dispatch];
}
