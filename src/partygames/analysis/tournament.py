"""Simulating many seeded matches between bot kinds, with per-kind statistics."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from partygames.analysis.stats import mean_interval, wilson_interval
from partygames.engine.game import Game
from partygames.engine.log import MatchLog
from partygames.engine.match import Match, Result
from partygames.engine.search import Budget
from partygames.engine.session import play

SEARCH_SIMULATIONS = 100
"""The search bot's budget in simulations (`simulate`): a count, so that a seeded series is reproducible."""


@dataclass
class KindStats:
    """Results of every seat a bot kind played."""

    kind: str
    scores: list[float] = field(default_factory=list)
    wins: int = 0
    seats_played: int = 0

    def summary(self) -> dict[str, Any]:
        mean, low, high = mean_interval(self.scores)
        win_low, win_high = wilson_interval(self.wins, self.seats_played)
        return {
            "bot": self.kind,
            "seats_played": self.seats_played,
            "mean_score": mean,
            "mean_score_ci95": [low, high],
            "win_rate": self.wins / self.seats_played if self.seats_played else 0.0,
            "win_rate_ci95": [win_low, win_high],
        }


@dataclass
class Tournament:
    """The outcome of `simulate`."""

    game: str
    games: int
    seats: int
    kinds: list[str]
    stats: dict[str, KindStats]
    actions: int
    seconds: float
    seed: int = 0
    winners: int = 0
    """Winning seats over all matches."""
    shared_wins: int = 0
    """Matches with more than one winning seat (a team, or a tie that shares the win)."""
    teams: list[list[int]] = field(default_factory=list)
    """The game's teams (seats), where it has teams (`team_seats`)."""
    lineups: dict[tuple[str, ...], list[int]] = field(default_factory=dict)
    """Per team line-up (its kinds, sorted): [teams that played with it, of them won]."""

    def summary(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "seats": self.seats,
            "seed": self.seed,
            "winners_per_match": self.winners / self.games if self.games else 0.0,
            "shared_wins": self.shared_wins,
            "bots": [self.stats[k].summary() for k in dict.fromkeys(self.kinds)],
            "seating": {"kinds_in_turn": self.kinds, "shifted_each_match": True},
            **({"teams": self.teams, "team_lineups": [
                {"kinds": list(lineup), "teams_played": played, "teams_won": won,
                 "win_rate": won / played if played else 0.0}
                for lineup, (played, won) in sorted(self.lineups.items())]} if self.teams else {}),
            "actions": self.actions,
            "seconds": self.seconds,
            "games_per_second": self.games / self.seconds if self.seconds else None,
            "actions_per_second": self.actions / self.seconds if self.seconds else None,
        }


def team_seats(game: Game, seats: int, options: dict[str, Any] | None) -> list[list[int]]:
    """The teams of a table, where the game has teams: its fixed `team:` chat channels (Smuggling: even
    seats North, odd South); [] for a game of individuals."""
    fixed = game.chat.fixed
    if fixed is None:
        return []
    channels = fixed(seats, game.options_for(seats, options))
    return [list(members) for name, members in channels.items() if name.startswith("team:")]


def seat_kinds(kinds: Sequence[str], seats: int, game_index: int) -> list[str]:
    """Which bot kind plays each seat in one game: the kinds cycle over the seats, shifted by one seat
    each game so that no kind keeps a seat position's advantage."""
    return [kinds[(seat + game_index) % len(kinds)] for seat in range(seats)]


@dataclass(frozen=True)
class SeriesMatch:
    """One finished match of a series, with the bot kind that played each seat."""

    kinds: list[str]
    match: Match
    log: MatchLog

    @property
    def result(self) -> Result:
        result = self.match.result()
        assert result is not None  # play() runs every match to its end
        return result


def play_series(game: Game, games: int, seats: int, kinds: Sequence[str], seed: int = 0,
                options: dict[str, Any] | None = None, start: int = 0,
                search_simulations: int = SEARCH_SIMULATIONS) -> Iterator[SeriesMatch]:
    """Plays `games` seeded matches, one at a time: match i uses seed `seed + i` and the seats given by
    `seat_kinds`; the bot in seat s of match i is seeded with `(seed + i) * 1000 + s`, and a search bot
    thinks `search_simulations` simulations a decision. With `start`, the matches start .. start+games-1
    of that series (what a worker of a parallel run plays)."""
    for kind in kinds:
        if kind not in game.bots:
            raise KeyError(f"{game.id} has no bot {kind!r} (bots: {', '.join(game.bots)})")
    table = game.table(seats, options, range(seats))  # every seat is a bot's
    budget = Budget(simulations=search_simulations)
    for i in range(start, start + games):
        assignment = seat_kinds(kinds, seats, i)
        bots = [game.make_bot(kind, seat, seed=(seed + i) * 1000 + seat, table=table, budget=budget)
                for seat, kind in enumerate(assignment)]
        match, log = play(game, seats, bots, options, seed=seed + i)
        yield SeriesMatch(assignment, match, log)


def simulate(game: Game, games: int, seats: int, kinds: Sequence[str], seed: int = 0,
             options: dict[str, Any] | None = None, save_dir: Path | None = None,
             progress: Callable[[int], None] | None = None, workers: int = 1,
             ray_address: str | None = None, search_simulations: int = SEARCH_SIMULATIONS) -> Tournament:
    """Plays a series of `games` seeded matches (`play_series`) and gathers per-kind statistics.

    `workers` > 1 plays it on that many processes of this machine, `ray_address` as Ray tasks (see
    `analysis/parallel.py`); either way the statistics are those of the single-process run, gathered in
    match order. `progress(done)` is told how many matches are finished."""
    from partygames.analysis.parallel import Series, in_order, outcomes, run_local, run_ray

    for kind in kinds:
        if kind not in game.bots:
            raise KeyError(f"{game.id} has no bot {kind!r} (bots: {', '.join(game.bots)})")
    series = Series(game.id, seats, tuple(kinds), seed, options, None if save_dir is None else str(save_dir),
                    search_simulations)
    stats = {k: KindStats(k) for k in kinds}
    teams = team_seats(game, seats, options)
    lineups: dict[tuple[str, ...], list[int]] = {}
    actions = winners = shared = 0
    start = time.perf_counter()
    if ray_address is not None:
        results: Iterable[Any] = in_order(run_ray(series, games, ray_address, progress), games)
    elif workers > 1:
        results = in_order(run_local(series, games, workers, progress), games)
    else:
        results = outcomes(series, 0, games)
    for outcome in results:
        actions += outcome.actions
        won = sum(outcome.winners)
        winners += won
        shared += won > 1
        for seat, kind in enumerate(outcome.kinds):
            entry = stats[kind]
            entry.scores.append(outcome.scores[seat])
            entry.wins += outcome.winners[seat]
            entry.seats_played += 1
        for members in teams:
            tally = lineups.setdefault(tuple(sorted(outcome.kinds[s] for s in members)), [0, 0])
            tally[0] += 1
            tally[1] += any(outcome.winners[s] for s in members)
        if progress is not None and workers <= 1 and ray_address is None:
            progress(outcome.index + 1)
    return Tournament(game.id, games, seats, list(kinds), stats, actions, time.perf_counter() - start, seed,
                      winners, shared, teams, lineups)
