"""Each game declares how long its events take to show (`Game.reveals`); hosts pace a match by it."""

from __future__ import annotations

import inspect
import random
from pathlib import Path

import pytest

from partygames import games
from partygames.engine.actions import sample
from partygames.engine.game import Game
from partygames.engine.match import Event
from partygames.engine.reveals import Reveals
from partygames.engine.session import Session

GAME_IDS = games.ids()


def _event_types(game: Game) -> set[str]:
    """The event types of the game's conformance matches, played with random actions."""
    seen: set[str] = set()
    conf = game.samples.conformance
    for seats in conf.seat_counts(game.seat_counts):
        for seed in range(conf.seeds):
            rng = random.Random(seed)
            # Random seats never wait, so a real-time game plays its virtual-clock form here.
            session = Session.new(game, seats, {**conf.options, **game.virtual_clock_options}, seed,
                                  on_entry=lambda entry, events: seen.update(e.type for e in events))
            match = session.match
            while not match.is_over:
                awaited = match.to_act()
                if awaited:
                    seat = rng.choice(awaited)
                    session.act(seat, sample(match.legal_actions(seat), rng))
                else:
                    due = match.wake_at()
                    assert due is not None
                    session.wake(due)
    return seen


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_declared_reveal_is_an_event_the_game_emits(game_id: str) -> None:
    game = games.get(game_id)
    declared = set(game.reveals.durations) | game.reveals.chapters
    assert game.reveals.chapters, "the banner watches a reveal that begins a race, a round or a small game"
    missing = declared - _event_types(game)
    # An event too rare for random play (Dice Derby's furlong run again because every die fell) must
    # at least be emitted by name in the game's code.
    package = Path(inspect.getfile(game.match_class)).parent
    source = " ".join(p.read_text() for p in package.glob("*.py") if p.name != "__init__.py")
    assert not {t for t in missing if f'"{t}"' not in source}, f"{game_id} declares reveals of events it never emits"


def test_a_step_costs_the_longest_reveal_among_those_watching() -> None:
    reveals = Reveals({"roll": 600, "peek": 2000, "note": 0}, default=100)
    events = [Event("roll", {}), Event("roll", {}), Event("peek", {}, (1,)), Event("note", {}), Event("other", {})]
    # Everyone watches the two rolls and the other event; seat 1 also watches its peek; notes are not staged.
    assert reveals.cost(events, [None, 0]) == 1300
    assert reveals.cost(events, [None, 0, 1]) == 3300
    assert reveals.cost([Event("peek", {}, (2,))], [None, 0, 1]) == 0
    assert reveals.cost([], [None]) == 0


def test_durations_are_never_negative() -> None:
    with pytest.raises(ValueError, match="negative"):
        Reveals({"roll": -1})


def test_the_web_client_gets_the_reveals_in_the_game_info() -> None:
    info = games.get("dice-derby").info()["reveals"]
    assert info["durations"]["roll"] == 700 and info["default"] == 1000 and info["chapters"] == ["betting_open"]
