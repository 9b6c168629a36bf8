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

const seatHue = (seat) => Math.round((seat * 137.508 + 12) % 360);

/** The seat's colour: hues a golden angle apart, so neighbours differ and 30 seats stay distinct. */
export function seatColour(seat) {
  return `hsl(${seatHue(seat)} 62% 42%)`;
}

/** The relative luminance (WCAG 2) of hsl(h s% l%). */
function luminance(h, s, l) {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const channel = (n) => {
    const k = (n + h / 30) % 12;
    const c = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(8) + 0.0722 * channel(4);
}

/** The seat's colour for a name written in it: its hue, darkened (light theme) or lightened (dark theme)
 * until it reads at 4.5:1 at least on the page's backgrounds (a yellow at the dots' 42% reads at 2.4:1).
 * Luminance at most 0.15 against the light panels and your own row's yellow; at least 0.25 against the
 * dark panels. */
export function seatInk(seat, dark = false) {
  const h = seatHue(seat);
  let l = 42;
  if (dark) while (l < 90 && luminance(h, 62, l) < 0.25) l += 1;
  else while (l > 10 && luminance(h, 62, l) > 0.15) l -= 1;
  return `hsl(${h} 62% ${l}%)`;
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
    parts.push(html`<span class="seat-ref" style=${`--seat:${seatInk(best.seat)};--seat-dark:${seatInk(best.seat, true)}`}>${best.name}</span>`);
    rest = rest.slice(best.at + best.name.length);
  }
  if (!parts.length) return text;
  if (rest) parts.push(rest);
  return parts;
}
