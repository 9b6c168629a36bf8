"""Simulations on worker processes and on Ray give exactly the single-process figures for the same seed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from partygames import games
from partygames.analysis.parallel import chunks
from partygames.analysis.tournament import simulate
from partygames.cli.main import app

runner = CliRunner()
TIMING = ("seconds", "games_per_second", "actions_per_second")


def _figures(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in TIMING}


def test_chunks_cover_every_match_once() -> None:
    covered = [i for start, count in chunks(1003, 4) for i in range(start, start + count)]
    assert covered == list(range(1003))


def test_simulate_on_two_workers_gives_the_single_process_figures_and_logs(tmp_path: Path) -> None:
    base = ["simulate", "lucky-nine", "--games", "24", "--seats", "3", "--seed", "7", "--json", "-o", "rounds=4"]
    one = runner.invoke(app, [*base, "--save", str(tmp_path / "one")])
    two = runner.invoke(app, [*base, "--workers", "2", "--save", str(tmp_path / "two")])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert _figures(json.loads(two.output)) == _figures(json.loads(one.output))
    names = sorted(p.name for p in (tmp_path / "one").glob("*.json"))
    assert len(names) == 24 and names == sorted(p.name for p in (tmp_path / "two").glob("*.json"))
    for name in names:
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()


def test_simulate_on_a_local_ray_instance_gives_the_single_process_figures() -> None:
    ray = pytest.importorskip("ray")
    game = games.get("smuggling")
    options = {"team_size": 2, "small_games": 4}
    alone = simulate(game, 40, 4, ["heuristic", "random"], seed=3, options=options)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        seen: list[int] = []
        spread = simulate(game, 40, 4, ["heuristic", "random"], seed=3, options=options, ray_address="auto",
                          progress=seen.append)
    finally:
        ray.shutdown()
    assert _figures(spread.summary()) == _figures(alone.summary())
    assert [s.scores for s in spread.stats.values()] == [s.scores for s in alone.stats.values()]
    assert seen[-1] == 40 and seen == sorted(seen)


@pytest.mark.parametrize("game_id", games.ids())
def test_the_same_seed_gives_the_same_figures_in_another_process(game_id: str) -> None:
    """A fresh interpreter hashes strings differently (PYTHONHASHSEED): a bot that walked a set of strings
    played otherwise from one process to the next (Pandemic's offer targets did), and so could a worker."""
    runs = []
    for hash_seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-m", "partygames.cli.main", "simulate", game_id, "--games", "30",
                               "--seed", "5", "--json"], capture_output=True, text=True, timeout=300,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed}, check=False)
        assert done.returncode == 0, done.stderr
        runs.append(_figures(json.loads(done.stdout)))
    assert runs[0] == runs[1]
