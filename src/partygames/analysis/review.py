"""The review of a finished match: every decision of one seat judged by the search bot from what that
seat knew then (docs/review.md).

The match is replayed from its log with the game's search bot (`engine/search.py`) listening at the
seat, so the bot's `SeatRecord` holds exactly what the seat was told (its views, the events it may see,
its own actions), never the hidden state the log reveals. At each of the seat's logged actions where
the search bot would have a choice (two candidates or more, the played move always among them), the
bot's determiniser draws worlds from that record and every candidate is played out in each world with
the same rollout seed (common random numbers, as the search does), so candidates are compared pair by
pair. The record is then told the move the seat really played, and the replay goes on.

Each candidate gets its mean `measure` (the chance of winning by default; a game whose result is money
may say "score": its expected final score), its win chance with a Wilson interval, and its loss
against the best candidate with a paired normal interval. The played move is marked by that loss
(`Thresholds`, per game in `games/<game>/review.py` if it defines one); a loss whose interval reaches
zero is within the noise and is not marked. Deterministic for a simulation budget: the search bot is
seeded from the match and the seat.

A game may take each rollout's luck out of its measure (`Luck`: control variates at chance, as AIVAT does), and
define its unit of play (`Unit`), by which the honesty checks compare the review with the game's exact analyses
(docs/review.md, Method).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import pickle
import random
import time
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from partygames.engine.actions import Action
from partygames.engine.bots import Observation, TableInfo
from partygames.engine.errors import EngineError
from partygames.engine.game import Game
from partygames.engine.log import MatchLog
from partygames.engine.match import Match, Result
from partygames.engine.search import Budget, SearchBot
from partygames.engine.session import Session

Z = 1.96
"""The normal quantile of the 95% intervals."""

MARKS = ("best", "good", "inaccuracy", "mistake", "blunder")

DEFAULT_SIMULATIONS = 200
"""The default budget: rollouts per reviewed decision (shared among its candidates)."""

Expectation = tuple[float, Callable[[Match], float]]
"""Before a step: the exact expected value, over the step's chance, of a quantity that chance decides, and how
to read the value it took from the match after the step."""

Luck = Callable[[Match, int, int | None, Action | None], Expectation | None]
"""A game's luck function (`Thresholds.luck`): called before each step of a rollout with (the match, the
reviewed seat, the actor, its action; (None, None) when the clock advances), it gives the `Expectation` of the
part of the seat's measure that the step's chance moves, or None when the step involves no chance (or none the
game corrects for). The review subtracts (realized − expected) of every such step from the rollout's measure:
control variates at chance (AIVAT: Burch, Schmid, Moravčík, Bowling 2018). Each term has mean zero given the
state before the step, whatever the expectation is of, so the corrected value stays unbiased as long as the
expectation is exact; it takes the step's luck out of the candidates' paired differences."""


@dataclass(frozen=True)
class Unit:
    """One unit of play, as a game's exact analysis values it (a Lucky Nine turn, a Smuggling small game): the
    rollout stops as soon as `key` changes from its value at the decision (or the match ends), and is worth
    `value` then minus `value` at the decision (the seat's measure gained within the unit). A rollout stopped
    before the end has no result: its win counts a half, so such a review's win chances mean nothing."""

    key: Callable[[Match, int], Hashable]
    value: Callable[[Match, int], float]


class ReviewError(EngineError):
    """A match that cannot be reviewed (not finished, a seat out of range, a log that does not replay)."""


@dataclass(frozen=True)
class Thresholds:
    """How much of the measure a move may lose against the best candidate before it is marked worse:
    below `inaccuracy` it is "good", then "inaccuracy", from `mistake` a mistake, from `blunder` a
    blunder. `measure` is "win" (the chance of winning, 0-1), "score" (the expected final score of the
    game's result, such as money) or "search" (the search bot's own rollout value: a win plus a little for
    rank), or "lead" (the expected lead of the seat's side in the result, as the game's `lead` reads it from
    a finished match's result: Smuggling's team lead in yen), or "unit" (the measure gained within one unit of
    play, `unit`: what the honesty checks compare with the exact analyses), and the thresholds are in its
    units. `luck`, with a measure in money ("score", "lead", "unit"), corrects each rollout for the chance it
    met (`Luck`), in the measure's units."""

    inaccuracy: float = 0.05
    mistake: float = 0.10
    blunder: float = 0.20
    measure: str = "win"
    lead: Callable[[Result, int], float] | None = None
    """With measure "lead": the seat's lead in a finished match's result."""
    unit: Unit | None = None
    """With measure "unit": the unit of play and the measure gained in it."""
    luck: Luck | None = None
    """The game's luck function (`Luck`), in the measure's units; None: no correction."""

    def __post_init__(self) -> None:
        if self.measure not in ("win", "score", "search", "lead", "unit"):
            raise ValueError(f"a review measures win, score, search, lead or unit, not {self.measure!r}")
        if (self.measure == "lead") != (self.lead is not None):
            raise ValueError("a review measures the lead exactly when the game says how to read it (lead=...)")
        if (self.measure == "unit") != (self.unit is not None):
            raise ValueError("a review measures a unit of play exactly when the game says what it is (unit=...)")
        if self.luck is not None and self.measure in ("win", "search"):
            raise ValueError("a luck correction is in the measure's units: score, lead or unit, not win or search")
        if not 0 <= self.inaccuracy <= self.mistake <= self.blunder:
            raise ValueError("review thresholds must rise: 0 <= inaccuracy <= mistake <= blunder")

    def mark(self, loss: float) -> str:
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return "good"


DEFAULT_THRESHOLDS = Thresholds()


def thresholds_for(game: Game) -> Thresholds:
    """The game's `THRESHOLDS` from its package's `review` module, else the default table."""
    package = game.match_class.__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.review")
    except ModuleNotFoundError:
        return DEFAULT_THRESHOLDS
    found = getattr(module, "THRESHOLDS", DEFAULT_THRESHOLDS)
    assert isinstance(found, Thresholds)
    return found


@dataclass
class Candidate:
    """One move tried at a decision: its mean measure with a 95% interval, its win chance with a
    Wilson interval, and its rollouts (one per drawn world)."""

    action: Action
    values: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        mean, error = _mean_error(self.values)
        return mean - Z * error, mean + Z * error

    @property
    def win(self) -> float:
        return sum(self.wins) / len(self.wins) if self.wins else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson(sum(self.wins), len(self.wins))

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "value": self.mean, "interval": list(self.interval), "win": self.win,
                "win_interval": list(self.win_interval), "simulations": len(self.values)}


@dataclass
class Decision:
    """One reviewed decision: the log entry's index (`step`) and time, the candidates (`played` and
    `best` index them), the played move's loss against the best with its 95% interval, and its mark
    (None: the loss is within the noise)."""

    step: int
    at: int
    candidates: list[Candidate]
    played: int
    best: int
    loss: float
    loss_interval: tuple[float, float]
    mark: str | None

    @property
    def played_action(self) -> Action:
        return self.candidates[self.played].action

    @property
    def best_action(self) -> Action:
        return self.candidates[self.best].action

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "at": self.at, "played": self.played, "best": self.best, "loss": self.loss,
                "loss_interval": list(self.loss_interval), "mark": self.mark,
                "candidates": [c.to_json() for c in self.candidates]}


@dataclass
class Review:
    """A seat's review: its decisions in order, the thresholds and measure used, and the budget."""

    game: str
    seat: int
    budget: Budget
    thresholds: Thresholds
    decisions: list[Decision]
    steps: int
    """How many entries the match log has (the graph's x axis runs over them)."""

    @property
    def series(self) -> list[tuple[int, float]]:
        """(log step, the win chance of the move played there), for the graph."""
        return [(d.step, d.candidates[d.played].win) for d in self.decisions]

    def to_json(self) -> dict[str, Any]:
        t = self.thresholds
        return {"game": self.game, "seat": self.seat, "budget": str(self.budget), "steps": self.steps,
                "measure": t.measure, "thresholds": {"inaccuracy": t.inaccuracy, "mistake": t.mistake,
                                                     "blunder": t.blunder},
                "decisions": [d.to_json() for d in self.decisions],
                "series": [list(point) for point in self.series]}


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (0-1 with no trials)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denominator
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _mean_error(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return 0.0, math.inf
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def paired_difference(decision: Decision, i: int, j: int) -> tuple[float, float]:
    """Candidate i's mean measure over candidate j's at a decision, from their paired rollouts (the same worlds),
    and the 95% half-width of that difference (infinite below two rollouts)."""
    gains = [a - b for a, b in zip(decision.candidates[i].values, decision.candidates[j].values, strict=True)]
    mean, error = _mean_error(gains)
    return mean, Z * error


def decision_seed(game: Game, log: MatchLog, seat: int, step: int, view: dict[str, Any]) -> int:
    """The seed of one decision's review: from the table, the seat, the step and the seat's view there
    (what the seat knows), so that a review is the same for the same match, seat and budget, and two
    matches the seat cannot tell apart at a decision are judged alike there."""
    text = json.dumps([game.id, log.options, log.seats, log.bots, seat, step, view], sort_keys=True)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


Progress = Callable[[int, int], None]
"""Called with (entries replayed, entries in all) as the review goes."""


def review(game: Game, log: MatchLog, seat: int, budget: Budget | None = None, *,
           progress: Progress | None = None, clock: Callable[[], float] = time.perf_counter,
           thresholds: Thresholds | None = None, steps: Collection[int] | None = None) -> Review:
    """Reviews `seat`'s decisions in the finished match of `log` (module docstring), by the game's thresholds and
    measure (`thresholds_for`) or `thresholds` (the honesty checks' unit measure); with `steps`, only the
    decisions at those log steps (the others are replayed as usual, so those judged are judged exactly as in a
    whole review). Raises ReviewError for a seat out of range, a log that does not replay, or a match that is not
    over."""
    budget = budget or Budget(simulations=DEFAULT_SIMULATIONS)
    if not 0 <= seat < log.seats:
        raise ReviewError(f"Seat {seat} is not one of the match's seats (0-{log.seats - 1}).",
                          f"席 {seat} はこの対戦の席 (0〜{log.seats - 1}) ではありません。")
    if log.seed is None:
        raise ReviewError("This log is a spectator's copy without the seed (only the host's log replays): "
                          "it cannot be reviewed.",
                          "このログは観戦者用の写しでシードがありません(再生できるのはホストのログだけです)。検討できません。")
    _check_finished(game, log)
    match = game.new(log.seats, log.options, log.seed, bots=log.bots)
    bot = game.make_bot("search", seat, 0, table=TableInfo.of(game, match), budget=budget)
    if not isinstance(bot, SearchBot):
        raise ReviewError(f"{game.id} has no search bot to review with.", f"{game.id} には検討に使う探索ボットがありません。")
    bot.clock = clock
    judge = _Judge(game, log, bot, budget, thresholds or thresholds_for(game), clock)
    session = Session(game, match, {seat: bot})
    decisions: list[Decision] = []
    total = len(log.entries)
    for step, entry in enumerate(log.entries):
        if entry.seat == seat and entry.action is not None:
            decision = judge.decide(match, step, entry.at, entry.action, steps is None or step in steps)
            if decision is not None:
                decisions.append(decision)
            bot.record.acted(entry.action, entry.at)
        session.replay_entry(entry)
        if progress is not None:
            progress(step + 1, total)
    return Review(game.id, seat, budget, judge.thresholds, decisions, total)


def _check_finished(game: Game, log: MatchLog) -> None:
    """Replays the log alone: it must replay, reproduce its stored final state, and end the match (no review
    of a running match)."""
    try:
        session = Session.replay(game, log)
    except EngineError as error:
        raise ReviewError(f"The match log does not replay: {error.en}",
                          f"対戦ログを再生できません: {error.ja}") from None
    if not log.reproduces(session.match):
        raise ReviewError("The replay does not reproduce the log's stored final state: the log was changed.",
                          "再生した結果が、ログに保存された最終状態と一致しません(ログが書き換えられています)。")
    if not session.match.is_over:
        raise ReviewError("The match is not finished: only a finished match can be reviewed (no live help).",
                          "対戦がまだ終わっていません。検討できるのは終わった対戦だけです(対戦中の助言はしません)。")


class _Judge:
    """Evaluates the candidates of one decision with the search bot's own pieces."""

    def __init__(self, game: Game, log: MatchLog, bot: SearchBot, budget: Budget, thresholds: Thresholds,
                 clock: Callable[[], float]) -> None:
        self.game = game
        self.log = log
        self.bot = bot
        self.budget = budget
        self.thresholds = thresholds
        self.clock = clock
        self._ends: list[Match] = []
        evaluate = bot.evaluate

        def evaluate_and_keep(match: Match) -> float:
            self._ends.append(match)  # the rollout's end, to read the win and the score from
            return evaluate(match)

        setattr(bot, "evaluate", evaluate_and_keep)  # noqa: B010 - an instance hook, the class stays as it is

    def decide(self, match: Match, step: int, at: int, played: Action, judged: bool = True) -> Decision | None:
        bot, seat = self.bot, self.bot.seat
        legal = match.legal_actions(seat)
        obs = Observation(seat, legal, lambda: match.view(seat), at, match.deadline)
        # What `SearchBot.act` does before it searches: the record sees the view, the policy gives its hint.
        bot.record.see(obs.view, obs.now, obs.deadline)
        bot.rng = random.Random(decision_seed(self.game, self.log, seat, step, obs.view))
        snapshot = pickle.dumps(bot.prior, pickle.HIGHEST_PROTOCOL) if bot.own_memory else None
        hint = bot.prior.act(obs)
        if bot._live(obs.view):
            return None  # real-time play, where the search bot does not search either
        actions = bot.candidates(obs, played if hint is None else hint)
        key = _key(played)
        if all(_key(a) != key for a in actions):
            actions = [*actions[:bot.max_candidates - 1], played]
        if len(actions) < 2 or not judged:
            return None
        candidates = [Candidate(action) for action in actions]
        self._play_out(candidates, obs.now, snapshot)
        return self._judge(step, at, candidates, next(i for i, a in enumerate(actions) if _key(a) == key))

    def _play_out(self, candidates: list[Candidate], now: int, snapshot: bytes | None) -> None:
        bot = self.bot
        determiniser = self.game.determiniser
        assert determiniser is not None
        worlds = determiniser(bot.record)
        rng = random.Random(bot._seed())
        if self.budget.simulations is not None:
            count: int | None = max(2, self.budget.simulations // len(candidates))
            deadline = None
        else:
            assert self.budget.ms is not None
            count, deadline = None, self.clock() + self.budget.ms / 1000
        measure = self.thresholds.measure
        unit = self.thresholds.unit
        watch = _Watch(bot.seat, self.thresholds.luck, unit) if unit is not None or self.thresholds.luck else None
        drawn = 0
        while count is None or drawn < count:
            if deadline is not None and drawn >= 2 and self.clock() >= deadline:
                break
            world = worlds.sample(rng)
            bot.model(world, rng)
            seed = rng.getrandbits(63)
            start = None if unit is None else unit.value(world, bot.seat)
            for candidate in candidates:
                self._ends.clear()
                if watch is not None:
                    watch.start(world)
                value = bot._rollout(world, candidate.action, now, seed, snapshot, None, watch)
                end = self._ends[-1]
                luck = 0.0 if watch is None else watch.correction
                result = end.result()
                mine = None if result is None else next(s for s in result.seats if s.seat == bot.seat)
                win = 0.5 if mine is None else float(mine.is_winner)
                candidate.wins.append(win)
                if measure == "win":
                    candidate.values.append(win)
                elif measure == "score":
                    candidate.values.append((0.0 if mine is None else float(mine.score)) - luck)
                elif measure == "lead":
                    assert self.thresholds.lead is not None
                    candidate.values.append((0.0 if result is None else self.thresholds.lead(result, bot.seat)) - luck)
                elif measure == "unit":
                    assert unit is not None and start is not None
                    candidate.values.append(unit.value(end, bot.seat) - start - luck)
                else:
                    candidate.values.append(value)
            drawn += 1

    def _judge(self, step: int, at: int, candidates: list[Candidate], played: int) -> Decision:
        best = max(range(len(candidates)), key=lambda i: (candidates[i].mean, i == played))
        gains = [b - p for b, p in zip(candidates[best].values, candidates[played].values, strict=True)]
        loss, error = _mean_error(gains)
        interval = (loss - Z * error, loss + Z * error)
        mark: str | None
        if best == played:
            mark = "best"
        elif interval[0] <= 0:
            mark = None  # within the noise
        else:
            mark = self.thresholds.mark(loss)
        return Decision(step, at, candidates, played, best, loss, interval, mark)


class _Watch:
    """Watches a rollout (`engine.search.RolloutWatch`): sums the luck correction of the steps whose chance the
    game's `luck` knows the exact expectation of, and with a unit measure ends the rollout when the unit of the
    decision ends."""

    def __init__(self, seat: int, luck: Luck | None, unit: Unit | None) -> None:
        self.seat = seat
        self.luck = luck
        self.unit = unit
        self.key: Hashable = None
        self.correction = 0.0
        self._pending: Expectation | None = None

    def start(self, world: Match) -> None:
        self.correction = 0.0
        self._pending = None
        if self.unit is not None:
            self.key = self.unit.key(world, self.seat)

    def before(self, match: Match, actor: int | None, action: Action | None) -> None:
        self._pending = None if self.luck is None else self.luck(match, self.seat, actor, action)

    def after(self, match: Match) -> bool:
        if self._pending is not None:
            expected, realized = self._pending
            self.correction += realized(match) - expected
            self._pending = None
        return self.unit is not None and self.unit.key(match, self.seat) != self.key


def _key(action: Action) -> str:
    return json.dumps(action, sort_keys=True)
