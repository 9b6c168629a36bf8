// The big screen's header (?table=1): the game, the room code in large type, and the QR code of the
// join link (drawn by the server, so no network is needed) for phones around the table to scan.
import { html } from "./lib.js";
import { t } from "./i18n.js";

export function TableHeader({ room, code, title, status }) {
  const link = (room && room.link) || `${location.origin}/room/${code}`;
  const joining = room && room.status === "open";
  return html`<header class="table-head" data-testid="table-head">
    <div class="table-title">
      <div class="table-names"><h1>${title}</h1>
      <div class="table-code"><span class="muted">${t("room_code")}</span> <strong class="room-code" data-testid="room-code-head">${code}</strong></div></div>
      <div class="table-link muted">${joining ? t("scan_to_join") : t("scan_to_watch")} <span class="link-text">${link}</span></div>
      ${status}
    </div>
    <img class="table-qr" src=${`/api/rooms/${encodeURIComponent(code)}/qr.svg`} alt=${t("qr_alt", link)} data-testid="join-qr" width="160" height="160" />
  </header>`;
}
