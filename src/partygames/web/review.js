// The replay page's Review tab (issue 32; docs/review.md, In the browser): a seat's decisions judged by the
// Strong bot from what that seat knew, run by the server (`/api/rooms/CODE/review`), its progress while it
// runs, then the seat's win chance over the match (uPlot, vendored) with the marks on it and the marked moves.
// Moves are worded from the game's labels and renderer, as the replay words them: no game rule is here.
import { html, useState, useEffect, useRef } from "./lib.js";
import { t, tr } from "./i18n.js";
import { api } from "./api.js";
import { actionLabel } from "./actions.js";
import { formatValue, humanize } from "./generic.js";
import { seatColour } from "./seats.js";

const POLL_MS = 600;
const MARKED = ["inaccuracy", "mistake", "blunder"]; // drawn on the chart
const MARK_VAR = { inaccuracy: "--inaccuracy", mistake: "--mistake", blunder: "--accent" };

/** An action in words: the game's label for its type and each parameter's value (the replay's wording). */
export function actionText(action, game, ctx) {
  const { type, ...params } = action;
  const parts = Object.entries(params).map(([k, v]) => {
    const one = (x) => (game && game.valueLabel ? game.valueLabel(type, k, x, ctx.lang, null, ctx) : null) ?? formatValue(x);
    const shown = Array.isArray(v) ? v.map(one).join(" → ") : one(v); // a sequence: its values in order
    return `${ctx.label("params", k) || humanize(k)}: ${shown}`;
  });
  return `${actionLabel(ctx, type)}${parts.length ? ` (${parts.join(", ")})` : ""}`;
}

const percent = (x) => `${Math.round(x * 100)}%`;

/** A candidate's value in the review's measure: a win chance as a percentage, a score in its unit. */
function measured(value, review, ctx) {
  if (review.measure === "win") return percent(value);
  // "lead": the seat's team's score minus the other team's (Smuggling), in the same unit as a score.
  if (review.measure === "score" || review.measure === "lead") {
    return ctx.scoreUnit === "yen" ? ctx.yen(Math.round(value)) : value.toFixed(1);
  }
  return value.toFixed(2);
}

/** The loss with its 95% interval, in the measure's units (win chance in percentage points). */
function lossText(decision, review, ctx) {
  const [low, high] = decision.loss_interval;
  const one = (x) => (review.measure === "win" ? percent(x) : measured(x, review, ctx));
  return t("review_lost", one(decision.loss), t("review_range", one(low), one(high)));
}

const markText = (mark) => t(`mark_${mark || "none"}`);

/** The step of each decision's move in the reviewed seat's replay (null if not found); the step before it is
 * what the seat knew as it chose. The seat's own actions are matched to the decisions in order by time and
 * move (a decision's `step` numbers the whole log, which a seat's replay does not: a seat's replay leaves
 * out the steps it did not witness). */
export function decisionSteps(review, steps) {
  const key = (action) => JSON.stringify(action, Object.keys(action).sort());
  const out = [];
  let j = 0;
  for (const d of review.decisions) {
    const played = key(d.candidates[d.played].action);
    while (j < steps.length && !(steps[j].seat === review.seat && steps[j].at === d.at && steps[j].action && key(steps[j].action) === played)) j += 1;
    out.push(j < steps.length ? j : null);
    if (j < steps.length) j += 1;
  }
  return out;
}

function cssVar(name, fallback) {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

// uPlot and its CSS are loaded with the first chart, not with every page of the client.
let chartLibrary = null;
function loadChartLibrary() {
  if (!chartLibrary) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = "/static/vendor/uplot.css";
    // The CSS before the first chart: without it uPlot's layers stack and the page jumps when it comes.
    const styled = new Promise((resolve) => { link.onload = resolve; link.onerror = resolve; });
    document.head.appendChild(link);
    chartLibrary = Promise.all([import("./vendor/uplot.js"), styled]).then(([module]) => module.default);
  }
  return chartLibrary;
}

/** A uPlot chart sized to its container (a phone's width too); `summary` says in words what it shows;
 * `onPick(i)`: a click on the plot picks the point nearest to it along the x axis (the list beside it is
 * the keyboard's way). */
function Chart({ data, series, summary, testid, steps, onPick, xLabel }) {
  const box = useRef(null);
  useEffect(() => {
    const el = box.current;
    const fg = cssVar("--fg", "#1d1b18");
    const grid = cssVar("--line", "#ddd6ca");
    const axis = (label, values, incrs) => ({ label, stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, values, incrs });
    const size = () => ({ width: Math.max(200, el.clientWidth || 320), height: el.clientWidth < 500 ? 200 : 260 });
    let plot = null;
    let gone = false;
    el.style.minHeight = `${size().height}px`; // its room kept while uPlot loads: nothing below it moves
    const draw = (uPlot) => new uPlot({
      ...size(),
      legend: { show: false }, // the legend is written in HTML beside it
      cursor: onPick ? { y: false, points: { show: false } } : { show: false },
      scales: { x: { time: false, range: [0, Math.max(1, steps)] }, y: { range: [0, 100] } }, // the whole match
      axes: [axis(xLabel, (u, ticks) => ticks.map(String), [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]),
        axis(t("review_axis_win"), (u, ticks) => ticks.map((v) => `${v}%`))],
      series: [{}, ...series],
    }, data, el);
    const observer = new ResizeObserver(() => {
      if (plot && el.clientWidth) plot.setSize(size());
    });
    loadChartLibrary().then((uPlot) => {
      if (gone) return;
      plot = draw(uPlot);
      observer.observe(el);
      if (onPick) plot.over.addEventListener("click", () => { if (plot.cursor.idx != null) onPick(plot.cursor.idx); });
    });
    return () => {
      gone = true;
      observer.disconnect();
      if (plot) plot.destroy();
    };
  }, [JSON.stringify(data), series.map((s) => s.label).join("|"), steps, xLabel]);
  return html`<div class="review-chart" ref=${box} role="img" aria-label=${summary} data-testid=${testid}></div>`;
}

function Legend({ items }) {
  return html`<ul class="review-legend">
    ${items.map(([label, colour, dot]) => html`<li><span class=${dot ? "legend-dot" : "legend-line"} style=${`background:${colour}`}></span>${label}</li>`)}
  </ul>`;
}

/** The seat's win chance at each decision: the move played, the best candidate, and the marks as points. */
function SeatChart({ review, name, onMark, at }) {
  const ds = review.decisions;
  const xs = ds.map((d, i) => at.steps[i] ?? d.step + 1);
  const played = ds.map((d) => 100 * d.candidates[d.played].win);
  const best = ds.map((d) => 100 * d.candidates[d.best].win);
  const ink = cssVar("--focus", "#1a5fb4");
  const muted = cssVar("--muted", "#6b655c");
  const marks = MARKED.map((mark) => ({ mark, colour: cssVar(MARK_VAR[mark], "#b3261e") }));
  const series = [
    { label: t("review_played"), stroke: ink, width: 2, points: { show: true, size: 6, fill: ink } },
    { label: t("review_best"), stroke: muted, width: 1.5, dash: [6, 4], points: { show: false } },
    ...marks.map(({ mark, colour }) => ({ label: markText(mark), stroke: colour, width: 0, paths: () => null,
      points: { show: true, space: 0, size: 13, stroke: colour, fill: colour } })),
  ];
  const data = [xs, played, best, ...marks.map(({ mark }) => ds.map((d, i) => (d.mark === mark ? played[i] : null)))];
  const bad = ds.filter((d) => MARKED.includes(d.mark)).length;
  const summary = `${t("review_chart", name)}. ${t("review_chart_summary", ds.length, percent(Math.min(...played) / 100), percent(Math.max(...played) / 100), bad)}`;
  return html`<figure class="review-figure">
    <figcaption>${t("review_chart", name)}</figcaption>
    <${Chart} data=${data} series=${series} summary=${summary} testid="review-chart" steps=${at.total} xLabel=${t("review_axis_step")}
      onPick=${(i) => onMark(review, ds[i])} />
    <${Legend} items=${[[t("review_played"), ink], [t("review_best"), muted], ...marks.map(({ mark, colour }) => [markText(mark), colour, true])]} />
  </figure>`;
}

/** Every reviewed seat's win chance (of the move it played) over the match, as that seat saw it. */
function TableChart({ reviews, ctx }) {
  const xs = [...new Set(reviews.flatMap((r) => r.decisions.map((d) => d.step + 1)))].sort((a, b) => a - b);
  const series = reviews.map((r) => ({ label: ctx.seatName(r.seat), stroke: seatColour(r.seat), width: 2, spanGaps: true,
    points: { show: true, size: 5, fill: seatColour(r.seat) } }));
  const data = [xs, ...reviews.map((r) => {
    const at = new Map(r.decisions.map((d) => [d.step + 1, 100 * d.candidates[d.played].win]));
    return xs.map((x) => (at.has(x) ? at.get(x) : null));
  })];
  const names = reviews.map((r) => ctx.seatName(r.seat));
  return html`<figure class="review-figure" data-testid="review-table">
    <figcaption>${t("review_table_chart")}</figcaption>
    <${Chart} data=${data} series=${series} summary=${`${t("review_table_chart")}. ${t("review_table_summary", names.join(", "))}`} testid="review-table-chart" steps=${Math.max(...reviews.map((r) => r.steps))}
      xLabel=${t("review_axis_match_step")} />
    <${Legend} items=${reviews.map((r) => [ctx.seatName(r.seat), seatColour(r.seat)])} />
  </figure>`;
}

/** What the replay shows beside a decision stepped to from the review: the move played and the better one. */
export function MarkNote({ focus, game, ctx, onBack }) {
  const { review, decision: d } = focus;
  const played = d.candidates[d.played];
  const best = d.candidates[d.best];
  const playedWords = actionText(played.action, game, ctx);
  return html`<section class="panel review-note" data-testid="review-note" tabindex="-1" aria-labelledby="review-note-title">
    <h2 id="review-note-title">${t("review_note_title", focus.name)}: <span class=${`mark mark-${d.mark || "none"}`}>${markText(d.mark)}</span></h2>
    <p class="muted small">${t("review_note_where", focus.name)}</p>
    ${d.best === d.played
      ? html`<p data-testid="review-better">${t("review_was_best", playedWords, measured(played.value, review, ctx))}</p>`
      : html`<p>${t("review_you_played", playedWords, lossText(d, review, ctx))}</p>
        <p class="better" data-testid="review-better">${t("review_better", actionText(best.action, game, ctx), measured(best.value, review, ctx), measured(played.value, review, ctx))}</p>`}
    <${Candidates} decision=${d} review=${review} game=${game} ctx=${ctx} />
    <p class="muted small">${t("review_measured_by", t(`review_measure_${review.measure}`))}</p>
    <button onClick=${onBack} data-testid="review-back">${t("review_back")}</button>
  </section>`;
}

/** Every move the search tried at the decision: its value in the measure with the 95% interval, and its win
 * chance (the same figure when the measure is the win chance). */
function Candidates({ decision: d, review, game, ctx }) {
  const win = review.measure === "win";
  const range = ([low, high]) => t("review_range", measured(low, review, ctx), measured(high, review, ctx));
  return html`<div class="table-wrap" tabindex="0" role="group" aria-label=${t("review_candidates")}><table class="grid" data-testid="review-candidates">
    <caption class="sr-only">${t("review_candidates")}</caption>
    <thead><tr><th scope="col">${t("review_candidate")}</th><th scope="col">${t(`review_measure_${review.measure}`)} (95%)</th>
      ${win ? null : html`<th scope="col">${t("review_measure_win")}</th>`}</tr></thead>
    <tbody>${d.candidates.map((c, i) => html`<tr class=${i === d.played ? "mine" : ""}>
      <td>${actionText(c.action, game, ctx)}${i === d.played ? ` (${t("review_played")})` : ""}${i === d.best ? ` (${t("review_best")})` : ""}</td>
      <td class="num">${measured(c.value, review, ctx)} <span class="muted small">(${range(win ? c.win_interval : c.interval)})</span></td>
      ${win ? null : html`<td class="num">${percent(c.win)}</td>`}
    </tr>`)}</tbody>
  </table></div>`;
}

function DecisionList({ review, game, ctx, onMark, at }) {
  return html`<section aria-labelledby="review-moves-title">
    <h3 id="review-moves-title">${t("review_moves")}</h3>
    <ol class="review-moves" data-testid="review-moves">
      ${review.decisions.map((d, i) => html`<li>
        <button class="review-move" data-mark=${d.mark || "none"} data-testid="review-mark" onClick=${() => onMark(review, d)}>
          <span class="review-move-step">${t("review_step", at.steps[i] ?? d.step + 1)}</span>
          <span class="review-move-action">${actionText(d.candidates[d.played].action, game, ctx)}</span>
          <span class=${`mark mark-${d.mark || "none"}`}>${markText(d.mark)}</span>
          ${d.best !== d.played ? html`<span class="review-move-loss">${lossText(d, review, ctx)}</span>` : null}
        </button>
      </li>`)}
    </ol>
  </section>`;
}

function Progress({ job, name }) {
  const running = job.status === "running";
  const share = Math.round(100 * (job.progress || 0));
  return html`<div class="review-progress" data-testid="review-progress">
    <p role="status">${running ? t("review_running", name, share) : t("review_queued")}</p>
    <progress max="100" value=${share} aria-label=${t("review_progress", name)}></progress>
  </div>`;
}

/** The Review tab. `seats`: the seats this browser may review (its own; every seat for the host);
 * `auth`: the tokens it holds for the room; `onMark(review, decision)` steps the replay there. */
export function ReviewTab({ code, match, seats, auth, game, ctx, onMark, active }) {
  const [picked, setPicked] = useState(seats[0]);
  const [jobs, setJobs] = useState({}); // seat -> the server's answer for its review
  const [problems, setProblems] = useState({}); // seat -> a refusal {code, en, ja}
  const start = (seat) => {
    if (jobs[seat] && jobs[seat].status !== "failed") return;
    setProblems((p) => ({ ...p, [seat]: null }));
    api.startReview(code, seat, auth, match)
      .then((job) => setJobs((js) => ({ ...js, [seat]: job })))
      .catch((error) => setProblems((p) => ({ ...p, [seat]: error })));
  };
  // Opening the tab reviews the picked seat (a review already stored comes back at once).
  useEffect(() => {
    if (active && picked != null) start(picked);
  }, [active, picked]);
  // Poll the unfinished jobs until they are done.
  useEffect(() => {
    const waiting = Object.values(jobs).filter((j) => j && (j.status === "queued" || j.status === "running"));
    if (!waiting.length) return undefined;
    const timer = setTimeout(() => {
      for (const job of waiting) {
        api.reviewStatus(code, job.seat, auth, match)
          .then((next) => setJobs((js) => ({ ...js, [job.seat]: next })))
          .catch((error) => setProblems((p) => ({ ...p, [job.seat]: error })));
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [jobs]);
  // A done review's decisions numbered as the seat's replay numbers its steps (the stepper's "Step 12 / 40"):
  // {steps: the step of each decision's move, total}; the log's numbering if that replay cannot be had.
  const [places, setPlaces] = useState({});
  useEffect(() => {
    for (const job of Object.values(jobs)) {
      if (!job || job.status !== "done" || !job.review || places[job.seat] !== undefined) continue;
      const review = job.review;
      setPlaces((p) => ({ ...p, [job.seat]: null })); // asked for once
      api.replay(code, job.seat, auth, match)
        .then((data) => ({ steps: decisionSteps(review, data.steps), total: data.steps.length - 1 }))
        .catch(() => ({ steps: [], total: review.steps }))
        .then((place) => setPlaces((p) => ({ ...p, [job.seat]: place })));
    }
  }, [jobs]);

  const job = jobs[picked];
  const problem = problems[picked] || (job && job.status === "failed" ? job.error || { en: t("review_failed"), ja: t("review_failed") } : null);
  const name = picked == null ? "" : ctx.seatName(picked);
  const at = places[picked];
  const review = job && job.status === "done" && at ? job.review : null;
  const done = seats.map((s) => jobs[s]).filter((j) => j && j.status === "done" && j.review && j.review.decisions.length).map((j) => j.review);
  return html`<div class="review" data-testid="review">
    <section class="panel">
      <p class="muted">${t("review_intro")}</p>
      ${seats.length > 1
        ? html`<div class="row">
            <label>${t("review_seat")} <select value=${String(picked)} onChange=${(e) => setPicked(Number(e.target.value))} data-testid="review-seat">
              ${seats.map((s) => html`<option value=${String(s)}>${ctx.seatName(s)}</option>`)}
            </select></label>
            <button onClick=${() => seats.forEach(start)} data-testid="review-all">${t("review_every_seat")}</button>
          </div>`
        : null}
      ${problem ? html`<div class="refused" role="alert" data-testid="review-error">${tr(problem)}</div>` : null}
      ${problem && (!job || job.status === "failed") ? html`<button onClick=${() => start(picked)}>${t("review_start")}</button>` : null}
      ${job && (job.status === "queued" || job.status === "running") ? html`<${Progress} job=${job} name=${name} />` : null}
    </section>
    ${review
      ? html`<section class="panel review-result" aria-labelledby="review-title" data-testid="review-result">
          <h2 id="review-title">${t("review_of", name)}</h2>
          <p class="muted small">${t("review_measured_by", t(`review_measure_${review.measure}`))}</p>
          ${review.decisions.length
            ? html`<${SeatChart} review=${review} name=${name} onMark=${onMark} at=${at} />
              <${DecisionList} review=${review} game=${game} ctx=${ctx} onMark=${onMark} at=${at} />`
            : html`<p>${t("review_nothing", name)}</p>`}
        </section>`
      : null}
    ${done.length > 1 ? html`<section class="panel"><${TableChart} reviews=${done} ctx=${ctx} /></section>` : null}
  </div>`;
}
