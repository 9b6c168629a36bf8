"""Train PPO with RLlib on Lucky Nine through partygames' PettingZoo environment, and plot its learning curve.

All three seats share one policy (self-play with parameter sharing), using RLlib's action-masking module
(`ActionMaskingTorchRLModule`): RLlib reads the mask from the observation dict, under the keys
"observations" and "action_mask", so a small wrapper renames our "observation". The curve is player_0's
mean episode return (its win rate: a win is 1, shared when tied) per training iteration.

    pip install 'partygames[rl]' 'ray[rllib]==2.60.0' torch
    python examples/train_rllib.py [--iterations 30] [--plot lucky-nine-rllib.png]

Not run by this project's test suite: it needs PyTorch, which is not a dependency of partygames (the
examples' NumPy trainer, train_reinforce.py, runs anywhere the `rl` extra is installed).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from gymnasium import spaces
from pettingzoo.utils import BaseWrapper
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

from partygames.rl.pettingzoo import env


class RLlibKeys(BaseWrapper):  # type: ignore[misc]
    """Our observation dict under the keys RLlib's action-masking module reads."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self._spaces = {a: spaces.Dict({"observations": inner.observation_space(a)["observation"],
                                        "action_mask": inner.observation_space(a)["action_mask"]})
                        for a in inner.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        observation = super().observe(agent)
        return {"observations": observation["observation"], "action_mask": observation["action_mask"]}


def make_env(_: dict[str, Any]) -> PettingZooEnv:
    return PettingZooEnv(RLlibKeys(env("lucky-nine", seats=3, options={"rounds": 4})))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--plot", type=Path, default=Path("lucky-nine-rllib.png"))
    args = parser.parse_args()
    register_env("partygames_lucky_nine", make_env)
    config = (
        PPOConfig()
        .environment("partygames_lucky_nine")
        .env_runners(num_env_runners=1)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *_, **__: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": RLModuleSpec(
            module_class=ActionMaskingTorchRLModule,
            model_config={"head_fcnet_hiddens": [64, 64], "head_fcnet_activation": "relu"})}))
        .training(train_batch_size_per_learner=2000, lr=3e-4)
    )
    algo = config.build_algo()
    curve = []
    for iteration in range(1, args.iterations + 1):
        result = algo.train()
        returns = result["env_runners"].get("agent_episode_returns_mean", {})
        curve.append(float(returns.get("player_0", float("nan"))))
        print(f"iteration {iteration:>3}: player_0 mean return {curve[-1]:.3f}", flush=True)
    algo.stop()
    plt.figure(figsize=(7, 4))
    plt.plot(range(1, len(curve) + 1), curve, label="player_0 mean return (win rate)")
    plt.axhline(1 / 3, color="grey", linestyle="--", label="1/3: equal strength")
    plt.xlabel("PPO iteration")
    plt.ylabel("mean episode return")
    plt.title("Lucky Nine, 3 seats: RLlib PPO, shared policy")
    plt.legend()
    plt.tight_layout()
    plt.savefig(args.plot, dpi=120)
    print(f"learning curve: {args.plot}")


if __name__ == "__main__":
    main()
