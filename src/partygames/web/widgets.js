// Small animated pieces shared by the game renderers (given to them as ctx.widgets): a die that
// rolls before it settles, a card that flips face up, a chest that opens, and a countdown.
import { html, useState, useEffect } from "./lib.js";
import { t } from "./i18n.js";

const reduceMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** A die with `sides` faces showing `value`; when `roll` is set it tumbles through random faces first. */
export function Die({ value, sides = 6, roll = true, duration = 700, label }) {
  const [shown, setShown] = useState(roll && !reduceMotion() ? 1 + Math.floor(Math.random() * sides) : value);
  const [rolling, setRolling] = useState(roll && !reduceMotion());
  useEffect(() => {
    if (!roll || reduceMotion()) {
      setShown(value);
      setRolling(false);
      return undefined;
    }
    setRolling(true);
    const timer = setInterval(() => setShown(1 + Math.floor(Math.random() * sides)), 70);
    const stop = setTimeout(() => {
      clearInterval(timer);
      setShown(value);
      setRolling(false);
    }, duration);
    return () => {
      clearInterval(timer);
      clearTimeout(stop);
    };
  }, [value, sides, roll]);
  return html`<span class=${"die d" + sides + (rolling ? " rolling" : " settled")} data-die=${sides} data-value=${rolling ? "" : value}
    title=${label || `d${sides}`}><span class="die-kind">d${sides}</span><span class="die-face">${shown}</span></span>`;
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣", spades: "♠", hearts: "♥", diamonds: "♦", clubs: "♣" };

/** A card. `face` is the text on it (null: face down); `flip` animates turning it over. */
export function Card({ face, suit, flip = false, small = false, title, tone }) {
  const symbol = suit ? SUITS[suit] || suit : "";
  const red = symbol === "♥" || symbol === "♦" || tone === "red";
  const down = face === null || face === undefined;
  return html`<span class=${"card" + (down ? " down" : " up") + (flip && !reduceMotion() ? " flip" : "") + (red ? " red" : "") + (small ? " small" : "") + (tone ? " tone-" + tone : "")}
    title=${title || ""} data-card=${down ? "" : String(face) + symbol}>
    ${down ? html`<span class="card-back"></span>` : html`<span class="card-face">${face}${symbol ? html`<span class="suit">${symbol}</span>` : null}</span>`}
  </span>`;
}

/** A chest: closed, or open showing what was inside. */
export function Chest({ open, content, animate = true }) {
  return html`<span class=${"chest" + (open ? " open" : " closed") + (open && animate && !reduceMotion() ? " opening" : "")}>
    <span class="chest-lid"></span><span class="chest-body">${open ? html`<span class="chest-content">${content}</span>` : null}</span>
  </span>`;
}

// When each view version was first drawn here, in local seconds: a game clock runs on between updates
// (frames come on change only), so a countdown to a match time counts from then, whenever it is redrawn.
const drawn = new Map();

/** Forgets when versions were drawn: the room's next match (play again, a series) counts from 0 again. */
export function forgetDrawn() {
  drawn.clear();
}

/** The local time (s) at which view `version` was first drawn. */
function drawnAt(version) {
  if (!drawn.has(version)) {
    drawn.set(version, Date.now() / 1000);
    if (drawn.size > 64) drawn.delete(drawn.keys().next().value);
  }
  return drawn.get(version);
}

/** A countdown to match time `until` (ms) in a view of match time `now` (ms), of `version`; `seconds`:
 * the whole span it counts down (the bar's length and a cap), if known. */
export function MatchCountdown({ version, now, until, seconds }) {
  return html`<${Countdown} deadline=${{ local_ends_at: drawnAt(version) + Math.max(0, until - now) / 1000, seconds }} />`;
}

/** Seconds left in the phase, counted down from `local_ends_at` (set when the update arrived, so the
 * two machines' clocks need not agree) and redrawn four times a second. */
export function Countdown({ deadline }) {
  const [, redraw] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => redraw((n) => n + 1), 250);
    return () => clearInterval(timer);
  }, []);
  if (!deadline) return null;
  const endsAt = deadline.local_ends_at ?? deadline.ends_at;
  // Read the clock now rather than keep the last tick's reading: that may predate the update that set
  // this deadline (a 120 s auction once read 121). Never more than the phase's own limit either.
  const raw = Math.max(0, Math.ceil(endsAt - Date.now() / 1000));
  const left = deadline.seconds ? Math.min(deadline.seconds, raw) : raw;
  const total = deadline.seconds || left || 1;
  const urgent = left <= 5;
  return html`<div class=${"countdown" + (urgent ? " urgent" : "")} role="timer" data-testid="countdown" data-left=${left}>
    <span class="countdown-text">${t("time_left", left)}</span>
    <span class="countdown-bar"><span style=${`width:${Math.min(100, (100 * left) / total)}%`}></span></span>
  </div>`;
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** A keydown handler for a group of controls (a row of choices, the chairs on a map): the arrow keys move
 * the focus among the group's `selector` items, Home and End to its first and last; Tab leaves the group,
 * Enter and Space press the item as they always do. In a row (`geometric` false) Left and Right go to the
 * previous and next item in order (a row that wraps reads on to the next line); Up and Down, and every
 * arrow on a map, go to the nearest item that way as drawn. */
export function arrowFocus(event, selector = "button:not([disabled])", geometric = false) {
  const arrow = ARROWS[event.key];
  if ((!arrow && event.key !== "Home" && event.key !== "End") || event.altKey || event.ctrlKey || event.metaKey) return;
  const items = [...event.currentTarget.querySelectorAll(selector)];
  const at = items.indexOf(document.activeElement);
  if (at < 0) return;
  let next = null;
  if (!arrow) next = event.key === "Home" ? items[0] : items[items.length - 1];
  else if (arrow[0] && !geometric) next = items[at + arrow[0]] || null;
  else {
    const centre = (item) => {
      const box = item.getBoundingClientRect();
      return [box.left + box.width / 2, box.top + box.height / 2];
    };
    const [x, y] = centre(items[at]);
    let best = Infinity;
    for (const item of items) {
      const [ix, iy] = centre(item);
      const along = (ix - x) * arrow[0] + (iy - y) * arrow[1]; // how far this way
      const across = Math.abs((ix - x) * arrow[1]) + Math.abs((iy - y) * arrow[0]); // how far off the line
      if (along <= 1) continue;
      const cost = along + 2 * across;
      if (cost < best) [best, next] = [cost, item];
    }
  }
  if (!next) return;
  event.preventDefault(); // no page scroll, no caret move
  next.focus();
}
