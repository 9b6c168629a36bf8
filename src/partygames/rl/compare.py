"""A game's own bot against OpenSpiel's MCTS, through OpenSpiel's `evaluate_bots`: the MCTS bot takes each
seat in turn, the game's bot (e.g. `heuristic`) the others; returns are 1 for a win (ties share it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from partygames.analysis.stats import wilson_interval
from partygames.rl import openspiel
from partygames.rl.bots import DeterminizedMCTSBot, EngineBot
from partygames.rl.openspiel import PartyGamesGame


@dataclass(frozen=True)
class Comparison:
    game_id: str
    seats: int
    games: int
    mcts_wins: float
    bot_wins: float  # summed over the bot's seats
    mcts_think_ms: float  # mean per decision
    bot_think_ms: float
    bot: str

    def line(self) -> str:
        low, high = wilson_interval(round(self.mcts_wins), self.games)
        bot_games = self.games * (self.seats - 1)
        bot_low, bot_high = wilson_interval(round(self.bot_wins), bot_games)
        return (f"{self.game_id} ({self.seats} seats, {self.games} games): win rate per seat MCTS "
                f"{self.mcts_wins / self.games:.3f} [{low:.3f}, {high:.3f}] ({self.mcts_think_ms:.1f} ms/decision), "
                f"{self.bot} {self.bot_wins / bot_games:.3f} [{bot_low:.3f}, {bot_high:.3f}] "
                f"({self.bot_think_ms:.2f} ms/decision)")


def compare(game_id: str, games: int, seats: int | None = None, options: dict[str, Any] | None = None,
            bot: str = "heuristic", simulations: int = 32, determinizations: int = 2,
            seconds: float | None = None, seed: int = 0, rollout_length: int | None = None) -> Comparison:
    """`games` matches; MCTS plays seat `i % seats` of match i (`seconds`: its think time per decision,
    else `simulations` per decision)."""
    params: dict[str, Any] = {} if seats is None else {"players": seats}
    if options is not None:
        params["options"] = openspiel.encode_options(options)
    game = pyspiel.load_game(openspiel.short_name(game_id), params)
    assert isinstance(game, PartyGamesGame)
    count = game.num_players()
    mcts_wins = bot_wins = 0.0
    mcts_time = bot_time = 0.0
    mcts_decisions = bot_decisions = 0
    for i in range(games):
        searcher = i % count
        bots: list[Any] = [
            DeterminizedMCTSBot(game, p, simulations, determinizations, seed=seed + i, seconds=seconds,
                                rollout_length=rollout_length)
            if p == searcher else EngineBot(game, p, game.table.game.make_bot(bot, p, (seed + i) * 1000 + p))
            for p in range(count)]
        returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(seed + i))
        for p, b in enumerate(bots):
            if p == searcher:
                mcts_wins += returns[p]
                mcts_time, mcts_decisions = mcts_time + b.think_seconds, mcts_decisions + b.decisions
            else:
                bot_wins += returns[p]
                bot_time, bot_decisions = bot_time + b.think_seconds, bot_decisions + b.decisions
    return Comparison(game_id, count, games, mcts_wins, bot_wins, 1000 * mcts_time / max(1, mcts_decisions),
                      1000 * bot_time / max(1, bot_decisions), bot)
