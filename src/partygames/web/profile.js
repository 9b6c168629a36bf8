// The profile page (/me): the person's name and colour or emoji, who sees their matches, their matches with replay
// links, their ratings per game, "Export my data" and "Delete my profile". The profile itself is made by
// the server on the first visit (an HttpOnly cookie the page never sees: api.js `profileReady`).
import { html, useState, useEffect } from "./lib.js";
import { t, tr, getLang } from "./i18n.js";
import { api } from "./api.js";
import { GroupsPanel } from "./group.js";
import { Passkeys } from "./passkey.js";

function gameTitle(games, id) {
  const game = (games || []).find((g) => g.id === id);
  return game ? tr(game.title) : id;
}

function when(seconds) {
  if (!seconds) return "";
  return new Date(seconds * 1000).toLocaleString(getLang() === "ja" ? "ja-JP" : "en-GB",
    { dateStyle: "medium", timeStyle: "short" });
}

function placing(match) {
  if (match.rank == null) return "";
  return match.won ? t("profile_won") : t("profile_rank", match.rank);
}

function otherName(other) {
  if (other.name) return other.name;
  return other.bot ? t("bot", other.bot) : t("seat_n", other.seat);
}

/** A profile's mark beside its name: its emoji, or else a dot of its colour. */
export function Mark({ profile, size = "0.9em" }) {
  if (profile.emoji) return html`<span class="profile-mark" data-testid="profile-mark" aria-hidden="true">${profile.emoji}</span>`;
  if (!profile.colour) return null;
  return html`<span class="profile-mark" data-testid="profile-dot" aria-hidden="true"
    style=${{ background: profile.colour, display: "inline-block", width: size, height: size, borderRadius: "50%" }}></span>`;
}

/** "Use this profile on another device": a link and its QR code that work once, for 10 minutes. */
function MoveDevice() {
  const [made, setMade] = useState(null);
  const [problem, setProblem] = useState(null);
  const make = async () => {
    setProblem(null);
    try {
      setMade(await api.transfer());
    } catch (error) {
      setProblem(error);
    }
  };
  return html`<section class="panel" data-testid="profile-move">
    <h2>${t("profile_move")}</h2>
    <p class="muted small">${t("profile_move_note")}</p>
    <button class="small" onClick=${make} data-testid="profile-move-make">${t("profile_move_make")}</button>
    ${problem ? html`<div class="error" role="alert">${tr(problem)}</div>` : null}
    ${made ? html`<div class="transfer">
      <img class="qr" style=${{ width: "12rem" }} data-testid="profile-move-qr" alt=${t("qr_alt", made.link)}
        src=${"data:image/svg+xml;charset=utf-8," + encodeURIComponent(made.qr_svg)} />
      <input readonly class="share" data-testid="profile-move-link" value=${made.link} onFocus=${(e) => e.target.select()} />
      <p class="muted small">${t("profile_move_expires", Math.round(made.seconds / 60))}</p>
    </div>` : null}
  </section>`;
}

/** /me/claim#TOKEN: this browser becomes a device of the profile the link was made for. */
export function ClaimPage({ navigate }) {
  const [problem, setProblem] = useState(null);
  useEffect(() => {
    const token = location.hash.slice(1);
    history.replaceState(null, "", "/me/claim"); // the token leaves the address bar and the history
    api.claim(token).then(() => navigate("/me")).catch(setProblem);
  }, []);
  return html`<main class="page profile" data-testid="claim">
    ${problem ? html`<div class="panel error" role="alert" data-testid="claim-error">${tr(problem)}</div>`
      : html`<section class="panel"><p>${t("profile_claiming")}</p></section>`}
  </main>`;
}

export function ProfilePage({ navigate }) {
  const [data, setData] = useState(null);
  const [games, setGames] = useState(null);
  const [problem, setProblem] = useState(null);
  const [saved, setSaved] = useState(false);
  const [form, setForm] = useState({ name: "", colour: "#4363d8", emoji: "", visibility: "members" });
  const [deleted, setDeleted] = useState(false);
  const show = (body) => {
    setData(body);
    setForm({ name: body.profile.name || "", colour: body.profile.colour, emoji: body.profile.emoji || "",
      visibility: body.profile.visibility });
  };
  useEffect(() => {
    api.me().then(show).catch(setProblem);
    api.games().then(setGames).catch(() => setGames([]));
  }, []);
  const save = async (e) => {
    e.preventDefault();
    setProblem(null);
    setSaved(false);
    try {
      const change = { colour: form.colour, emoji: form.emoji, visibility: form.visibility };
      if (form.name.trim()) change.name = form.name;
      show(await api.updateMe(change));
      setSaved(true);
    } catch (error) {
      setProblem(error);
    }
  };
  const more = async () => {
    try {
      const next = await api.morePage(data.more);
      setData({ ...data, matches: [...data.matches, ...(next.matches || [])], more: next.more });
    } catch (error) {
      setProblem(error);
    }
  };
  const remove = async () => {
    if (!window.confirm(t("profile_delete_confirm"))) return;
    try {
      await api.deleteMe();
      setDeleted(true);
      setData(null);
    } catch (error) {
      setProblem(error);
    }
  };
  const open = (e, to) => {
    e.preventDefault();
    navigate(to);
  };
  if (deleted) {
    return html`<main class="page profile" data-testid="profile"><section class="panel">
      <p data-testid="profile-deleted">${t("profile_deleted")}</p></section></main>`;
  }
  return html`<main class="page profile" data-testid="profile">
    ${problem ? html`<div class="panel error" role="alert" data-testid="profile-error">${tr(problem)}</div>` : null}
    ${data ? html`
    <section class="panel">
      <h2><${Mark} profile=${data.profile} /> ${t("profile_title")}</h2>
      <form onSubmit=${save} data-testid="profile-form">
        <label>${t("your_name")} <input data-testid="profile-name" maxlength="24" value=${form.name}
          placeholder=${t("name_placeholder")} onInput=${(e) => setForm({ ...form, name: e.target.value })} /></label>
        <label>${t("profile_colour")} <input type="color" data-testid="profile-colour" value=${form.colour}
          onInput=${(e) => setForm({ ...form, colour: e.target.value })} /></label>
        <label>${t("profile_emoji")} <input data-testid="profile-emoji" size="4" value=${form.emoji}
          placeholder=${t("profile_emoji_placeholder")} onInput=${(e) => setForm({ ...form, emoji: e.target.value })} /></label>
        <label>${t("profile_visibility")} <select data-testid="profile-visibility" value=${form.visibility}
          onChange=${(e) => setForm({ ...form, visibility: e.target.value })}>
          <option value="members">${t("profile_visibility_members")}</option>
          <option value="public">${t("profile_visibility_public")}</option>
        </select></label>
        <button type="submit" data-testid="profile-save">${t("save")}</button>
        ${saved ? html`<span class="muted" data-testid="profile-saved">${t("profile_saved")}</span>` : null}
      </form>
    </section>
    <section class="panel" data-testid="profile-ratings">
      <h2>${t("profile_ratings")}</h2>
      ${data.ratings.length ? html`<table class="ratings">
        <thead><tr><th>${t("game")}</th><th>${t("profile_rating")}</th><th>${t("profile_rated_matches")}</th></tr></thead>
        <tbody>${data.ratings.map((r) => html`<tr data-game=${r.game}>
          <td><a href=${`/leaderboard/${r.game}`} data-testid="rating-leaderboard"
            onClick=${(e) => open(e, `/leaderboard/${r.game}`)}>${gameTitle(games, r.game)}</a></td>
          <td data-testid="rating-value">${r.rating.toFixed(1)}${r.provisional ? html` <span class="muted">${t("profile_provisional")}</span>` : null}</td>
          <td data-testid="rating-matches">${r.matches}</td></tr>`)}</tbody>
      </table>
      <p class="muted small">${t("profile_ratings_note", data.provisional_below)}</p>` : html`<p class="muted">${t("profile_no_ratings")}</p>`}
    </section>
    <section class="panel" data-testid="profile-matches">
      <h2>${t("profile_matches")}</h2>
      ${data.matches && data.matches.length ? html`<ul class="match-history">
        ${data.matches.map((m) => html`<li data-room=${m.room} data-match=${m.match} data-testid="profile-match">
          <strong>${gameTitle(games, m.game)}</strong> <span class="muted">${when(m.date)}</span>
          <span data-testid="profile-placing">${placing(m)}</span>
          <span class="muted">${t("profile_with", "")}${m.others.map((o, i) => html`${i ? ", " : ""}${o.profile ? html`<${Mark} profile=${o} size="0.7em" /> ` : null}${otherName(o)}`)}</span>
          ${m.replay ? html`<a class="button small subtle" data-testid="profile-replay" href=${`/room/${m.room}#replay-${m.match}`}
            onClick=${(e) => open(e, `/room/${m.room}#replay-${m.match}`)}>${t("replay")}</a>` : null}
        </li>`)}
      </ul>` : html`<p class="muted">${t("profile_no_matches")}</p>`}
      ${data.more ? html`<button class="small subtle" onClick=${more} data-testid="profile-more">${t("profile_more_matches")}</button>` : null}
    </section>
    <${GroupsPanel} navigate=${navigate} />
    <${Passkeys} onSignedIn=${show} />
    <${MoveDevice} />
    <section class="panel">
      <a class="button small subtle" href="/api/me/export" download="partygames-profile.json" data-testid="profile-export">${t("profile_export")}</a>
      <button class="small danger" onClick=${remove} data-testid="profile-delete">${t("profile_delete")}</button>
    </section>` : null}
  </main>`;
}

/** /leaderboard/GAME: the game's ratings on this server, best first. */
export function LeaderboardPage({ game }) {
  const [board, setBoard] = useState(null);
  const [games, setGames] = useState(null);
  const [problem, setProblem] = useState(null);
  useEffect(() => {
    api.leaderboard(game).then(setBoard).catch(setProblem);
    api.games().then(setGames).catch(() => setGames([]));
  }, [game]);
  return html`<main class="page leaderboard" data-testid="leaderboard">
    ${problem ? html`<div class="panel error" role="alert">${tr(problem)}</div>` : null}
    ${board ? html`<section class="panel">
      <h2>${t("leaderboard_title", gameTitle(games, game))}</h2>
      ${board.ratings.length ? html`<table class="ratings">
        <thead><tr><th>${t("leaderboard_place")}</th><th>${t("leaderboard_player")}</th><th>${t("profile_rating")}</th><th>${t("profile_rated_matches")}</th></tr></thead>
        <tbody>${board.ratings.map((r) => html`<tr data-profile=${r.profile} data-testid="leaderboard-row">
          <td>${r.place}</td>
          <td><${Mark} profile=${r} size="0.8em" /> ${r.name || "—"}</td>
          <td>${r.rating.toFixed(1)}${r.provisional ? html` <span class="muted">${t("profile_provisional")}</span>` : null}</td>
          <td>${r.matches}</td></tr>`)}</tbody>
      </table>
      <p class="muted small">${t("profile_ratings_note", board.provisional_below)}</p>` : html`<p class="muted">${t("profile_no_ratings")}</p>`}
    </section>` : null}
  </main>`;
}
