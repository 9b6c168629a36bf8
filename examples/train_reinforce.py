"""Train a learning agent on Lucky Nine through partygames' PettingZoo environment, in a minute on a laptop.

player_0 is a linear softmax policy over the encoding's observation vector, its logits masked by the
action mask; the other seats play uniformly random legal actions. REINFORCE with a running-mean baseline
on the terminal reward (1 for a win, ties shared, else 0). Writes the learning curve (win rate per batch
and its moving average, beside the 1/3 of a random player) to `lucky-nine-learning.png`.

    python examples/train_reinforce.py [--episodes 6000] [--plot lucky-nine-learning.png]

Needs `pip install 'partygames[rl]'` (and matplotlib, a core dependency). For RLlib see train_rllib.py.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from partygames.rl.pettingzoo import env

LEARNER = "player_0"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=6000)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--learning-rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, default=Path("lucky-nine-learning.png"))
    args = parser.parse_args()

    aec = env("lucky-nine", seats=3, options={"rounds": 4}, seed=args.seed)
    size = aec.observation_space(LEARNER)["observation"].shape[0]
    moves = aec.action_space(LEARNER).n
    rng = np.random.default_rng(args.seed)
    weights = np.zeros((size, moves))
    baseline = 1 / 3
    curve: list[float] = []
    gradient = np.zeros_like(weights)
    wins = 0.0
    for episode in range(1, args.episodes + 1):
        aec.reset()
        trace: list[tuple[np.ndarray, np.ndarray, int]] = []
        reward = 0.0
        for agent in aec.agent_iter():
            observation, r, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                if agent == LEARNER:
                    reward = float(r)
                aec.step(None)
                continue
            mask = observation["action_mask"].astype(bool)
            if agent != LEARNER:
                aec.step(int(rng.choice(np.flatnonzero(mask))))
                continue
            x = observation["observation"].astype(np.float64)
            logits = np.where(mask, x @ weights, -np.inf)
            p = np.exp(logits - logits.max())
            p /= p.sum()
            action = int(rng.choice(moves, p=p))
            trace.append((x, p, action))
            aec.step(action)
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        for x, p, action in trace:  # d log pi(a|x) / dW = x (onehot(a) - p)
            grad_logits = -p
            grad_logits[action] += 1.0
            gradient += advantage * np.outer(x, grad_logits)
        wins += reward
        if episode % args.batch == 0:
            weights += args.learning_rate * gradient / args.batch
            gradient[:] = 0.0
            curve.append(wins / args.batch)
            wins = 0.0
            print(f"episodes {episode:>6}: win rate {curve[-1]:.3f}", flush=True)

    x_axis = np.arange(1, len(curve) + 1) * args.batch
    window = min(10, len(curve))
    smooth = np.convolve(curve, np.ones(window) / window, mode="valid")
    plt.figure(figsize=(7, 4))
    plt.plot(x_axis, curve, alpha=0.35, label=f"win rate per {args.batch} episodes")
    plt.plot(x_axis[window - 1:], smooth, label=f"moving average ({window} batches)")
    plt.axhline(1 / 3, color="grey", linestyle="--", label="random player (1/3)")
    plt.xlabel("episodes")
    plt.ylabel("win rate of player_0")
    plt.title("Lucky Nine, 3 seats: REINFORCE vs two random players")
    plt.legend()
    plt.tight_layout()
    plt.savefig(args.plot, dpi=120)
    print(f"learning curve: {args.plot}")


if __name__ == "__main__":
    main()
