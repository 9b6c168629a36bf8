// The replay viewer: step through a finished match with any seat's view or the public view; its Review tab
// (review.js) judges a seat's decisions, and a mark clicked there steps the replay to that decision.
import { html, useState, useEffect } from "./lib.js";
import { t, tr } from "./i18n.js";
import { api, loadRenderer, loadSeat, matchQuery } from "./api.js";
import { renderGeneric } from "./generic.js";
import { describe, Stage, useNarration } from "./events.js";
import { ReviewTab, MarkNote, actionText, decisionSteps } from "./review.js";
import { arrowFocus } from "./widgets.js";
import { Results } from "./results.js";
import { makeCtx } from "./room.js";
import { Icon } from "./icons.js";

function describeAction(step, game, ctx) {
  if (step.seat == null) return step.source === "wake" || step.source === "clock" ? t("replay_time_passed") : null;
  const by = step.seat == null ? "" : ctx.seatName(step.seat);
  // A bot that played for the seat's absent person: the stand-in's step, not the person's.
  const standin = step.source === "standin" ? ` (${t("by_standin", (ctx.botTitle && ctx.botTitle(step.standin)) || step.standin, by)})` : "";
  const source = step.source === "bot" ? ` (${t("by_bot")})` : step.source === "timer" ? ` (${t("by_timer")})` : standin;  // "timer": logs before wake-ups
  return `${by}${source}: ${actionText(step.action, game, ctx)}`;
}

const STEP_MS = 1500;

export function ReplayPage({ code, match: asked, lang, navigate }) {
  const [room, setRoom] = useState(null);
  // The room's matches of the evening (null: not known yet), and the one shown: the one asked for (#replay-K),
  // else the latest finished one (the room may be playing its next). The match list picks another.
  const [matches, setMatches] = useState(null);
  const [picked, setPicked] = useState(asked ?? null);
  useEffect(() => {
    api.matches(code).then((data) => setMatches(data.matches)).catch(() => setMatches([]));
  }, [code]);
  const finished = (matches || []).filter((m) => m.result);
  const number = picked ?? (finished.length ? finished[finished.length - 1].number : null);
  const shown = (matches || []).find((m) => m.number === number) || null;
  const pick = (value) => {
    setPicked(value);
    history.replaceState(null, "", `/room/${code}#replay-${value}`);
  };
  const [perspective, setPerspective] = useState(() => {
    const held = loadSeat(code);
    return held.token && held.seat != null ? String(held.seat) : "";
  });
  const [replay, setReplay] = useState(null);
  const [index, setIndex] = useState(0);
  const [problem, setProblem] = useState(null);
  const [game, setGame] = useState(null);

  useEffect(() => {
    api.room(code).then(setRoom).catch(setProblem);
  }, [code]);
  // The match's own game: a series' earlier match may be another game than the room's current one.
  const gameId = (shown && shown.game) || (room && room.game);
  const [games, setGames] = useState([]);
  useEffect(() => {
    api.games().then(setGames).catch(() => {});
  }, []);
  useEffect(() => {
    if (!gameId) return;
    setGame(null);
    loadRenderer(gameId).then(setGame);
  }, [gameId]);
  const info = games.find((g) => g.id === gameId) || null;
  const matchTitle = (id) => {
    const found = games.find((g) => g.id === id);
    return found ? tr(found.title) : id;
  };
  useEffect(() => {
    if (matches === null) return;
    setReplay(null);
    api
      .replay(code, perspective === "" ? null : Number(perspective), loadSeat(code), number)
      .then((data) => {
        setReplay(data);
        setIndex((i) => Math.min(i, data.steps.length - 1));
        setProblem(null);
      })
      .catch(setProblem);
  }, [code, perspective, matches, number]);

  const seat = perspective === "" ? null : Number(perspective);
  // The perspective is not "you" in a replay: names stay plain. The match's game and options, not the room's now.
  const played = room && replay ? { ...room, game: replay.game, options: replay.options } : room;
  const ctx = makeCtx({ room: played, seat, lang, table: false, send: () => {}, markYou: false, labels: info && info.labels });
  ctx.botTitle = (kind) => (info && info.bot_titles && tr(info.bot_titles[kind])) || null;
  const steps = (replay && replay.steps) || [];
  const step = steps[index];
  // Each step visited is narrated like an update (its events on the stage, at the game's pace).
  const [updates, setUpdates] = useState([]);
  useEffect(() => {
    if (!step) return;
    const seq = (updates.length ? updates[0].seq : 0) + 1;
    const events = step.events.map((e, i) => ({ ...e, key: seq * 10000 + i }));
    setUpdates([{ seq, version: step.version, view: step.view, deadline: null, events, fresh: false, revealEnd: null }]);
  }, [step]);
  const narration = useNarration(updates, { game, ctx, reveals: info && info.reveals });
  const go = (i) => setIndex(Math.max(0, Math.min(steps.length - 1, i)));
  // Autoplay: one step every STEP_MS / speed, stopping at the last step (any manual step pauses it).
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  useEffect(() => {
    if (!playing) return undefined;
    if (index >= steps.length - 1) {
      setPlaying(false);
      return undefined;
    }
    const timer = setTimeout(() => setIndex((i) => Math.min(steps.length - 1, i + 1)), STEP_MS / speed);
    return () => clearTimeout(timer);
  }, [playing, index, speed, steps.length]);
  const stepTo = (i) => {
    setPlaying(false);
    go(i);
  };
  // The seats this browser may see the match as (the server's rule: a seat's view is its own and the host's), in the
  // perspective list and the Review tab: the seat it holds (its token, else its profile's seat), every seat for the host.
  const [tab, setTab] = useState("replay");
  const [reviewSeats, setReviewSeats] = useState([]);
  const held = loadSeat(code);
  const over = room && (room.status === "over" || (shown && shown.result));
  useEffect(() => {
    if (!over) return;
    if (held.hostToken) setReviewSeats(room.seats.map((s) => s.seat));
    else if (held.token && held.seat != null) setReviewSeats([held.seat]);
    else {
      api.me().then((me) => {
        const mine = ((me && me.matches) || []).find((m) => m.room === code && m.replay);
        if (!mine) return;
        setReviewSeats([mine.seat]);
        setPerspective((p) => (p === "" ? String(mine.seat) : p)); // their own seat, as a token holder gets
      }).catch(() => {});
    }
  }, [Boolean(over)]);
  // A mark clicked in the review: the replay as that seat saw it, at the step where it chose.
  const [focus, setFocus] = useState(null); // {review, decision, index}
  const onMark = (review, decision) => {
    setPlaying(false);
    setFocus({ review, decision, index: null, name: ctx.seatName(review.seat) });
    setPerspective(String(review.seat));
    setTab("replay");
  };
  useEffect(() => {
    if (!focus || focus.index != null || !replay || replay.seat !== focus.review.seat) return;
    const move = decisionSteps(focus.review, replay.steps)[focus.review.decisions.indexOf(focus.decision)];
    const at = move == null ? null : Math.max(0, move - 1); // what the seat knew as it chose: the step before its move
    setFocus({ ...focus, index: at ?? -1 });
    if (at != null) setIndex(at);
  }, [replay, focus]);
  const noted = focus && focus.index === index && tab === "replay";
  useEffect(() => {
    const note = noted && document.querySelector("[data-testid=review-note]");
    if (note) note.focus(); // the clicked mark is in the hidden tab now: the keyboard follows to the note
  }, [noted, focus]);
  const backToReview = () => {
    setTab("review");
    setTimeout(() => { const tabButton = document.getElementById("tab-review"); if (tabButton) tabButton.focus(); });
  };
  const tabbed = reviewSeats.length > 0;
  return html`<main class="page replay" data-testid="replay">
    <header class="room-head">
      <a class="back" href=${`/room/${code}`} onClick=${(e) => { e.preventDefault(); navigate(`/room/${code}`); }}>← ${t("back_to_room")}</a>
      <h1>${t("replay")} · ${info ? tr(info.title) : room ? tr(room.title) : ""} <span class="room-code small">${code}</span></h1>
    </header>
    ${problem ? html`<div class="panel error" role="alert">${problem.code === "room/not_over" ? t("replay_unavailable") : tr(problem)}</div>` : null}
    ${tabbed
      ? html`<div class="tabs row" role="tablist" aria-label=${t("replay_tabs")} onKeyDown=${(e) => arrowFocus(e, "[role=tab]")}>
          ${["replay", "review"].map((name) => html`<button role="tab" id=${`tab-${name}`} aria-selected=${tab === name ? "true" : "false"}
            aria-controls=${`panel-${name}`} onClick=${() => setTab(name)} data-testid=${`tab-${name}`}>${t(`${name}_tab`)}</button>`)}
        </div>`
      : null}
    ${tabbed
      ? html`<div role="tabpanel" id="panel-review" class="tab-panel" aria-labelledby="tab-review" hidden=${tab !== "review"}>
          <${ReviewTab} key=${number} code=${code} match=${number} seats=${reviewSeats} auth=${held} game=${game} ctx=${ctx} onMark=${onMark} active=${tab === "review"} />
        </div>`
      : null}
    <div role=${tabbed ? "tabpanel" : null} id="panel-replay" class="tab-panel" aria-labelledby=${tabbed ? "tab-replay" : null} hidden=${tab !== "replay"}>
    <section class="panel replay-controls">
      ${finished.length > 1 ? html`<label>${t("replay_match")} <select value=${String(number)} data-testid="replay-match"
          onChange=${(e) => pick(Number(e.target.value))}>
        ${finished.map((m) => html`<option value=${String(m.number)}>${t("match_number", m.number)} · ${matchTitle(m.game)}</option>`)}
        </select></label>` : null}
      <label>${t("view_as")} <select value=${perspective} onChange=${(e) => setPerspective(e.target.value)} data-testid="replay-seat">
        <option value="">${t("public_view")}</option>
        ${((room && room.seats) || []).filter((s) => reviewSeats.includes(s.seat))
          .map((s) => html`<option value=${String(s.seat)}>${ctx.seatName(s.seat)}</option>`)}
      </select></label>
      <div class="row stepper">
        <button onClick=${() => stepTo(0)} disabled=${index === 0} data-testid="replay-first"><${Icon} name="to-start" /> ${t("first")}</button>
        <button onClick=${() => stepTo(index - 1)} disabled=${index === 0} data-testid="replay-prev"><${Icon} name="back" /> ${t("prev")}</button>
        <span data-testid="replay-step">${t("step", index, Math.max(0, steps.length - 1))}</span>
        <button onClick=${() => stepTo(index + 1)} disabled=${index >= steps.length - 1} data-testid="replay-next">${t("next")} <${Icon} name="forward" /></button>
        <button onClick=${() => stepTo(steps.length - 1)} disabled=${index >= steps.length - 1} data-testid="replay-last">${t("last")} <${Icon} name="to-end" /></button>
        <button onClick=${() => setPlaying(!playing)} disabled=${!playing && index >= steps.length - 1} data-testid="replay-autoplay"
          aria-pressed=${playing}>${playing ? t("pause") : t("autoplay")}</button>
        <label>${t("speed")} <select value=${String(speed)} onChange=${(e) => setSpeed(Number(e.target.value))} data-testid="replay-speed">
          ${[1, 2, 4].map((x) => html`<option value=${String(x)}>×${x}</option>`)}</select></label>
      </div>
      ${steps.length > 1 ? html`<input type="range" class="slider" min="0" max=${steps.length - 1} value=${index} aria-label=${t("step_slider")}
        aria-valuetext=${t("step", index, steps.length - 1)} onInput=${(e) => stepTo(Number(e.target.value))} />` : null}
      <p class="muted"><a href=${`/api/rooms/${code}/log${matchQuery(number, "?")}`} target="_blank" rel="noopener">${t("full_state")} (JSON)</a></p>
    </section>
    ${step
      ? html`<div class="room-grid">
          <section class="board" data-testid="board">
            ${noted ? html`<${MarkNote} focus=${focus} game=${game} ctx=${ctx} onBack=${backToReview} />` : null}
            ${step.version > 0 ? html`<div class="panel step-action" data-testid="step-action">${describeAction(step, game, ctx)}</div>` : null}
            ${(game && game.render && game.render(step.view, ctx)) || renderGeneric(step.view, ctx)}
          </section>
          <div class="side">
            <${Stage} narration=${narration} game=${game} ctx=${ctx} />
            <section class="panel"><h2>${t("log")}</h2><ul class="log-list">
              ${step.events.map((e) => describe(e, game, ctx)).filter((x) => x !== null).map((x) => html`<li>${x}</li>`)}
            </ul></section>
          </div>
        </div>`
      : !problem ? html`<p class="muted">${t("loading")}</p>` : null}
    ${replay && index === steps.length - 1 ? html`<${Results} result=${replay.result} game=${game} ctx=${ctx} />` : null}
    </div>
  </main>`;
}
