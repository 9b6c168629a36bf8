"""Musical Chairs rules with worked numbers on the fixed test island (docs/rules/musical-chairs.md).

The test island: the totem at (100, 100), everyone starts there, chair 7 is 40 m from the totem, chair
1 50 m, chairs 2 and 6 60 m, chair 3 70 m, chair 4 80 m; chairs 1 and 7 are 30 m apart. At 5 m/s a
metre takes 200 ms. With a 10 s first break, GO is at 10,000 ms.
"""

from __future__ import annotations

from typing import Any

import pytest

from partygames.engine import IllegalAction
from partygames.games import get
from partygames.games.musical_chairs.options import MEDAL_YEN
from partygames.games.musical_chairs.rules import (
    PARENT_LOT,
    RACE_ORDER,
    REMOVED_CHAIR,
    MusicalChairsMatch,
    Termination,
)

GAME = get("musical-chairs")
GO = 10_000


def new(players: int = 2, gallery: int = 1, **options: Any) -> MusicalChairsMatch:
    opts = {"players": players, "gallery": gallery, "island": "test", "first_break_seconds": 10,
            "break_seconds": 10, "vote_seconds": 10, "remove_seconds": 10, "chairs": 8, **options}
    match = GAME.new(players + gallery, opts, seed=1)
    assert isinstance(match, MusicalChairsMatch)
    return match


def run(match: MusicalChairsMatch, seat: int, chair: int, at: int) -> None:
    match.advance(at)
    match.apply(seat, {"type": "run_to_chair", "chair": chair}, at)


def types(events: list[Any]) -> list[str]:
    return [e.type for e in events]


def test_a_player_at_the_totem_at_go_touches_it_and_sits_on_the_first_free_chair_reached() -> None:
    match = new()
    events = match.advance(GO)
    assert match.phase == "race" and match.phase_ends == GO + 60_000
    assert [e.data["seat"] for e in events if e.type == "touched"] == [0, 1]
    run(match, 0, 1, GO)
    assert match.people[0]["motion"] == {"from": [100, 100], "to": [130, 140], "start": GO, "arrive": GO + 10_000}
    assert match.wake_at() == GO + 10_000
    events = match.advance(GO + 10_000)
    assert "seated" in types(events)
    assert match.chair(1)["occupant"] == 0 and match.people[0]["chair"] == 1
    assert match.view(2)["chairs"][0]["occupant"] == 0  # the lamp is public


def test_a_chair_reached_before_touching_the_totem_seats_nobody() -> None:
    """「トーテムポールのところまで走ってこれにタッチし、その後イスの所へと走ります」"""
    match = new()
    run(match, 0, 7, 0)  # during the break: 40 m, arrives at 8,000
    match.advance(GO)
    assert not match.people[0]["touched"]
    match.advance(GO + 1)
    assert match.chair(7)["occupant"] is None
    match.apply(0, {"type": "run_to_totem"}, GO + 1)  # 40 m back: 8,000 ms
    match.advance(GO + 8_001)
    assert match.people[0]["touched"]
    run(match, 0, 7, GO + 8_001)
    match.advance(GO + 16_001)
    assert match.chair(7)["occupant"] == 0


def test_arrivals_at_the_same_millisecond_go_to_the_earlier_command() -> None:
    match = new()
    match.advance(GO)
    match.apply(1, {"type": "run_to_chair", "chair": 1}, GO)
    match.apply(0, {"type": "run_to_chair", "chair": 1}, GO)
    match.advance(GO + 10_000)
    assert match.chair(1)["occupant"] == 1
    assert match.chair(1)["waiting"] == [0]


def test_a_seat_is_kept_ten_seconds_after_its_player_walks_away_then_the_waiting_player_sits() -> None:
    """「イスから右手が10秒以上離れると判定が取り消され、ランプが消えます」"""
    match = new()
    match.advance(GO)
    match.apply(0, {"type": "run_to_chair", "chair": 1}, GO)
    match.apply(1, {"type": "run_to_chair", "chair": 1}, GO)
    match.advance(GO + 10_000)
    match.apply(0, {"type": "run_to_chair", "chair": 7}, GO + 11_000)  # 30 m: arrives at GO + 17,000
    assert match.people[0]["grace_until"] == GO + 21_000
    assert match.wake_at() == GO + 17_000
    events = match.advance(GO + 17_000)  # sitting on another chair gives up chair 1 at once
    assert types(events)[1:4] == ["released", "seated", "seated"]  # the waiting player first, then 0
    assert match.history[-1]["seated"] == {"0": 7, "1": 1}  # all seated: the race is over


def test_the_seat_is_released_at_exactly_ten_seconds_and_a_return_before_that_keeps_it() -> None:
    match = new()
    match.advance(GO)
    match.apply(0, {"type": "run_to_chair", "chair": 1}, GO)
    match.apply(1, {"type": "run_to_chair", "chair": 1}, GO)
    match.advance(GO + 10_000)
    match.apply(0, {"type": "walk_to", "x": 130, "y": 160}, GO + 10_000)  # 20 m away: 4,000 ms
    match.advance(GO + 14_000)
    match.apply(0, {"type": "run_to_chair", "chair": 1}, GO + 14_000)  # back at GO + 18,000 < GO + 20,000
    match.advance(GO + 18_000)
    assert match.chair(1)["occupant"] == 0 and match.people[0]["grace_until"] is None
    # Away again, for good this time: at exactly 10 s the seat goes to the player waiting there.
    match.apply(0, {"type": "walk_to", "x": 130, "y": 160}, GO + 18_000)
    match.advance(GO + 27_999)
    assert match.chair(1)["occupant"] == 0
    events = match.advance(GO + 28_000)
    assert types(events)[:2] == ["released", "seated"]
    assert match.chair(1)["occupant"] == 1


def test_an_arrival_exactly_at_the_limit_counts_and_the_unseated_are_out_and_their_medals_void() -> None:
    match = new(race_seconds=20)
    match.advance(GO)
    run(match, 0, 3, GO + 6_000)  # 70 m: arrives at GO + 20,000, the limit
    run(match, 1, 3, GO + 6_001)
    match.advance(GO + 20_000)
    assert match.phase == "over"
    assert match.people[1]["role"] == "gallery" and match.people[1]["out"] == 1
    assert match.medals[1] == {}
    result = match.result()
    assert result is not None and result.termination == Termination.LAST_PLAYER and result.winners == (0,)


def test_never_the_same_chair_number_twice_in_a_row() -> None:
    """「2回続けて同じ番号のイスに座ることは出来ません」"""
    match = new(players=3, gallery=0)
    match.advance(GO)
    run(match, 0, 1, GO)
    run(match, 1, 2, GO)
    run(match, 2, 3, GO)
    match.advance(GO + 14_000)
    assert match.phase == "vote"
    for seat in range(3):
        match.apply(seat, {"type": "vote", "candidate": 0}, GO + 14_000)
    match.apply(0, {"type": "remove_chair", "chair": 4}, GO + 14_000)
    go = GO + 24_000
    match.advance(go)
    assert match.phase == "race" and match.period == 2
    assert 1 not in match.legal_actions(0)[4]["params"]["chairs"]["sequence"]  # the plan cannot list it
    run(match, 0, 1, go)
    match.advance(go + 10_000)
    assert match.chair(1)["occupant"] is None and match.chair(1)["waiting"] == []


def test_vote_plurality_with_abstention_then_the_parent_removes_a_chair() -> None:
    match = new(players=3, gallery=2)
    match.advance(GO)
    for seat, chair in ((0, 1), (1, 2), (2, 3)):
        run(match, seat, chair, GO)
    match.advance(GO + 14_000)
    at = GO + 14_000
    match.apply(0, {"type": "vote", "candidate": 1}, at)
    match.apply(3, {"type": "vote", "candidate": 1}, at)
    match.apply(4, {"type": "vote", "candidate": 2}, at)
    assert match.view(2)["my_ballot"] is None and match.view(4)["my_ballot"] == 2
    assert match.view(2)["voted"] == [0, 3, 4]
    match.advance(at + 10_000)  # seats 1 and 2 abstain
    entry = match.history[-1]
    assert entry["vote"] == {"candidates": [0, 1, 2], "votes": {"0": 0, "1": 2, "2": 1}, "abstained": 2}
    assert match.parent == 1 and match.phase == "remove"
    assert "remove_chair" not in {s["type"] for s in match.legal_actions(0)}
    with pytest.raises(IllegalAction):
        match.apply(0, {"type": "remove_chair", "chair": 4}, at + 10_000)
    match.apply(1, {"type": "remove_chair", "chair": 2}, at + 10_000)
    assert match.chair(2)["removed"] and match.period == 2 and match.phase == "break"


def test_a_tie_has_one_run_off_among_the_tied_then_a_lot() -> None:
    match = new(players=3, gallery=0)
    match.advance(GO)
    for seat, chair in ((0, 1), (1, 2), (2, 3)):
        run(match, seat, chair, GO)
    at = GO + 14_000
    match.advance(at)
    for seat, candidate in ((0, 0), (1, 1), (2, 2)):
        match.apply(seat, {"type": "vote", "candidate": candidate}, at)
    assert match.phase == "runoff" and match.candidates == [0, 1, 2]
    match.apply(0, {"type": "vote", "candidate": 0}, at)
    match.apply(1, {"type": "vote", "candidate": 1}, at)
    match.chance.script(PARENT_LOT, 1)
    match.advance(at + 10_000)  # seat 2 abstains: 0 and 1 tie again
    assert match.history[-1]["runoff"]["votes"] == {"0": 1, "1": 1, "2": 0}
    assert match.parent == 1 and match.history[-1]["parent_by_lot"]


def test_a_parent_who_names_no_chair_loses_one_by_lot() -> None:
    match = new(players=3, gallery=0)
    match.advance(GO)
    for seat, chair in ((0, 1), (1, 2), (2, 3)):
        run(match, seat, chair, GO)
    at = GO + 14_000
    match.advance(at)
    for seat in range(3):
        match.apply(seat, {"type": "vote", "candidate": 2}, at)
    match.chance.script(REMOVED_CHAIR, 3)
    match.advance(at + 10_000)
    assert match.chair(3)["removed"] and match.history[-1]["removed_by_lot"]


def test_a_gallery_holder_lets_only_the_named_player_sit() -> None:
    """「ガヤ」「暴力行為以外なら何をしても構わず」: a ガヤ standing at a free chair holds it."""
    match = new(players=2, gallery=1)
    match.apply(2, {"type": "hold", "chair": 7, "player": 1}, 0)  # arrives at 8,000, during the break
    match.advance(GO)
    assert match.chair(7)["holder"] == 2 and match.chair(7)["for"] == 1
    run(match, 0, 7, GO)
    match.advance(GO + 8_000)
    assert match.chair(7)["occupant"] is None and match.chair(7)["waiting"] == [0]
    run(match, 1, 7, GO + 8_000)
    match.advance(GO + 16_000)
    assert match.chair(7)["occupant"] == 1


def test_a_holder_who_walks_away_frees_the_chair_for_the_waiting_player() -> None:
    match = new(players=2, gallery=1)
    match.apply(2, {"type": "run_to_chair", "chair": 7}, 0)  # holds it for nobody
    match.advance(GO)
    run(match, 0, 7, GO)
    match.advance(GO + 8_000)
    assert match.chair(7)["occupant"] is None
    events = match.apply(2, {"type": "run_to_totem"}, GO + 9_000)
    assert types(events)[:2] == ["hold_ended", "seated"] and match.chair(7)["occupant"] == 0


def test_if_nobody_sits_the_race_is_run_once_more_and_then_nobody_wins() -> None:
    match = new(race_seconds=5)
    match.apply(0, {"type": "give", "to": 2, "name": 0, "count": 1}, 0)
    match.advance(GO + 5_000)
    assert match.phase == "break" and match.rerun and match.remaining() == [0, 1]
    match.advance(GO + 5_000 + 10_000 + 5_000)
    result = match.result()
    assert result is not None and result.termination == Termination.NOBODY_SAT
    assert match.medals == [{}, {}, {}] and all(s.score == 0 for s in result.seats)
    # Nobody wins: no seat is a winner (win rates count none), and every seat ranks the same.
    assert result.winners == () and [s.is_winner for s in result.seats] == [False, False, False]
    assert [s.rank for s in result.seats] == [1, 1, 1] and result.detail["winner"] is None
    assert match.view(0)["winner"] is None


def test_the_re_run_of_the_first_race_has_the_break_between_periods_not_the_first_break() -> None:
    """First break 120 s, the others 45 s: GO at 120,000; nobody sits in the 5 s race, so the re-run's break
    runs from 125,000 to 170,000 (45 s, not 120 s)."""
    match = new(race_seconds=5, first_break_seconds=120, break_seconds=45)
    assert match.phase_ends == 120_000
    match.advance(125_000)
    assert match.phase == "break" and match.rerun and match.period == 1
    assert (match.phase_started, match.phase_ends) == (125_000, 170_000)
    deadline = match.deadline()
    assert deadline is not None and deadline.seconds == 45
    match.advance(169_999)
    assert match.phase == "break"
    match.advance(170_000)
    assert match.phase == "race" and match.phase_ends == 175_000


def test_stop_while_seated_keeps_the_player_on_the_chair_s_spot_but_starts_the_ten_seconds() -> None:
    """`stop` on the chair is a move away from it: the lamp stays on for 10 s, then the seat is released
    though the player stands on the spot; running to the chair (0 m) before then sits again at once."""
    match = new()
    match.advance(GO)
    run(match, 0, 1, GO)  # seated at GO + 10,000
    match.advance(GO + 10_000)
    events = match.apply(0, {"type": "stop"}, GO + 11_000)
    assert types(events) == ["stood", "course"]
    assert match.people[0]["grace_until"] == GO + 21_000 and match.where(0) == (130, 140)
    run(match, 0, 1, GO + 15_000)  # 0 m: back on the chair at once, the 10 s end
    match.advance(GO + 15_000)
    assert match.chair(1)["occupant"] == 0 and match.people[0]["grace_until"] is None
    match.apply(0, {"type": "stop"}, GO + 16_000)
    match.advance(GO + 25_999)
    assert match.chair(1)["occupant"] == 0  # a seat in its 10 s still counts
    events = match.advance(GO + 26_000)
    assert types(events) == ["released"] and match.where(0) == (130, 140)
    assert match.chair(1)["occupant"] is None and match.people[0]["chair"] is None


def test_medals_change_hands_in_private_and_the_winner_s_medals_pay_one_oku_each() -> None:
    """「メダルが23枚1組」「敗退者の名前が刻まれたメダルはその都度無効」「1枚1億円で換金」"""
    match = new(players=2, gallery=1)
    assert match.options.medal_count == 2  # participants - 1
    match = new(players=2, gallery=1, medals=23)
    events = match.apply(0, {"type": "give", "to": 2, "name": 0, "count": 5}, 0)
    assert events[0].to == (0, 2)
    match.apply(1, {"type": "give", "to": 0, "name": 1, "count": 3}, 0)
    assert match.view(2)["my_medals"] == {"0": 5}
    assert match.view(1)["my_transfers"] == [{"from": 1, "to": 0, "name": 1, "count": 3, "at": 0}]
    assert match.view(2)["my_transfers"] == [{"from": 0, "to": 2, "name": 0, "count": 5, "at": 0}]
    match.advance(GO)
    run(match, 0, 1, GO)
    match.advance(GO + 60_000)
    assert match.medals == [{"0": 18}, {}, {"0": 5}]  # seat 1's medals void, in seat 0's hand too
    result = match.result()
    assert result is not None
    assert [s.score for s in result.seats] == [18 * MEDAL_YEN, 0, 5 * MEDAL_YEN]
    assert [s.rank for s in result.seats] == [1, 3, 2]


def test_show_medals_reaches_only_the_chosen_participant() -> None:
    match = new(players=2, gallery=1)
    match.apply(0, {"type": "show_medals", "to": 2}, 0)
    assert match.view(2)["shown_to_me"] == [{"from": 0, "to": 2, "medals": {"0": 2}, "at": 0}]
    assert match.view(1)["shown_to_me"] == []


def test_vote_at_totem_offers_the_ballot_only_near_the_totem() -> None:
    match = new(players=3, gallery=0, vote_at_totem=True)
    match.advance(GO)
    for seat, chair in ((0, 1), (1, 2), (2, 7)):
        run(match, seat, chair, GO)
    match.advance(GO + 14_000)
    assert match.phase == "vote"
    assert ballot_choices(match, 0) == ["blank"]  # 50 m away: only a blank ballot (an abstention)
    match.apply(2, {"type": "run_to_totem"}, GO + 14_000)  # 40 m: within 15 m after 25 m, at 5,000 ms
    match.advance(GO + 18_900)  # 24.5 m run: at (100, 116), 16 m from the totem
    assert ballot_choices(match, 2) == ["blank"]
    match.advance(GO + 19_000)
    assert ballot_choices(match, 2) == [0, 1, 2, "blank"]


def ballot_choices(match: MusicalChairsMatch, seat: int) -> list[Any]:
    vote = next(s for s in match.legal_actions(seat) if s["type"] == "vote")
    return list(vote["params"]["candidate"]["choice"])


def test_a_blank_ballot_abstains_and_the_vote_closes_once_every_seat_has_cast_one() -> None:
    match = new(players=2, gallery=1)
    match.advance(GO)
    run(match, 0, 1, GO)
    run(match, 1, 2, GO)
    match.advance(GO + 12_000)
    for seat, candidate in ((0, 1), (1, "blank"), (2, "blank")):
        match.apply(seat, {"type": "vote", "candidate": candidate}, GO + 12_000)
    assert match.history[-1]["vote"] == {"candidates": [0, 1], "votes": {"0": 0, "1": 1}, "abstained": 2}
    assert match.parent == 1


def test_rounds_tempo_resolves_sealed_plans_with_the_same_movement_and_a_lot_for_ties() -> None:
    match = new(players=3, gallery=1, tempo="rounds")
    assert {s["type"] for s in match.legal_actions(0)} == {"plan", "give", "show_medals"}
    match.apply(0, {"type": "plan", "chairs": [1, 2]}, 0)
    match.apply(1, {"type": "plan", "chairs": [1, 3]}, 0)
    match.apply(2, {"type": "plan", "chairs": [4]}, 0)
    assert match.view(1)["my_plan"] == [1, 3] and match.view(0)["my_plan"] == [1, 2]
    match.chance.script(RACE_ORDER, [1, 3, 0, 2])
    match.apply(3, {"type": "hold", "chair": 2, "player": 2}, 0)  # the last intent: GO at once
    assert match.phase == "race" and match.to_act() == ()
    while match.phase == "race":
        due = match.wake_at()
        assert due is not None
        match.advance(due)
    seated = match.history[-1]["seated"]
    # 1 wins the tie at chair 1 (the lot), 0 re-targets from chair 1 to chair 2, held by the ガヤ for 2:
    # 0 waits there and is out; 2 sits on chair 4.
    assert seated == {"1": 1, "2": 4}
    assert match.people[0]["role"] == "gallery"


def test_the_seed_s_25_chairs_make_24_periods_with_a_removal_and_a_25th_race_on_the_last_chair() -> None:
    """「最大で24回繰り返します」: 2 players and 22 ガヤ, the seed preset in the rounds tempo, nobody acting
    (default plans, every ballot an abstention, the run-off and the chair by lot): 24 removals, then the
    race on the last chair ends the game (here the other player held it in the 24th race, so may not sit)."""
    match = GAME.new(24, {"preset": "seed", "players": 2, "gallery": 22, "tempo": "rounds"}, seed=1)
    assert isinstance(match, MusicalChairsMatch)
    while not match.is_over:
        due = match.wake_at()
        assert due is not None
        match.advance(due)
    removed = [entry["removed"] for entry in match.history if "removed" in entry]
    assert len(removed) == 24 and match.period == 25 and len(match.history) == 25
    last_chair = next(n for n in range(1, 26) if n not in removed)
    assert match.outcome == Termination.LAST_PLAYER and match.winner is not None
    assert match.history[-1]["seated"] == {str(match.winner): last_chair}
    assert match.history[-2]["seated"][str(1 - match.winner)] == last_chair
