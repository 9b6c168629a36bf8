"""OpenSpiel bots over partygames games: a game's own bot (`EngineBot`, e.g. the heuristic) and OpenSpiel's
MCTS over determinisations (`DeterminizedMCTSBot`); OpenSpiel's `uniform_random` comes from pyspiel."""

from __future__ import annotations

import random
import time
from collections import Counter

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from partygames.engine.bots import Bot, Observation
from partygames.engine.match import Match
from partygames.rl.openspiel import PartyGamesGame, PartyGamesState


def determinize(match: Match, player: int, rng: random.Random) -> Match:
    """A match `player` cannot tell from `match`: every secret but its own (and the future) redrawn with
    `Match.perturb_secrets`, which the conformance suite proves leaves this seat's view unchanged."""
    result = match
    for owner in [None, *range(match.seats)]:
        if owner != player:
            result = result.perturb_secrets(owner, rng) or result
    return result


class TimedBot(pyspiel.Bot):
    """An OpenSpiel bot for one player that counts its decisions and the time it thinks (for comparisons);
    a subclass chooses in `choose`."""

    def __init__(self, game: PartyGamesGame, player: int) -> None:
        pyspiel.Bot.__init__(self)
        self.game = game
        self.player = player
        self.think_seconds = 0.0
        self.decisions = 0

    def restart_at(self, state: PartyGamesState) -> None:
        pass

    def step(self, state: PartyGamesState) -> int:
        started = time.perf_counter()
        choice = self.choose(state, started)
        self.think_seconds += time.perf_counter() - started
        self.decisions += 1
        return choice

    def choose(self, state: PartyGamesState, started: float) -> int:
        """The action index for `state` (`started`: when this decision began, for a time budget)."""
        raise NotImplementedError


class EngineBot(TimedBot):
    """A game's own bot playing through the codec: its action, or the nearest the codec can express."""

    def __init__(self, game: PartyGamesGame, player: int, bot: Bot) -> None:
        super().__init__(game, player)
        self.bot = bot

    def choose(self, state: PartyGamesState, started: float) -> int:
        match = state.match
        assert match is not None
        specs = match.legal_actions(self.player)
        action = self.bot.act(Observation(self.player, specs, lambda: match.view(self.player), match.now))
        index = None if action is None else self.game.table.encoder.codec.nearest(action, specs)
        if index is None:
            raise ValueError(f"the codec cannot express {action!r} or anything near it")
        return index


class DeterminizedMCTSBot(TimedBot):
    """OpenSpiel's MCTS (UCT, random rollouts) run on `determinizations` determinised copies of the match
    per decision, `simulations` in all; the root's visit counts are summed and the most visited wins.
    With `seconds`, it searches determinisation after determinisation until that think time is spent;
    `rollout_length` cuts random rollouts after that many moves (an unfinished rollout is worth 0)."""

    def __init__(self, game: PartyGamesGame, player: int, simulations: int = 64, determinizations: int = 4,
                 seed: int = 0, uct_c: float = 2.0, seconds: float | None = None,
                 rollout_length: int | None = None) -> None:
        super().__init__(game, player)
        self.determinizations = determinizations
        self.seconds = seconds
        self.rng = random.Random(seed)
        state = np.random.RandomState(seed)
        self.search = mcts.MCTSBot(game, uct_c, max(1, simulations // determinizations),
                                   mcts.RandomRolloutEvaluator(1, state, rollout_length), solve=False,
                                   random_state=state)

    def choose(self, state: PartyGamesState, started: float) -> int:
        match = state.match
        assert match is not None
        legal = state.legal_actions(self.player)
        if len(legal) == 1:
            choice = int(legal[0])
        else:
            visits: Counter[int] = Counter()
            searches = 0
            while (searches < self.determinizations if self.seconds is None
                   else searches == 0 or time.perf_counter() - started < self.seconds):
                root = self.search.mcts_search(self.game.state_from_match(determinize(match, self.player, self.rng)))
                for child in root.children:
                    visits[child.action] += child.explore_count
                searches += 1
            choice = int(max(legal, key=lambda a: (visits[a], -a)))
        return choice
