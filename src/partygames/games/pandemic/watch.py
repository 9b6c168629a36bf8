"""The seed's watch rules as pure functions: a contact between two watches and a press of the switch.

Both the match (`rules.py`) and the exact odds (`odds.py`, the same rules over every possible world at
once) implement these; tests check that they agree.
"""

from __future__ import annotations

from typing import NamedTuple


class Watch(NamedTuple):
    """What a watch holds: the status and the vaccine count."""

    infected: bool
    vaccines: int


class ContactOutcome(NamedTuple):
    first: Watch
    second: Watch
    gained: bool
    """Whether the pair gained vaccines together (it never can again)."""


def contact(first: Watch, second: Watch, paired_before: bool) -> ContactOutcome:
    """Two watches touch (「接触」). `paired_before`: this pair already gained vaccines together."""
    if not first.infected and not second.infected:
        # 「正常者同士の場合は2人とも正常のままで、両者ともワクチンが1つずつ増えます。」, once per pair
        if paired_before:
            return ContactOutcome(first, second, False)
        return ContactOutcome(Watch(False, first.vaccines + 1), Watch(False, second.vaccines + 1), True)
    if first.infected and second.infected:
        return ContactOutcome(first, second, False)  # 「感染者同士の場合は何も変化は起きません。」
    healthy, sick = (first, second) if second.infected else (second, first)
    if healthy.vaccines == 0:
        new_healthy, new_sick = Watch(True, 0), sick  # 「正常者が感染者となります。」
    else:
        # 「正常者はワクチンを1本失った上で感染者となります。感染者は正常者になります。」
        new_healthy, new_sick = Watch(True, healthy.vaccines - 1), Watch(False, sick.vaccines)
    if second.infected:
        return ContactOutcome(new_healthy, new_sick, False)
    return ContactOutcome(new_sick, new_healthy, False)


def press(watch: Watch) -> Watch:
    """The switch: an infected watch with a vaccine loses one and is healthy; otherwise nothing happens."""
    if watch.infected and watch.vaccines > 0:
        return Watch(False, watch.vaccines - 1)
    return watch
