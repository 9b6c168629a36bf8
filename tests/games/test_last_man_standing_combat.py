"""The fight resolution on its own (combat.resolve, combat.payouts): seed examples and invariants over random
fights."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from partygames.games.last_man_standing.combat import payouts, resolve

J, Q, K, A = 11, 12, 13, 14


def test_lowest_fighter_kills_both_highest_then_the_next_rank_kills_it() -> None:
    # 2, K, K, 7: the seed's example of one fighter killing two at once, then 7 kills the 2.
    assert resolve([2, K, K, 7]) == [(0, 1), (0, 2), (3, 0)]


def test_a_lone_fighter_survives_because_it_never_kills_itself() -> None:
    assert resolve([9]) == []
    assert resolve([]) == []


def test_fighters_all_of_one_rank_stare_each_other_down() -> None:
    assert resolve([7, 7]) == [] and resolve([7, 7, 7, 7]) == []


def test_of_two_fighters_the_lower_kills_the_higher() -> None:
    assert resolve([A, 2]) == [(1, 0)]
    assert resolve([3, 4]) == [(0, 1)]


def test_each_unique_rank_kills_every_living_lower_fighter_in_ascending_order() -> None:
    # 2 kills K; 5 kills 2; 9 kills 5; the K is dead and does not act.
    assert resolve([2, 5, 9, K]) == [(0, 3), (1, 0), (2, 1)]
    # Tied lowest: no first-step kill; the 5 kills both 2s; the K kills the 5.
    assert resolve([2, 2, 5, K]) == [(2, 0), (2, 1), (3, 2)]


def test_a_tied_middle_rank_kills_nothing() -> None:
    assert resolve([2, 7, 7, K]) == [(0, 3)]


def test_the_lowest_kills_highest_fighters_of_its_own_player_too() -> None:
    # Owners do not matter to the resolution: index 0 and index 2 may belong to one player.
    assert resolve([2, 5, A, 5]) == [(0, 2)]


ranks = st.lists(st.integers(2, 14), min_size=1, max_size=40)


@given(ranks)
def test_every_fight_leaves_a_survivor_and_kills_each_victim_once(fighters: list[int]) -> None:
    kills = resolve(fighters)
    victims = [v for _, v in kills]
    assert len(set(victims)) == len(victims)
    assert len(victims) < len(fighters)
    dead: set[int] = set()
    for killer, victim in kills:
        assert killer != victim and killer not in dead, "a dead fighter never acts"
        assert fighters.count(fighters[killer]) == 1, "a shared rank never kills"
        dead.add(victim)


@given(ranks)
def test_after_the_first_step_only_higher_ranks_kill_lower_ones(fighters: list[int]) -> None:
    low, high = min(fighters), max(fighters)
    for killer, victim in resolve(fighters):
        if fighters[killer] == low:
            assert fighters[victim] == high
        else:
            assert fighters[victim] < fighters[killer]


def test_the_nth_kill_of_a_fight_pays_n_dollars() -> None:
    # The seed's example: the 2 kills both kings for $1 + $2; the 7 then kills the 2 for $3.
    assert payouts([2, K, K, 7], 60) == [(0, 1, 1), (0, 2, 2), (3, 0, 3)]


def test_the_kill_that_empties_the_pot_is_the_last() -> None:
    # 2, 5, 9, K with $4 in the pot: $1, $2, then the third kill gets the last $1 and nothing follows.
    assert payouts([2, 5, 9, K], 4) == [(0, 3, 1), (1, 0, 2), (2, 1, 1)]
    assert payouts([2, 5, 9, K], 3) == [(0, 3, 1), (1, 0, 2)]


@given(ranks, st.integers(1, 200))
def test_payouts_are_the_resolution_paid_from_the_pot_until_it_is_empty(fighters: list[int], pot: int) -> None:
    paid = payouts(fighters, pot)
    kills = resolve(fighters)
    assert [(k, v) for k, v, _ in paid] == kills[:len(paid)]
    assert [p for _, _, p in paid[:-1]] == list(range(1, len(paid)))  # every kill but the last is paid in full
    assert sum(p for _, _, p in paid) <= pot
    assert len(paid) == len(kills) or sum(p for _, _, p in paid) == pot  # cut short only by an empty pot
