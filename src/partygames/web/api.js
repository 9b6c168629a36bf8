// HTTP calls to the platform and the seat tokens this browser keeps (localStorage).

export class ApiError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.en || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || `http/${status}`;
    this.en = error.en || `HTTP ${status}`;
    this.ja = error.ja || this.en;
  }
}

export async function call(method, path, { body, headers } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: { ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...(headers || {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError(0, { error: { code: "net/unreachable", en: "Could not reach the server.", ja: "サーバーに接続できません。" } });
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    // FastAPI's own validation errors come as {"detail": [...]}: turn them into the platform's shape.
    if (data && !data.error && data.detail) {
      const detail = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail);
      data = { error: { code: `http/${response.status}`, en: detail, ja: detail } };
    }
    throw new ApiError(response.status, data);
  }
  return data;
}

// The browser's profile: the server makes one on the first visit (an HttpOnly cookie this page never sees).
// Seats taken before it exists would not be tied to it, so creating and joining wait for it; a cookie the
// server does not know (a deleted profile) is cleared by its answer, and the next visit makes a new one.
let profile = null;
export function profileReady() {
  if (!profile) {
    profile = call("GET", "/api/me").catch((error) => (error.status === 401 ? call("GET", "/api/me") : null)).catch(() => null);
  }
  return profile;
}

export const api = {
  me: () => call("GET", "/api/me"),
  updateMe: (body) => call("PATCH", "/api/me", { body }),
  deleteMe: () => call("DELETE", "/api/me"),
  transfer: () => call("POST", "/api/me/transfer", { body: {} }),
  claim: (token) => call("POST", "/api/me/claim", { body: { token } }),
  passkeys: () => call("GET", "/api/me/passkeys"),
  /** A passkey ceremony (`kind`: "register" or "signin"): its options, then the authenticator's answer. */
  passkeyBegin: (kind) => call("POST", `/api/me/passkeys/${kind}/begin`, { body: {} }),
  passkeyFinish: (kind, credential) => call("POST", `/api/me/passkeys/${kind}/finish`, { body: { credential } }),
  passkeyRemove: (id) => call("DELETE", `/api/me/passkeys/${encodeURIComponent(id)}`),
  leaderboard: (game) => call("GET", `/api/leaderboard/${encodeURIComponent(game)}`),
  /** The next page of a profile's matches: the `more` address a profile page gave. */
  morePage: (path) => call("GET", path),
  games: () => call("GET", "/api/games"),
  /** The seat counts the engine allows for these options: {game, options, seat_counts}. */
  seatCounts: (gameId, options) =>
    call("GET", `/api/games/${encodeURIComponent(gameId)}/seat-counts?options=${encodeURIComponent(JSON.stringify(options || {}))}`),
  rooms: () => call("GET", "/api/rooms"),
  room: (code) => call("GET", `/api/rooms/${encodeURIComponent(code)}`),
  createRoom: async (body) => { await profileReady(); return call("POST", "/api/rooms", { body }); },
  join: async (code, body) => { await profileReady(); return call("POST", `/api/rooms/${encodeURIComponent(code)}/join`, { body }); },
  fillBots: (code, hostToken, kind) =>
    call("POST", `/api/rooms/${encodeURIComponent(code)}/fill-bots`, { body: { kind }, headers: { "X-Host-Token": hostToken } }),
  start: (code, hostToken) =>
    call("POST", `/api/rooms/${encodeURIComponent(code)}/start`, { body: {}, headers: { "X-Host-Token": hostToken } }),
  /** Once the match is over: the same people play again (`game` null) or play a game that follows it. */
  nextMatch: (code, hostToken, game) =>
    call("POST", `/api/rooms/${encodeURIComponent(code)}/next`, { body: { game: game || null }, headers: { "X-Host-Token": hostToken } }),
  /** Tournaments a room may be made as (the Liar Game night), a room made as one, and its yen ledger. */
  nights: () => call("GET", "/api/nights"),
  createNight: async (body) => { await profileReady(); return call("POST", "/api/nights", { body }); },
  ledger: (code) => call("GET", `/api/rooms/${encodeURIComponent(code)}/ledger`),
  /** The host hands a leaver's seat to a bot of `kind` while its person is away, or takes it back (`kind` null). */
  standIn: (code, hostToken, seat, kind) =>
    call("POST", `/api/rooms/${encodeURIComponent(code)}/seats/${encodeURIComponent(seat)}/standin`,
      { body: { kind: kind ?? null }, headers: { "X-Host-Token": hostToken } }),
  /** Starts the review of `seat`'s decisions in the finished match (or finds it: a stored review answers at
   * once) and answers its job {job, status, progress, seat, match, review, error}; `reviewStatus` polls it.
   * `auth` holds the tokens this browser has for the room (the seat's, the host's); the profile cookie goes too. */
  startReview: (code, seat, auth, match) =>
    call("POST", `/api/rooms/${encodeURIComponent(code)}/review`, { body: { seat, match: match ?? null }, headers: reviewHeaders(auth) }),
  reviewStatus: (code, seat, auth, match) =>
    call("GET", `/api/rooms/${encodeURIComponent(code)}/review?seat=${encodeURIComponent(seat)}${matchQuery(match, "&")}`,
      { headers: reviewHeaders(auth) }),
  /** The room's matches of the evening, in order: [{number, game, started_at, result}] (result null: being played). */
  matches: (code) => call("GET", `/api/rooms/${encodeURIComponent(code)}/matches`),
  /** The finished match step by step as `seat` saw it (null: the public view). A seat's replay is its own and
   * the host's: `auth` as for a review (the seat's token, the host's; the profile cookie goes too). */
  replay: (code, seat, auth, match) => {
    const query = seat === null || seat === undefined || seat === "" ? "" : `?seat=${encodeURIComponent(seat)}`;
    return call("GET", `/api/rooms/${encodeURIComponent(code)}/replay${query}${matchQuery(match, query ? "&" : "?")}`,
      { headers: reviewHeaders(auth) });
  },
};

/** `match=K` for the room's K-th match (null: its latest), after `joiner` ("?" or "&"). */
export function matchQuery(match, joiner) {
  return match === null || match === undefined ? "" : `${joiner}match=${encodeURIComponent(match)}`;
}

function reviewHeaders(auth) {
  const headers = {};
  if (auth && auth.token) headers["X-Seat-Token"] = auth.token;
  if (auth && auth.hostToken) headers["X-Host-Token"] = auth.hostToken;
  return headers;
}

// -- what this browser holds for each room --------------------------------------------------------
const KEY = (code) => `pg.room.${String(code).toUpperCase()}`;

/** {seat, token, name, hostToken} this browser holds for a room, or {}. */
export function loadSeat(code) {
  try {
    return JSON.parse(localStorage.getItem(KEY(code)) || "{}") || {};
  } catch {
    return {};
  }
}

export function saveSeat(code, patch) {
  const next = { ...loadSeat(code), ...patch };
  localStorage.setItem(KEY(code), JSON.stringify(next));
  return next;
}

/** A room just made (`POST /api/rooms` or `/api/nights`): keeps the host's tokens and seat, then opens it. */
export function enterMadeRoom(answer, name, navigate) {
  saveSeat(answer.code, { hostToken: answer.host_token, seat: answer.seat, token: answer.token, name });
  navigate(`/room/${answer.code}`);
}

export function forgetSeat(code) {
  const held = loadSeat(code);
  delete held.seat;
  delete held.token;
  localStorage.setItem(KEY(code), JSON.stringify(held));
}

export function savedName() {
  return localStorage.getItem("pg.name") || "";
}

export function saveName(name) {
  localStorage.setItem("pg.name", name);
}

/** Loads a game's own renderer module (/games/<id>/view.js); null when the game has none. */
const rendererCache = new Map();
export function loadRenderer(gameId) {
  if (!rendererCache.has(gameId)) {
    rendererCache.set(
      gameId,
      import(`/games/${encodeURIComponent(gameId)}/view.js`).catch((error) => {
        console.info(`no renderer for ${gameId}; using the generic one`, error);
        return null;
      }),
    );
  }
  return rendererCache.get(gameId);
}
