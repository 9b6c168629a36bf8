"""Running a match with bots, and replaying a match log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from partygames.engine.actions import Action
from partygames.engine.bots import Bot, Observation
from partygames.engine.game import Game
from partygames.engine.match import Event, Match
from partygames.engine.options import Options

LOG_FORMAT = 1


@dataclass
class MatchLog:
    """What replays a match: game, seat count, options, seed and every accepted action in order."""

    game: str
    seats: int
    options: dict[str, Any]
    seed: int | str
    actions: list[tuple[int, Action]] = field(default_factory=list)
    final_state: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"format": LOG_FORMAT, "game": self.game, "seats": self.seats, "options": self.options,
                "seed": self.seed, "actions": [[s, a] for s, a in self.actions], "final_state": self.final_state}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchLog:
        if data.get("format") != LOG_FORMAT:
            raise ValueError(f"unsupported match log format {data.get('format')!r}")
        return cls(game=data["game"], seats=int(data["seats"]), options=dict(data["options"]), seed=data["seed"],
                   actions=[(int(s), dict(a)) for s, a in data["actions"]], final_state=data.get("final_state"))


def play(game: Game, seats: int, bots: Sequence[Bot], options: Options | dict[str, Any] | None = None,
         seed: int | str = 0, max_actions: int = 1_000_000) -> tuple[Match, MatchLog]:
    """Plays a whole match with one bot per seat; every bot is told the events its seat may see."""
    match = game.new(seats, options, seed)
    log = MatchLog(game.id, seats, match.options.to_json(), seed)
    while not match.is_over:
        for seat in match.to_act():
            if seat not in match.to_act():  # an earlier seat's action this round may have moved the phase on
                continue
            bot = bots[seat]
            action = bot.act(Observation(seat, match.legal_actions(seat), partial(match.view, seat)))
            events = match.apply(seat, action)
            log.actions.append((seat, action))
            deliver(events, bots)
            if len(log.actions) >= max_actions:
                raise RuntimeError(f"{game.id}: no end after {max_actions} actions")
    log.final_state = match.to_json()
    return match, log


def deliver(events: Sequence[Event], bots: Sequence[Bot]) -> None:
    for event in events:
        for bot in bots:
            if event.is_visible_to(bot.seat):
                bot.observe(event)


def replay(game: Game, log: MatchLog) -> Match:
    """Rebuilds the match from its log; raises IllegalAction if an action no longer applies."""
    match = game.new(log.seats, log.options, log.seed)
    for seat, action in log.actions:
        match.apply(seat, action)
    return match
