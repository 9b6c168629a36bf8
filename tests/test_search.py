"""The search bot (`engine/search.py`): it plays every game legally to the end; with a simulation count and
a seed it is deterministic; an ms budget is kept on the clock it is given; it decides from what its seat
was told alone; and it replaces its policy's choice only with a candidate that is measurably better.
Strength is measured in benchmarks/search_bench.py, not here."""

from __future__ import annotations

import json
import random
from functools import partial
from typing import Any

import pytest

from partygames import games
from partygames.engine.actions import find_spec
from partygames.engine.bots import Observation, TableInfo
from partygames.engine.game import Game
from partygames.engine.log import MatchLog
from partygames.engine.match import Event
from partygames.engine.search import Budget, SearchBot, _Arm
from partygames.engine.session import Session, play

TINY = Budget(simulations=3)


def _research(game: Game) -> tuple[int, dict[str, Any]]:
    setup = game.samples.research
    assert setup is not None
    return setup.seats, dict(setup.options)


def _search_match(game: Game, seed: int, budget: Budget = TINY) -> tuple[MatchLog, list[SearchBot]]:
    """A match on the game's research table with a search bot in seat 0, heuristic bots elsewhere."""
    seats, options = _research(game)
    table = game.table(seats, options, range(seats))
    bots = [game.make_bot("search" if s == 0 else "heuristic", s, seed * 100 + s, table=table, budget=budget)
            for s in range(seats)]
    match, log = play(game, seats, bots, options, seed=seed)
    assert match.is_over
    return log, [b for b in bots if isinstance(b, SearchBot)]


@pytest.mark.parametrize("game_id", games.ids())
def test_the_search_bot_plays_every_game_legally_to_the_end_and_the_same_way_twice(game_id: str) -> None:
    """`play` refuses any illegal action; the same seed and simulation count give the same match."""
    game = games.get(game_id)
    first, searchers = _search_match(game, seed=4)
    again, _ = _search_match(game, seed=4)
    assert json.dumps(first.to_json()) == json.dumps(again.to_json())
    searched = sum(b.stats.searched for b in searchers)
    assert searched > 0, "the search bots never had a choice to search"
    assert sum(b.stats.simulations for b in searchers) <= TINY.simulations * searched  # type: ignore[operator]
    assert all(b.stats.rollout_faults == 0 for b in searchers)


def test_every_game_offers_the_search_bot_titled_strong_in_both_languages() -> None:
    for game in games.all_games():
        assert "search" in game.bots
        title = game.bot_title("search")
        assert (title.en, title.ja) == ("Strong", "強い")
        assert game.info()["bot_titles"]["search"] == {"en": "Strong", "ja": "強い"}


def test_a_search_bot_must_be_told_its_table_and_budgets_are_checked() -> None:
    game = games.get("lucky-nine")
    with pytest.raises(ValueError, match="table"):
        game.make_bot("search", 0, 1)
    with pytest.raises(ValueError, match="lucky-nine"):
        game.make_bot("search", 0, 1, table=games.get("smuggling").table(2))
    assert game.make_bot("heuristic", 0, 1, table=game.table(3)).name == "heuristic"  # others ignore it
    for bad in ({}, {"ms": 5, "simulations": 5}, {"simulations": 0}, {"ms": -1}, {"simulations": 2.5}):
        with pytest.raises(ValueError):
            Budget(**bad)


class FakeClock:
    """A clock that moves `tick` seconds at every reading."""

    def __init__(self, tick: float) -> None:
        self.now = 0.0
        self.tick = tick
        self.readings = 0

    def __call__(self) -> float:
        self.now += self.tick
        self.readings += 1
        return self.now


def _decision(game_id: str, seed: int = 2) -> tuple[Game, Session, int]:
    """A session of the game's research table with heuristic bots, stepped to the first decision of a seat
    that has more than one legal action."""
    game = games.get(game_id)
    seats, options = _research(game)
    session = Session.new(game, seats, options, seed, {s: game.make_bot("heuristic", s, s) for s in range(seats)})
    match = session.match
    while True:
        for seat in match.to_act():
            specs = match.legal_actions(seat)
            if len(specs) > 1 or any(len(p.get("choice", [0, 1])) > 1 for p in specs[0]["params"].values()):
                return game, session, seat
        session.bot_turn(match.to_act()[0])


def _observe(session: Session, seat: int) -> Observation:
    match = session.match
    return Observation(seat, match.legal_actions(seat), lambda: match.view(seat), match.now, match.deadline)


@pytest.mark.parametrize("ms", [5, 40])
def test_an_ms_budget_is_kept_on_the_clock_the_bot_is_given(ms: int) -> None:
    """With a clock that moves 1 ms at every reading, the search stops within a reading of its budget: the
    clock is read between worlds and every few steps of a rollout, and a world cut short is dropped."""
    game, session, seat = _decision("lucky-nine")
    clock = FakeClock(0.001)
    bot = game.make_bot("search", seat, 1, table=TableInfo.of(game, session.match), budget=Budget(ms=ms))
    assert isinstance(bot, SearchBot)
    bot.clock = clock
    action = bot.act(_observe(session, seat))
    find_spec(session.match.legal_actions(seat), action)  # type: ignore[arg-type]
    assert bot.stats.searched == 1
    assert bot.stats.seconds <= ms / 1000 + 0.001 + 1e-9
    assert bot.stats.worlds > 0 if ms == 40 else True


def test_without_time_for_one_world_the_bot_plays_its_policy_s_choice() -> None:
    game, session, seat = _decision("last-man-standing")
    observation = _observe(session, seat)
    bot = game.make_bot("search", seat, 1, table=TableInfo.of(game, session.match), budget=Budget(ms=10))
    assert isinstance(bot, SearchBot)
    bot.clock = FakeClock(1.0)  # a second per reading: the deadline passes before a world is played out
    heuristic = game.make_bot("heuristic", seat, 0)
    expected = heuristic.act(observation)
    assert bot.act(observation) == expected and bot.stats.worlds == 0 and bot.stats.overruled == 0


@pytest.mark.parametrize("game_id", ["smuggling", "last-man-standing", "dice-derby"])
def test_the_search_bot_decides_from_what_its_seat_was_told_alone(game_id: str) -> None:
    """Built as a room builds it (`make_bot` with the table, fed the events its seat may see), the bot takes
    the same decisions as its twin (the same seed, told the same events) shown a match whose other seats'
    secrets and hidden future were changed (`Match.perturb_secrets`): it reads only its observations."""
    game = games.get(game_id)
    seats, options = _research(game)
    match = game.new(seats, options, 7, bots=range(seats))
    seat, rng = 0, random.Random(5)
    bot, twin = (game.make_bot("search", seat, 3, table=TableInfo.of(game, match), budget=Budget(simulations=12))
                 for _ in range(2))
    assert isinstance(bot, SearchBot) and isinstance(twin, SearchBot)

    def tell_twin(entry: object, events: list[Event]) -> None:
        for event in events:
            if event.is_visible_to(seat):
                twin.observe(event)

    others = {s: game.make_bot("heuristic", s, s) for s in range(1, seats)}
    session = Session(game, match, {seat: bot, **others}, on_entry=tell_twin)
    while not match.is_over:
        awaited = match.to_act()
        if not awaited:
            session.wake_next()
        elif awaited[0] != seat:
            session.bot_turn(awaited[0])
        else:
            changed = match
            for owner in [None, *range(1, seats)]:
                changed = changed.perturb_secrets(owner, rng) or changed
            assert changed.view(seat) == match.view(seat)
            chosen = bot.act(_observe(session, seat))
            assert twin.act(Observation(seat, changed.legal_actions(seat), partial(changed.view, seat), changed.now,
                                        changed.deadline)) == chosen
            assert chosen is not None
            session.act(seat, chosen)
    assert bot.stats.searched > 0 and bot.stats.worlds == twin.stats.worlds


def test_the_policy_s_choice_is_replaced_only_by_a_significant_paired_gain() -> None:
    game = games.get("lucky-nine")
    bot = game.make_bot("search", 0, 1, table=game.table(3))
    assert isinstance(bot, SearchBot)
    policy = _Arm({"type": "pass"}, [0.0, 1.0, 0.0, 1.0, 0.0, 1.0])
    noisy = _Arm({"type": "continue"}, [1.0, 0.0, 1.0, 1.0, 0.0, 1.0])  # gains +1, -1, +1, 0, 0, 0
    clear = _Arm({"type": "continue"}, [0.5, 1.0, 0.5, 1.0, 0.5, 1.0])  # gains +0.5 in three worlds, 0 else
    assert bot.choose([policy, noisy]) is policy
    assert bot.choose([policy, clear]) is clear
    assert bot.choose([policy, _Arm({"type": "continue"}, [0.0] * 6)]) is policy  # a loss never wins


def test_a_candidate_leaves_the_race_when_clearly_worse_or_the_same_as_the_policy_s_choice_in_every_world() -> None:
    """Rollouts go to the candidates still in question: one clearly worse than the policy's choice leaves after
    `min_worlds` worlds, and so does one that played out exactly as it in every world (in effect the same
    move); one that differs, even by little, stays."""
    game = games.get("lucky-nine")
    bot = game.make_bot("search", 0, 1, table=game.table(3))
    assert isinstance(bot, SearchBot) and bot.min_worlds == 4
    policy = _Arm({"type": "pass"}, [0.0, 1.0, 0.0, 1.0])
    assert bot._beaten(_Arm({"type": "continue"}, [0.0, 1.0, 0.0, 1.0]), policy)  # the same in all four
    assert not bot._beaten(_Arm({"type": "continue"}, [0.0, 1.0, 0.0]), _Arm({"type": "pass"}, [0.0, 1.0, 0.0]))
    assert not bot._beaten(_Arm({"type": "continue"}, [0.0, 1.0, 0.0, 1.1]), policy)  # a little better once
    assert bot._beaten(_Arm({"type": "continue"}, [-1.0, 0.0, -1.0, 0.0]), policy)  # a loss in every world
