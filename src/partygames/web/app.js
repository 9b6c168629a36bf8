// The client's entry: routing (/ is the lobby, /room/CODE a room, #replay its replay, ?table=1 the
// big-screen view, /me the profile page, /leaderboard/GAME a game's ratings, /g/ID a group, /g/ID/join#TOKEN
// its invite link) and the language switch.
import { html, render, useState, useEffect } from "./lib.js";
import { t, getLang, setLang, onLang } from "./i18n.js";
import { LobbyPage } from "./lobby.js";
import { Icon } from "./icons.js";
import { RoomPage } from "./room.js";
import { ReplayPage } from "./replay.js";
import { ClaimPage, LeaderboardPage, ProfilePage } from "./profile.js";
import { GroupJoinPage, GroupPage } from "./group.js";
import { profileReady } from "./api.js";

function parseRoute() {
  const params = new URLSearchParams(location.search);
  const match = location.pathname.match(/^\/(?:room|r|join)\/([A-Za-z0-9]+)\/?$/);
  const code = match ? match[1].toUpperCase() : params.get("room") ? params.get("room").toUpperCase() : null;
  const table = params.get("table") === "1" || params.get("view") === "table";
  // #replay: the room's latest match; #replay-K: its K-th (an earlier match of the evening)
  const replay = location.hash.match(/^#replay(?:-(\d+))?$/);
  if (code && replay) return { page: "replay", code, match: replay[1] ? Number(replay[1]) : null };
  if (code) return { page: "room", code, table };
  if (location.pathname === "/me") return { page: "profile" };
  if (location.pathname === "/me/claim") return { page: "claim" };
  const board = location.pathname.match(/^\/leaderboard\/([a-z0-9-]+)\/?$/);
  if (board) return { page: "leaderboard", game: board[1] };
  const group = location.pathname.match(/^\/g\/([a-f0-9]+)(\/join)?\/?$/);
  if (group) return { page: group[2] ? "group-join" : "group", group: group[1], table };
  return { page: "lobby", table };
}

function App() {
  const [route, setRoute] = useState(parseRoute());
  const [lang, setLangState] = useState(getLang());
  useEffect(() => onLang(setLangState), []);
  useEffect(() => {
    const again = () => setRoute(parseRoute());
    window.addEventListener("popstate", again);
    window.addEventListener("hashchange", again);
    return () => {
      window.removeEventListener("popstate", again);
      window.removeEventListener("hashchange", again);
    };
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = t("app_title");
    document.body.classList.toggle("table-mode", !!route.table);
    document.documentElement.classList.toggle("table-mode", !!route.table); // rem-sized type grows too
  }, [lang, route]);
  const navigate = (to) => {
    history.pushState(null, "", to);
    setRoute(parseRoute());
    window.scrollTo(0, 0);
  };
  let page;
  if (route.page === "room") page = html`<${RoomPage} key=${route.code + (route.table ? ":t" : "")} code=${route.code} table=${route.table} lang=${lang} navigate=${navigate} />`;
  else if (route.page === "replay") page = html`<${ReplayPage} key=${`${route.code}#${route.match}`} code=${route.code} match=${route.match} lang=${lang} navigate=${navigate} />`;
  else if (route.page === "profile") page = html`<${ProfilePage} navigate=${navigate} />`;
  else if (route.page === "claim") page = html`<${ClaimPage} navigate=${navigate} />`;
  else if (route.page === "leaderboard") page = html`<${LeaderboardPage} key=${route.game} game=${route.game} />`;
  else if (route.page === "group") page = html`<${GroupPage} key=${route.group} id=${route.group} table=${route.table} navigate=${navigate} />`;
  else if (route.page === "group-join") page = html`<${GroupJoinPage} key=${route.group} id=${route.group} navigate=${navigate} />`;
  else page = html`<${LobbyPage} navigate=${navigate} />`;
  const brand = html`<a class="brand" href="/" onClick=${(e) => { e.preventDefault(); navigate("/"); }}><${Icon} name="dice" /> ${t("app_title")}</a>`;
  return html`<div class="app" data-lang=${lang}>
    <nav class="top">
      ${route.page === "lobby" ? html`<h1>${brand}</h1>` : brand /* the lobby's heading; a room's is its game */}
      <a class="profile-link" data-testid="profile-link" href="/me" onClick=${(e) => { e.preventDefault(); navigate("/me"); }}>${t("profile_link")}</a>
      <button class="lang" data-testid="lang" onClick=${() => setLang(lang === "ja" ? "en" : "ja")}>${t("lang_switch")}</button>
    </nav>
    ${page}
  </div>`;
}

// The first visit makes the profile; a browser opening a transfer link takes that profile instead.
if (location.pathname !== "/me/claim") profileReady();
render(html`<${App} />`, document.getElementById("app"));
