"""The determinisation checks every game with a `Game.determiniser` must pass (docs/engine.md,
Determinisation), on the conformance suite's seeded random matches.

`check_determinisation` plays a seeded random match to the end (random awaited seats act, time moves
on now and then, as in `conformance.check_playout`), then replays its log, keeping for every seat a
`SeatRecord` fed as a host feeds one: the first view, every event the seat may see, its own actions.
At a spread of steps it builds each seat's determiniser from its record alone and checks several
samples:

- the sample is a match of the game with the same options, seats, bot seats, version, time and
  deadline, and a chance source that is not the real one;
- the seat's view of it is exactly the recorded view (so its legal actions are the same), and the
  sample survives a JSON round trip;
- its time limit's defaults are legal, and it plays on to the end (or a few hundred random steps)
  without a fault: a search plays samples out;
- so does a sample from a record begun at that step (no memory of the events before it: a search from
  a copied match);
- replaying the real match's next entries in it (wake-ups at their times, other seats' actions where
  still legal in the sample), every action of the seat is accepted while the seat's view of the sample
  equals its view of the real match: what the seat cannot tell apart, it can play the same way;
- leaks: the record a host builds from the match (`SeatRecord.from_match`) gives the same samples as
  the record fed step by step, and so does the record built from a copy whose other seats' secrets
  (three other seats drawn at random, and nobody's) are changed (`Match.perturb_secrets`): with the
  same random seed, the very same sample.
"""

from __future__ import annotations

import contextlib
import json
import random
from dataclasses import dataclass
from typing import Any

from partygames.engine.actions import sample
from partygames.engine.conformance import (
    DISTINCTIVE_SEED,
    ConformanceError,
    _check_time_limit,
    _first_difference,
)
from partygames.engine.errors import IllegalAction
from partygames.engine.game import Game
from partygames.engine.knowledge import Determiniser, SeatRecord
from partygames.engine.log import Entry
from partygames.engine.match import Match
from partygames.engine.session import Session


@dataclass
class DeterminisationReport:
    """What a check covered: the steps checked, the samples drawn, and the seats' own future actions
    replayed in samples (each accepted)."""

    checkpoints: int = 0
    samples: int = 0
    replayed: int = 0


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _fail(game: Game, step: int, seat: int, message: str) -> ConformanceError:
    return ConformanceError(f"{game.id} step {step} seat {seat}: {message}")


def play_random(game: Game, seats: int, seed: int, options: dict[str, Any] | None = None,
                bots: tuple[int, ...] = (), wake_chance: float = 0.1, max_steps: int = 20_000) -> Session:
    """A seeded random match played to the end as `check_playout` plays it; the session holds its log."""
    rng = random.Random(seed)
    session = Session(game, game.new(seats, options, DISTINCTIVE_SEED + seed, bots=bots))
    match = session.match
    for _ in range(max_steps):
        if match.is_over:
            return session
        to_act = match.to_act()
        due = match.wake_at()
        if due is not None and (not to_act or rng.random() < wake_chance):
            session.wake(due)
            continue
        seat = to_act[rng.randrange(len(to_act))]
        at = match.now + rng.randrange(3) * 500
        session.act(seat, sample(match.legal_actions(seat), rng), at if due is None else min(at, due))
    raise AssertionError(f"{game.id}: the match did not end in {max_steps} steps")


def check_determinisation(game: Game, seats: int, seed: int, options: dict[str, Any] | None = None, *,
                          samples: int = 2, checkpoints: int = 8, seats_checked: int = 4, horizon: int = 40,
                          playout_steps: int = 150) -> DeterminisationReport:
    """Checks the determiniser at `checkpoints` steps of a seeded random match drawn at random, for
    `seats_checked` seats drawn at each (every seat at a smaller table), with `samples` samples each
    (see the module docstring), each sample's playout cut after `playout_steps` steps; returns what it
    covered."""
    if game.determiniser is None:
        raise ValueError(f"{game.id} declares no determiniser")
    bots = (seats - 1,)  # one bot seat: bot seats are part of the table a sample keeps
    played = play_random(game, seats, seed, options, bots)
    entries = played.log.entries
    picks = random.Random(f"checkpoints {seed}")
    chosen = set(picks.sample(range(len(entries)), min(checkpoints, len(entries))))
    session = Session(game, game.new(seats, options, DISTINCTIVE_SEED + seed, bots=bots))
    match = session.match
    records = [SeatRecord(game, seats, options, s, bots) for s in range(seats)]
    for record in records:
        record.see(match.view(record.seat), match.now, match.deadline())
    report = DeterminisationReport()
    for step, entry in enumerate(entries):
        if step in chosen and not match.is_over:
            report.checkpoints += 1
            for record in records:
                record.see(match.view(record.seat), match.now, match.deadline())
            for record in picks.sample(records, min(seats_checked, seats)):
                _check_seat(game, match, record, entries[step:step + horizon], step, samples, playout_steps, report)
        events = session.replay_entry(entry)
        if entry.seat is not None and entry.action is not None:
            records[entry.seat].acted(entry.action, entry.at)
        for record in records:
            for event in events:
                if event.is_visible_to(record.seat):
                    record.hear(event)
    return report


def _check_seat(game: Game, match: Match, record: SeatRecord, future: list[Entry], step: int, count: int,
                playout_steps: int, report: DeterminisationReport) -> None:
    seat = record.seat
    assert game.determiniser is not None
    determiniser = game.determiniser(record)
    expected = _true_views(match, future)
    rngs = [random.Random(f"sample {step} {seat} {k}") for k in range(count)]
    drawn = []
    for k, rng in enumerate(rngs):
        drawn_match = determiniser.sample(rng)
        drawn.append(_dump(drawn_match.to_json()))
        _check_sample(game, match, record, drawn_match, step)
        report.replayed += _replay(game, drawn_match, seat, future, expected, step)
        _play_on(game, drawn_match, random.Random(k), playout_steps, step, seat)
        report.samples += 1
    # A record begun now (no memory of the events before: a search from a copied match) samples too.
    fresh = SeatRecord.from_match(game, match, seat)
    begun_now = game.determiniser(fresh).sample(random.Random(f"fresh {step} {seat}"))
    _check_sample(game, match, fresh, begun_now, step)
    _play_on(game, begun_now, random.Random(step), playout_steps, step, seat)
    # What a host builds from the match, and from a match whose other secrets differ: the same samples.
    memory = record.memory
    _same_samples(game, SeatRecord.from_match(game, match, seat, memory), drawn, step, seat, "from_match")
    secrets = random.Random(f"secrets {step} {seat}")
    others = [s for s in range(match.seats) if s != seat]
    for owner in [None, *secrets.sample(others, min(3, len(others)))]:
        other = match.perturb_secrets(owner, random.Random(secrets.random()))
        if other is not None:
            _same_samples(game, SeatRecord.from_match(game, other, seat, memory), drawn, step, seat,
                          f"a secret of {'nobody' if owner is None else f'seat {owner}'} changed")


def _same_samples(game: Game, record: SeatRecord, drawn: list[str], step: int, seat: int, how: str) -> None:
    assert game.determiniser is not None
    determiniser: Determiniser = game.determiniser(record)
    for k, expected in enumerate(drawn):
        again = _dump(determiniser.sample(random.Random(f"sample {step} {seat} {k}")).to_json())
        if again != expected:
            raise _fail(game, step, seat, f"the sample changes when {how}: "
                                          f"{_first_difference(json.loads(expected), json.loads(again))}")


def _check_sample(game: Game, match: Match, record: SeatRecord, drawn: Match, step: int) -> None:
    seat = record.seat
    if type(drawn) is not type(match):
        raise _fail(game, step, seat, f"the sample is a {type(drawn).__name__}, not a {type(match).__name__}")
    table = (drawn.seats, drawn.options, drawn.bot_seats, drawn.version, drawn.now)
    if table != (match.seats, match.options, match.bot_seats, match.version, match.now):
        raise _fail(game, step, seat, f"the sample's table, version or time {table!r} differs")
    if drawn.chance.state == match.chance.state or drawn.seed == match.seed:
        raise _fail(game, step, seat, "the sample's chance source is the real match's")
    view = drawn.view(seat)
    if _dump(view) != _dump(record.view):
        raise _fail(game, step, seat, f"the sample's view differs: {_first_difference(record.view, view)}")
    deadline, real = drawn.deadline(), match.deadline()
    if (deadline is None) != (real is None) or (deadline is not None and real is not None
                                                 and deadline.to_json() != real.to_json()):
        raise _fail(game, step, seat, f"the sample's deadline {deadline!r} is not the real {real!r}")
    if game.from_json(json.loads(json.dumps(drawn.to_json()))) != drawn:
        raise _fail(game, step, seat, "the sample does not survive a JSON round trip")
    _check_time_limit(game, drawn, step)


def _true_views(match: Match, future: list[Entry]) -> list[str | None]:
    """For each entry of the real future that is an action, its seat's view just before it."""
    real = match.clone()
    views: list[str | None] = []
    for entry in future:
        views.append(None if entry.seat is None else _dump(real.view(entry.seat)))
        if entry.seat is None:
            real.advance(entry.at)
        else:
            assert entry.action is not None
            real.apply(entry.seat, entry.action, entry.at)
    return views


def _replay(game: Game, drawn: Match, seat: int, future: list[Entry], expected: list[str | None],
            step: int) -> int:
    """Plays the real future in a copy of the sample; returns how many of the seat's actions were
    accepted, all of them while its view agreed with the real one."""
    trial = drawn.clone()
    replayed = 0
    for entry, real_view in zip(future, expected, strict=True):
        if trial.is_over:
            break
        if entry.seat is None:
            trial.advance(max(entry.at, trial.now))
            continue
        assert entry.action is not None
        if entry.seat != seat:
            with contextlib.suppress(IllegalAction):  # that seat's hidden cards or choices differ there
                trial.apply(entry.seat, entry.action, max(entry.at, trial.now))
            continue
        if _dump(trial.view(seat)) != real_view:
            break  # the seat can tell the two apart from here on
        try:
            trial.apply(seat, entry.action, max(entry.at, trial.now))
        except IllegalAction as error:
            raise _fail(game, step, seat, f"its own {entry.action!r} at {entry.at} is refused in the sample, "
                                          f"whose view it could not tell from the real one: {error}") from None
        replayed += 1
    return replayed


def _play_on(game: Game, drawn: Match, rng: random.Random, steps: int, step: int, seat: int) -> None:
    """Random play from the sample (what a search's rollout does): no action the sample lists is refused,
    and the match ends or keeps going without a fault."""
    for _ in range(steps):
        if drawn.is_over:
            return
        to_act = drawn.to_act()
        due = drawn.wake_at()
        if due is not None and (not to_act or rng.random() < 0.1):
            drawn.advance(max(due, drawn.now))
            continue
        if not to_act:
            raise _fail(game, step, seat, "a sample's playout stalled: nobody is awaited and nothing is due")
        actor = to_act[rng.randrange(len(to_act))]
        try:
            drawn.apply(actor, sample(drawn.legal_actions(actor), rng))
        except IllegalAction as error:
            raise _fail(game, step, seat, f"a sample's playout refused a listed action: {error}") from None
