"""The Liar Game night as a pure description (engine/tournament.py, tournaments/liar_game.py): its rounds in
order, a qualifier that let fewer than two pass played again, another game between rounds not counted, each
round's options chained from the room's seat count, and each game's yen line as its seed states it."""

from __future__ import annotations

from partygames.engine.match import Result, SeatResult
from partygames.games import get
from partygames.tournaments.liar_game import NIGHT

OKU = 100_000_000


def result(winners: set[int], seats: int = 4, holdings: list[dict[str, int]] | None = None) -> Result:
    return Result(tuple(SeatResult(s, 1 if s in winners else 2, s in winners, 0.0, (holdings or [{}] * seats)[s])
                        for s in range(seats)), "t")


def test_the_rounds_follow_in_order_and_a_qualifier_without_two_passers_is_played_again() -> None:
    assert NIGHT.next_stage([]) == 0
    played = [("smuggling", result({0, 2}))]
    assert NIGHT.next_stage(played) == 1
    played.append(("lucky-nine", result({1})))  # another game between rounds: not a round of the night
    assert NIGHT.next_stage(played) == 1
    played.append(("pandemic", result({3})))  # one passed: no final
    assert NIGHT.next_stage(played) == 1
    played.append(("pandemic", result({1, 3})))
    assert NIGHT.next_stage(played) == 2
    played.append(("musical-chairs", result({3})))
    assert NIGHT.next_stage(played) is None


def test_each_round_s_options_follow_the_room_s_seats_then_those_it_was_made_with() -> None:
    assert NIGHT.seat_counts == (4, 6, 8, 10, 12, 14, 16, 18)
    assert NIGHT.stage_options(1, 12) == {"qualifiers": 6, "infected": 2}  # the seed's 6 of 12, 2 infected
    assert NIGHT.stage_options(1, 4) == {"qualifiers": 2, "infected": 1}
    assert NIGHT.stage_options(2, 24 - 6) == {"medals": 17}
    assert NIGHT.stage_options(1, 8, {"pandemic": {"minutes": 2, "infected": 3}}) == {
        "qualifiers": 4, "infected": 3, "minutes": 2}


def test_each_game_s_yen_line_is_its_seed_s_prize_and_debt() -> None:
    smuggling = get("smuggling").yen
    assert smuggling is not None
    # 1.5億 in the third-country account plus a 2000万 share, minus the 4億 loan: a 2.3億 debt.
    [line] = smuggling(result(set(), 1, [{"third": 150_000_000, "share": 20_000_000, "repay": 4 * OKU,
                                           "net": -230_000_000}]))
    assert line.yen == -230_000_000 and [f.value for f in line.figures] == [150_000_000, 20_000_000, -4 * OKU]
    pandemic = get("pandemic").yen
    assert pandemic is not None
    lines = pandemic(result({1}, 2))
    assert [x.yen for x in lines] == [0, 0] and lines[1].note is not None and "Qualified" in lines[1].note.en
    chairs = get("musical-chairs").yen
    assert chairs is not None
    lines = chairs(result({0}, 2, [{"winner_medals": 3, "payout": 3 * OKU}, {"winner_medals": 0, "payout": 0}]))
    assert [x.yen for x in lines] == [3 * OKU, 0] and lines[0].figures[0].value == 3
