// Groups (server/groups.py, docs/profiles.md): the person's groups and "Make a group" on the profile page, the
// join page of an invite link (/g/ID/join#TOKEN), the group page (/g/ID: members, tonight's scoreboard with
// the points formula, standings across all games), the group picker of the create-room form and a room's group
// name (phones and the big screen, which also shows the evening's scoreboard between matches).
//
// The server stores only a hash of the invite token, so it cannot show a link again: this browser keeps the
// link it made or opened (localStorage) to copy or share it again.
import { html, useState, useEffect } from "./lib.js";
import { t, tr, getLang, extendStrings } from "./i18n.js";
import { api, call, profileReady } from "./api.js";
import { copyOrSelect, canShare } from "./copy.js";

extendStrings({
  groups_title: ["Your groups", "あなたのグループ"],
  groups_none: ["No groups yet. A group keeps standings across games and an evening's scoreboard.",
    "グループはまだありません。グループではゲームをまたいだ成績と、その夜のスコアボードが見られます。"],
  groups_make: ["Make a group", "グループを作る"],
  groups_name: ["Group name", "グループ名"],
  groups_name_placeholder: ["Friday table", "金曜の卓"],
  groups_members_n: ["{0} members", "{0}人"],
  group_invite: ["Invite link", "招待リンク"],
  group_invite_note: ["Anyone with this link can join, until the maker makes a new one.",
    "このリンクを持つ人はだれでも参加できます(作成者が新しいリンクを作るまで)。"],
  group_invite_unknown: ["This device has no invite link of this group: ask the maker, or make a new one.",
    "この端末にはこのグループの招待リンクがありません。作成者に聞くか、新しいリンクを作ってください。"],
  group_invite_renew: ["New invite link", "招待リンクを作り直す"],
  group_invite_renew_confirm: ["Make a new invite link? The old one stops working.", "招待リンクを作り直しますか? 古いリンクは使えなくなります。"],
  group_join_title: ["Join “{0}”", "「{0}」に参加"],
  group_join_members: ["{0} members play in this group.", "このグループには{0}人のメンバーがいます。"],
  group_join: ["Join the group", "グループに参加"],
  group_joining: ["Opening the invite…", "招待を開いています…"],
  group_members: ["Members", "メンバー"],
  group_maker: ["maker", "作成者"],
  group_remove: ["Remove", "外す"],
  group_remove_confirm: ["Remove {0} from the group?", "{0}さんをグループから外しますか?"],
  group_leave: ["Leave the group", "グループを抜ける"],
  group_leave_confirm: ["Leave this group?", "このグループを抜けますか?"],
  group_left: ["You left the group.", "グループを抜けました。"],
  group_new_room: ["New room for this group", "このグループのルームを作る"],
  group_tonight: ["Tonight", "今夜"],
  group_last_evening: ["The last evening ({0})", "前回の夜({0})"],
  group_no_matches: ["No matches yet: make a room for this group and play.", "マッチはまだありません。このグループのルームを作って遊びましょう。"],
  group_scoreboard: ["Scoreboard", "スコアボード"],
  group_total: ["Total", "合計"],
  group_points: ["Points", "得点"],
  group_formula: ["How points are scored", "得点の計算"],
  group_evening_note: ["An evening is the matches with less than {0} hours between them.", "{0}時間以上あかずに続いたマッチが一つの夜です。"],
  group_standings: ["Standings (all games)", "通算成績(全ゲーム)"],
  group_player: ["Player", "プレイヤー"],
  group_matches: ["Matches", "マッチ"],
  group_wins: ["Wins", "勝ち"],
  group_avg_place: ["Avg. place", "平均順位"],
  group_ratings: ["Ratings", "レーティング"],
  group_matches_tonight: ["Tonight's matches", "今夜のマッチ"],
  group_for_room: ["For a group", "グループ"],
  group_for_room_none: ["(none)", "(なし)"],
  group_of_room: ["Group: {0}", "グループ: {0}"],
});

function gameTitle(games, id) {
  const game = (games || []).find((g) => g.id === id);
  return game ? tr(game.title) : id;
}

function time(seconds) {
  return new Date(seconds * 1000).toLocaleTimeString(getLang() === "ja" ? "ja-JP" : "en-GB", { timeStyle: "short" });
}

function day(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(getLang() === "ja" ? "ja-JP" : "en-GB", { dateStyle: "medium" });
}

/** Points as people write them: 1.5 as 1½. */
export function pts(value) {
  if (value == null) return "";
  const whole = Math.floor(value);
  const half = value - whole >= 0.5;
  return whole === 0 && half ? "½" : `${whole}${half ? "½" : ""}`;
}

const groupApi = {
  mine: () => call("GET", "/api/groups"),
  make: (name) => call("POST", "/api/groups", { body: { name } }),
  page: (id) => call("GET", `/api/groups/${encodeURIComponent(id)}`),
  invitation: (id, token) => call("POST", `/api/groups/${encodeURIComponent(id)}/invitation`, { body: { token } }),
  join: (id, token) => call("POST", `/api/groups/${encodeURIComponent(id)}/join`, { body: { token } }),
  renew: (id) => call("POST", `/api/groups/${encodeURIComponent(id)}/invite`, { body: {} }),
  leave: (id) => call("POST", `/api/groups/${encodeURIComponent(id)}/leave`, { body: {} }),
  remove: (id, profile) => call("DELETE", `/api/groups/${encodeURIComponent(id)}/members/${encodeURIComponent(profile)}`),
  ofRoom: (code) => call("GET", `/api/rooms/${encodeURIComponent(code)}/group`),
};

const INVITE = (id) => `pg.group.${id}.invite`;
const keepInvite = (id, link) => localStorage.setItem(INVITE(id), link);
const keptInvite = (id) => localStorage.getItem(INVITE(id));

function Dot({ colour }) {
  return html`<span class="group-dot" style=${{ background: colour || "#888" }}></span>`;
}

/** The profile page's panel: the person's groups and "Make a group". */
export function GroupsPanel({ navigate }) {
  const [groups, setGroups] = useState(null);
  const [name, setName] = useState("");
  const [problem, setProblem] = useState(null);
  useEffect(() => {
    groupApi.mine().then((body) => setGroups(body.groups)).catch(setProblem);
  }, []);
  const open = (e, id) => {
    e.preventDefault();
    navigate(`/g/${id}`);
  };
  const make = async (e) => {
    e.preventDefault();
    setProblem(null);
    try {
      const made = await groupApi.make(name);
      keepInvite(made.group.id, made.invite);
      navigate(`/g/${made.group.id}`);
    } catch (error) {
      setProblem(error);
    }
  };
  return html`<section class="panel" data-testid="groups">
    <h2>${t("groups_title")}</h2>
    ${groups && groups.length ? html`<ul class="group-list">${groups.map((g) => html`<li data-group=${g.id}>
      <a href=${`/g/${g.id}`} onClick=${(e) => open(e, g.id)} data-testid="group-open">${g.name}</a>
      <span class="muted small">${t("groups_members_n", g.members)}</span></li>`)}</ul>`
      : groups ? html`<p class="muted">${t("groups_none")}</p>` : null}
    <form class="group-make" onSubmit=${make}>
      <label>${t("groups_name")} <input data-testid="group-name" maxlength="40" value=${name}
        placeholder=${t("groups_name_placeholder")} onInput=${(e) => setName(e.target.value)} /></label>
      <button type="submit" class="small" data-testid="group-make">${t("groups_make")}</button>
    </form>
    ${problem ? html`<div class="refused" role="alert" data-testid="groups-error">${tr(problem)}</div>` : null}
  </section>`;
}

/** /g/ID/join#TOKEN: the group's name, then Join. */
export function GroupJoinPage({ id, navigate }) {
  const [token] = useState(() => location.hash.slice(1));
  const [group, setGroup] = useState(null);
  const [problem, setProblem] = useState(null);
  useEffect(() => {
    history.replaceState(null, "", `/g/${id}/join`); // the token leaves the address bar and the history
    profileReady().then(() => groupApi.invitation(id, token)).then(setGroup).catch(setProblem);
  }, [id]);
  const join = async () => {
    try {
      await groupApi.join(id, token);
      keepInvite(id, `${location.origin}/g/${id}/join#${token}`);
      navigate(`/g/${id}`);
    } catch (error) {
      setProblem(error);
    }
  };
  return html`<main class="page group" data-testid="group-join">
    ${problem ? html`<div class="panel error" role="alert" data-testid="group-join-error">${tr(problem)}</div>` : null}
    ${group ? html`<section class="panel">
      <h2>${t("group_join_title", group.name)}</h2>
      <p class="muted">${t("group_join_members", group.members)}</p>
      <button class="primary" onClick=${join} data-testid="group-join-button">${t("group_join")}</button>
    </section>` : problem ? null : html`<section class="panel"><p>${t("group_joining")}</p></section>`}
  </main>`;
}

function InviteBox({ id, maker }) {
  const [link, setLink] = useState(() => keptInvite(id));
  const [copied, setCopied] = useState(null);
  const [problem, setProblem] = useState(null);
  const copy = async (e) => {
    const outcome = await copyOrSelect(link, e.currentTarget.parentElement.querySelector("input"));
    setCopied(outcome);
    if (outcome === "copied" || outcome === "shared") setTimeout(() => setCopied(null), 1500);
  };
  const renew = async () => {
    if (link && !window.confirm(t("group_invite_renew_confirm"))) return;
    try {
      const made = await groupApi.renew(id);
      keepInvite(id, made.invite);
      setLink(made.invite);
    } catch (error) {
      setProblem(error);
    }
  };
  return html`<section class="panel invite" data-testid="group-invite">
    <h2>${t("group_invite")}</h2>
    ${link ? html`<div class="share-link">
      <input readonly value=${link} aria-label=${t("group_invite")} data-testid="group-invite-link" onFocus=${(e) => e.target.select()} />
      <button class="small" onClick=${copy} data-testid="group-invite-copy">${copied === "copied" ? t("copied") : canShare() ? t("share") : t("copy")}</button>
      ${copied === "by_hand" || copied === "by_touch" ? html`<span class="copy-hint" role="status">${t(copied === "by_touch" ? "copy_by_touch" : "copy_by_hand")}</span>` : null}
    </div>
    <p class="muted small">${t("group_invite_note")}</p>` : html`<p class="muted small">${t("group_invite_unknown")}</p>`}
    ${maker ? html`<button class="small subtle" onClick=${renew} data-testid="group-invite-renew">${t("group_invite_renew")}</button>` : null}
    ${problem ? html`<div class="refused" role="alert">${tr(problem)}</div>` : null}
  </section>`;
}

/** Tonight's running scoreboard: a column per match (its game and time), the total, most points first. */
export function Scoreboard({ page, games }) {
  const tonight = page.tonight;
  const heading = tonight.current || !tonight.since ? t("group_tonight") : t("group_last_evening", day(tonight.since));
  return html`<section class="panel scoreboard" data-testid="group-scoreboard">
    <h2>${heading}: ${t("group_scoreboard")}</h2>
    ${tonight.matches.length ? html`<div class="table-scroll"><table class="ratings scores">
      <thead><tr><th>${t("group_player")}</th>
        ${tonight.matches.map((m) => html`<th class="num" data-match=${`${m.room}:${m.match}`}>${gameTitle(games, m.game)}<br />
          <span class="muted small">${time(m.started_at)}</span></th>`)}
        <th class="num">${t("group_total")}</th></tr></thead>
      <tbody>${tonight.scoreboard.map((r, i) => html`<tr data-profile=${r.profile} data-testid="scoreboard-row">
        <td><span class="place">${i + 1}</span> <${Dot} colour=${r.colour} /> ${r.name || "—"}</td>
        ${r.by_match.map((p) => html`<td class="num">${p == null ? "–" : pts(p)}</td>`)}
        <td class="num total" data-testid="scoreboard-total">${pts(r.total)}</td></tr>`)}</tbody>
    </table></div>` : html`<p class="muted">${t("group_no_matches")}</p>`}
    <p class="formula" data-testid="group-formula"><strong>${t("group_formula")}:</strong> ${tr(page.formula)}
      <span class="muted"> ${t("group_evening_note", page.evening_gap_hours)}</span></p>
  </section>`;
}

function TonightMatches({ page, games }) {
  const matches = page.tonight.matches;
  if (!matches.length) return null;
  return html`<section class="panel" data-testid="group-tonight">
    <h2>${t("group_matches_tonight")}</h2>
    <ol class="match-history">${[...matches].reverse().map((m) => html`<li data-room=${m.room} data-testid="group-match">
      <strong>${gameTitle(games, m.game)}</strong> <span class="muted">${time(m.started_at)}</span>
      <span class="placings">${m.seats.map((s) => html`<span class="placing">${s.rank}. ${s.name || (s.bot ? t("bot", s.bot) : t("seat_n", s.seat + 1))} <span class="muted">(${pts(s.points)})</span></span>`)}</span>
    </li>`)}</ol>
  </section>`;
}

function Standings({ page, games }) {
  return html`<section class="panel" data-testid="group-standings">
    <h2>${t("group_standings")}</h2>
    <div class="table-scroll"><table class="ratings standings">
      <thead><tr><th>${t("group_player")}</th><th class="num">${t("group_matches")}</th><th class="num">${t("group_wins")}</th>
        <th class="num">${t("group_avg_place")}</th><th class="num">${t("group_points")}</th><th>${t("group_ratings")}</th></tr></thead>
      <tbody>${page.standings.map((r) => html`<tr data-profile=${r.profile} data-testid="standings-row">
        <td><${Dot} colour=${r.colour} /> ${r.name || "—"}</td><td class="num" data-testid="standings-matches">${r.matches}</td>
        <td class="num">${r.wins}</td><td class="num">${r.average_placing == null ? "–" : r.average_placing.toFixed(2)}</td>
        <td class="num" data-testid="standings-points">${pts(r.points)}</td>
        <td class="small">${r.ratings.length ? "" : "–"}${r.ratings.map((x) => html`<span class="rating-chip" data-game=${x.game}>${gameTitle(games, x.game)} ${x.rating.toFixed(1)}${x.provisional ? "*" : ""}</span>`)}</td>
      </tr>`)}</tbody>
    </table></div>
    <p class="muted small">* ${t("profile_provisional")}: ${t("profile_ratings_note", page.provisional_below)}</p>
  </section>`;
}

/** /g/ID: the group's page (members only). On the big screen (?table=1) it refreshes every few seconds. */
export function GroupPage({ id, navigate, table }) {
  const [page, setPage] = useState(null);
  const [games, setGames] = useState(null);
  const [problem, setProblem] = useState(null);
  const [left, setLeft] = useState(false);
  useEffect(() => {
    let stopped = false;
    const load = () => groupApi.page(id).then((body) => { if (!stopped) { setPage(body); setProblem(null); } }).catch(setProblem);
    profileReady().then(load);
    api.games().then(setGames).catch(() => setGames([]));
    const timer = setInterval(load, table ? 5000 : 15000);
    return () => { stopped = true; clearInterval(timer); };
  }, [id]);
  const leave = async () => {
    if (!window.confirm(t("group_leave_confirm"))) return;
    try {
      await groupApi.leave(id);
      setLeft(true);
    } catch (error) {
      setProblem(error);
    }
  };
  const remove = async (member) => {
    if (!window.confirm(t("group_remove_confirm", member.name || "—"))) return;
    try {
      setPage(await groupApi.remove(id, member.profile));
    } catch (error) {
      setProblem(error);
    }
  };
  if (left) return html`<main class="page group"><section class="panel"><p data-testid="group-left">${t("group_left")}</p></section></main>`;
  return html`<main class=${"page group" + (table ? " big" : "")} data-testid="group-page">
    ${problem ? html`<div class="panel error" role="alert" data-testid="group-error">${tr(problem)}</div>` : null}
    ${page ? html`
      <header class="group-head"><h1 data-testid="group-title">${page.group.name}</h1>
        ${table ? null : html`<a class="button small" href=${`/?group=${id}`} data-testid="group-new-room"
          onClick=${(e) => { e.preventDefault(); navigate(`/?group=${id}`); }}>${t("group_new_room")}</a>`}</header>
      <div class="group-grid">
        <div class="group-main">
          <${Scoreboard} page=${page} games=${games} />
          <${TonightMatches} page=${page} games=${games} />
        </div>
        <div class="group-side">
          <${Standings} page=${page} games=${games} />
          <section class="panel" data-testid="group-members"><h2>${t("group_members")}</h2>
            <ul class="group-members">${page.members.map((m) => html`<li data-profile=${m.profile}>
              <${Dot} colour=${m.colour} /> ${m.name || "—"} ${m.maker ? html`<span class="badge">${t("group_maker")}</span>` : null}
              ${page.you.maker && !m.maker && !table ? html`<button class="small subtle" onClick=${() => remove(m)} data-testid="group-remove">${t("group_remove")}</button>` : null}
            </li>`)}</ul></section>
          ${table ? null : html`<${InviteBox} id=${id} maker=${page.you.maker} />
            <p><button class="small danger" onClick=${leave} data-testid="group-leave">${t("group_leave")}</button></p>`}
        </div>
      </div>` : null}
  </main>`;
}

/** The create-room form's choice of group (only shown to a person in a group); `?group=ID` preselects it. */
export function GroupPicker({ value, onChange }) {
  const [groups, setGroups] = useState([]);
  useEffect(() => {
    profileReady().then(() => groupApi.mine()).then((body) => {
      setGroups(body.groups);
      const wanted = new URLSearchParams(location.search).get("group");
      if (wanted && body.groups.some((g) => g.id === wanted)) onChange(wanted);
    }).catch(() => setGroups([]));
  }, []);
  if (!groups.length) return null;
  return html`<label class="option">${t("group_for_room")}
    <select value=${value || ""} onChange=${(e) => onChange(e.target.value || null)} data-testid="create-group">
      <option value="">${t("group_for_room_none")}</option>
      ${groups.map((g) => html`<option value=${g.id}>${g.name}</option>`)}
    </select></label>`;
}

/** A room's group, by its name (phones and the big screen); on the big screen between matches, the
 * evening's scoreboard too (when this screen's profile is a member). */
export function RoomGroup({ code, over, table }) {
  const [group, setGroup] = useState(null);
  const [page, setPage] = useState(null);
  const [games, setGames] = useState(null);
  useEffect(() => {
    groupApi.ofRoom(code).then((body) => setGroup(body.group)).catch(() => setGroup(null));
  }, [code]);
  useEffect(() => {
    if (!group || !table || !over) return;
    profileReady().then(() => groupApi.page(group.id)).then(setPage).catch(() => setPage(null));
    api.games().then(setGames).catch(() => setGames([]));
  }, [group && group.id, table, over]);
  if (!group) return null;
  return html`<div class="room-group" data-testid="room-group">
    <a href=${`/g/${group.id}`} class="badge">${t("group_of_room", group.name)}</a>
    ${table && over && page ? html`<${Scoreboard} page=${page} games=${games} />` : null}
  </div>`;
}
