"""Running a series of seeded matches in worker processes on this machine, or on a Ray cluster.

Match i of a series depends only on the series seed and i (`tournament.play_series`), so workers can play
any slice of it: each worker plays chunks of consecutive indices and returns one `Outcome` per match;
the caller gathers them by index, so the statistics are exactly those of the single-process run.
`map_chunks` does the same for any analysis whose item i depends only on i (a game's `analyze`).
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from partygames import games
from partygames.analysis.tournament import SEARCH_SIMULATIONS, play_series

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome:
    """What the statistics need of one match: per seat its bot kind, score and whether it won."""

    index: int
    kinds: tuple[str, ...]
    scores: tuple[float, ...]
    winners: tuple[bool, ...]
    actions: int


@dataclass(frozen=True)
class Series:
    """A series of matches, as plain data that pickles to any worker."""

    game_id: str
    seats: int
    kinds: tuple[str, ...]
    seed: int
    options: dict[str, Any] | None
    save_dir: str | None = None
    search_simulations: int = SEARCH_SIMULATIONS


def outcomes(series: Series, start: int, count: int) -> Iterator[Outcome]:
    """Plays matches start .. start+count-1 of the series, one at a time (saving their logs when asked)."""
    game = games.get(series.game_id)
    for index, played in enumerate(play_series(game, count, series.seats, series.kinds, series.seed,
                                               series.options, start=start,
                                               search_simulations=series.search_simulations), start):
        if series.save_dir is not None:
            folder = Path(series.save_dir)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{game.id}-{series.seed + index}.json").write_text(json.dumps(played.log.to_json()),
                                                                          encoding="utf-8")
        seats = sorted(played.result.seats, key=lambda s: s.seat)
        yield Outcome(index, tuple(played.kinds), tuple(s.score for s in seats),
                      tuple(s.is_winner for s in seats), played.match.version)


def play_chunk(series: Series, start: int, count: int) -> list[Outcome]:
    """What a worker runs: `outcomes` of one slice of the series."""
    return list(outcomes(series, start, count))


def chunks(games_count: int, workers: int) -> list[tuple[int, int]]:
    """(start, count) slices: about eight per worker, so the progress moves and the load balances."""
    size = max(1, min(1000, games_count // (workers * 8)))
    return [(start, min(size, games_count - start)) for start in range(0, games_count, size)]


def map_chunks(task: Callable[[int, int], list[T]], total: int, workers: int,
               progress: Callable[[int], None] | None = None) -> Iterator[T]:
    """`task(start, count)` over the `chunks` of indices 0 .. total-1 on `workers` processes of this machine
    (spawned: no state leaks from the parent), yielding each chunk's items as it finishes; `progress(done)` is
    told how many indices are done. `task` must pickle: a module-level function or a `partial` of one."""
    done = 0
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: dict[Future[list[T]], int] = {pool.submit(task, start, count): count
                                               for start, count in chunks(total, workers)}
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                done += pending.pop(future)
                yield from future.result()
            if progress is not None:
                progress(done)


def run_local(series: Series, games_count: int, workers: int,
              progress: Callable[[int], None] | None = None) -> Iterator[Outcome]:
    """The series on `workers` processes of this machine."""
    return map_chunks(partial(play_chunk, series), games_count, workers, progress)


def run_ray(series: Series, games_count: int, address: str | None,
            progress: Callable[[int], None] | None = None) -> Iterator[Outcome]:
    """The series as Ray tasks on the cluster at `address` ("auto": the one this machine belongs to;
    "local": a new one on this machine); when Ray is already initialised in this process, there."""
    try:
        import ray
    except ModuleNotFoundError as error:
        raise RuntimeError("--ray needs Ray: pip install 'partygames[ray]'") from error
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False)
    task = ray.remote(play_chunk)
    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    workers = max(1, int(resources.get("CPU", 1)))
    pending: list[Any] = [task.remote(series, start, count) for start, count in chunks(games_count, workers)]
    done = 0
    while pending:
        finished, pending = ray.wait(pending, num_returns=1)
        for outcomes in ray.get(finished):
            done += len(outcomes)
            yield from outcomes
        if progress is not None:
            progress(done)


def in_order(results: Iterator[Outcome], games_count: int) -> Sequence[Outcome]:
    """The outcomes sorted by match index, checking that every match came back once."""
    ordered: list[Outcome | None] = [None] * games_count
    for outcome in results:
        ordered[outcome.index] = outcome
    missing = [i for i, o in enumerate(ordered) if o is None]
    if missing:
        raise RuntimeError(f"matches {missing[:5]} did not come back from the workers")
    return [o for o in ordered if o is not None]
