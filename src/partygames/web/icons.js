// The icons the client shows, drawn as inline SVG so they look the same on every machine (an emoji
// is a tofu box where no emoji font is installed). Game renderers get them as ctx.Icon.
import { html } from "./lib.js";

// 24×24 drawings (functions: a vnode is drawn in one place only); `fill` parts are solid, the rest
// stroked in the text colour.
const SHAPES = {
  dice: () => html`<rect x="3" y="3" width="18" height="18" rx="4" /><circle cx="8" cy="8" r="1.6" class="fill" />
    <circle cx="16" cy="16" r="1.6" class="fill" /><circle cx="12" cy="12" r="1.6" class="fill" />`,
  bot: () => html`<rect x="4" y="8" width="16" height="12" rx="3" /><path d="M12 8V4M9 4h6" />
    <circle cx="9" cy="14" r="1.5" class="fill" /><circle cx="15" cy="14" r="1.5" class="fill" />`,
  crown: () => html`<path d="M3 18h18l-1.5-10-4.5 4-3-6-3 6-4.5-4z" /><path d="M3 21h18" />`,
  trophy: () => html`<path d="M7 4h10v5a5 5 0 0 1-10 0z" /><path d="M7 6H4a3 3 0 0 0 3 4M17 6h3a3 3 0 0 1-3 4M12 14v4M8 20h8" />`,
  first: () => html`<circle cx="12" cy="14" r="6" class="gold" /><path d="M8 3l3 5M16 3l-3 5" /><text x="12" y="17.2" text-anchor="middle">1</text>`,
  second: () => html`<circle cx="12" cy="14" r="6" class="silver" /><path d="M8 3l3 5M16 3l-3 5" /><text x="12" y="17.2" text-anchor="middle">2</text>`,
  diamond: () => html`<path d="M6 4h12l4 6-10 11L2 10z" class="gem" /><path d="M2 10h20M9 4l3 17 3-17" />`,
  gift: () => html`<rect x="3" y="9" width="18" height="12" rx="1" /><path d="M3 13h18M12 9v12M12 9C9 9 6 4 9 4s3 5 3 5 0-5 3-5 0 5-3 5" />`,
  trunk: () => html`<rect x="3" y="8" width="18" height="12" rx="2" /><path d="M9 8V5h6v3M3 13h18" />`,
  search: () => html`<circle cx="10" cy="10" r="6" /><path d="M15 15l6 6" />`,
  timer: () => html`<circle cx="12" cy="13" r="8" /><path d="M12 13V9M10 3h4" />`,
  sparkle: () => html`<path d="M12 3l2 7 7 2-7 2-2 7-2-7-7-2 7-2z" class="fill" />`,
  swords: () => html`<path d="M4 4l12 12M20 4L8 16M14 18l4-4M6 14l4 4M3 21l3-3M21 21l-3-3" />`,
  // The replay's stepper: to the first step, back one, on one, to the last (⏮ ◀ ▶ ⏭ have no glyph in
  // many fonts, the CJK ones included).
  "to-start": () => html`<path d="M6 5v14" /><path d="M19 5.5 8.5 12 19 18.5z" class="fill" />`,
  back: () => html`<path d="M17 5.5 6.5 12 17 18.5z" class="fill" />`,
  forward: () => html`<path d="M7 5.5 17.5 12 7 18.5z" class="fill" />`,
  "to-end": () => html`<path d="M18 5v14" /><path d="M5 5.5 15.5 12 5 18.5z" class="fill" />`,
};

/** An icon by name; `title` makes it read out (otherwise it is decoration next to its words). */
export function Icon({ name, title }) {
  const shape = SHAPES[name];
  if (!shape) return null;
  return html`<svg class=${"icon icon-" + name} viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor"
    stroke-width="2" stroke-linecap="round" stroke-linejoin="round" role=${title ? "img" : null} aria-hidden=${title ? null : "true"}
    data-icon=${name}>${title ? html`<title>${title}</title>` : null}${shape()}</svg>`;
}

/** The names of every icon (a test draws each). */
export const ICONS = Object.keys(SHAPES);
