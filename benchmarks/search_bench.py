"""The search bot's strength (issue 22): for every game, on short tables, pairs of bots at a think time of
`--think-ms` per decision (default 50), `--matches` matches a pair (default 200), with 95% Wilson
intervals:

- search vs heuristic, heuristic vs random: engine matches (`engine.session.play`, the virtual clock), each
  played a second time with B at A's seat too (the same seeds: a duplicate), so that A's gain over B at
  the same seat is measured paired, far more precisely than the two win rates;
- search vs OpenSpiel's MCTS (`rl.bots.DeterminizedMCTSBot`: UCT with random rollouts on one
  determinisation a decision) and vs OpenSpiel's ISMCTS (`rl.bots.TimedISMCTSBot`: `ISMCTSBot` resampling
  through the game's determiniser), at the same think time: OpenSpiel matches (`evaluate_bots`; the search
  bot plays through `rl.bots.EngineBot`, told its seat's events; every move takes a second of match time),
  with `--duplicate-openspiel` also played as duplicates;
- Smuggling: the equilibrium bot vs search, the search bot's mean money margin against it per small game,
  and the exploitability of the search bot's play in a small game with full caps (a trunk cap of 1億 and a
  doubt cap of at least that): what a best response to its observed mix gains over the game's value C/3.

In pair "A vs B", A plays seat i % seats of match i and B every other seat; a rate is per seat (B's seats
of one match count as separate trials, so its interval is narrower than it should be). Think times are
CPU time (`time.process_time`) of the bot's process: the machine is shared and busy, and CPU time keeps the
load from starving one side. Pairs run on worker processes (`analysis.parallel.map_chunks`, `--workers`).
Prints one line per pair as it finishes, then a Markdown table; asserts nothing.

    .venv/bin/python benchmarks/search_bench.py [--matches 200] [--think-ms 50] [--workers 2] [--game lucky-nine]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from mcts_bench import TABLES  # the short tables of mcts_bench.py: (seats, options)

from partygames import games
from partygames.analysis.parallel import map_chunks
from partygames.analysis.stats import mean_interval, wilson_interval
from partygames.engine.bots import Bot
from partygames.engine.game import Game
from partygames.engine.match import Result
from partygames.engine.search import Budget, SearchBot
from partygames.engine.session import Session

PAIRS = (("search", "heuristic"), ("heuristic", "random"), ("search", "mcts"), ("search", "ismcts"))
OPENSPIEL = ("mcts", "ismcts")
CAP = 100_000_000  # Smuggling's trunk cap: the small game whose exploitability is measured


@dataclass
class Outcome:
    """One match of a pair: A's win (1/0), B's wins over its seats, and each side's search figures."""

    a_won: float
    b_won: float
    b_seats: int
    think: dict[str, list[float]] = field(default_factory=dict)  # side -> [decisions, seconds, simulations]
    margin: float | None = None  # Smuggling: A's team total minus B's, yen
    b_there: float | None = None  # engine pairs: B's win at A's seat in the same match played by B alone
    plays: list[tuple[str, float]] = field(default_factory=list)  # Smuggling: search's full-cap packs, doubts


def table(game_id: str) -> tuple[Game, int, dict[str, Any]]:
    game = games.get(game_id)
    seats, options = TABLES[game_id]
    if options is None:
        research = game.samples.research
        assert research is not None
        options = dict(research.options)
    return game, seats, options


def _engine_bot(game: Game, kind: str, seat: int, seed: int, seats: int, options: dict[str, Any],
                think_ms: float, bots: Sequence[int] = ()) -> Bot:
    bot = game.make_bot(kind, seat, seed, table=game.table(seats, options, bots), budget=Budget(ms=think_ms))
    if isinstance(bot, SearchBot):
        bot.clock = time.process_time
    return bot


def play_engine(game_id: str, a: str, b: str, think_ms: float, start: int, count: int) -> list[Outcome]:
    """Matches start .. start+count-1 of pair a vs b in engine sessions."""
    game, seats, options = table(game_id)

    def played(i: int, at_me: str) -> tuple[dict[int, Bot], Session, Result]:
        """Match i with `at_me` at seat i % seats and B at every other (each bot's seed fixed by i and seat)."""
        me = i % seats
        bots = {s: _engine_bot(game, at_me if s == me else b, s, i * 1000 + s, seats, options, think_ms,
                               range(seats)) for s in range(seats)}
        session = Session.new(game, seats, options, i, bots)
        session.run_bots()
        result = session.match.result()
        assert result is not None
        return bots, session, result

    outcomes = []
    for i in range(start, start + count):
        me = i % seats
        bots, session, result = played(i, a)
        won = {r.seat: float(r.is_winner) for r in result.seats}
        outcome = Outcome(won[me], sum(w for s, w in won.items() if s != me), seats - 1)
        # The duplicate: the same match (seed, every bot's seed) with B at A's seat too.
        outcome.b_there = float(next(r.is_winner for r in played(i, b)[2].seats if r.seat == me))
        for side, kind in (("a", a), ("b", b)):
            searchers = [bot for s, bot in bots.items() if isinstance(bot, SearchBot) and (s == me) == (side == "a")]
            if kind == "search" and searchers:
                outcome.think[side] = [sum(x.stats.searched for x in searchers), sum(x.stats.seconds for x in searchers),
                                       sum(x.stats.simulations for x in searchers)]
        if game_id == "smuggling":
            difference = result.detail["difference"]
            outcome.margin = float(difference if me % 2 == 0 else -difference)
            for s in range(seats):
                if isinstance(bots[s], SearchBot):
                    outcome.plays += _smuggling_plays(game, session, s)
        outcomes.append(outcome)
    return outcomes


def _smuggling_plays(game: Game, played: Session, seat: int) -> list[tuple[str, float]]:
    """The seat's packs and declarations in small games with full caps, as fractions of the cap."""
    from partygames.games.smuggling.bots import _caps

    plays = []
    replay = Session(game, game.new(played.match.seats, played.match.options, played.match.seed,
                                    bots=played.match.bot_seats))
    for entry in played.log.entries:
        if entry.seat == seat and entry.action is not None and entry.action["type"] in ("pack", "doubt", "pass"):
            _, trunk_max, doubt_max = _caps(replay.match.view(seat))
            if trunk_max == CAP and doubt_max == CAP:
                kind = entry.action["type"]
                amount = entry.action.get("amount", 0)
                plays.append(("pack" if kind == "pack" else "doubt", amount / CAP))
        replay.replay_entry(entry)
    return plays


def play_openspiel(game_id: str, a: str, b: str, think_ms: float, start: int, count: int,
                   duplicate: bool = False) -> list[Outcome]:
    """Matches start .. start+count-1 of pair a vs b through OpenSpiel's `evaluate_bots`; with `duplicate`,
    each a second time with B at A's seat too (twice the time)."""
    import numpy as np
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from partygames.rl.bots import DeterminizedMCTSBot, EngineBot, TimedBot, TimedISMCTSBot
    from partygames.rl.compare import load

    game, seats, options = table(game_id)
    spiel = load(game_id, seats, options)
    codec = spiel.table.encoder.codec
    seconds = think_ms / 1000

    def played(i: int, at_me: str) -> tuple[list[TimedBot], list[float]]:
        """Match i with `at_me` at seat i % seats and B at every other (each bot's seed fixed by i and seat)."""
        me = i % seats
        bots: list[TimedBot] = []
        for p in range(seats):
            kind = at_me if p == me else b
            if kind == "mcts":
                bots.append(DeterminizedMCTSBot(spiel, p, determinizations=1, seed=i * 1000 + p, seconds=seconds,
                                                clock=time.process_time))
            elif kind == "ismcts":
                bots.append(TimedISMCTSBot(spiel, p, seconds=seconds, seed=i * 1000 + p, clock=time.process_time))
            else:
                bot = _engine_bot(game, kind, p, i * 1000 + p, seats, options, think_ms)
                if isinstance(bot, SearchBot):
                    bot.admissible = lambda action, specs: codec.encode(action, specs) is not None
                bots.append(EngineBot(spiel, p, bot, clock=time.process_time))
        return bots, list(evaluate_bots(spiel.new_initial_state(), bots, np.random.RandomState(i)))

    outcomes = []
    for i in range(start, start + count):
        me = i % seats
        bots, returns = played(i, a)
        outcome = Outcome(returns[me], sum(returns) - returns[me], seats - 1)
        if duplicate:  # the same match (chance seed, every bot's seed) with B at A's seat too
            outcome.b_there = played(i, b)[1][me]
        for side in ("a", "b"):
            mine = [bot for p, bot in enumerate(bots) if (p == me) == (side == "a")]
            simulations = 0.0
            for bot in mine:
                inner = bot.bot if isinstance(bot, EngineBot) else bot
                simulations += inner.stats.simulations if isinstance(inner, SearchBot) else getattr(inner, "simulations", 0)
            outcome.think[side] = [sum(x.choices for x in mine), sum(x.choice_seconds for x in mine), simulations]
        outcomes.append(outcome)
    return outcomes


def rate(wins: float, trials: int) -> str:
    low, high = wilson_interval(round(wins), trials)
    return f"{wins / trials:.3f} [{low:.3f}, {high:.3f}]"


def think(outcomes: list[Outcome], side: str) -> str:
    rows = [o.think[side] for o in outcomes if side in o.think]
    decisions = sum(r[0] for r in rows)
    if not decisions:
        return "-"
    return f"{1000 * sum(r[1] for r in rows) / decisions:.1f} ms, {sum(r[2] for r in rows) / decisions:.0f} sims"


def exploitability(plays: list[tuple[str, float]]) -> tuple[float, float, int, int]:
    """What a best response to the observed mixes gains over the value C/3, in units of the cap C: against
    the packs (an inspector's best doubt) and against the declarations (a smuggler's best trunk), on a
    grid of 1% of the cap; and how many of each were observed."""
    packs = [x for kind, x in plays if kind == "pack"]
    doubts = [x for kind, x in plays if kind == "doubt"]
    grid = [k / 100 for k in range(101)]

    def payoff(trunk: float, doubt: float) -> float:  # the smuggler's, in units of the cap (analysis.py)
        if doubt == 0:
            return trunk
        if trunk == 0:
            return doubt
        return -trunk if trunk <= doubt else trunk + doubt

    value = 1 / 3
    against_packs = value - min(sum(payoff(t, x) for t in packs) / len(packs) for x in grid) if packs else float("nan")
    against_doubts = max(sum(payoff(t, x) for x in doubts) / len(doubts) for t in grid) - value if doubts else float("nan")
    return against_packs, against_doubts, len(packs), len(doubts)


def run_pair(game_id: str, a: str, b: str, matches: int, think_ms: float, workers: int,
             duplicate_openspiel: bool = False) -> tuple[str, list[Outcome]]:
    if a in OPENSPIEL or b in OPENSPIEL:
        task = partial(play_openspiel, game_id, a, b, think_ms, duplicate=duplicate_openspiel)
    else:
        task = partial(play_engine, game_id, a, b, think_ms)
    started = time.perf_counter()
    outcomes = list(map_chunks(task, matches, workers))
    a_rate = rate(sum(o.a_won for o in outcomes), len(outcomes))
    b_rate = rate(sum(o.b_won for o in outcomes), sum(o.b_seats for o in outcomes))
    row = (f"| {game_id} | {a} vs {b} | {a_rate} | {b_rate} | {think(outcomes, 'a')} | {think(outcomes, 'b')} |")
    print(f"{row} [{len(outcomes)} matches, {time.perf_counter() - started:.0f} s]", flush=True)
    return row, outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--think-ms", type=float, default=50.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--pair", action="append", help="only this pair, e.g. search-heuristic (repeatable)")
    parser.add_argument("--duplicate-openspiel", action="store_true",
                        help="play the pairs against OpenSpiel's searches as duplicates too (twice the time)")
    args = parser.parse_args()
    pairs = [tuple(p.split("-", 1)) for p in args.pair] if args.pair else list(PAIRS)
    rows = []
    notes = []
    for game_id in args.game or list(TABLES):
        game_pairs = list(pairs)
        if game_id == "smuggling" and not args.pair:
            game_pairs.append(("equilibrium", "search"))
        for a, b in game_pairs:
            row, outcomes = run_pair(game_id, a, b, args.matches, args.think_ms, args.workers, args.duplicate_openspiel)
            rows.append(row)
            duplicates = [o.a_won - o.b_there for o in outcomes if o.b_there is not None]
            if duplicates:
                mean, low, high = mean_interval(duplicates)
                notes.append(f"{game_id}: {a} against {b} at the same seat of the same match (the other seats and "
                             f"every seed unchanged): win {mean:+.3f} [{low:+.3f}, {high:+.3f}] over "
                             f"{len(duplicates)} matches")
            if game_id == "smuggling" and "search" in (a, b) and b == "search":
                margins = [-(o.margin or 0.0) / TABLES[game_id][1]["small_games"] for o in outcomes]  # type: ignore[index]
                mean, low, high = mean_interval(margins)
                notes.append(f"smuggling: search's mean margin against the equilibrium bot per small game "
                             f"{mean / 1e6:+.1f}M yen [{low / 1e6:+.1f}M, {high / 1e6:+.1f}M] "
                             f"(0 when both play the equilibrium)")
            if game_id == "smuggling" and "search" in (a, b) and "mcts" not in (a, b) and "ismcts" not in (a, b):
                packs, doubts, n_packs, n_doubts = exploitability([p for o in outcomes for p in o.plays])
                opponent = a if b == "search" else b
                notes.append(f"smuggling: exploitability of search (vs {opponent}) in a full-cap small game, in units of "
                             f"the cap C = 1億: its packs {packs:.3f} ({n_packs} seen), its declarations "
                             f"{doubts:.3f} ({n_doubts} seen); the equilibrium's is 0")
    print(f"\nThink time {args.think_ms:g} ms CPU per decision, {args.matches} matches a pair.\n")
    print("| game | pair (A vs B) | A win rate per seat | B win rate per seat | A think | B think |\n"
          "|---|---|---|---|---|---|")
    print("\n".join(rows))
    for note in notes:
        print(f"\n{note}")


if __name__ == "__main__":
    main()
