"""A seat's view of a Pandemic match (None: the public one): what it may know now, JSON-ready.

Public: the time, who is in which room and the queue, the contacts and presses (as the options make them
public), the announcements and the exact public odds. Own: the seat's open offer and the offers to it,
its readings, its own odds and (rounds) its intent. After the end: every watch and the whole history.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from partygames.games.pandemic.rules import PandemicMatch


def seat_view(match: PandemicMatch, seat: int | None) -> dict[str, Any]:
    opts = match.opts
    log = match.log
    # Whether the seat saw each log entry, asked once: `after` counts those before a moment.
    if match.odds_are_exact():  # every entry is public
        seen, visible = [True] * len(log), log
    else:
        seen = [match.is_visible(e, seat) for e in log]
        visible = [e for e, saw in zip(log, seen, strict=True) if saw]
    contacts_public = opts.public_contacts
    view: dict[str, Any] = {
        "tempo": opts.tempo,
        "phase": "over" if match.over else "break" if match.on_break else "play",
        "time": match.t,
        "ends_at": opts.end_ms,
        "periods": opts.periods,
        "period": match.period,
        "period_ends_at": opts.period_start(match.period + 1) if match.on_break else opts.period_end(match.period),
        "announcements": [{"period": a["period"], "t": a["t"], "healthy": a["healthy"], "infected": a["infected"],
                           "after": sum(seen[: a["seq"]])}
                          for a in match.announcements],
        "vaccine_threshold": opts.vaccine_threshold,
        "qualifiers": opts.qualifiers,
        "infected_at_start": opts.infected,
        "rooms": opts.rooms,
        "read_seconds": opts.read_seconds,
        "stay_seconds": opts.stay_seconds,
        "offer_seconds": opts.offer_seconds,
        "public_contacts": contacts_public,
        "public_presses": opts.public_presses,
        "inside": [{"seat": int(k), **{f: v[f] for f in ("room", "since")}}
                   for k, v in sorted(match.inside.items(), key=lambda kv: int(kv[0]))],
        "queue": list(match.queue),
        # Only while it lasts: a busy time running out changes the view, so those who may know it are told.
        "busy_until": [b if (contacts_public or s == seat) and b > match.t else 0 for s, b in enumerate(match.busy_until)],
        "log": visible,
        "odds": match.exact_odds(None),
    }
    if match.is_rounds:
        view["step"] = match.step
        view["step_seconds"] = opts.step_seconds
        view["submitted"] = sorted(int(k) for k in match.intents)
    if seat is not None:
        own = match.own_offer(seat)
        view["my_offer"] = None if own is None else dict(own)
        view["offers_to_me"] = [dict(o) for o in sorted(match.offers.values(), key=lambda o: (o["at"], o["from"]))
                                if o["to"] == seat]
        view["readings"] = [{"t": r["t"], "infected": r["infected"], "vaccines": r["vaccines"],
                             "after": sum(seen[: r["seq"]])}
                            for r in match.readings[seat]]
        view["my_odds"] = match.exact_odds(seat)
        if match.is_rounds:
            view["my_intent"] = match.intents.get(str(seat))
    if match.over:
        view["watches"] = [{"infected": i, "vaccines": v} for i, v in zip(match.infected, match.vaccines, strict=True)]
        view["history"] = [dict(h) for h in match.history]
        view["passed"] = list(match.passed)
        view["initial_infected"] = list(match.initial_infected)
    return view
