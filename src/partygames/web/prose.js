// A game's summary as the page shows it: the small Markdown of `Game.summary` (docs/engine.md: paragraphs,
// `- ` bullets continued on indented lines, `**bold**`, `## ` headings), read as cli/prose.py reads it for
// the terminal. A line broken in the source joins the next with a space between words, and with none
// between Japanese characters (「記録されて」+「います」, not 「記録されて います」); the page then wraps
// Japanese between phrases (CSS `word-break: auto-phrase` under lang="ja").
import { html } from "./lib.js";

const BULLET = /^\s*(?:[-*]\s+|・\s*)/;
const HEADING = /^#{1,3}\s+/;
const WIDE = /[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]/;

/** Lines of one block as one: a space between words, none next to a Japanese character. */
function join(lines) {
  return lines.reduce((text, line) => (WIDE.test(line.charAt(0)) || WIDE.test(text.slice(-1)) ? text + line : `${text} ${line}`));
}

/** The summary's blocks: {kind: "heading" | "bullet" | "paragraph", text}, each one logical line. */
export function blocks(markdown) {
  const found = [];
  let current = [];
  let kind = "paragraph";
  const close = () => {
    if (current.length) found.push({ kind, text: join(current) });
    current = [];
  };
  for (const raw of String(markdown || "").split("\n")) {
    const line = raw.trimEnd();
    if (!line.trim()) {
      close();
      kind = "paragraph";
    } else if (HEADING.test(line)) {
      close();
      found.push({ kind: "heading", text: line.replace(HEADING, "") });
      kind = "paragraph";
    } else if (BULLET.test(line) && !line.startsWith("  ")) {
      close();
      kind = "bullet";
      current.push(line.replace(BULLET, ""));
    } else if (kind === "bullet" && line.startsWith(" ")) {
      current.push(line.trim());
    } else {
      if (kind === "bullet") close();
      kind = "paragraph";
      current.push(line.trim());
    }
  }
  close();
  return found;
}

/** `**bold**` spans as <strong>. */
const styled = (text) => text.split("**").map((part, i) => (i % 2 ? html`<strong>${part}</strong>` : part));

/** The summary as headings, lists and paragraphs, in `lang`. */
export function Prose({ text, lang }) {
  const groups = [];
  for (const block of blocks(text)) {
    const last = groups[groups.length - 1];
    if (block.kind === "bullet" && last && last.kind === "bullet") last.items.push(block.text);
    else groups.push(block.kind === "bullet" ? { kind: "bullet", items: [block.text] } : block);
  }
  return html`<div class="prose" lang=${lang} data-testid="prose">${groups.map((g) => g.kind === "heading"
    ? html`<h4>${styled(g.text)}</h4>`
    : g.kind === "bullet" ? html`<ul>${g.items.map((item) => html`<li>${styled(item)}</li>`)}</ul>` : html`<p>${styled(g.text)}</p>`)}</div>`;
}
