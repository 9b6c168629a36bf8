// Who sits where, as people read it: each seat's name (a bot gets a name of its own and its kind,
// "Bot Aoi (heuristic)") and colour, the same on the seats, in the feed and in the results.
import { html } from "./lib.js";
import { t, tr } from "./i18n.js";
import { unescapeHtml } from "./text.js";

// One name per bot of a room, in the order of its bot seats (30: the most seats a game has).
const BOT_NAMES = [
  ["Aoi", "アオイ"], ["Ben", "ベン"], ["Chika", "チカ"], ["Daichi", "ダイチ"], ["Emi", "エミ"], ["Fuyu", "フユ"],
  ["Gin", "ギン"], ["Hana", "ハナ"], ["Ichiro", "イチロー"], ["Jun", "ジュン"], ["Kaito", "カイト"], ["Luna", "ルナ"],
  ["Mio", "ミオ"], ["Nagi", "ナギ"], ["Oto", "オト"], ["Riku", "リク"], ["Sora", "ソラ"], ["Taku", "タク"],
  ["Umi", "ウミ"], ["Yui", "ユイ"], ["Zen", "ゼン"], ["Haru", "ハル"], ["Kana", "カナ"], ["Masa", "マサ"],
  ["Noa", "ノア"], ["Rei", "レイ"], ["Saki", "サキ"], ["Toma", "トウマ"], ["Yuki", "ユキ"], ["Kou", "コウ"],
];

/** The seat's colour: hues a golden angle apart, so neighbours differ and 30 seats stay distinct. */
export function seatColour(seat) {
  return `hsl(${Math.round((seat * 137.508 + 12) % 360)} 62% 42%)`;
}

/** A bot seat's name in the current language: "Bot Aoi (heuristic)". */
export function botName(seats, seat, lang) {
  const ordinal = seats.slice(0, seat).filter((s) => s.kind === "bot").length;
  const [en, ja] = BOT_NAMES[ordinal % BOT_NAMES.length];
  const kind = seats[seat].bot_title ? tr(seats[seat].bot_title) : seats[seat].bot || "";
  return t("bot_named", lang === "ja" ? ja : en, kind);
}

/** A bot seat's short name, for the sticky banner: "Bot Aoi" (its kind is on the seat list and the boards). */
export function botShortName(seats, seat, lang) {
  const ordinal = seats.slice(0, seat).filter((s) => s.kind === "bot").length;
  const [en, ja] = BOT_NAMES[ordinal % BOT_NAMES.length];
  return t("bot_short", lang === "ja" ? ja : en);
}

/** A seat's name without a bot's kind: "Bot Aoi", a player's name, or "Seat 3". */
export function shortSeatName(seats, seat, lang) {
  const s = seats[seat];
  return s && s.kind === "bot" ? botShortName(seats, seat, lang) : seatName(seats, seat, lang);
}

/** The name of seat `seat` of a room's `seats` (room JSON): a bot's, a player's, or "Seat 3". */
export function seatName(seats, seat, lang) {
  const s = seats[seat];
  if (s && s.kind === "bot") return botName(seats, seat, lang);
  return s && s.name ? unescapeHtml(s.name) : t("seat_n", seat + 1);
}

/** A seat's colour mark, shown before its name. */
export function SeatDot({ seat }) {
  return html`<span class="seat-dot" style=${`background:${seatColour(seat)}`} aria-hidden="true"></span>`;
}

/** `text` with every seat name in it marked in the seat's colour (a feed sentence names players as
 * plain text, so the names are found again here; longer names first, so "Bot Aoi" wins over "Aoi"). */
export function paintNames(text, names) {
  if (typeof text !== "string" || !names.length) return text;
  const order = names.map((name, seat) => ({ name, seat })).filter((n) => n.name).sort((a, b) => b.name.length - a.name.length);
  const parts = [];
  let rest = text;
  while (rest) {
    let best = null;
    for (const n of order) {
      const at = rest.indexOf(n.name);
      if (at >= 0 && (best === null || at < best.at)) best = { ...n, at };
    }
    if (!best) break;
    if (best.at) parts.push(rest.slice(0, best.at));
    parts.push(html`<span class="seat-ref" style=${`--seat:${seatColour(best.seat)}`}>${best.name}</span>`);
    rest = rest.slice(best.at + best.name.length);
  }
  if (!parts.length) return text;
  if (rest) parts.push(rest);
  return parts;
}
