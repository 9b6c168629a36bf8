"""examples/train_rllib.py trains for two tiny iterations with the real RLlib and PyTorch, and draws its curve.

Skipped unless the `rllib` extra is installed (`pip install -e '.[dev,rllib]'`): `dev` has Ray but neither
RLlib's own dependencies nor PyTorch. CI installs the extra and sets PARTYGAMES_REQUIRE_RLLIB, so there a
missing extra is a failure, not a skip.
"""

from __future__ import annotations

import importlib.util
import math
import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

if not os.environ.get("PARTYGAMES_REQUIRE_RLLIB"):
    pytest.importorskip("torch", reason="PyTorch is not installed (the `rllib` extra)")
    pytest.importorskip("ray.rllib", reason="RLlib is not installed (the `rllib` extra)")

import ray
import ray.rllib  # with PARTYGAMES_REQUIRE_RLLIB, a missing extra fails here
import torch  # noqa: F401

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_rllib.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_rllib", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=1, include_dashboard=False)
    yield
    ray.shutdown()


@pytest.mark.timeout(600)
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # RLlib's own, from its example RLModule
def test_two_tiny_iterations_give_a_win_rate_and_a_plot(tmp_path: Path, local_ray: None) -> None:
    plot = tmp_path / "curve.png"
    curve = load_example().main(["--iterations", "2", "--batch", "64", "--minibatch", "32", "--epochs", "1",
                                 "--plot", str(plot)])
    assert len(curve) == 2
    # player_0's mean return is its win rate: a win is 1, shared when tied, a loss 0.
    assert all(math.isfinite(value) and 0 <= value <= 1 for value in curve), curve
    assert plot.stat().st_size > 10_000  # a real PNG of the figure, not an empty file
