"""OpenSpiel bots over partygames games: a game's own bot (`EngineBot`, e.g. the heuristic or the search bot),
OpenSpiel's MCTS over determinisations (`DeterminizedMCTSBot`) and OpenSpiel's information-set MCTS with a
think-time budget (`TimedISMCTSBot`); OpenSpiel's `uniform_random` comes from pyspiel. Think times are
measured on an injectable clock (`time.perf_counter`; a benchmark on a busy machine counts CPU time)."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from partygames.engine.bots import Bot, Observation
from partygames.engine.match import Match
from partygames.rl.openspiel import PartyGamesGame, PartyGamesState

Clock = Callable[[], float]


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

    def __init__(self, game: PartyGamesGame, player: int, clock: Clock = time.perf_counter) -> None:
        pyspiel.Bot.__init__(self)
        self.game = game
        self.player = player
        self.clock = clock
        self.think_seconds = 0.0
        self.decisions = 0
        self.choice_seconds = 0.0
        self.choices = 0

    def restart_at(self, state: PartyGamesState) -> None:
        pass

    def step(self, state: PartyGamesState) -> int:
        forced = len(state.legal_actions(self.player)) == 1
        started = self.clock()
        choice = self.choose(state, started)
        spent = self.clock() - started
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
    """A game's own bot playing through the codec: its action, or the nearest the codec can express. It is
    told the events its seat may see, as in a session, each step's before it is next asked or informed."""

    def __init__(self, game: PartyGamesGame, player: int, bot: Bot, clock: Clock = time.perf_counter) -> None:
        super().__init__(game, player, clock)
        self.bot = bot
        self.heard = 0  # the state's steps whose events the bot was told

    def restart_at(self, state: PartyGamesState) -> None:
        self.heard = state.steps  # the set-up's events are not told (nor are they in a session)

    def inform_action(self, state: PartyGamesState, player: int, action: int) -> None:
        self._hear(state)

    def _hear(self, state: PartyGamesState) -> None:
        """The events of the step completed since the bot was last asked or informed (evaluate_bots asks or
        informs every bot between any two steps)."""
        if state.steps == self.heard:
            return
        if state.steps != self.heard + 1:
            raise RuntimeError(f"the bot of player {self.player} missed {state.steps - self.heard - 1} steps' events")
        self.heard = state.steps
        for event in state.last_events:
            if event.is_visible_to(self.player):
                self.bot.observe(event)

    def choose(self, state: PartyGamesState, started: float) -> int:
        self._hear(state)
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

    clock: Clock = time.perf_counter

    def search(self, state: pyspiel.State, simulations: int = 1,
               deadline: float | None = None) -> tuple[mcts.SearchNode, int]:
        """The root after `simulations` simulations, or with a `deadline` (a moment on `clock`) as many as
        fit before it, at least one; and the number run."""
        root = mcts.SearchNode(None, state.current_player(), 1)
        root.explore_count = 1
        done = 0
        while done == 0 or (done < simulations if deadline is None else self.clock() < deadline):
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
                 rollout_length: int | None = None, clock: Clock = time.perf_counter) -> None:
        super().__init__(game, player, clock)
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
        self.search.clock = clock
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


class TimedISMCTSBot(TimedBot):
    """OpenSpiel's information-set MCTS (`ISMCTSBot`: UCT over information states, a root state resampled
    through `resample_from_infostate` at every simulation, random rollouts; the most visited move) searching
    for `seconds` of think time per decision (at least two simulations), or `simulations` per decision."""

    def __init__(self, game: PartyGamesGame, player: int, seconds: float | None = None, simulations: int = 64,
                 seed: int = 0, uct_c: float = 2.0, rollout_length: int | None = None,
                 clock: Clock = time.perf_counter) -> None:
        super().__init__(game, player, clock)
        state = np.random.RandomState(seed)
        self.seconds = seconds
        self.search = _BudgetedISMCTS(game, mcts.RandomRolloutEvaluator(1, state, rollout_length), uct_c,
                                      simulations, random_state=state)
        self.search.clock = clock
        self.simulations = 0
        self.fewest: int | None = None

    def choose(self, state: PartyGamesState, started: float) -> int:
        legal = state.legal_actions(self.player)
        if len(legal) == 1:
            return int(legal[0])
        self.search.deadline = None if self.seconds is None else started + self.seconds
        self.search.done = 0
        action = int(self.search.step(state))
        self.simulations += self.search.done
        self.fewest = self.search.done if self.fewest is None else min(self.fewest, self.search.done)
        return action


class _BudgetedISMCTS(ismcts.ISMCTSBot):
    """`ISMCTSBot` whose search loop runs until `deadline` on `clock` (at least two simulations: OpenSpiel's
    first only expands the new root, and a root never visited has no policy) when one is set, else
    `max_simulations` times; `done` counts the simulations of the last search."""

    clock: Clock = time.perf_counter
    deadline: float | None = None
    done = 0

    def run_search(self, state: pyspiel.State) -> list[tuple[int, float]]:
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        self.done = 0
        while self.done < 2 or (self.clock() < self.deadline if self.deadline is not None
                                 else self.done < self._max_simulations):
            self.run_simulation(self.sample_root_state(state))
            self.done += 1
        policy: list[tuple[int, float]] = self.get_final_policy(state, self._root_node)
        return policy
