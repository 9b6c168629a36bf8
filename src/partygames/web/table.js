// The big screen's header (?table=1): the game, the room code in large type, and the QR code of the
// join link (drawn by the server, so no network is needed) for phones around the table to scan.
import { html, useEffect } from "./lib.js";
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

/** The big screen fits its screen, never scrolls (issue 29: Lucky Nine's bottom row of chests and the Pandemic
 * Game's odds were below the fold at 1920x1080): when the room's grid (board, stage, log) is taller than the
 * room left under the header and the banner, it is zoomed out to fit, down to `FLOOR`; otherwise it is at its
 * own size. Checked whenever the page changes size and twice a second (a board grows as a match goes on). */
const FLOOR = 0.5;
export function fitToScreen(grid) {
  if (!grid || !grid.isConnected) return;
  // Heights not stretched to the page, measured synchronously (nothing is painted between). A zoom changes how
  // the words wrap, so the largest zoom that fits is searched for, only when the current one overflows or
  // leaves much room.
  const zoom = Number(grid.style.zoom) || 1;
  // What the page keeps under the grid: its containers' bottom paddings and borders.
  let below = parseFloat(getComputedStyle(grid).marginBottom) || 0;
  for (let el = grid.parentElement; el && el !== document.documentElement; el = el.parentElement) {
    const style = getComputedStyle(el);
    below += (parseFloat(style.paddingBottom) || 0) + (parseFloat(style.borderBottomWidth) || 0) + (parseFloat(style.marginBottom) || 0);
  }
  grid.style.flex = "none";
  const at = (z) => {
    grid.style.zoom = z < 1 ? String(z) : "";
    const box = grid.getBoundingClientRect();
    return { height: box.height, room: window.innerHeight - box.top - below - 2 };
  };
  const now = at(zoom);
  let best = zoom;
  // Searched once per change of the page or its content (a search is a few layouts, not one a tick).
  const key = `${window.innerWidth}x${window.innerHeight} ${zoom} ${Math.round(now.height)} ${Math.round(now.room)}`;
  if (grid.dataset.fitted !== key && (now.height > now.room || (zoom < 1 && now.height < 0.92 * now.room))) {
    let [low, high] = [FLOOR, 1];
    if (at(1).height <= now.room) low = 1;
    for (let i = 0; i < 7 && high - low > 0.01; i += 1) {
      const mid = (low + high) / 2;
      if (at(mid).height <= now.room) low = mid;
      else high = mid;
    }
    best = Math.floor(low * 100) / 100;
  }
  grid.style.zoom = best < 1 ? String(best) : "";
  if (best !== zoom) {
    const settled = at(best);
    grid.dataset.fitted = `${window.innerWidth}x${window.innerHeight} ${best} ${Math.round(settled.height)} ${Math.round(settled.room)}`;
  } else {
    grid.dataset.fitted = key;
  }
  grid.style.flex = "";
  grid.dataset.zoom = String(best);
}

/** Keeps the table view's grid fitted (`fitToScreen`) while `on`. */
export function useFitToScreen(on) {
  useEffect(() => {
    if (!on) return undefined;
    const fit = () => fitToScreen(document.querySelector(".page.room .room-grid"));
    const timer = setInterval(fit, 500);
    window.addEventListener("resize", fit);
    fit();
    return () => {
      clearInterval(timer);
      window.removeEventListener("resize", fit);
    };
  }, [on]);
}
