// Who is at the table during a match (issue #23): each person online, away (their page hidden) or offline
// since when, a seat a bot plays while its person is away (a stand-in), and the host's one tap to hand a
// leaver's seat to a bot or take it back. Everything comes from the room's seats (docs/protocol.md):
// `presence` {state, since}, `standin` {bot, title} and `timed_out`; the room's `standin_after`.
import { html, useState, useEffect } from "./lib.js";
import { t, tr } from "./i18n.js";
import { api } from "./api.js";
import { seatColour } from "./seats.js";

/** The server's time now, in epoch seconds (`offset`: the server's clock minus ours, from `pong` and
 * deadlines), re-rendering every second while `ticking`: an offline time that counts up. */
export function useServerNow(ticking, offset = 0) {
  const [now, setNow] = useState(() => Date.now() / 1000 + offset);
  useEffect(() => {
    if (!ticking) return undefined;
    setNow(Date.now() / 1000 + offset);
    const timer = setInterval(() => setNow(Date.now() / 1000 + offset), 1000);
    return () => clearInterval(timer);
  }, [ticking, offset]);
  return ticking ? now : Date.now() / 1000 + offset;
}

/** A duration as a clock: "1:23", "1:02:03" from an hour on. */
export function clock(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** A seat's presence: a person's as the server says, a bot's always online. */
export function presenceOf(seatInfo) {
  if (!seatInfo || seatInfo.kind !== "human") return { state: "online", since: null };
  return seatInfo.presence || { state: seatInfo.connected === false ? "offline" : "online", since: null };
}

/** Whether a seat's person is not at the table now (away or offline). */
export const isAbsent = (seatInfo) => presenceOf(seatInfo).state !== "online";

/** A seat's presence in words: "online", "away", "offline 1:23" (since when it is known), "offline". */
export function presenceWords(seatInfo, now) {
  const { state, since } = presenceOf(seatInfo);
  if (state === "offline") return since != null ? t("presence_offline_for", clock(now - since)) : t("presence_offline");
  return t(state === "away" ? "presence_away" : "presence_online");
}

/** `name` with the seat's absence noted, where the table waits for it: "Kenta (offline 1:23)", "Kenta (away)",
 * "Kenta (bot stands in)"; the name alone for a seat whose person is here. */
export function withAbsence(name, seatInfo, now) {
  if (seatInfo && seatInfo.standin) return t("absent_note", name, t("standin_short"));
  return isAbsent(seatInfo) ? t("absent_note", name, presenceWords(seatInfo, now)) : name;
}

/** `name` marked "(offline)" where a seat is offered to pick (an offer, a gift, a vote): no clock there. */
export function pickName(name, seatInfo) {
  return seatInfo && seatInfo.kind === "human" && presenceOf(seatInfo).state === "offline"
    ? t("absent_note", name, t("presence_offline")) : name;
}

/** Whether the host may hand seat `seatInfo` to a bot now (the server's `Room.may_stand_in`): a person's seat
 * with no stand-in whose person is not online and has run out of time in this match, or has been offline the
 * room's `standin_after` seconds (since an unknown time: offline from the start, which the server judges). */
export function mayStandIn(room, seatInfo, now) {
  if (!seatInfo || seatInfo.kind !== "human" || !seatInfo.taken || seatInfo.standin) return false;
  const { state, since } = presenceOf(seatInfo);
  if (state === "online") return false;
  const after = typeof room.standin_after === "number" ? room.standin_after : 60;
  return !!seatInfo.timed_out || (state === "offline" && (since == null || now - since >= after));
}

/** The bot kind that stands in for a leaver: the game's heuristic, else its first kind (as the room does). */
export function standinKind(info) {
  const bots = (info && info.bots) || [];
  return bots.includes("heuristic") ? "heuristic" : bots[0] || "heuristic";
}

// More people than this and those at the table are counted, not listed: only the absent ones get a chip.
const LIST_UP_TO = 6;

/** The people at the table (the human seats), each with their presence, a stand-in and, for the host, the
 * button that hands a leaver's seat to a bot or takes it back. Shown on phones under the banner and on the
 * big screen; hidden where it would only show the reader alone. A big table (Smuggling's 18) lists only
 * the people who are gone or stood in for, and counts the others: "15 online". */
export function TablePresence({ room, seat, ctx, hostToken, info, offset }) {
  const seats = (room && room.seats) || [];
  const people = seats.filter((s) => s.kind === "human" && s.taken);
  const absent = people.some((s) => isAbsent(s));
  const now = useServerNow(absent, offset);
  const [busy, setBusy] = useState(null); // the seat whose stand-in is being asked for
  const [refusal, setRefusal] = useState(null); // the server's refusal of the last tap, said here where it was made
  if (!people.some((s) => s.seat !== seat) || room.status !== "playing") return null;
  const listed = people.length <= LIST_UP_TO ? people : people.filter((s) => isAbsent(s) || s.standin);
  const counted = people.length - listed.length;
  const kind = standinKind(info);
  const kindTitle = tr((info && info.bot_titles && info.bot_titles[kind]) || null) || kind;
  const hand = async (target, botKind) => {
    setBusy(target);
    setRefusal(null);
    try {
      await api.standIn(room.code, hostToken, target, botKind);
    } catch (error) {
      setRefusal(error);
    } finally {
      setBusy(null);
    }
  };
  return html`<section class="presence-strip" data-testid="presence" aria-label=${t("at_table")}>
    <ul>${listed.map((s) => {
      const here = presenceOf(s);
      const name = ctx.shortName(s.seat);
      return html`<li class=${"presence-seat " + here.state + (s.standin ? " stood-in" : "")} data-seat=${s.seat} data-presence=${here.state}>
        <span class="seat-dot" style=${`background:${seatColour(s.seat)}`} aria-hidden="true"></span>
        <span class="presence-name">${name}</span>
        <span class=${"dot " + (here.state === "online" ? "on" : here.state === "away" ? "away" : "off")} aria-hidden="true"></span>
        <span class="presence-state" data-testid=${`presence-${s.seat}`}>${presenceWords(s, now)}</span>
        ${s.timed_out && !s.standin && here.state !== "online" ? html`<span class="badge subtle">${t("ran_out")}</span>` : null}
        ${s.standin ? html`<span class="presence-standin" data-testid=${`standin-${s.seat}`} title=${tr(s.standin.title) || s.standin.bot}>
          ${t("standin_for", ctx.shortName(s.seat))}</span>` : null}
        ${hostToken && s.standin ? html`<button type="button" class="small" disabled=${busy === s.seat} title=${t("take_back_title")}
          onClick=${() => hand(s.seat, null)} data-testid=${`take-back-${s.seat}`}>${t("take_back")}</button>` : null}
        ${hostToken && mayStandIn(room, s, now) ? html`<button type="button" class="small primary" disabled=${busy === s.seat}
          title=${t("hand_to_bot_title", kindTitle)} onClick=${() => hand(s.seat, kind)} data-testid=${`hand-to-bot-${s.seat}`}>${t("hand_to_bot")}</button>` : null}
      </li>`;
    })}${counted ? html`<li class="presence-seat online presence-count" data-testid="presence-count">
      <span class="dot on" aria-hidden="true"></span><span class="presence-state">${t("presence_online_count", counted)}</span></li>` : null}</ul>
    ${refusal ? html`<div class="refused" role="alert" data-testid="standin-refused" onClick=${() => setRefusal(null)}>${t("refused", tr(refusal))}</div>` : null}
  </section>`;
}
