// Room chat: the channels this connection may post to now (public, a game's team or pair channels,
// and channels that open and close with the match, such as Smuggling's inspection room). The server
// says which (`welcome`, then `channels` frames); a channel named like the current deadline's phase
// closes with it, so its countdown is shown beside it. In games with private messages (`chat_direct` in
// the game's info) a seat may also write to any one other seat, on the channel `dm:<i>:<j>` (i < j).
import { html, useState, useEffect, useRef } from "./lib.js";
import { t, getLang } from "./i18n.js";
import { unescapeHtml } from "./text.js";
import { Countdown } from "./widgets.js";

const DIRECT = /^dm:(\d+):(\d+)$/;

export function directChannel(a, b) {
  return `dm:${Math.min(a, b)}:${Math.max(a, b)}`;
}

function channelName(channel, game, ctx) {
  if (channel === "public") return t("chat_public");
  const pair = DIRECT.exec(channel);
  if (pair && ctx) {
    const [i, j] = [Number(pair[1]), Number(pair[2])];
    return t("chat_private", ctx.seatName(i === ctx.seat ? j : i));
  }
  const custom = game && typeof game.channelLabel === "function" ? game.channelLabel(channel, getLang()) : null;
  return custom || channel;
}

/** The channels this seat may write to: those the server lists, then one per other seat when the room
 * has private messages. */
function postable(channels, direct, ctx) {
  const listed = channels || ["public"];
  if (!direct || !ctx || ctx.seat == null) return listed;
  const count = (ctx.room && ctx.room.seats && ctx.room.seats.length) || 0;
  const others = [...Array(count).keys()].filter((i) => i !== ctx.seat).map((i) => directChannel(ctx.seat, i));
  return [...listed, ...others];
}

export function Chat({ messages, channels, onSend, disabled, game, deadline, ctx = null, direct = false }) {
  const [text, setText] = useState("");
  const [channel, setChannel] = useState("public");
  const list = useRef(null);
  const known = useRef(channels || []);
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [messages.length]);
  useEffect(() => {
    // A channel that has just opened (a private room for this moment) is where the talk is: pick it.
    // One that has closed falls back to everyone.
    const now = channels || ["public"];
    const opened = known.current.length ? now.filter((c) => !known.current.includes(c)) : [];
    known.current = now;
    if (opened.length) setChannel(opened[opened.length - 1]);
    else if (!postable(now, direct, ctx).includes(channel)) setChannel("public");
  }, [(channels || []).join("\n")]);
  const timed = deadline && (channels || []).includes(deadline.phase) ? deadline.phase : null;
  const choices = postable(channels, direct, ctx);
  const submit = (e) => {
    e.preventDefault();
    const body = text.trim();
    if (!body) return;
    onSend({ type: "chat", channel, text: body.slice(0, 300) });
    setText("");
  };
  return html`<section class="panel chat">
    <h2>${t("chat")}</h2>
    ${timed
      ? html`<div class="chat-room" data-testid="chat-room" data-channel=${timed}>
          <strong>${channelName(timed, game, ctx)}</strong> <${Countdown} deadline=${deadline} /></div>`
      : null}
    <ul class="chat-list" ref=${list} data-testid="chat">
      ${messages.map((m) => html`<li key=${m.key} data-channel=${m.channel || "public"}>
        ${m.channel && m.channel !== "public" ? html`<span class="chip static">${channelName(m.channel, game, ctx)}</span> ` : null}
        <strong>${unescapeHtml(m.name ?? m.from ?? "?")}</strong>${m.spectator
          ? html` <span class="chip static chat-spectator" data-testid="chat-spectator">${t("chat_spectator")}</span>`
          : null}: <span class="chat-text">${unescapeHtml(m.text)}</span></li>`)}
    </ul>
    <form class="chat-form" onSubmit=${submit}>
      ${choices.length > 1
        ? html`<select aria-label=${t("channel")} value=${channel} onChange=${(e) => setChannel(e.target.value)} data-testid="chat-channel">
            ${choices.map((c) => html`<option value=${c}>${channelName(c, game, ctx)}</option>`)}</select>`
        : null}
      <input type="text" maxlength="300" placeholder=${t("chat_placeholder")} value=${text} disabled=${disabled}
        onInput=${(e) => setText(e.target.value)} data-testid="chat-input" />
      <button type="submit" disabled=${disabled || !text.trim()}>${t("send")}</button>
    </form>
  </section>`;
}
