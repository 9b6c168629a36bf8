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
    a subclass chooses in `choose`. `choices` and `choice_seconds` count only the decisions with more
    than one legal action (a forced move needs no thought, and MCTS does not search it)."""

    def __init__(self, game: PartyGamesGame, player: int) -> None:
        pyspiel.Bot.__init__(self)
        self.game = game
        self.player = player
        self.think_seconds = 0.0
        self.decisions = 0
        self.choice_seconds = 0.0
        self.choices = 0

    def restart_at(self, state: PartyGamesState) -> None:
        pass

    def step(self, state: PartyGamesState) -> int:
        forced = len(state.legal_actions(self.player)) == 1
        started = time.perf_counter()
        choice = self.choose(state, started)
        spent = time.perf_counter() - started
        self.think_seconds += spent
        self.decisions += 1
        if not forced:
            self.choice_seconds += spent
            self.choices += 1
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
        action = self.bot.act(Observation(self.player, specs, lambda: match.view(self.player), match.now,
                                           match.deadline))
        index = None if action is None else self.game.table.encoder.codec.nearest(action, specs)
        if index is None:
            raise ValueError(f"the codec cannot express {action!r} or anything near it")
        return index


class UCTSearch(mcts.MCTSBot):
    """OpenSpiel's `MCTSBot` (its UCT tree policy, evaluator and node statistics) with a search loop that
    stops after a number of simulations or at a deadline. Unlike `MCTSBot.mcts_search`, the root counts
    as visited once without a rollout: OpenSpiel's first simulation values the root itself, which no
    choice reads, so here every simulation tries a move from the root (one simulation already chooses)."""

    def search(self, state: pyspiel.State, simulations: int = 1,
               deadline: float | None = None) -> tuple[mcts.SearchNode, int]:
        """The root after `simulations` simulations, or with a `deadline` (a `time.perf_counter()`
        moment) as many as fit before it, at least one; and the number run."""
        root = mcts.SearchNode(None, state.current_player(), 1)
        root.explore_count = 1
        done = 0
        while done == 0 or (done < simulations if deadline is None else time.perf_counter() < deadline):
            path, working = self._apply_tree_policy(root, state)
            returns = working.returns() if working.is_terminal() else self.evaluator.evaluate(working)
            player = root.player
            for node in path:  # each node is scored for the player who chose it (chance: the one above)
                if node.player != pyspiel.PlayerId.CHANCE:
                    player = node.player
                node.total_reward += returns[player]
                node.explore_count += 1
            done += 1
        return root, done


class DeterminizedMCTSBot(TimedBot):
    """OpenSpiel's MCTS (UCT, random rollouts; `UCTSearch`) run on `determinizations` determinised copies
    of the match per decision; the root's visit counts are summed and the most visited move wins.
    Without `seconds`, `simulations` in all, shared evenly; with `seconds`, each determinisation is
    searched for an even share of that think time per decision, at least one simulation each.
    `rollout_length` cuts random rollouts after that many moves (an unfinished rollout is worth 0).
    `simulations` counts the simulations run; `fewest` the fewest in one decision searched."""

    def __init__(self, game: PartyGamesGame, player: int, simulations: int = 64, determinizations: int = 4,
                 seed: int = 0, uct_c: float = 2.0, seconds: float | None = None,
                 rollout_length: int | None = None) -> None:
        super().__init__(game, player)
        if determinizations < 1 or (seconds is None and simulations < determinizations):
            raise ValueError(f"need at least one determinisation and one simulation each, not "
                             f"{simulations} simulations over {determinizations} determinisations")
        if seconds is not None and seconds < 0:
            raise ValueError(f"a think time cannot be negative: {seconds!r}")
        self.determinizations = determinizations
        self.seconds = seconds
        self.per_search = simulations // determinizations
        self.rng = random.Random(seed)
        state = np.random.RandomState(seed)
        self.search = UCTSearch(game, uct_c, self.per_search, mcts.RandomRolloutEvaluator(1, state, rollout_length),
                                solve=False, random_state=state)
        self.simulations = 0
        self.fewest: int | None = None

    def choose(self, state: PartyGamesState, started: float) -> int:
        match = state.match
        assert match is not None
        legal = state.legal_actions(self.player)
        if len(legal) == 1:
            return int(legal[0])
        visits: Counter[int] = Counter()
        run = 0
        for d in range(self.determinizations):
            deadline = None if self.seconds is None else started + self.seconds * (d + 1) / self.determinizations
            root, done = self.search.search(self.game.state_from_match(determinize(match, self.player, self.rng)),
                                            self.per_search, deadline)
            for child in root.children:
                visits[child.action] += child.explore_count
            run += done
        self.simulations += run
        self.fewest = run if self.fewest is None else min(self.fewest, run)
        return int(max(legal, key=lambda a: (visits[a], -a)))
