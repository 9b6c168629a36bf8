"""Running one race: five furlongs of rolls (plus falls and run-offs), as public events in order.

The procedure mirrors `analysis.placings` step for step, so the exact odds are the odds of this code.
Chance labels: ``fall:d4`` ... ``fall:d20`` (bernoulli, only with the fall rule) and ``die:d4`` ...
``die:d20`` (randint 1..faces), drawn for the running dice from the smallest die up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from partygames.engine.chance import Chance
from partygames.engine.match import Event
from partygames.games.dice_derby.horses import FACES, GATES, die_name

# A rerun when everyone falls is always possible in theory; this bound only stops a broken script.
MAX_RERUNS = 10_000
_DIE_LABEL = {g: f"die:{die_name(g)}" for g in GATES}
_FALL_LABEL = {g: f"fall:{die_name(g)}" for g in GATES}
_FACES = dict(zip(GATES, FACES, strict=True))


class _Shown:
    """The public events of one furlong (race, stage, furlong) outside the fall rule's: its start by runners,
    each die's roll by gate and value, and who is out by loser, value and tie. The same few thousand events
    make up every race (at most six races of five furlongs, 60 faces), so each is made once and shared:
    events are read-only. Rolls are made for all dice at once; starts and outs when first seen."""

    __slots__ = ("furlong", "outs", "race", "rolls", "stage", "starts")

    def __init__(self, race: int, stage: str, furlong: int) -> None:
        self.race, self.stage, self.furlong = race, stage, furlong
        self.rolls = tuple(
            tuple(Event("roll", {"race": race, "stage": stage, "furlong": furlong, "gate": gate, "faces": faces,
                                 "value": value}) for value in range(faces + 1))
            for gate, faces in zip(GATES, FACES, strict=True))
        self.starts: dict[tuple[int, ...], Event] = {}
        self.outs: dict[tuple[int, int, bool], Event] = {}

    def start(self, runners: list[int]) -> Event:
        key = tuple(runners)
        event = self.starts.get(key)
        if event is None:
            event = self.starts[key] = Event("furlong_start", {"race": self.race, "stage": self.stage,
                                                               "furlong": self.furlong, "runners": list(runners)})
        return event

    def out(self, loser: int, low: int, tied: bool) -> Event:
        key = (loser, low, tied)
        event = self.outs.get(key)
        if event is None:
            event = self.outs[key] = Event("out", {"race": self.race, "stage": self.stage, "furlong": self.furlong,
                                                   "gates": [loser], "reason": "tie" if tied else "lowest",
                                                   "value": low})
        return event


# Bounded: dropped whole if a caller's odd race numbers ever filled it (the rules' races fill at most 60).
_SHOWN: dict[tuple[int, str, int], _Shown] = {}
_MAX_SHOWN = 128


def _shown(race: int, stage: str, furlong: int) -> _Shown:
    key = (race, stage, furlong)
    shown = _SHOWN.get(key)
    if shown is None:
        if len(_SHOWN) >= _MAX_SHOWN:
            _SHOWN.clear()
        shown = _SHOWN[key] = _Shown(race, stage, furlong)
    return shown


@dataclass
class RaceRun:
    """A race: its public events in order, a compact per-furlong record for views, the top two,
    the horses put out in the first furlong, and the quinella pair once decided."""

    race: int
    events: list[Event] = field(default_factory=list)
    furlongs: list[dict[str, Any]] = field(default_factory=list)
    first: int = 0
    second: int = 0
    first_furlong_out: list[int] = field(default_factory=list)
    quinella: list[int] = field(default_factory=list)
    quinella_at: int = 0
    """How many of `events` there are up to `quinella_decided`, that included (0: not decided yet)."""

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append(Event(kind, {"race": self.race, **data}))


def run_race(chance: Chance, fall: float | None, race: int = 1) -> RaceRun:
    """Runs a race of all six horses. `fall` is the per-die fall probability, None without the rule."""
    run = RaceRun(race)
    run.first, run.second = _run(chance, fall, list(GATES), run, runoff=False)
    return run


def _run(chance: Chance, fall: float | None, runners: list[int], run: RaceRun, runoff: bool) -> tuple[int, int]:
    """Runs furlongs until one runner is left; returns (winner, second). In a run-off only the winner counts."""
    stage = "runoff" if runoff else "race"
    furlong = 0
    reruns = 0
    # A race is most of a simulated match's time: its events are the furlong's shared ones (`_Shown`), and the
    # runners' dice are thrown by one `Chance.dice` call per furlong from these lists, kept beside `runners`.
    events, race, furlongs = run.events, run.race, run.furlongs
    runners = list(runners)  # our own: a furlong's loser is deleted from it
    labels = list(map(_DIE_LABEL.__getitem__, runners))
    faces = list(map(_FACES.__getitem__, runners))
    while True:
        furlong += 1
        shown = _SHOWN.get((race, stage, furlong)) or _shown(race, stage, furlong)
        events.append(shown.start(runners))
        fallen = [g for g in runners if chance.bernoulli(_FALL_LABEL[g], fall)] if fall is not None else None
        if fallen:
            record: dict[str, Any] = {"stage": stage, "furlong": furlong, "rolls": [], "fallen": [], "out": []}
            furlongs.append(record)
            if len(fallen) == len(runners):
                # 「最後に残った2人が同時に落馬したら、そのハロンはやり直してください」 (any count: nobody is left)
                run.emit("furlong_rerun", stage=stage, furlong=furlong, fallen=fallen)
                record.update(fallen=fallen, rerun=True)
                furlong -= 1
                reruns += 1
                if reruns > MAX_RERUNS:
                    raise RuntimeError("every die fell on every try")
                continue
            standing = [g for g in runners if g not in fallen]
            run.emit("fall", stage=stage, furlong=furlong, gates=fallen)
            run.emit("out", stage=stage, furlong=furlong, gates=fallen, reason="fall")
            record.update(fallen=fallen, out=fallen)
            if not runoff and furlong == 1:
                run.first_furlong_out.extend(fallen)
            if len(standing) >= 2:
                runners = standing
                labels = list(map(_DIE_LABEL.__getitem__, runners))
                faces = list(map(_FACES.__getitem__, runners))
                _note_quinella(run, runners, runoff)
                continue
            winner = standing[0]
            if len(fallen) == 1:
                second = fallen[0]
            else:
                # 「3人残ったうち2人が落馬したら、落馬していない人が1位で、落馬した2人が振りなおして2位を決めて」
                run.emit("runoff_start", for_place=2, runners=fallen)
                second, _ = _run(chance, fall, fallen, run, runoff=True)
                run.emit("runoff_end", for_place=2, gate=second)
            _note_quinella(run, sorted([winner, second]), runoff)
            return winner, second
        # Reveal from the smallest die up: 「ダイスは小さい方から(4面体から)順にダイスの目を公表」.
        # 「もし数字が同じ場合は、より多面体のダイスが脱落します」: the key (value, -faces) orders the loser first.
        loser, low, tied, at = 0, 99, False, 0
        rolls: list[list[int]] = []
        shown_rolls = shown.rolls
        for i, value in enumerate(chance.dice(labels, faces)):
            gate = runners[i]
            rolls.append([gate, value])
            events.append(shown_rolls[gate - 1][value])
            if value <= low:  # gates run in increasing faces, so an equal value is a die with more faces
                tied = value == low
                loser, low, at = gate, value, i
        events.append(shown.out(loser, low, tied))
        furlongs.append({"stage": stage, "furlong": furlong, "rolls": rolls, "fallen": [], "out": [loser]})
        if not runoff and furlong == 1:
            run.first_furlong_out.append(loser)
        del runners[at], labels[at], faces[at]
        if len(runners) == 1:
            return runners[0], loser
        if len(runners) == 2:
            _note_quinella(run, runners, runoff)


def _note_quinella(run: RaceRun, runners: list[int], runoff: bool) -> None:
    # 「4ハロン目が終わった時点で連複は確定します」: the last two standing are first and second.
    if not runoff and len(runners) == 2 and not run.quinella:
        run.quinella = list(runners)
        run.emit("quinella_decided", pair=list(runners))
        run.quinella_at = len(run.events)
