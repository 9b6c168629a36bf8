"""Last Man Standing, computed: the exact first fight, which strategies win, and what a card and a paid
hire are worth.

- **Exact**: round 1 for a fighter of each rank when every other seat plays a card drawn at random from
  the cards its player has not seen; every draw of the others' ranks is weighted by how many ways it can
  be drawn and fought with `combat.payouts`, the function the rules resolve every fight with.
- **Monte Carlo**: real matches (`engine.session.play`) between the game's bots and the variants of
  `strategies.py`, read from each seat's own view at the end. A match is a job: job j depends only on the
  study and j, so worker processes (`analysis/parallel.py`) give exactly the single-process figures.

The method and the figures are in docs/rules/last-man-standing.md, Analysis.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from math import comb, prod
from pathlib import Path
from typing import Any

from partygames.analysis.parallel import map_chunks
from partygames.analysis.stats import error_bars, mean_interval, ratio_interval, wilson_interval
from partygames.analysis.tournament import seat_kinds
from partygames.engine.match import Match
from partygames.engine.session import play
from partygames.games.last_man_standing.cards import DECK, ENTRY_FEE, RANK, RANK_NAMES, by_rank
from partygames.games.last_man_standing.combat import payouts
from partygames.games.last_man_standing.strategies import BUY_PREFIX, strategy_bot

RANKS: tuple[int, ...] = tuple(range(2, 15))
STRATEGIES: tuple[str, ...] = ("heuristic", f"{BUY_PREFIX}4", "keeper", "lowest", "highest", "random")
CAPS: tuple[int, ...] = (2, 4, 6)
Interval = tuple[float, float, float]  # estimate, low, high (95%)


def rank_name(rank: int) -> str:
    """2 .. 10, J, Q, K, A."""
    return RANK_NAMES[rank - 2]


# -- the exact first fight -----------------------------------------------------------------------------

@dataclass(frozen=True)
class FirstFight:
    """A fighter of `rank` in round 1: the exact chances that it survives and that it kills, and its
    expected bounty in chips."""

    rank: int
    survives: Fraction
    kills: Fraction
    bounty: Fraction

    def to_json(self) -> dict[str, Any]:
        return {"rank": rank_name(self.rank), "survives": str(self.survives), "kills": str(self.kills),
                "bounty": str(self.bounty), "survives_decimal": float(self.survives),
                "kills_decimal": float(self.kills), "bounty_decimal": float(self.bounty)}


def first_fights(seats: int, deck: Sequence[str] = DECK, pot: int | None = None,
                 progress: Callable[[float], None] | None = None) -> list[FirstFight]:
    """Round 1 exactly, for each rank my fighter may have, when the `seats` cards played are drawn at random
    without replacement from `deck` (default: the whole deck; the others' cards are then any 51 but mine,
    as under random play or for a player who knows nothing of the others' hands). `pot` defaults to the
    entry fees of `seats` players (hires pay nothing into it by default, and round 1 cannot empty it).

    Each multiset M of the ranks played is drawn in prod_k C(deck_k, M_k) ways, and my card is one of its
    M_r cards of rank r; M is fought once with `combat.payouts`. My fate does not depend on where my card
    lies in the arena: fighters of one rank all live or all die, a shared rank kills nothing, and the kills
    of one fighter are consecutive bounties. `progress(share)` is told the share of multisets done."""
    if pot is None:
        pot = ENTRY_FEE[seats] * seats
    if not 0 < seats <= len(deck):
        raise ValueError(f"{seats} seats cannot draw from a deck of {len(deck)} cards")
    counts = Counter(RANK[c] for c in deck)
    ranks = sorted(counts)
    # weight, survives, kills, bounty per rank: sums of weights (exact integers).
    sums = {r: [0, 0, 0, 0] for r in ranks}
    total = comb(len(ranks) + seats - 1, seats)
    for done, drawn in enumerate(itertools.combinations_with_replacement(ranks, seats), start=1):
        if progress is not None and done % 4096 == 0:
            progress(done / total)
        groups = [(r, len(list(g))) for r, g in itertools.groupby(drawn)]
        ways = prod(comb(counts[r], n) for r, n in groups)
        if not ways:
            continue
        fight = payouts(drawn, pot)
        dead = {victim for _, victim, _ in fight}
        earned: dict[int, int] = {}
        for killer, _, paid in fight:
            earned[killer] = earned.get(killer, 0) + paid
        first = 0  # my card: the first of its rank in the (sorted) arena
        for r, n in groups:
            weight = ways * n
            row = sums[r]
            row[0] += weight
            row[1] += weight * (first not in dead)
            row[2] += weight * (first in earned)
            row[3] += weight * earned.get(first, 0)
            first += n
    if progress is not None:
        progress(1.0)
    return [FirstFight(r, Fraction(row[1], row[0]), Fraction(row[2], row[0]), Fraction(row[3], row[0]))
            for r, row in sums.items()]


def average(fights: Sequence[FirstFight]) -> FirstFight:
    """A card of a random rank, each rank being equally likely (4 of the 52 cards): the mean of the rows.
    `rank` is 0."""
    n = len(fights)
    return FirstFight(0, sum((f.survives for f in fights), Fraction(0)) / n,
                      sum((f.kills for f in fights), Fraction(0)) / n, sum((f.bounty for f in fights), Fraction(0)) / n)


# -- simulated matches ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class SeatOutcome:
    """What the analysis reads of one seat after a match: its own view at the end, and the result."""

    strategy: str
    chips: int
    won: bool
    cards: tuple[str, ...]  # its six fighters, dealt and hired, low to high
    opening: str  # the card it played in round 1
    bounty: int  # what that fighter earned in round 1
    survived: bool  # whether that fighter lived through round 1


@dataclass(frozen=True)
class Played:
    job: int
    seats: tuple[SeatOutcome, ...]


@dataclass(frozen=True)
class Study:
    """The simulated parts and their sizes, as plain data that pickles to any worker.

    Jobs are numbered through the parts in this order (`job(j)` gives a job's part and index):
    - `checks`: matches of random bots, whose first fights check the exact table;
    - `strategies`: matches between the `lineup`, cycling over the seats and shifted one seat each match;
    - `table`: matches of heuristic players: the value of each card rank;
    - `pairs` per cap: table match i played again with seat i mod seats buying 10-Q up to the cap (same
      deal, same bot seeds: common random numbers).
    Match i of a part is dealt with seed `seed + i`; the bot in seat s plays with seed (that seed) * 1000 + s.
    """

    seats: int = 4
    checks: int = 2000
    strategies: int = 240
    table: int = 200
    pairs: int = 100
    seed: int = 0
    lineup: tuple[str, ...] = STRATEGIES
    caps: tuple[int, ...] = CAPS

    def __post_init__(self) -> None:
        if self.pairs > self.table:
            raise ValueError("every pair replays a table match: pairs cannot exceed table")

    def parts(self) -> tuple[tuple[str, int], ...]:
        return (("checks", self.checks), ("strategies", self.strategies), ("table", self.table),
                ("pairs", self.pairs * len(self.caps)))

    @property
    def total(self) -> int:
        return sum(size for _, size in self.parts())

    def job(self, j: int) -> tuple[str, int]:
        for part, size in self.parts():
            if j < size:
                return part, j
            j -= size
        raise IndexError("no such job")

    def number(self, part: str, i: int) -> int:
        """The job number of match i of a part (the inverse of `job`)."""
        before = 0
        for name, size in self.parts():
            if name == part:
                return before + i
            before += size
        raise KeyError(part)

    def kinds(self, part: str, i: int) -> list[str]:
        if part == "checks":
            return ["random"] * self.seats
        if part == "strategies":
            return seat_kinds(self.lineup, self.seats, i)
        kinds = ["heuristic"] * self.seats
        if part == "pairs":
            kinds[self.hero(i % self.pairs)] = f"{BUY_PREFIX}{self.caps[i // self.pairs]}"
        return kinds

    def hero(self, pair: int) -> int:
        """The seat that buys in pair `pair` (every seat in turn)."""
        return pair % self.seats

    def match_seed(self, part: str, i: int) -> int:
        return self.seed + (i % self.pairs if part == "pairs" else i)


def _seat(match: Match, seat: int, strategy: str, winners: set[int]) -> SeatOutcome:
    view = match.view(seat)
    first = view["history"][0]  # round 1 is always fought: its bounties cannot empty the pot
    kills = first["kills"]
    cards = [h["plays"][seat] for h in view["history"]] + view["my_hand"]
    return SeatOutcome(strategy, view["chips"][seat], seat in winners, tuple(by_rank(cards)), first["plays"][seat],
                       sum(k["paid"] for k in kills if k["killer"]["owner"] == seat),
                       # In round 1 every seat has one fighter, so its owner names it.
                       all(k["victim"]["owner"] != seat for k in kills))


def play_job(study: Study, j: int) -> Played:
    """Plays job j of the study: one whole match through the engine."""
    from partygames.games import get

    game = get("last-man-standing")
    part, i = study.job(j)
    kinds = study.kinds(part, i)
    seed = study.match_seed(part, i)
    bots = [strategy_bot(kind)(seat, seed * 1000 + seat) for seat, kind in enumerate(kinds)]
    match, _ = play(game, study.seats, bots, None, seed)
    result = match.result()
    assert result is not None
    winners = {s.seat for s in result.seats if s.is_winner}
    return Played(j, tuple(_seat(match, s, kinds[s], winners) for s in range(study.seats)))


def play_jobs(study: Study, start: int, count: int) -> list[Played]:
    """What a worker runs: jobs start .. start+count-1."""
    return [play_job(study, j) for j in range(start, start + count)]


# -- the figures ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class OpeningCheck:
    """Simulated round-1 fighters of one rank (0: every rank): how often they survived, what they earned."""

    rank: int
    fighters: int
    survived: int
    bounty: Interval

    @property
    def survival(self) -> Interval:
        share = self.survived / self.fighters if self.fighters else float("nan")
        return (share, *wilson_interval(self.survived, self.fighters))

    def to_json(self) -> dict[str, Any]:
        return {"rank": rank_name(self.rank) if self.rank else "any", "fighters": self.fighters,
                "survives": list(self.survival), "bounty": list(self.bounty)}


@dataclass(frozen=True)
class StrategyRate:
    """The seats one strategy played: its win rate (a tie shares the win: all are winners) and mean chips."""

    strategy: str
    seats: int
    wins: int
    chips: Interval

    @property
    def win_rate(self) -> Interval:
        return (self.wins / self.seats if self.seats else float("nan"), *wilson_interval(self.wins, self.seats))

    def to_json(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "seats": self.seats, "wins": self.wins, "win_rate": list(self.win_rate),
                "chips": list(self.chips)}


@dataclass(frozen=True)
class CardValue:
    """Seats of heuristic players holding a card of `rank` (counted once per such card): the chips they
    ended with over their table's average, and their win rate."""

    rank: int
    cards: int
    chips: Interval
    win_rate: Interval

    def to_json(self) -> dict[str, Any]:
        return {"rank": rank_name(self.rank), "cards": self.cards, "chips_over_table_average": list(self.chips),
                "win_rate": list(self.win_rate)}


@dataclass(frozen=True)
class HireValue:
    """One seat buying 10-Q up to `cap` at a table of heuristic players, against the same match with it
    hiring the free card: the paired differences in its final chips and its win (in points of 1)."""

    cap: int
    pairs: int
    changed: int  # pairs in which the buyer ended with other fighters than the free hirer
    chips: Interval
    win: Interval

    def to_json(self) -> dict[str, Any]:
        return {"cap": self.cap, "pairs": self.pairs, "changed": self.changed, "chips_difference": list(self.chips),
                "win_difference": list(self.win)}


@dataclass(frozen=True)
class Report:
    study: Study
    checks: list[OpeningCheck]
    strategies: list[StrategyRate]
    table_win_rate: float | None  # the share of seats that won at the table of heuristic players
    cards: list[CardValue]
    hires: list[HireValue]

    def to_json(self) -> dict[str, Any]:
        s = self.study
        return {"seats": s.seats, "seed": s.seed,
                "matches": {"checks": s.checks, "strategies": s.strategies, "table": s.table, "pairs": s.pairs},
                "first_fight_simulated": [c.to_json() for c in self.checks],
                "strategies": [r.to_json() for r in self.strategies], "table_win_rate": self.table_win_rate,
                "card_values": [c.to_json() for c in self.cards], "hires": [h.to_json() for h in self.hires]}


def simulate(study: Study, workers: int = 1, progress: Callable[[int], None] | None = None) -> Report:
    """Plays every job of the study (on `workers` processes when more than 1) and gathers the figures;
    `progress(done)` is told how many matches are finished."""
    if workers > 1:
        played = list(map_chunks(partial(play_jobs, study), study.total, workers, progress))
    else:
        played = []
        for j in range(study.total):
            played.append(play_job(study, j))
            if progress is not None:
                progress(j + 1)
    played.sort(key=lambda p: p.job)
    by_part: dict[str, list[Played]] = {part: [] for part, _ in study.parts()}
    for p in played:
        by_part[study.job(p.job)[0]].append(p)
    table = by_part["table"]
    # A part of size 0 gives no rows.
    return Report(study, _checks(by_part["checks"]) if study.checks else [],
                  _strategies(study, by_part["strategies"]) if study.strategies else [],
                  _win_share(table), _card_values(table) if table else [],
                  _hires(study, table, by_part["pairs"]) if study.pairs else [])


def _checks(matches: list[Played]) -> list[OpeningCheck]:
    rows = []
    for rank in (*RANKS, 0):
        seats = [s for m in matches for s in m.seats if rank in (0, RANK[s.opening])]
        rows.append(OpeningCheck(rank, len(seats), sum(s.survived for s in seats),
                                 mean_interval([float(s.bounty) for s in seats])))
    return rows


def _strategies(study: Study, matches: list[Played]) -> list[StrategyRate]:
    rows = []
    for strategy in dict.fromkeys(study.lineup):
        seats = [s for m in matches for s in m.seats if s.strategy == strategy]
        rows.append(StrategyRate(strategy, len(seats), sum(s.won for s in seats),
                                 mean_interval([float(s.chips) for s in seats])))
    return rows


def _win_share(matches: list[Played]) -> float | None:
    seats = [s for m in matches for s in m.seats]
    return sum(s.won for s in seats) / len(seats) if seats else None


def _card_values(matches: list[Played]) -> list[CardValue]:
    """Per rank, a ratio over matches (the seats of a match are not independent; matches are): the sums over
    a match's seats of (cards of the rank) x (chips over the match's average), and of (cards) x (won), over
    the sum of (cards of the rank)."""
    rows = []
    for rank in RANKS:
        chips, wins, held = [], [], []
        for m in matches:
            mean = sum(s.chips for s in m.seats) / len(m.seats)
            counts = [sum(RANK[c] == rank for c in s.cards) for s in m.seats]
            chips.append(sum(n * (s.chips - mean) for n, s in zip(counts, m.seats, strict=True)))
            wins.append(float(sum(n * s.won for n, s in zip(counts, m.seats, strict=True))))
            held.append(float(sum(counts)))
        rate, low, high = ratio_interval(wins, held)
        rows.append(CardValue(rank, int(sum(held)), ratio_interval(chips, held), (rate, max(0.0, low), min(1.0, high))))
    return rows


def _hires(study: Study, table: list[Played], pairs: list[Played]) -> list[HireValue]:
    rows = []
    for c, cap in enumerate(study.caps):
        chips, wins, changed = [], [], 0
        for pair in range(study.pairs):
            hero = study.hero(pair)
            bought = pairs[c * study.pairs + pair].seats[hero]
            free = table[pair].seats[hero]
            chips.append(float(bought.chips - free.chips))
            wins.append(float(bought.won) - float(free.won))
            changed += bought.cards != free.cards
        rows.append(HireValue(cap, study.pairs, changed, mean_interval(chips), mean_interval(wins)))
    return rows


# -- the plot ------------------------------------------------------------------------------------------

def plot(report: Report, exact: Sequence[FirstFight], path: Path, titles: dict[str, str]) -> Path:
    """Saves a PNG of four panels: the exact first fight against the simulated one, the strategies' win
    rates, the value of each card, the value of buying 10-Q. `titles` names the strategies (in English:
    matplotlib's default fonts have no Japanese glyphs). Empty parts leave their panel empty."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def bars(axis: Any, labels: list[str], rows: list[Interval], color: str) -> None:
        axis.bar(labels, [r[0] for r in rows], color=color, yerr=error_bars(rows), capsize=3)

    seats = report.study.seats
    fig, ((fight, strategies), (cards, hires)) = plt.subplots(2, 2, figsize=(13, 8.5))
    names = [rank_name(r) for r in RANKS]
    simulated = [c for c in report.checks if c.rank and c.fighters]
    bounty = fight.twinx()
    fight.plot(names, [float(f.survives) for f in exact], "o-", color="tab:blue", label="survives (exact)")
    bounty.plot(names, [float(f.bounty) for f in exact], "s-", color="tab:red", label="bounty $ (exact, right)")
    if simulated:
        ticks = [rank_name(c.rank) for c in simulated]
        fight.errorbar(ticks, [c.survival[0] for c in simulated], fmt="none", capsize=3, color="navy",
                       yerr=error_bars([c.survival for c in simulated]), label="random bots, 95%")
        bounty.errorbar(ticks, [c.bounty[0] for c in simulated], fmt="none", capsize=3, color="darkred",
                        yerr=error_bars([c.bounty for c in simulated]), label="random bots, 95%")
    fight.set_title(f"Round 1 at {seats} seats, the others' cards at random")
    fight.set_xlabel("rank of my card")
    fight.set_ylabel("probability")
    fight.set_ylim(0, 1.05)
    bounty.set_ylabel("bounty ($)")
    bounty.set_ylim(0, None)
    lines, labels = fight.get_legend_handles_labels()
    more_lines, more_labels = bounty.get_legend_handles_labels()
    fight.legend(lines + more_lines, labels + more_labels, fontsize=8, loc="upper left")
    if report.strategies:
        bars(strategies, [titles[r.strategy] for r in report.strategies], [r.win_rate for r in report.strategies],
             "tab:green")
        strategies.axhline(1 / seats, color="grey", linestyle=":", linewidth=1)
        strategies.tick_params(axis="x", labelrotation=20, labelsize=8)
    strategies.set_title(f"Win rate by strategy ({report.study.strategies} matches, 95%)")
    if report.cards:
        bars(cards, names, [c.chips for c in report.cards], "tab:orange")
        cards.axhline(0, color="grey", linewidth=1)
    cards.set_title(f"Value of a card: chips over the table average ({report.study.table} matches, 95%)")
    cards.set_xlabel("rank of one of my six fighters (heuristic players)")
    if report.hires:
        bars(hires, [f"up to ${h.cap}" for h in report.hires], [h.chips for h in report.hires], "tab:purple")
        hires.axhline(0, color="grey", linewidth=1)
    hires.set_title(f"Buying 10-Q vs the free card: chips gained ({report.study.pairs} pairs each, 95%)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
