// Text helpers: names and chat arrive HTML-escaped from the server (docs/protocol.md), and Preact
// inserts text as text, so they are unescaped once here for display.
const ENTITIES = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'", "&#x2F;": "/" };

export function unescapeHtml(text) {
  if (typeof text !== "string") return text == null ? "" : String(text);
  return text.replace(/&(amp|lt|gt|quot|#x27|#39|#x2F);/g, (entity) => ENTITIES[entity] ?? entity);
}
