// The lobby: the games, a create-room form (options generated from each game's JSON schema, seats
// human or bot), join by code, and the list of rooms.
import { html, useState, useEffect } from "./lib.js";
import { t, tr, getLang } from "./i18n.js";
import { api, enterMadeRoom, saveSeat, savedName, saveName } from "./api.js";
import { formatValue } from "./generic.js";
import { Prose } from "./prose.js";
import { GroupPicker } from "./group.js";
import { NightCard } from "./night.js";

/** One option's schema with $ref/allOf resolved and `X | None` unwrapped (nullable: true). */
export function resolveField(schema, root) {
  let field = { ...schema };
  const deref = (s) => {
    if (s && s.$ref && root && root.$defs) {
      const name = s.$ref.split("/").pop();
      return { ...root.$defs[name], ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== "$ref")) };
    }
    return s;
  };
  field = deref(field);
  if (Array.isArray(field.allOf) && field.allOf.length === 1) {
    const { allOf, ...rest } = field;
    field = { ...deref(allOf[0]), ...rest };
  }
  if (Array.isArray(field.anyOf)) {
    const branches = field.anyOf.map(deref);
    const real = branches.filter((b) => b.type !== "null");
    const { anyOf, ...rest } = field;
    field = { ...(real[0] || {}), ...rest, nullable: real.length < branches.length };
  }
  return field;
}

function fieldTitle(name, field) {
  const lang = getLang();
  return (lang === "ja" && field.title_ja) || field.title || name;
}

/** A choice's value as the game titles it (`value_titles` in the schema, by the value as a JSON key);
 * any other value as a figure or a word. */
export function valueTitle(field, value) {
  const title = value === null || value === undefined ? null : (field.value_titles || {})[String(value)];
  if (Array.isArray(value) && !value.length) return t("none");
  return title ? tr(title) : formatValue(value);
}

function OptionField({ name, field, value, onChange, root = null }) {
  const title = fieldTitle(name, field);
  const description = getLang() === "ja" ? field.description_ja || field.description : field.description;
  const defaultText = field.default === undefined ? null : html`<span class="muted default">${t("default_is", valueTitle(field, field.default))}</span>`;
  if (field.type === "boolean") {
    // The words beside the box, wrapping there (never onto a line apart from it).
    return html`<label class="option bool"><input type="checkbox" name=${name} checked=${!!value} onChange=${(e) => onChange(e.target.checked)} />
      <span class="bool-text">${title} ${defaultText}${description ? html`<small class="muted">${description}</small>` : null}</span></label>`;
  }
  if (Array.isArray(field.enum)) {
    return html`<label class="option">${title} ${defaultText}
      <select name=${name} value=${JSON.stringify(value)} onChange=${(e) => onChange(JSON.parse(e.target.value))}>
        ${field.enum.map((v) => html`<option value=${JSON.stringify(v)}>${valueTitle(field, v)}</option>`)}
      </select>${description ? html`<small class="muted">${description}</small>` : null}</label>`;
  }
  if (field.type === "array") {
    const items = resolveField(field.items || {}, root);
    if (items.type === "object" && items.properties) {
      return html`<${RowsField} name=${name} title=${title} defaultText=${defaultText} description=${description} value=${value}
        items=${items} root=${root} onChange=${onChange} />`;
    }
    if (["integer", "number", "string"].includes(items.type)) {
      return html`<${ListField} name=${name} title=${title} defaultText=${defaultText} description=${description} value=${value}
        items=${items} nullable=${!!field.nullable} onChange=${onChange} />`;
    }
  }
  if (field.type === "array" || field.type === "object") {
    // Other structured options are edited as JSON; the server checks them.
    return html`<${JsonField} name=${name} title=${title} defaultText=${defaultText} description=${description} value=${value} onChange=${onChange} />`;
  }
  if (field.type === "integer" || field.type === "number") {
    const min = field.minimum ?? (field.exclusiveMinimum !== undefined ? field.exclusiveMinimum + (field.type === "integer" ? 1 : 0) : undefined);
    const max = field.maximum ?? (field.exclusiveMaximum !== undefined ? field.exclusiveMaximum - (field.type === "integer" ? 1 : 0) : undefined);
    const step = field.multipleOf ?? (field.type === "integer" ? 1 : "any");
    return html`<label class="option">${title} ${defaultText}
      <input type="number" name=${name} min=${min} max=${max} step=${step} value=${value ?? ""}
        placeholder=${field.nullable ? "—" : ""}
        onInput=${(e) => onChange(e.target.value === "" ? (field.nullable ? null : undefined) : Number(e.target.value))} />
      ${min !== undefined || max !== undefined ? html`<small class="muted">${t("min_max", min ?? "", max ?? "")}</small>` : null}
      ${description ? html`<small class="muted">${description}</small>` : null}</label>`;
  }
  return html`<label class="option">${title} ${defaultText}
    <input type="text" name=${name} value=${value ?? ""} onInput=${(e) => onChange(e.target.value === "" && field.nullable ? null : e.target.value)} />
    ${description ? html`<small class="muted">${description}</small>` : null}</label>`;
}

/** A list of figures or words as one line, "2, 3, 4" (empty: the default, where the option may be left out). */
function ListField({ name, title, defaultText, description, value, items, nullable, onChange }) {
  const [text, setText] = useState(Array.isArray(value) ? value.join(", ") : "");
  const [bad, setBad] = useState(false);
  const parse = (raw) => {
    const parts = raw.split(/[,、\s]+/).filter(Boolean);
    if (items.type === "string") return parts;
    const figures = parts.map(Number);
    return figures.every((n) => Number.isFinite(n) && (items.type !== "integer" || Number.isInteger(n))) ? figures : null;
  };
  return html`<label class="option">${title} ${defaultText}
    <input type="text" name=${name} class=${bad ? "invalid" : ""} value=${text} inputmode=${items.type === "string" ? "text" : "numeric"}
      placeholder=${nullable ? "—" : ""}
      onInput=${(e) => {
        setText(e.target.value);
        const list = parse(e.target.value);
        setBad(list === null);
        if (list !== null) onChange(!list.length && nullable ? null : list);
      }} />
    <small class="muted">${t("list_hint")}</small>${description ? html`<small class="muted">${description}</small>` : null}</label>`;
}

/** A list of records (Lucky Nine's special prizes): a row of fields each, added and removed by buttons. */
function RowsField({ name, title, defaultText, description, value, items, root, onChange }) {
  const rows = Array.isArray(value) ? value : [];
  const fields = Object.entries(items.properties).map(([key, raw]) => [key, resolveField(raw, root)]);
  const blank = () => Object.fromEntries(fields.map(([key, f]) => [key, f.default !== undefined ? f.default : f.type === "string" ? "" : f.minimum ?? 0]));
  const set = (i, key, v) => onChange(rows.map((row, j) => (j === i ? { ...row, [key]: v } : row)));
  return html`<fieldset class="option rows" data-option=${name}><legend>${title} ${defaultText}</legend>
    ${rows.length ? null : html`<p class="muted">${t("none")}</p>`}
    ${rows.map((row, i) => html`<div class="row-item" data-row=${i}>
      ${fields.map(([key, f]) => html`<label class="option">${fieldTitle(key, f)}
        <input type=${f.type === "integer" || f.type === "number" ? "number" : "text"} name=${`${name}.${i}.${key}`}
          min=${f.minimum} max=${f.maximum} maxlength=${f.maxLength} value=${row[key] ?? ""}
          onInput=${(e) => set(i, key, f.type === "integer" || f.type === "number" ? Number(e.target.value) : e.target.value)} /></label>`)}
      <button type="button" class="small subtle" data-remove=${i} onClick=${() => onChange(rows.filter((_, j) => j !== i))}>${t("remove_item")}</button>
    </div>`)}
    ${rows.length < (items.maxItems ?? Infinity) ? html`<button type="button" class="small" data-add=${name}
      onClick=${() => onChange([...rows, blank()])}>${t("add_item")}</button>` : null}
    ${description ? html`<small class="muted">${description}</small>` : null}</fieldset>`;
}

function JsonField({ name, title, defaultText, description, value, onChange }) {
  const [text, setText] = useState(JSON.stringify(value ?? null));
  const [bad, setBad] = useState(false);
  return html`<label class="option">${title} ${defaultText}
    <textarea name=${name} rows="2" class=${bad ? "invalid" : ""} spellcheck="false" value=${text}
      onInput=${(e) => {
        setText(e.target.value);
        try {
          onChange(JSON.parse(e.target.value));
          setBad(false);
        } catch {
          setBad(true);
        }
      }}></textarea>
    <small class="muted">JSON</small>${description ? html`<small class="muted">${description}</small>` : null}</label>`;
}

/** The seat counts the engine allows for `options`, and for each the match it makes ({seats, options,
 * outline}); asked whenever the options change, so the client holds no rules. */
function useSeatCounts(info, options) {
  const [answer, setAnswer] = useState({ game: null, counts: null, setups: [], problem: null });
  const key = info ? `${info.id} ${JSON.stringify(options)}` : "";
  useEffect(() => {
    if (!info) return undefined;
    let current = true;
    // A short pause, so typing a number asks once, not once per keystroke.
    const timer = setTimeout(() => {
      api.seatCounts(info.id, options)
        .then((data) => current && setAnswer({ game: info.id, counts: data.seat_counts, setups: data.setups || [], problem: null }))
        .catch((error) => current && setAnswer({ game: info.id, counts: null, setups: [], problem: error }));
    }, 120);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key]);
  // While the options change the last answer stays; until the game's first answer (or when the options
  // are invalid) every count the game knows is offered.
  if (!info) return { counts: [], setups: [], problem: null };
  const mine = answer.game === info.id;
  return { counts: (mine && answer.counts) || info.seat_counts, setups: mine ? answer.setups : [], problem: mine ? answer.problem : null };
}

/** The options that follow the seat count (a team size): shown, not asked, and not sent. */
const followsSeats = (schema) => new Set((schema && schema.follows_seats) || []);

function defaultsOf(schema) {
  const values = {};
  const follows = followsSeats(schema);
  for (const [name, raw] of Object.entries((schema && schema.properties) || {})) {
    const field = resolveField(raw, schema);
    if (field.default !== undefined && !follows.has(name)) values[name] = field.default;
  }
  return values;
}

/** The same options, whatever the order of their keys. */
function sameOptions(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

/** The tables the host may start from: the standard one (the game's defaults, an evening's match) and
 * the game's presets (its original rules: `presets` in its info, each {id, title, seats, options, note}).
 * The form's options and seats say which one is chosen; any other change makes it "custom". */
function PresetPicker({ info, options, seatCount, onPick }) {
  const presets = info.presets || [];
  if (!presets.length) return null;
  const defaults = defaultsOf(info.options);
  const chosen = presets.find((p) => p.seats === seatCount && sameOptions(options, { ...defaults, ...p.options }));
  const current = chosen ? chosen.id : sameOptions(options, defaults) ? "" : "custom";
  return html`<label class="option preset">${t("rules_preset")}
    <select value=${current} onChange=${(e) => onPick(presets.find((p) => p.id === e.target.value) || null)} data-testid="create-preset">
      <option value="">${t("preset_standard")}</option>
      ${presets.map((p) => html`<option value=${p.id}>${tr(p.title)}</option>`)}
      ${current === "custom" ? html`<option value="custom" disabled>${t("preset_custom")}</option>` : null}
    </select>
    <small class="muted" data-testid="preset-note">${chosen ? tr(chosen.note) : current === "" ? t("preset_standard_note") : ""}</small></label>`;
}

/** The kind a seat starts as: the host's seat human, every other a bot (a newcomer alone plays at once). */
function defaultKind(info, seat) {
  const bots = info.bots || [];
  if (seat === 0 || !bots.length) return "human";
  return `bot:${bots.includes("heuristic") ? "heuristic" : bots[0]}`;
}

/** What the match will be, before Create: its seats (who plays, how many bots), the game's outline and
 * about how long it takes (the server's estimate from the options, `Options.estimated_seconds`). */
function MatchOutline({ seatKinds, setup }) {
  const bots = seatKinds.filter((k) => k !== "human").length;
  const humans = seatKinds.length - bots;
  return html`<p class="outline" data-testid="match-outline">
    <strong>${bots === 1 ? t("outline_seats_one_bot", seatKinds.length, humans) : t("outline_seats", seatKinds.length, humans, bots)}</strong>
    ${setup && setup.outline ? html` · <span data-testid="match-length">${tr(setup.outline)}</span>` : null}
    ${setup && setup.minutes ? html` · <span data-testid="match-minutes">${aboutMinutes(setup.minutes)}</span>` : null}</p>`;
}

/** A length estimate in words: "about 25 min", "about 5 h 25 min" from 90 minutes on. */
function aboutMinutes(minutes) {
  if (minutes < 90) return t("about_minutes", minutes);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? t("about_hours_minutes", hours, rest) : t("about_hours", hours);
}

/** State that starts again from `initial()` whenever the game changes, in the very render that shows the
 * new game's form (an effect would reset it a moment later, and undo what was typed in between). */
function usePerGame(gameId, initial) {
  const [state, setState] = useState(() => ({ game: gameId, value: initial() }));
  const value = state.game === gameId ? state.value : initial();
  return [value, (next) => setState({ game: gameId, value: next })];
}

function CreateRoom({ games, gameId, setGameId, navigate }) {
  const info = games.find((g) => g.id === gameId) || games[0];
  const game = info ? info.id : null;
  const [options, setOptions] = usePerGame(game, () => defaultsOf(info && info.options));
  const [seatCount, setSeatCount] = usePerGame(game, () => (info ? info.default_seats || info.seat_counts[0] : 2));
  const [kinds, setKinds] = usePerGame(game, () => []);
  // Bumped when a preset fills the form, so that every field shows the values it was given.
  const [revision, setRevision] = useState(0);
  const [name, setName] = useState(savedName());
  const [watchOnly, setWatchOnly] = useState(false);
  const [isPrivate, setPrivate] = useState(false);
  // Bots stand in for leavers: on by default in a public room, off in a private one, until the host chooses.
  const [autoStandin, setAutoStandin] = useState(null);
  const [standinAfter, setStandinAfter] = useState(60);
  const [group, setGroup] = useState(null);
  const standins = autoStandin === null ? !isPrivate : autoStandin;
  const [problem, setProblem] = useState(null);
  const [busy, setBusy] = useState(false);
  // The options start folded on a phone (the defaults are good) and open on a wide screen.
  const [wide] = useState(() => window.innerWidth >= 800);
  // Seat counts may depend on the options (two teams of `team_size`, an entry fee): the server says which.
  const cleaned = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const { counts, setups, problem: countsProblem } = useSeatCounts(info, cleaned);
  useEffect(() => {
    if (counts.length && !counts.includes(seatCount)) setSeatCount(counts[0]);
  }, [counts.join(",")]);
  if (!info) return null;
  const seatKinds = Array.from({ length: seatCount }, (_, i) => kinds[i] || defaultKind(info, i));
  const bots = info.bots || [];
  const follows = followsSeats(info.options);
  const properties = Object.entries((info.options && info.options.properties) || {});
  const setup = setups.find((s) => s.seats === seatCount) || null;
  const pickPreset = (preset) => {
    setOptions({ ...defaultsOf(info.options), ...(preset ? preset.options : {}) });
    setSeatCount(preset ? preset.seats : info.default_seats || info.seat_counts[0]);
    setRevision(revision + 1);
  };
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const trimmed = name.trim();
      if (trimmed) saveName(trimmed);
      const body = { game: info.id, seats: seatCount, options: cleaned, seat_kinds: seatKinds, name: trimmed || undefined,
        private: isPrivate, auto_standin: standins, standin_after: standinAfter };
      if (watchOnly || !seatKinds.includes("human")) body.host_seat = null;
      if (group) body.group = group;
      const answer = await api.createRoom(body);
      enterMadeRoom(answer, trimmed, navigate);
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="panel create" onSubmit=${submit} data-testid="create-room">
    <h2>${t("create_room")}</h2>
    <label class="option">${t("game")}
      <select value=${info.id} onChange=${(e) => setGameId(e.target.value)} data-testid="create-game">
        ${games.map((g) => html`<option value=${g.id}>${g.title.en} / ${g.title.ja}</option>`)}
      </select></label>
    <details class="summary"><summary>${t("summary")}: <span data-testid="create-blurb">${tr(info.blurb)}</span></summary>
      <${Prose} text=${tr(info.summary)} lang=${getLang()} /></details>
    <${PresetPicker} info=${info} options=${cleaned} seatCount=${seatCount} onPick=${pickPreset} />
    ${properties.length
      ? html`<details class="options-box" open=${wide} data-testid="options">
          <summary>${t("options")} (${properties.length})</summary>
          <fieldset class="options">
          ${properties.map(([key, raw]) => follows.has(key)
            ? html`<div class="option follows" data-follows-seats=${key} data-value=${setup ? setup.options[key] : ""}>
                ${fieldTitle(key, resolveField(raw, info.options))}: <strong>${setup ? formatValue(setup.options[key]) : "…"}</strong>
                <small class="muted">${t("follows_seats")}</small></div>`
            : html`<${OptionField} key=${`${info.id} ${key} ${revision}`} name=${key} field=${resolveField(raw, info.options)} root=${info.options}
            value=${options[key]} onChange=${(v) => setOptions({ ...options, [key]: v })} />`)}
        </fieldset></details>`
      : null}
    <fieldset class="seats"><legend>${t("seats")}</legend>
      <label class="option">${t("seats")}
        <select value=${seatCount} onChange=${(e) => setSeatCount(Number(e.target.value))} data-testid="create-seats">
          ${counts.map((n) => html`<option value=${n}>${n}</option>`)}
        </select></label>
      ${countsProblem ? html`<div class="refused" role="alert" data-testid="seat-counts-problem">${tr(countsProblem)}</div>`
        : counts.length ? null : html`<div class="refused" role="alert" data-testid="seat-counts-problem">${t("no_seat_count")}</div>`}
      <ol class="seat-kinds">
        ${seatKinds.map((kind, i) => html`<li><label>${t("seat_n", i + 1)}
          <select value=${kind} data-seat-kind=${i} onChange=${(e) => { const next = [...seatKinds]; next[i] = e.target.value; setKinds(next); }}>
            <option value="human">${t("human")}</option>
            ${bots.map((b) => html`<option value=${`bot:${b}`}>${t("bot", tr((info.bot_titles || {})[b]) || b)}</option>`)}
          </select></label></li>`)}
      </ol>
    </fieldset>
    <${MatchOutline} seatKinds=${seatKinds} setup=${setup} />
    <label class="option">${t("your_name")}
      <input maxlength="24" value=${name} placeholder=${t("name_placeholder")} onInput=${(e) => setName(e.target.value)} data-testid="create-name" /></label>
    <${GroupPicker} value=${group} onChange=${setGroup} />
    <label class="option bool"><input type="checkbox" checked=${watchOnly} onChange=${(e) => setWatchOnly(e.target.checked)} data-testid="watch-only" /> <span class="bool-text">${t("spectate")} (${t("host")})</span></label>
    <label class="option bool"><input type="checkbox" checked=${isPrivate} onChange=${(e) => setPrivate(e.target.checked)} data-testid="private" /> <span class="bool-text">${t("private_room")}</span></label>
    <label class="option bool"><input type="checkbox" checked=${standins} onChange=${(e) => setAutoStandin(e.target.checked)} data-testid="auto-standin" /> <span class="bool-text">${t("auto_standin")}</span></label>
    ${standins ? html`<label class="option">${t("standin_after_label")}
      <input type="number" min="10" max="3600" step="10" value=${standinAfter} data-testid="standin-after"
        onInput=${(e) => { const v = Math.round(Number(e.target.value)); if (v >= 10 && v <= 3600) setStandinAfter(v); }} /></label>` : null}
    ${problem ? html`<div class="refused" role="alert">${tr(problem)}</div>` : null}
    <button type="submit" class="primary big" disabled=${busy} data-testid="create">${t("create")}</button>
  </form>`;
}

function JoinByCode({ navigate }) {
  const [code, setCode] = useState("");
  const [name, setName] = useState(savedName());
  const [problem, setProblem] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    const clean = code.trim().toUpperCase();
    if (!clean) return;
    try {
      const room = await api.room(clean);
      if (room.status === "open" && name.trim()) {
        saveName(name.trim());
        const answer = await api.join(room.code, { name: name.trim() });
        saveSeat(room.code, { seat: answer.seat, token: answer.token, name: name.trim() });
      }
      navigate(`/room/${room.code}`);
    } catch (error) {
      setProblem(error);
    }
  };
  return html`<form class="panel join" onSubmit=${submit}>
    <h2>${t("join_room")}</h2>
    <label class="option">${t("room_code")} <input value=${code} maxlength="12" autocapitalize="characters" onInput=${(e) => setCode(e.target.value)} data-testid="join-code" /></label>
    <label class="option">${t("your_name")} <input value=${name} maxlength="24" placeholder=${t("name_placeholder")} onInput=${(e) => setName(e.target.value)} /></label>
    ${problem ? html`<div class="refused" role="alert">${tr(problem)}</div>` : null}
    <button type="submit" class="primary">${t("join")}</button>
  </form>`;
}

function RoomsList({ games, navigate }) {
  const [rooms, setRooms] = useState(null);
  const load = () => api.rooms().then(setRooms).catch(() => setRooms([]));
  useEffect(() => {
    load();
    const timer = setInterval(load, 5000);
    return () => clearInterval(timer);
  }, []);
  const title = (id) => {
    const g = games.find((x) => x.id === id);
    return g ? tr(g.title) : id;
  };
  return html`<section class="panel rooms" data-testid="rooms">
    <h2>${t("rooms")} <button class="link small" onClick=${load}>${t("refresh")}</button></h2>
    ${rooms === null ? html`<p class="muted">${t("loading")}</p>` : rooms.length === 0 ? html`<p class="muted">${t("no_rooms")}</p>` : null}
    <ul class="room-list">
      ${(rooms || []).map((r) => html`<li data-room=${r.code}>
        <strong class="room-code">${r.code}</strong> ${title(r.game)}
        <span class=${"status " + r.status}>${t("status_" + r.status)}</span>
        <span class="muted">${r.seats_taken}/${r.seats} ${t("players")}</span>
        <span class="row-actions">
          <a class="button small" href=${`/room/${r.code}`} onClick=${(e) => { e.preventDefault(); navigate(`/room/${r.code}`); }}>${r.status === "open" ? t("join") : t("spectate")}</a>
          <a class="button small subtle" href=${`/room/${r.code}?table=1`} onClick=${(e) => { e.preventDefault(); navigate(`/room/${r.code}?table=1`); }}>${t("table_view")}</a>
          ${r.status === "over" ? html`<a class="button small subtle" href=${`/room/${r.code}#replay`} onClick=${(e) => { e.preventDefault(); navigate(`/room/${r.code}#replay`); }}>${t("replay")}</a>` : null}
        </span>
      </li>`)}
    </ul>
  </section>`;
}

function seatRange(counts) {
  const sorted = [...counts].sort((a, b) => a - b);
  const contiguous = sorted.every((n, i) => i === 0 || n === sorted[i - 1] + 1);
  return contiguous && sorted.length > 2 ? `${sorted[0]}–${sorted[sorted.length - 1]}` : sorted.join(", ");
}

export function LobbyPage({ navigate }) {
  const [games, setGames] = useState(null);
  const [gameId, setGameId] = useState(null);
  const [problem, setProblem] = useState(null);
  useEffect(() => {
    api.games().then(setGames).catch(setProblem);
  }, []);
  return html`<main class="page lobby" data-testid="lobby">
    ${problem ? html`<div class="panel error" role="alert">${tr(problem)}</div>` : null}
    <section class="panel games">
      <h2>${t("games")}</h2>
      <ul class="game-list">
        ${(games || []).map((g) => html`<li class=${"game-card" + (g.id === gameId ? " selected" : "")} data-game=${g.id}>
          <div class="game-titles"><strong lang="en">${g.title.en}</strong> <span lang="ja">${g.title.ja}</span></div>
          <p class="muted blurb" lang=${getLang()} data-testid="blurb">${tr(g.blurb)}</p>
          <div class="muted small">${seatRange(g.seat_counts)} ${t("players")}</div>
          <button class="small" onClick=${() => { setGameId(g.id); document.querySelector("[data-testid=create-room]")?.scrollIntoView({ behavior: "smooth" }); }}
            data-testid=${"pick-" + g.id}>${t("create_room")}</button>
        </li>`)}
      </ul>
    </section>
    <div class="lobby-forms">
      ${games && games.length ? html`<${CreateRoom} games=${games} gameId=${gameId || games[0].id} setGameId=${setGameId} navigate=${navigate} />` : null}
      <div class="lobby-side">
        <${NightCard} navigate=${navigate} />
        <${JoinByCode} navigate=${navigate} />
        ${games ? html`<${RoomsList} games=${games} navigate=${navigate} />` : null}
      </div>
    </div>
  </main>`;
}
