// The Liar Game night (issue 30): the lobby's card that makes a room as the tournament, and its yen ledger,
// shown between rounds: every person's line on the big screen (and to spectators), each person's own on their
// phone. The ledger comes from the server (`GET /api/rooms/{code}/ledger`), brought up to date as it is read.
import { html, useState, useEffect } from "./lib.js";
import { t, tr, getLang } from "./i18n.js";
import { api, enterMadeRoom, savedName, saveName } from "./api.js";
import { yen } from "./money.js";

/** The lobby's card: a seat count and the host's name; the room is made with every seat for a person (the host
 * may fill the rest with bots in the room's lobby, as in any room). */
export function NightCard({ navigate }) {
  const [nights, setNights] = useState(null);
  const [seats, setSeats] = useState(6);
  const [name, setName] = useState(savedName());
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState(null);
  useEffect(() => {
    api.nights().then(setNights).catch(() => setNights([]));
  }, []);
  const night = nights && nights[0];
  if (!night) return null;
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const trimmed = name.trim();
      if (trimmed) saveName(trimmed);
      const answer = await api.createNight({ night: night.id, seats, name: trimmed || undefined });
      enterMadeRoom(answer, trimmed, navigate);
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="panel night" onSubmit=${submit} data-testid="night-card">
    <h2>${tr(night.title)}</h2>
    <p class="muted">${tr(night.note)}</p>
    <ol class="night-stages">${night.stages.map((s) => html`<li>${tr(s.title)}</li>`)}</ol>
    <label class="option">${t("night_seats")}
      <select value=${seats} onChange=${(e) => setSeats(Number(e.target.value))} data-testid="night-seats">
        ${night.seat_counts.map((n) => html`<option value=${n}>${n}</option>`)}
      </select></label>
    <label class="option">${t("your_name")}
      <input maxlength="24" value=${name} placeholder=${t("name_placeholder")} onInput=${(e) => setName(e.target.value)} data-testid="night-name" /></label>
    ${problem ? html`<div class="refused" role="alert">${tr(problem)}</div>` : null}
    <button type="submit" class="primary" disabled=${busy} data-testid="create-night">${t("night_create")}</button>
  </form>`;
}

function Line({ line, lang }) {
  if (!line) return html`<span class="muted">—</span>`;
  const why = (line.figures || []).map((f) => `${tr(f.name)} ${f.yen ? yen(f.value, lang) : f.value}`).join(" · ");
  return html`<span class="ledger-line" title=${line.note ? tr(line.note) : why}>${yen(line.yen, lang, { signed: true })}
    ${line.note ? html`<small class="muted">${tr(line.note)}</small>` : why ? html`<small class="muted">${why}</small>` : null}</span>`;
}

/** A night room's ledger, once a round is over (`room.status` "over"): the whole table on the big screen and to
 * spectators, the person's own line on a phone. Nothing for a room that is no night. */
export function Ledger({ room, seat, table }) {
  const [book, setBook] = useState(null);
  const code = room && room.code;
  const match = room && room.match;
  const status = room && room.status;
  useEffect(() => {
    if (!code || status !== "over") return undefined;
    let current = true;
    api.ledger(code).then((b) => { if (current) setBook(b); }).catch(() => {});
    return () => { current = false; };
  }, [code, match, status]);
  if (!book || !book.night || status !== "over") return null;
  const lang = getLang();
  const mine = !table && seat != null ? book.people.filter((p) => p.seat === seat) : book.people;
  const rounds = book.rounds;
  return html`<section class="panel ledger" data-testid="ledger">
    <h2>${tr(book.title)}: ${t("ledger")}</h2>
    <div class="table-wrap" tabindex="0"><table class="grid">
      <thead><tr><th>${t("seat")}</th>${rounds.map((r) => html`<th>${tr(r.title)}</th>`)}<th class="num">${t("ledger_balance")}</th></tr></thead>
      <tbody>${mine.map((p) => html`<tr data-seat=${p.seat} class=${p.seat === seat ? "me" : ""} data-testid="ledger-row">
        <td>${p.name || t("seat_n", p.seat + 1)}${p.kind === "bot" ? html` <small class="muted">(${t("ledger_bot")})</small>` : null}</td>
        ${rounds.map((r) => html`<td class="num"><${Line} line=${p.lines[String(r.number)]} lang=${lang} /></td>`)}
        <td class="num" data-testid="ledger-balance" data-yen=${p.balance}>${yen(p.balance, lang)}${p.balance < 0 ? html` <small>${t("ledger_debt")}</small>` : null}</td>
      </tr>`)}</tbody>
    </table></div>
    <p class="muted" data-testid="ledger-next">${book.next ? t("ledger_next", tr(book.next.title)) : t("ledger_over")}</p>
  </section>`;
}
