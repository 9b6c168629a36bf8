// Room chat: the channels this connection may use (public, and a game's team or pair channels).
import { html, useState, useEffect, useRef } from "./lib.js";
import { t, getLang } from "./i18n.js";
import { unescapeHtml } from "./text.js";

function channelName(channel, game) {
  if (channel === "public") return t("chat_public");
  const custom = game && typeof game.channelLabel === "function" ? game.channelLabel(channel, getLang()) : null;
  return custom || channel;
}

export function Chat({ messages, channels, onSend, disabled, game }) {
  const [text, setText] = useState("");
  const [channel, setChannel] = useState("public");
  const list = useRef(null);
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [messages.length]);
  const submit = (e) => {
    e.preventDefault();
    const body = text.trim();
    if (!body) return;
    onSend({ type: "chat", channel, text: body.slice(0, 300) });
    setText("");
  };
  return html`<section class="panel chat">
    <h2>${t("chat")}</h2>
    <ul class="chat-list" ref=${list} data-testid="chat">
      ${messages.map((m) => html`<li key=${m.key}>
        ${m.channel && m.channel !== "public" ? html`<span class="chip static">${channelName(m.channel, game)}</span> ` : null}
        <strong>${unescapeHtml(m.name ?? m.from ?? "?")}</strong>: <span class="chat-text">${unescapeHtml(m.text)}</span></li>`)}
    </ul>
    <form class="chat-form" onSubmit=${submit}>
      ${channels && channels.length > 1
        ? html`<select aria-label=${t("channel")} value=${channel} onChange=${(e) => setChannel(e.target.value)}>
            ${channels.map((c) => html`<option value=${c}>${channelName(c, game)}</option>`)}</select>`
        : null}
      <input type="text" maxlength="300" placeholder=${t("chat_placeholder")} value=${text} disabled=${disabled}
        onInput=${(e) => setText(e.target.value)} data-testid="chat-input" />
      <button type="submit" disabled=${disabled || !text.trim()}>${t("send")}</button>
    </form>
  </section>`;
}
