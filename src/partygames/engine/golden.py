"""Golden playthroughs: one seeded match per game, every view and legal-action list along the way.

The committed files under tests/golden/ pin each game's behaviour; `tests/test_golden.py`
regenerates them and compares, so any rule change shows up as a reviewed diff. To accept a change:

    python -m partygames.engine.golden --update
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from partygames.engine.actions import sample
from partygames.engine.game import Game
from partygames.engine.samples import Setup
from partygames.engine.session import Session

_MISSING = object()
GOLDEN_DIR = Path(__file__).resolve().parents[3] / "tests" / "golden"


def playthrough(game: Game, seats: int, seed: int, options: dict[str, Any] | None = None,
                max_steps: int = 400) -> str:
    """A line-per-step text record of a seeded random match (views of every seat and the public)."""
    rng = random.Random(seed)
    session = Session.new(game, seats, options, seed)
    match = session.match
    lines = [json.dumps({"game": game.id, "seats": seats, "seed": seed, "options": match.options.to_json()},
                        sort_keys=True, ensure_ascii=False)]
    step = 0
    previous: dict[str, dict[str, Any]] = {}
    while True:
        views = {str(s): match.view(s) for s in range(seats)}
        views["public"] = match.view(None)
        # After the first step, each view is recorded as the top-level fields that changed, which
        # keeps the files small and the diffs of a rule change readable.
        record: dict[str, Any] = {"step": step, "views": {
            who: {k: v for k, v in view.items() if previous.get(who, {}).get(k, _MISSING) != v}
            for who, view in views.items()
        }}
        previous = views
        if match.is_over or step >= max_steps:
            lines.append(json.dumps(record, sort_keys=True, ensure_ascii=False))
            break
        to_act = match.to_act()
        if to_act:  # the first awaited seat acts at once; time moves only when nobody may act
            seat = to_act[0]
            action = sample(match.legal_actions(seat), rng)
            events = session.act(seat, action)
            record["action"] = {"seat": seat, "action": action}
        else:
            due = match.wake_at()
            assert due is not None, f"{game.id}: nobody is awaited and nothing is due"
            events = session.wake(due)
            record["wake"] = due
        record["events"] = [e.to_json() for e in events]
        lines.append(json.dumps(record, sort_keys=True, ensure_ascii=False))
        step += 1
    return "\n".join(lines) + "\n"


def golden_cases() -> list[tuple[Game, int, int, dict[str, Any]]]:
    """(game, seats, seed, options) per registered game: its `samples.golden` set-up (a short match),
    else the smallest seat count and default options. Seed 1."""
    from partygames import games

    cases = []
    for g in games.all_games():
        setup = g.samples.golden or Setup(min(g.seat_counts))
        cases.append((g, setup.seats, 1, dict(setup.options)))
    return cases


def path_for(game: Game) -> Path:
    return GOLDEN_DIR / f"{game.id}.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description="Regenerate golden playthroughs.")
    parser.add_argument("--update", action="store_true", help="write the files")
    args = parser.parse_args()
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for game, seats, seed, options in golden_cases():
        text = playthrough(game, seats, seed, options)
        path = path_for(game)
        same = path.exists() and path.read_text(encoding="utf-8") == text
        if args.update and not same:
            path.write_text(text, encoding="utf-8")
        print(f"{game.id}: {'unchanged' if same else ('written' if args.update else 'DIFFERS')}")


if __name__ == "__main__":
    main()
