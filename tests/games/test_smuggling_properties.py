"""Smuggling Game properties: random legal play from random seeds, team sizes and options never
crashes, conserves money (accounts + trunk + organiser's ledger), settles as the analysis payoff says,
and leaks no trunk or vote in progress to any other seat."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from partygames.engine.actions import sample
from partygames.games import get
from partygames.games.smuggling.rules import SmugglingMatch
from partygames.games.smuggling.settlement import payoff, settle

GAME = get("smuggling")

options_strategy = st.fixed_dictionaries({
    "team_size": st.integers(1, 9),
    "small_games": st.integers(1, 6),
    "unit": st.sampled_from([1, 5, 10_000, 1_000_000, 25_000_000]),
    "representatives": st.sampled_from(["vote", "rotation"]),
})


def _money(match: SmugglingMatch) -> int:
    return sum(match.third) + sum(match.opp) + match.trunk + match.organiser


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@given(seed=st.integers(0, 2**32), options=options_strategy)
def test_random_play_conserves_money_and_ends_with_prizes_that_add_up(seed: int, options: dict[str, Any]) -> None:
    seats = 2 * options["team_size"]
    match = GAME.new(seats, options, seed)
    assert isinstance(match, SmugglingMatch)
    rng = random.Random(seed)
    assert _money(match) == 0
    while not match.is_over:
        seat = rng.choice(match.to_act())
        match.apply(seat, sample(match.legal_actions(seat), rng))
        assert _money(match) == 0
        assert all(balance >= 0 for balance in match.third + match.opp)
    result = match.result()
    assert result is not None and len(match.ledger) == options["small_games"]
    totals = result.detail["team_totals"]
    assert totals == {"north": sum(match.third[0::2]), "south": sum(match.third[1::2])}
    assert sum(s.score for s in result.seats) + result.detail["organiser_keeps"] == 0
    assert all(0 <= r < options["team_size"] for r in result.detail["remainders"].values())
    winners = {s.seat % 2 for s in result.seats if s.is_winner}
    assert winners == ({0, 1} if totals["north"] == totals["south"] else {0 if totals["north"] > totals["south"] else 1})


@given(seed=st.integers(0, 2**32), options=options_strategy)
def test_no_view_depends_on_a_trunk_or_vote_in_progress(seed: int, options: dict[str, Any]) -> None:
    seats = 2 * options["team_size"]
    match = GAME.new(seats, options, seed)
    rng = random.Random(seed)
    while not match.is_over:
        views = {s: _dump(match.view(s)) for s in [None, *range(seats)]}
        for owner in range(seats):
            other = match.perturb_secrets(owner, random.Random(rng.random()))
            if other is None:
                continue
            assert _dump(other.to_json()) != _dump(match.to_json())  # there was a secret to change
            for seat in [None, *range(seats)]:
                if seat != owner:
                    assert _dump(other.view(seat)) == views[seat], (owner, seat)
        seat = rng.choice(match.to_act())
        match.apply(seat, sample(match.legal_actions(seat), rng))


@given(seed=st.integers(0, 2**32), options=options_strategy)
def test_deadline_defaults_are_legal_for_every_awaited_seat(seed: int, options: dict[str, Any]) -> None:
    seats = 2 * options["team_size"]
    match = GAME.new(seats, options, seed)
    rng = random.Random(seed)
    while not match.is_over:
        deadline = match.time_limit()
        assert deadline is not None and set(deadline.defaults) == set(match.to_act())
        timed_out = match.clone()
        for seat, action in deadline.defaults.items():
            timed_out.apply(seat, action)  # raises IllegalAction if a default were not legal
        after = timed_out.time_limit()
        assert after is None or after.phase != deadline.phase
        seat = rng.choice(match.to_act())
        match.apply(seat, sample(match.legal_actions(seat), rng))
    assert match.time_limit() is None


@given(trunk=st.integers(0, 100_000_000), doubt=st.one_of(st.none(), st.integers(1, 10**9)))
def test_settlement_moves_the_team_difference_by_the_analysis_payoff(trunk: int, doubt: int | None) -> None:
    outcome = settle(trunk, doubt)
    x = 0 if doubt is None else doubt
    if outcome.outcome in ("empty_doubted", "under_doubted"):  # X // 2 yen each way: one yen short of X in total when X is odd
        assert outcome.difference_change == payoff(trunk, x) - x % 2
    else:
        assert outcome.difference_change == payoff(trunk, x)
    assert outcome.outcome == ("passed" if doubt is None else "empty_doubted" if trunk == 0
                               else "caught" if trunk <= x else "under_doubted")
