"""A bot can determinise from what it is told alone (docs/engine.md, Determinisation): a bot keeping a
`SeatRecord` from its `observe` and `act` (the observation's view, time and deadline) draws, at every
decision, a match whose view of its seat is the one it was given, and plays on in it; every game, on its
research table, with such a bot in every seat."""

from __future__ import annotations

import json
import random

import pytest

from partygames import games
from partygames.engine.actions import Action, sample
from partygames.engine.bots import Bot, Observation
from partygames.engine.game import Game
from partygames.engine.knowledge import SeatRecord
from partygames.engine.match import Event
from partygames.engine.session import play


class SamplingBot(Bot):
    """Plays at random, and at every decision draws a match from its record and plays its own action
    there first: the record is fed only what a bot is told."""

    def __init__(self, game: Game, seats: int, options: dict[str, object], seat: int, seed: int = 0) -> None:
        super().__init__(seat, seed)
        self.record = SeatRecord(game, seats, options, seat)
        self.game = game
        self.decisions = 0

    def observe(self, event: Event) -> None:
        self.record.hear(event)

    def act(self, obs: Observation) -> Action:
        self.record.see(obs.view, obs.now, obs.deadline)
        drawn = self.game.determinise(self.record, random.Random(self.rng.random()))
        assert json.dumps(drawn.view(self.seat), sort_keys=True) == json.dumps(obs.view, sort_keys=True)
        action = sample(obs.legal, self.rng)
        drawn.apply(self.seat, action, obs.now)  # legal there too: the same legal actions
        self.record.acted(action, obs.now)
        self.decisions += 1
        return action


@pytest.mark.parametrize("game_id", games.ids())
def test_a_bot_determinises_from_its_observations(game_id: str) -> None:
    game = games.get(game_id)
    setup = game.samples.research
    assert setup is not None
    options = dict(setup.options)
    bots = [SamplingBot(game, setup.seats, options, s, s) for s in range(setup.seats)]
    match, _ = play(game, setup.seats, bots, options, seed=3)
    assert match.is_over and all(bot.decisions > 0 for bot in bots)
