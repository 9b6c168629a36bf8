"""Running one race: five furlongs of rolls (plus falls and run-offs), as public events in order.

The procedure mirrors `analysis.placings` step for step, so the exact odds are the odds of this code.
Chance labels: ``fall:d4`` ... ``fall:d20`` (bernoulli, only with the fall rule) and ``die:d4`` ...
``die:d20`` (randint 1..faces), drawn for the running dice from the smallest die up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from partygames.engine.chance import Chance
from partygames.games.dice_derby.horses import die_name, faces

# A redo when everyone falls is always possible in theory; this bound only stops a broken script.
MAX_REDOS = 10_000


@dataclass
class RaceRun:
    """The events of a race in order, the top two, and who went out in the first furlong."""

    events: list[dict[str, Any]] = field(default_factory=list)
    first: int = 0
    second: int = 0
    first_furlong_out: list[int] = field(default_factory=list)
    quinella: list[int] = field(default_factory=list)


def run_race(chance: Chance, fall: float | None) -> RaceRun:
    """Runs a race of all six horses. `fall` is the per-die fall probability, None without the rule."""
    run = RaceRun()
    first, second = _run(chance, fall, [1, 2, 3, 4, 5, 6], run, runoff=False)
    run.first, run.second = first, second
    return run


def _run(chance: Chance, fall: float | None, runners: list[int], run: RaceRun, runoff: bool) -> tuple[int, int]:
    """Runs furlongs until one runner is left; returns (winner, second). In a run-off only the winner counts."""
    kind = "runoff" if runoff else "race"
    furlong = 0
    redos = 0
    while True:
        furlong += 1
        run.events.append({"type": "furlong_start", "stage": kind, "furlong": furlong, "runners": list(runners)})
        fallen: list[int] = []
        if fall is not None:
            fallen = [g for g in runners if chance.bernoulli(f"fall:{die_name(g)}", fall)]
        if fallen and len(fallen) == len(runners):
            # 「最後に残った2人が同時に落馬したら、そのハロンはやり直してください」 (any count: nobody is left)
            run.events.append({"type": "furlong_rerun", "stage": kind, "furlong": furlong, "fallen": fallen})
            furlong -= 1
            redos += 1
            if redos > MAX_REDOS:
                raise RuntimeError("every die fell on every try")
            continue
        if fallen:
            standing = [g for g in runners if g not in fallen]
            run.events.append({"type": "fall", "stage": kind, "furlong": furlong, "gates": fallen})
            run.events.append({"type": "out", "stage": kind, "furlong": furlong, "gates": fallen, "reason": "fall"})
            if not runoff and furlong == 1:
                run.first_furlong_out.extend(fallen)
            if len(standing) >= 2:
                runners = standing
                _note_quinella(run, runners, runoff)
                continue
            winner = standing[0]
            if len(fallen) == 1:
                second = fallen[0]
            else:
                # 「3人残ったうち2人が落馬したら、落馬していない人が1位で、落馬した2人が振りなおして2位を決めて」
                run.events.append({"type": "runoff_start", "for_place": 2, "runners": fallen})
                second, _ = _run(chance, fall, fallen, run, runoff=True)
                run.events.append({"type": "runoff_end", "for_place": 2, "gate": second})
            _note_quinella(run, sorted([winner, second]), runoff)
            return winner, second
        # Reveal from the smallest die up: 「ダイスは小さい方から(4面体から)順にダイスの目を公表」.
        values: dict[int, int] = {}
        for gate in runners:
            values[gate] = chance.randint(f"die:{die_name(gate)}", 1, faces(gate))
            run.events.append({"type": "roll", "stage": kind, "furlong": furlong, "gate": gate,
                               "faces": faces(gate), "value": values[gate]})
        # 「もし数字が同じ場合は、より多面体のダイスが脱落します」
        loser = min(runners, key=lambda g: (values[g], -faces(g)))
        tied = sum(1 for g in runners if values[g] == values[loser]) > 1
        run.events.append({"type": "out", "stage": kind, "furlong": furlong, "gates": [loser],
                           "reason": "tie" if tied else "lowest", "value": values[loser]})
        if not runoff and furlong == 1:
            run.first_furlong_out.append(loser)
        runners = [g for g in runners if g != loser]
        if len(runners) == 1:
            return runners[0], loser
        _note_quinella(run, runners, runoff)


def _note_quinella(run: RaceRun, runners: list[int], runoff: bool) -> None:
    # 「4ハロン目が終わった時点で連複は確定します」: the last two standing are first and second.
    if not runoff and len(runners) == 2 and not run.quinella:
        run.quinella = list(runners)
        run.events.append({"type": "quinella_decided", "pair": list(runners)})
