"""A game's own bot against OpenSpiel's MCTS, through OpenSpiel's `evaluate_bots`: the MCTS bot takes each
seat in turn, the game's bot (e.g. `heuristic`) the others; returns are 1 for a win (ties share it).

At equal think time (`equal_think_time`): the bot's mean think time per decision is measured first, on
the same table with the bot at every seat, and MCTS then gets exactly that budget per decision."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from partygames.analysis.stats import wilson_interval
from partygames.rl import openspiel
from partygames.rl.bots import DeterminizedMCTSBot, EngineBot, TimedBot
from partygames.rl.openspiel import PartyGamesGame


@dataclass(frozen=True)
class Comparison:
    """Wins summed over matches (the bot's over its seats); think times are means per decision with more
    than one legal action (forced moves are not searched); `budget_ms` is MCTS's think time per decision
    (None: a number of simulations instead)."""

    game_id: str
    seats: int
    games: int
    mcts_wins: float
    bot_wins: float
    mcts_think_ms: float
    bot_think_ms: float
    bot: str
    budget_ms: float | None
    mcts_choices: int
    simulations: int
    fewest_simulations: int  # in one decision MCTS searched
    bot_alone_ms: float | None = None  # the bot's think time measured first, alone (`equal_think_time`)

    def line(self) -> str:
        low, high = wilson_interval(round(self.mcts_wins), self.games)
        bot_games = self.games * (self.seats - 1)
        bot_low, bot_high = wilson_interval(round(self.bot_wins), bot_games)
        budget = "" if self.budget_ms is None else f"budget {self.budget_ms:.2f} ms, "
        if self.bot_alone_ms is not None:
            budget = f"budget {self.budget_ms:.2f} ms: the {self.bot}'s own, "
        return (f"{self.game_id} ({self.seats} seats, {self.games} games): win rate per seat MCTS "
                f"{self.mcts_wins / self.games:.3f} [{low:.3f}, {high:.3f}] ({budget}"
                f"{self.mcts_think_ms:.2f} ms/decision, {self.simulations / max(1, self.mcts_choices):.1f} "
                f"simulations/decision), {self.bot} {self.bot_wins / bot_games:.3f} [{bot_low:.3f}, "
                f"{bot_high:.3f}] ({self.bot_think_ms:.2f} ms/decision)")


def load(game_id: str, seats: int | None = None, options: dict[str, Any] | None = None) -> PartyGamesGame:
    """The OpenSpiel game of `game_id` at a table (default: the game's research table)."""
    params: dict[str, Any] = {} if seats is None else {"players": seats}
    if options is not None:
        params["options"] = openspiel.encode_options(options)
    game = pyspiel.load_game(openspiel.short_name(game_id), params)
    assert isinstance(game, PartyGamesGame)
    return game


def _engine_bot(game: PartyGamesGame, bot: str, player: int, seed: int) -> EngineBot:
    table = game.table
    return EngineBot(game, player, table.game.make_bot(bot, player, seed * 1000 + player,
                                                       table=table.game.table(table.seats, table.options)))


def think_time(game_id: str, games: int, seats: int | None = None, options: dict[str, Any] | None = None,
               bot: str = "heuristic", seed: int = 0) -> float:
    """The bot's mean think time per decision (seconds; decisions with more than one legal action), over
    `games` matches with it at every seat."""
    game = load(game_id, seats, options)
    seconds, choices = 0.0, 0
    for i in range(games):
        bots = [_engine_bot(game, bot, p, seed + i) for p in range(game.num_players())]
        evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(seed + i))
        seconds += sum(b.choice_seconds for b in bots)
        choices += sum(b.choices for b in bots)
    if choices == 0:
        raise ValueError(f"{game_id}: the {bot} bot made no decision with a choice in {games} matches")
    return seconds / choices


def compare(game_id: str, games: int, seats: int | None = None, options: dict[str, Any] | None = None,
            bot: str = "heuristic", simulations: int = 32, determinizations: int = 2,
            seconds: float | None = None, seed: int = 0, rollout_length: int | None = None) -> Comparison:
    """`games` matches; MCTS plays seat `i % seats` of match i (`seconds`: its think time per decision,
    else `simulations` per decision)."""
    game = load(game_id, seats, options)
    count = game.num_players()
    mcts_wins = bot_wins = 0.0
    searchers: list[DeterminizedMCTSBot] = []
    others: list[TimedBot] = []
    for i in range(games):
        searcher = DeterminizedMCTSBot(game, i % count, simulations, determinizations, seed=seed + i,
                                       seconds=seconds, rollout_length=rollout_length)
        bots: list[TimedBot] = [searcher if p == i % count else _engine_bot(game, bot, p, seed + i)
                                for p in range(count)]
        returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(seed + i))
        mcts_wins += returns[i % count]
        bot_wins += sum(returns) - returns[i % count]
        searchers.append(searcher)
        others.extend(b for b in bots if b is not searcher)
    mcts_choices = sum(b.choices for b in searchers)
    return Comparison(
        game_id, count, games, mcts_wins, bot_wins,
        1000 * sum(b.choice_seconds for b in searchers) / max(1, mcts_choices),
        1000 * sum(b.choice_seconds for b in others) / max(1, sum(b.choices for b in others)), bot,
        None if seconds is None else 1000 * seconds, mcts_choices, sum(b.simulations for b in searchers),
        min((b.fewest for b in searchers if b.fewest is not None), default=0))


def equal_think_time(game_id: str, games: int, seats: int | None = None, options: dict[str, Any] | None = None,
                     bot: str = "heuristic", warm_up: int = 4, seed: int = 0,
                     rollout_length: int | None = None) -> Comparison:
    """`compare` with MCTS given the bot's own mean think time per decision, measured first over
    `warm_up` matches of the bot alone on the same table (one determinisation: the budget is small)."""
    budget = think_time(game_id, warm_up, seats, options, bot, seed)
    result = compare(game_id, games, seats, options, bot, determinizations=1, seconds=budget, seed=seed,
                     rollout_length=rollout_length)
    return replace(result, bot_alone_ms=1000 * budget)
