"""Exact odds from public information: every initial set of infected seats is a world, equally likely
(the lot), and with contacts and presses public each world's watches follow from the public log by the
seed's rules. The share of worlds in which a seat is infected now is the exact probability; a seat's own
room readings keep only the worlds that agree with what it read.

The rules are those of `watch.py`, written over every world at once with NumPy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

Bools = npt.NDArray[np.bool_]
Counts = npt.NDArray[np.int16]


class Worlds:
    """Every initial infected set of `infected` seats among `seats`, carried through a log."""

    def __init__(self, seats: int, infected: int) -> None:
        self.seats = seats
        count = comb(seats, infected)
        picks = np.fromiter((s for combo in combinations(range(seats), infected) for s in combo), dtype=np.int64,
                            count=count * infected).reshape(count, infected)
        self.infected = np.zeros((count, seats), dtype=bool)
        self.infected[np.arange(count)[:, None], picks] = True
        self.vaccines = np.zeros((count, seats), dtype=np.int16)
        self.paired: dict[tuple[int, int], Bools] = {}
        # The worlds each seat's own readings allow, and those the announced counts allow (everyone's).
        self.masks: dict[int, Bools] = {}
        self.public: Bools | None = None

    def copy(self) -> Worlds:
        other = Worlds.__new__(Worlds)
        other.seats = self.seats
        other.infected, other.vaccines = self.infected.copy(), self.vaccines.copy()
        other.paired = {k: v.copy() for k, v in self.paired.items()}
        other.masks = {k: v.copy() for k, v in self.masks.items()}
        other.public = None if self.public is None else self.public.copy()
        return other

    def __len__(self) -> int:
        return int(self.infected.shape[0])

    def apply(self, entry: Mapping[str, Any]) -> None:
        """One public log entry: a contact or a press."""
        if entry["kind"] == "contact":
            self.contact(entry["a"], entry["b"])
        else:
            self.press(entry["seat"])

    def contact(self, a: int, b: int) -> None:
        key = (min(a, b), max(a, b))
        inf, vac = self.infected, self.vaccines
        paired = self.paired.get(key)
        inf[:, a], vac[:, a], inf[:, b], vac[:, b], gain = pair_outcome(
            inf[:, a], vac[:, a], inf[:, b], vac[:, b], paired)
        self.paired[key] = gain if paired is None else paired | gain

    def pair(self, a: int, b: int) -> Bools | None:
        """In which worlds the pair already gained vaccines together (None: in none)."""
        return self.paired.get((min(a, b), max(a, b)))

    def press(self, seat: int) -> None:
        cured = self.infected[:, seat] & (self.vaccines[:, seat] > 0)
        if cured.any():  # (often in no world: no masked writes then)
            self.vaccines[cured, seat] -= 1
            self.infected[cured, seat] = False

    def check(self, seat: int, infected: bool, vaccines: int) -> None:
        """The seat read its watch now: only worlds agreeing with the reading remain, for that seat."""
        agrees = (self.infected[:, seat] == infected) & (self.vaccines[:, seat] == vaccines)
        mask = self.masks.get(seat)
        self.masks[seat] = agrees if mask is None else mask & agrees

    def announce(self, infected: int) -> None:
        """The number of infected seats now was announced: only worlds with that many remain, for everyone."""
        agrees = self.infected.sum(axis=1) == infected
        self.public = agrees if self.public is None else self.public & agrees

    def allowed(self, seat: int | None) -> Bools | None:
        """The worlds left for `seat` (None: for everyone); None: all of them."""
        own = None if seat is None else self.masks.get(seat)
        if own is None or self.public is None:
            return own if own is not None else self.public
        return own & self.public

    def replay(self, log: Iterable[Mapping[str, Any]], readings: Iterable[tuple[int, int, Mapping[str, Any]]] = (),
               announcements: Iterable[tuple[int, int]] = ()) -> None:
        """Applies a log; `readings` are (index in the log before which it was made, seat, reading), and
        `announcements` (index in the log before which it was made, number of infected)."""
        pending = sorted([(after, 0, (seat, reading)) for after, seat, reading in readings]
                         + [(after, 1, (count, None)) for after, count in announcements],
                         key=lambda item: (item[0], item[1]))
        i = 0
        entries = list(log)
        for index in range(len(entries) + 1):
            while i < len(pending) and pending[i][0] <= index:
                _, kind, (who, values) = pending[i]
                if kind == 0:
                    assert values is not None
                    self.check(who, values["infected"], values["vaccines"])
                else:
                    self.announce(who)
                i += 1
            if index < len(entries):
                self.apply(entries[index])

    def odds(self, seat: int | None) -> dict[str, Any]:
        """`{"worlds": n, "infected": [count per seat]}`: of the n worlds that the public log and (for a seat)
        its own readings allow, how many have each seat infected now. Exact: the probability is the ratio."""
        mask = self.allowed(seat)
        rows = self.infected if mask is None else self.infected[mask]
        return {"worlds": int(rows.shape[0]), "infected": rows.sum(axis=0).tolist()}  # Python ints

    def probabilities(self, seat: int | None = None) -> list[Fraction | None]:
        """`odds` as exact fractions (None for every seat when no world is left)."""
        figures = self.odds(seat)
        worlds = figures["worlds"]
        return [Fraction(c, worlds) if worlds else None for c in figures["infected"]]


def pair_outcome(ia: Bools, va: Counts, ib: Bools, vb: Counts, paired: Bools | None
                 ) -> tuple[Bools, Counts, Bools, Counts, Bools]:
    """`watch.contact` in every world at once: the two watches after a contact, and where the pair gained."""
    gain = ~ia & ~ib if paired is None else ~ia & ~ib & ~paired
    new_ia, new_ib = ia.copy(), ib.copy()
    new_va, new_vb = va + gain, vb + gain
    for healthy_before, sick_before, held, new_inf_healthy, new_inf_sick, new_vac_healthy in (
            (ia, ib, va, new_ia, new_ib, new_va), (ib, ia, vb, new_ib, new_ia, new_vb)):
        meets = ~healthy_before & sick_before  # a healthy watch meets an infected one
        new_inf_healthy[meets] = True
        cured = meets & (held > 0)  # with vaccines it loses one and cures the other
        new_vac_healthy[cured] -= 1
        new_inf_sick[cured] = False
    return new_ia, new_va, new_ib, new_vb, gain


def from_view(view: Mapping[str, Any]) -> Worlds:
    """The worlds a view allows: its public log and, for a seat's view, its own readings."""
    worlds = Worlds(view["seats"], view["infected_at_start"])
    readings = [(r["after"], view["seat"], r) for r in view.get("readings", [])] if view["seat"] is not None else []
    worlds.replay(view["log"], readings, [(a["after"], a["infected"]) for a in view.get("announcements", [])])
    return worlds
