"""The search bot: determinised Monte Carlo search over the seat's own choice, with the game's heuristic
bot as the rollout policy and the prior (docs/engine.md, Bots).

At each decision with a choice, the bot draws whole matches its seat cannot tell from the real one
(`Game.determiniser`, from the `SeatRecord` it keeps of what it was told: its observations and the events
its seat may see, never the match), tries each of a few candidate actions (the heuristic's own choice
first) in every drawn match, and plays each one out to the end with the heuristic bot at every seat. All
candidates are scored on the same drawn matches with the same rollout seeds (common random numbers), so
their differences are measured far more precisely than their values; the heuristic's choice is replaced
only by a candidate whose mean paired gain over it is significant (`confidence`). A rollout scores the
seat 1 for a win, plus a little for its rank.

The think budget is a `Budget`: milliseconds on an injectable clock (rooms, the terminal; the benchmark
counts CPU time), or a number of simulations (rollouts), with which the bot is deterministic given its
seed (`simulate`). Pure: no I/O, and no clock but the one it is given.
"""

from __future__ import annotations

import json
import math
import pickle
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from partygames.engine.actions import Action, ActionSpec, enumerate_actions, find_spec, param_size, sample
from partygames.engine.bots import Bot, Observation, TableInfo
from partygames.engine.knowledge import SeatRecord
from partygames.engine.match import Event, Match, Result
from partygames.engine.text import Text

if TYPE_CHECKING:
    from partygames.engine.game import Game

Clock = Callable[[], float]
"""Seconds, from any origin (`time.perf_counter`; the benchmark's `time.process_time`; a test's fake)."""


@dataclass(frozen=True)
class Budget:
    """How long the search bot thinks per decision: `ms` milliseconds on its clock, or `simulations`
    rollouts (deterministic given the bot's seed). Exactly one of the two."""

    ms: float | None = None
    simulations: int | None = None

    def __post_init__(self) -> None:
        if (self.ms is None) == (self.simulations is None):
            raise ValueError("a budget is either ms or simulations, not both or neither")
        if self.ms is not None and not self.ms >= 0:
            raise ValueError(f"a think time cannot be negative: {self.ms!r} ms")
        if self.simulations is not None and (type(self.simulations) is not int or self.simulations < 1):
            raise ValueError(f"a simulation count must be a whole number >= 1, not {self.simulations!r}")

    def __str__(self) -> str:
        return f"{self.ms:g} ms" if self.ms is not None else f"{self.simulations} simulations"


DEFAULT_BUDGET = Budget(ms=50)


@dataclass
class SearchStats:
    """What a search bot did, summed over its decisions: decisions searched, worlds drawn, rollouts run,
    decisions where the search overruled the heuristic, and seconds spent searching (on its clock)."""

    decisions: int = 0
    searched: int = 0
    worlds: int = 0
    simulations: int = 0
    overruled: int = 0
    seconds: float = 0.0
    rollout_faults: int = 0


@dataclass
class _Arm:
    """One candidate action and its rollout values, world by world (the same worlds for every arm)."""

    action: Action
    values: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else 0.0


class RolloutWatch(Protocol):
    """Told of every step of a rollout (`SearchBot._rollout`): the review's luck correction and its unit
    measure (`analysis/review.py`)."""

    def before(self, match: Match, actor: int | None, action: Action | None) -> None:
        """Before a step: `actor` plays `action`, or (None, None) the clock advances."""

    def after(self, match: Match) -> bool:
        """After the step: True ends the rollout here."""
        ...


class OutOfTime(Exception):
    """The budget ran out during a rollout: the world being evaluated is dropped."""


class SearchBot(Bot):
    """Determinised Monte Carlo search over the seat's own choice (module docstring). A game tunes it in
    a subclass (its `bots.py`): `policy` (the bot kind that plays rollouts and gives the prior),
    `candidates` (the actions tried), `evaluate` (what a finished rollout is worth)."""

    name = "search"
    title = Text("Strong", "強い")
    needs_table = True

    policy: ClassVar[str] = "heuristic"
    """The bot kind whose choice is the default, and that plays every seat in rollouts (`rollout_bot`)."""
    own_memory: ClassVar[bool] = True
    """Whether the seat's rollout bot is a copy of its policy bot, with all it remembers of the match (a bot
    that keeps memory: the Quiz's); else a new `rollout_bot`, as for the other seats."""
    max_candidates: ClassVar[int] = 8
    """At most this many actions are tried per decision (the policy's choice among them)."""
    enumerate_limit: ClassVar[int] = 24
    """A spec allowing at most this many actions gives them all as candidates; a larger one a spread."""
    confidence: ClassVar[float] = 1.0
    """How many standard errors a candidate's mean paired gain over the policy's choice must exceed to
    replace it (0: the best mean gain wins)."""
    drop: ClassVar[float] = 1.0
    """A candidate leaves the race once its mean paired gain is this many standard errors below zero..."""
    min_worlds: ClassVar[int] = 4
    """...after at least this many worlds."""
    rank_weight: ClassVar[float] = 0.1
    """A rollout's value: (1 - rank_weight) for a win, plus rank_weight times the share of seats ranked
    below the seat (a finer signal than winning alone)."""
    max_rollout_steps: ClassVar[int] = 20_000
    """A rollout stops after this many steps (a stalled one is worth its `evaluate` then)."""
    check_every: ClassVar[int] = 8
    """With an ms budget, the clock is read every this many rollout steps (and between rollouts)."""

    def __init__(self, seat: int, seed: int = 0, *, table: TableInfo, budget: Budget | None = None,
                 clock: Clock | None = None) -> None:
        super().__init__(seat, seed)
        self.table = table
        self.game: Game = table.game
        self.budget = budget or DEFAULT_BUDGET
        self.clock: Clock = clock or time.perf_counter
        self.record = SeatRecord(table.game, table.seats, table.options, seat, table.bots)
        self.prior = table.game.make_bot(self.policy, seat, self._seed())
        self.stats = SearchStats()
        self.admissible: Callable[[Action, Sequence[ActionSpec]], bool] | None = None
        """Set by a host that can play only some actions (the OpenSpiel adapter's codec): the candidates
        tried besides the policy's choice are those it admits."""

    def _seed(self) -> int:
        return self.rng.getrandbits(63)

    # -- what the seat is told ------------------------------------------------------------------------
    def observe(self, event: Event) -> None:
        self.record.hear(event)
        self.prior.observe(event)

    def act(self, obs: Observation) -> Action | None:
        self.record.see(obs.view, obs.now, obs.deadline)
        # The policy before it chose, for the seat's rollouts.
        snapshot = pickle.dumps(self.prior, pickle.HIGHEST_PROTOCOL) if self.own_memory else None
        hint = self.prior.act(obs)
        self.stats.decisions += 1
        if hint is None or self._live(obs.view):
            action = hint  # nothing now, or live play (nobody's turn): the policy's timing, no search
        else:
            candidates = self.candidates(obs, hint)
            action = hint if len(candidates) < 2 else self.search(obs, candidates, snapshot)
        if action is not None:
            self.record.acted(action, obs.now)
        return action

    @staticmethod
    def _live(view: dict[str, Any]) -> bool:
        """Real-time play: seats are awaited but it is nobody's turn (`Match.turns`)."""
        return not view["turns"] and bool(view["to_act"])

    # -- candidates -----------------------------------------------------------------------------------
    def candidates(self, obs: Observation, hint: Action) -> list[Action]:
        """The actions tried: the policy's choice first, then every action of each small spec, and a spread
        of each large one (the ends and quartiles of an amount, random picks of a large choice or list), at
        most `max_candidates` in all, without repeats."""
        found: dict[str, Action] = {_key(hint): hint}
        per_spec = [self._spread(spec) for spec in obs.legal]
        if self.admissible is not None:
            admits = self.admissible
            per_spec = [[a for a in actions if admits(a, obs.legal)] for actions in per_spec]
        # Round-robin over the specs, so that each kind of action is tried before more of one kind.
        for i in range(max((len(p) for p in per_spec), default=0)):
            for actions in per_spec:
                if i < len(actions):
                    found.setdefault(_key(actions[i]), actions[i])
        chosen = list(found.values())
        if len(chosen) > self.max_candidates:
            rest = chosen[1:]
            self.rng.shuffle(rest)
            chosen = [hint, *rest[:self.max_candidates - 1]]
        return chosen

    def _spread(self, spec: ActionSpec) -> list[Action]:
        size = 1
        for param in spec["params"].values():
            size *= param_size(param)
        if size <= self.enumerate_limit:
            return enumerate_actions(spec, self.enumerate_limit)
        actions: list[Action] = []
        for fraction in (1.0, 0.0, 0.5, 0.25, 0.75):
            action: Action = {"type": spec["type"]}
            for name, param in spec["params"].items():
                if "min" in param:
                    steps = (param["max"] - param["min"]) // param["step"]
                    action[name] = param["min"] + round(fraction * steps) * param["step"]
                else:
                    action[name] = sample([{"type": "x", "params": {name: param}}], self.rng)[name]
            actions.append(action)
        return actions

    # -- the search -----------------------------------------------------------------------------------
    def search(self, obs: Observation, candidates: Sequence[Action], snapshot: bytes | None) -> Action:
        """The candidate to play (the first, the policy's choice, unless another beats it clearly).

        Each drawn world is played out once per candidate still in the race, with the same rollout seed;
        a candidate whose paired gain over the policy's choice is clearly negative (`drop` standard errors
        below zero, after `min_worlds` worlds), or nil in every world so far, leaves the race, so the
        worlds go to the contenders. A
        simulation count is never exceeded (with fewer simulations than candidates, the first are tried)."""
        started = self.clock()
        deadline = None if self.budget.ms is None else started + self.budget.ms / 1000
        limit = self.budget.simulations
        determiniser = self.game.determiniser
        assert determiniser is not None  # SeatRecord refuses a game without one
        worlds = determiniser(self.record)
        rng = random.Random(self._seed())
        arms = [_Arm(action) for action in candidates[:limit]]
        racing = list(arms)
        simulations = 0
        self.stats.searched += 1
        try:
            while len(racing) > 1 and (limit is None or simulations + len(racing) <= limit):
                if deadline is not None and self.clock() >= deadline:
                    break
                world = worlds.sample(rng)
                self.model(world, rng)
                seed = rng.getrandbits(63)
                values = [self._rollout(world, arm.action, obs.now, seed, snapshot, deadline) for arm in racing]
                for arm, value in zip(racing, values, strict=True):
                    arm.values.append(value)
                simulations += len(racing)
                self.stats.worlds += 1
                racing = [racing[0], *(arm for arm in racing[1:] if not self._beaten(arm, racing[0]))]
        except OutOfTime:
            pass
        self.stats.simulations += simulations
        self.stats.seconds += self.clock() - started
        choice = self.choose(arms)
        if choice is not arms[0]:
            self.stats.overruled += 1
        return choice.action

    def _beaten(self, arm: _Arm, base: _Arm) -> bool:
        """Whether `arm` leaves the race: its paired gain over `base` is clearly negative, or it has played
        out exactly as `base` in every world so far (in effect the same move, such as a press with nothing
        to cure: it could never be chosen, and its rollouts are better spent on the others)."""
        n = len(arm.values)
        if n < self.min_worlds:
            return False
        mean, error = _paired(arm.values, base.values)
        return mean + self.drop * error < 0 or (mean == 0 and error == 0)

    def choose(self, arms: Sequence[_Arm]) -> _Arm:
        """The arm with the largest mean paired gain over the first (the policy's choice), if that gain
        exceeds `confidence` standard errors; else the first."""
        best, best_gain = arms[0], 0.0
        for arm in arms[1:]:
            if not arm.values:
                continue
            mean, error = _paired(arm.values, arms[0].values)
            if mean > best_gain and (self.confidence == 0 or mean > self.confidence * error):
                best, best_gain = arm, mean
        return best

    def model(self, world: Match, rng: random.Random) -> None:
        """Changes a drawn world in place to what the search believes of it (default: as drawn). The
        determiniser draws other seats' sealed choices as a random player's; a game may redraw them as its
        policy would have chosen them (the Smuggling Game's trunk), never from the real match."""

    def rollout_bot(self, seat: int, seed: int) -> Bot:
        """The bot that plays `seat` in rollouts (default: a new `policy` bot). A game may give a cheaper one."""
        return self.game.make_bot(self.policy, seat, seed)

    def _rollout(self, world: Match, action: Action, now: int, seed: int, snapshot: bytes | None,
                 deadline: float | None, watch: RolloutWatch | None = None) -> float:
        """The value of `action` in a copy of `world`, played out by the policy at every seat. `watch` (the
        review's, `analysis/review.py`; the search gives none) is told of every step and may end the rollout
        early; it changes nothing the rollout draws or plays."""
        match = world.clone()
        rng = random.Random(seed)
        seat = self.seat
        bots: dict[int, Bot] = {s: self.rollout_bot(s, rng.getrandbits(63)) for s in range(match.seats)}
        if snapshot is not None:
            bots[seat] = pickle.loads(snapshot)
        if watch is not None:
            watch.before(match, seat, action)
        self._tell(bots, match.apply(seat, action, now))
        stopped = watch is not None and watch.after(match)
        waiting: dict[int, int] = {}
        clock, check = self.clock, self.check_every
        for step in range(self.max_rollout_steps):
            if match.is_over or stopped:
                break
            if deadline is not None and step % check == check - 1 and clock() >= deadline:
                raise OutOfTime
            version = match.version
            for actor in match.to_act():
                if waiting.get(actor) == version:
                    continue
                chosen = self._policy_action(bots[actor], match, actor, rng)
                if chosen is None:
                    waiting[actor] = version
                    continue
                if watch is not None:
                    watch.before(match, actor, chosen)
                self._tell(bots, match.apply_trusted(actor, chosen))  # checked against `legal` by `_policy_action`
                stopped = watch is not None and watch.after(match)
                break
            else:
                due = match.wake_at()
                if due is None:
                    break  # nobody will act and nothing is due: a stalled rollout
                if watch is not None:
                    watch.before(match, None, None)
                self._tell(bots, match.advance(max(due, match.now)))
                stopped = watch is not None and watch.after(match)
        return self.evaluate(match)

    def _policy_action(self, bot: Bot, match: Match, seat: int, rng: random.Random) -> Action | None:
        """The policy's action for `seat`, one `legal_actions(seat)` allows (so `Match.apply_trusted` may play it)."""
        legal = match.legal_actions(seat)
        observation = Observation(seat, legal, partial(match.view, seat), match.now, match.deadline)
        try:
            action = bot.act(observation)
            if action is not None:
                find_spec(legal, action)
            return action
        except Exception:  # a policy that fails in a drawn world (IllegalAction included) plays at random
            self.stats.rollout_faults += 1
            return sample(legal, rng)

    @staticmethod
    def _tell(bots: dict[int, Bot], events: list[Event]) -> None:
        for event in events:
            for seat, bot in bots.items():
                if event.is_visible_to(seat):
                    bot.observe(event)

    def evaluate(self, match: Match) -> float:
        """What a rollout's end is worth to the seat: `rank_score` of the result (0.5 for a rollout that
        did not finish)."""
        result = match.result()
        return 0.5 if result is None else rank_score(result, self.seat, self.rank_weight)


def _paired(values: Sequence[float], base: Sequence[float]) -> tuple[float, float]:
    """The mean of `values[i] - base[i]` over the worlds both were played in, and its standard error
    (infinite from a single world)."""
    gains = [a - b for a, b in zip(values, base, strict=False)]
    n = len(gains)
    mean = sum(gains) / n
    if n < 2:
        return mean, math.inf
    return mean, math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1) / n)


def rank_score(result: Result, seat: int, rank_weight: float) -> float:
    """(1 - rank_weight) for a win, plus rank_weight times the share of the other seats ranked below."""
    mine = next(s for s in result.seats if s.seat == seat)
    others = len(result.seats) - 1
    below = sum(1 for s in result.seats if s.rank > mine.rank)
    return (1 - rank_weight) * mine.is_winner + rank_weight * (below / others if others else 0.0)


def _key(action: Action) -> str:
    return json.dumps(action, sort_keys=True)
