"""Pandemic bots over seeded matches in the rounds tempo: the heuristic bot (a belief from its view alone)
qualifies clearly more often than random. Figures appear in the run summary and in the messages."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

from partygames.analysis.stats import wilson_interval
from partygames.analysis.tournament import play_series
from partygames.engine.bots import Observation, TableInfo
from partygames.engine.search import Budget, SearchBot
from partygames.engine.session import Session, play
from partygames.games import get
from partygames.games.pandemic.bots import HeuristicBot
from partygames.games.pandemic.rules import PandemicMatch

GAME = get("pandemic")


def pass_rates(matches: int, seats: int, options: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """(qualified, seats played) per bot kind; kinds alternate seats and shift every match."""
    counts = {"heuristic": [0, 0], "random": [0, 0]}
    for played in play_series(GAME, matches, seats, ["heuristic", "random"], options=options):
        for seat in played.result.seats:
            entry = counts[played.kinds[seat.seat]]
            entry[0] += seat.is_winner
            entry[1] += 1
    return {kind: (passed, total) for kind, (passed, total) in counts.items()}


def _figures(rates: dict[str, tuple[int, int]], matches: int, setting: str) -> str:
    parts = []
    for kind, (passed, total) in rates.items():
        low, high = wilson_interval(passed, total)
        parts.append(f"{kind} qualified {passed / total:.1%} (95% {low:.1%}-{high:.1%})")
    return f"heuristic vs random, {matches} matches, {setting}: " + ", ".join(parts)


def test_heuristic_qualifies_clearly_more_often_than_random_over_1000_matches(
        report_figures: Callable[[str], None]) -> None:
    options = {"tempo": "rounds", "minutes": 4, "step_seconds": 10, "qualifiers": 4}
    rates = pass_rates(1000, 8, options)
    figures = _figures(rates, 1000, "8 seats, 4 places, 4 minutes in rounds of 10 s")
    report_figures(figures)
    heuristic, random_ = (passed / total for passed, total in rates.values())
    low, _ = wilson_interval(*rates["heuristic"])
    _, high = wilson_interval(*rates["random"])
    assert heuristic > random_ + 0.25 and low > high, figures


def test_heuristic_beats_random_at_the_seed_s_table(report_figures: Callable[[str], None]) -> None:
    rates = pass_rates(100, 12, {"tempo": "rounds", "step_seconds": 10})
    figures = _figures(rates, 100, "the seed's 12 seats, 6 places, 8 minutes in rounds of 10 s")
    report_figures(figures)
    low, _ = wilson_interval(*rates["heuristic"])
    _, high = wilson_interval(*rates["random"])
    assert low > high, figures


def test_heuristic_bots_play_a_whole_real_time_match_on_the_virtual_clock() -> None:
    for seed in range(3):
        bots = [GAME.make_bot("heuristic", seat, seed) for seat in range(12)]
        match, log = play(GAME, 12, bots, {"minutes": 2}, seed=seed)
        result = match.result()
        assert result is not None and match.now == 120_000
        contacts = [e for e in match.view(None)["log"] if e["kind"] == "contact"]
        assert contacts, "the bots touched nobody"
        assert len(log.entries) < 5_000


def test_the_search_bot_draws_the_other_seats_sealed_intents_as_their_heuristic_would() -> None:
    """In rounds, the intents other seats have sealed this round are hidden: the determiniser draws them as a
    random player's, and the search bot's model redraws each as that seat's heuristic would choose it in the
    drawn world, leaving the searching seat's own view as it was."""
    setup = GAME.samples.research
    assert setup is not None
    seats, options = setup.seats, dict(setup.options)
    match = GAME.new(seats, options, 3, bots=range(seats))
    session = Session(GAME, match, {s: GAME.make_bot("heuristic", s, s) for s in range(seats)})
    changed = 0
    for _ in range(6):  # six rounds: the others seal theirs first, then seat 0 is asked
        for seat in [s for s in match.to_act() if s != 0]:
            session.bot_turn(seat)
        bot = GAME.make_bot("search", 0, 1, table=TableInfo.of(GAME, match), budget=Budget(simulations=4))
        assert isinstance(bot, SearchBot) and GAME.determiniser is not None
        bot.record.see(match.view(0), match.now, match.deadline())
        worlds = GAME.determiniser(bot.record)
        for draw in range(10):
            world = worlds.sample(random.Random(draw))
            assert isinstance(world, PandemicMatch)
            drawn, seen = dict(world.intents), world.view(0)
            bot.model(world, random.Random(draw))
            assert world.view(0) == seen and world.intents.keys() == drawn.keys()
            seeds = random.Random(draw)
            for key in drawn:  # what a heuristic bot at that seat chooses with its intent not yet sealed
                if int(key) == 0:
                    continue
                alone = world.clone()  # a clone rebuilds its caches
                assert isinstance(alone, PandemicMatch)
                del alone.intents[key]
                heuristic = HeuristicBot(int(key), seeds.getrandbits(63))
                chosen = heuristic.act(Observation(int(key), alone.legal_actions(int(key)),
                                                   partial(alone.view, int(key)), alone.now))
                assert chosen is not None and world.intents[key] == chosen["intent"]
                changed += drawn[key] != world.intents[key]
        session.bot_turn(0)
        while not match.to_act() and not match.is_over:
            session.wake_next()
    assert changed > 0  # the heuristic's choices are not the random draws
