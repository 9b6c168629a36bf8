"""Smuggling Game rules with the seed's numbers worked out (yen throughout; 1億 = 100,000,000)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from partygames.engine import IllegalAction, InvalidOptions
from partygames.games import get
from partygames.games.smuggling.rules import SmugglingMatch

GAME = get("smuggling")
M = 1_000_000
OKU = 100 * M


def new(team_size: int = 1, first: str = "north", **options: Any) -> SmugglingMatch:
    """A match whose first smuggling team is forced; rotation unless options say otherwise."""
    opts = {"team_size": team_size, "small_games": 4, "representatives": "rotation"} | options
    match = GAME.new(2 * team_size, opts, seed=1, script={"first_smugglers": [first]})
    assert isinstance(match, SmugglingMatch)
    return match


def play_small_game(match: SmugglingMatch, trunk: int, doubt: int | None) -> dict[str, Any]:
    assert match.smuggler is not None and match.inspector is not None
    match.apply(match.smuggler, {"type": "pack", "amount": trunk})
    match.apply(match.inspector, {"type": "pass"} if doubt is None else {"type": "doubt", "amount": doubt})
    return match.ledger[-1]


def test_every_player_starts_with_one_oku_in_the_third_country_and_three_in_the_opponent_country() -> None:
    match = new(team_size=3)
    view = match.view(None)
    assert view["accounts"] == [{"third": OKU, "opp": 3 * OKU}] * 6
    assert view["teams"] == {"north": [0, 2, 4], "south": [1, 3, 5]}
    assert match.organiser == -6 * 4 * OKU  # the 4億 each is a loan from the organiser


def test_pass_sends_the_trunk_to_the_smugglers_third_country_account() -> None:
    match = new()
    assert (match.smuggler, match.inspector) == (0, 1)  # North smuggles first (scripted)
    entry = play_small_game(match, 30 * M, None)
    assert match.third == [130 * M, OKU] and match.opp == [270 * M, 3 * OKU]
    assert entry["outcome"] == "passed" and entry["transfers"] == [
        {"kind": "trunk", "from": None, "to": 0, "amount": 30 * M}]


def test_doubting_an_empty_trunk_costs_the_inspector_half_the_doubt_as_compensation() -> None:
    match = new()
    entry = play_small_game(match, 0, 50 * M)
    assert match.third == [125 * M, 75 * M] and match.opp == [3 * OKU, 3 * OKU]
    assert entry["outcome"] == "empty_doubted"
    assert entry["transfers"] == [{"kind": "compensation", "from": 1, "to": 0, "amount": 25 * M}]


def test_a_doubt_equal_to_the_trunk_catches_it_for_the_inspector() -> None:
    match = new()
    entry = play_small_game(match, 40 * M, 40 * M)
    assert match.third == [OKU, 140 * M] and match.opp == [260 * M, 3 * OKU]
    assert entry["outcome"] == "caught"
    match2 = new()
    play_small_game(match2, 40 * M, 90 * M)  # a higher doubt catches too, at no cost
    assert match2.third == [OKU, 140 * M]


def test_a_doubt_below_the_trunk_gives_the_smuggler_the_trunk_and_the_compensation() -> None:
    match = new()
    entry = play_small_game(match, 60 * M, 20 * M)
    assert match.third == [170 * M, 90 * M] and match.opp == [240 * M, 3 * OKU]
    assert entry["outcome"] == "under_doubted"
    assert [t["amount"] for t in entry["transfers"]] == [60 * M, 10 * M]


def test_teams_alternate_roles_from_the_drawn_first_smuggling_team() -> None:
    match = new(team_size=2, first="south")
    teams = []
    while not match.is_over:
        teams.append(match.view(None)["smuggling_team"])
        play_small_game(match, 0, None)
    assert teams == ["south", "north", "south", "north"]
    assert [e["smuggler"] % 2 for e in match.ledger] == [1, 0, 1, 0]
    assert [e["inspector"] % 2 for e in match.ledger] == [0, 1, 0, 1]


def test_rotation_sends_each_member_once_in_each_role_in_turn() -> None:
    match = new(team_size=2, small_games=8)
    while not match.is_over:
        play_small_game(match, 0, None)
    assert [(e["smuggler"], e["inspector"]) for e in match.ledger] == [
        (0, 1), (1, 0), (2, 3), (3, 2), (0, 1), (1, 0), (2, 3), (3, 2)]


def test_trunk_is_capped_at_one_oku_and_by_the_opponent_country_balance() -> None:
    match = new(small_games=8)  # team size 1: seat 0 smuggles in games 1, 3, 5, 7
    caps = []
    while not match.is_over:
        assert match.smuggler is not None
        cap = match.legal_actions(match.smuggler)[0]["params"]["amount"]["max"]
        if match.smuggler == 0:  # seat 0 packs all it may; seat 1 packs nothing
            caps.append(cap)
        play_small_game(match, cap if match.smuggler == 0 else 0, None)
    assert caps == [OKU, OKU, OKU, 0]
    assert match.third[0] == 4 * OKU and match.opp[0] == 0


def test_doubt_is_capped_at_twice_the_inspectors_third_country_balance() -> None:
    match = new()
    play_small_game(match, 0, 50 * M)  # inspector (seat 1) pays 25M: 75M left
    play_small_game(match, 0, None)  # seat 1 smuggles, seat 0 inspects
    assert match.smuggler == 0 and match.inspector == 1
    match.apply(0, {"type": "pack", "amount": 10 * M})
    specs = match.legal_actions(1)
    assert specs[1]["params"]["amount"] == {"min": 10_000, "max": 150 * M, "step": 10_000}
    before = match.to_json()
    with pytest.raises(IllegalAction) as info:
        match.apply(1, {"type": "doubt", "amount": 150 * M + 10_000})
    assert info.value.code == "action/out_of_range" and info.value.ja
    assert match.to_json() == before


def test_an_inspector_with_less_than_half_a_unit_can_only_pass() -> None:
    match = new(unit=10 * M)
    play_small_game(match, 0, 200 * M)  # 2x the whole balance: the inspector pays 1億 and has 0
    play_small_game(match, 0, None)
    match.apply(0, {"type": "pack", "amount": 0})
    assert match.third[1] == 0
    assert match.legal_actions(1) == [{"type": "pass", "params": {}}]


def test_an_odd_unit_rounds_half_a_yen_of_compensation_down() -> None:
    match = new(unit=5)
    play_small_game(match, 0, 5)
    assert match.third == [OKU + 2, OKU - 2]


def test_the_trunk_stays_secret_until_the_ledger_entry() -> None:
    match = new(team_size=2)
    events = match.apply(0, {"type": "pack", "amount": 70 * M})
    for seat in (1, 2, 3):
        assert "70000000" not in json.dumps([e.to_json() for e in events if e.is_visible_to(seat)])
    assert [e.data for e in events if e.to == (0,)] == [{"amount": 70 * M}]
    assert match.view(0)["trunk"] == 70 * M and match.view(0)["accounts"][0]["opp"] == 230 * M
    for viewer in (None, 1, 2, 3):
        view = match.view(viewer)
        assert view["trunk"] is None and view["accounts"][0]["opp"] == 3 * OKU  # as before packing
        assert "70000000" not in json.dumps(view) and "230000000" not in json.dumps(view)
    match.apply(1, {"type": "pass"})
    public = match.view(None)
    assert public["ledger"][0]["trunk"] == 70 * M and public["accounts"][0] == {"third": 170 * M, "opp": 230 * M}


def test_team_vote_is_secret_then_plurality_decides() -> None:
    match = new(team_size=3, representatives="vote")
    assert match.phase == "vote" and match.to_act() == (0, 1, 2, 3, 4, 5)
    votes = {0: 4, 2: 4, 4: 0, 1: 3, 3: 5, 5: 5}
    for seat in (0, 2, 4, 1, 3):
        match.apply(seat, {"type": "vote", "candidate": votes[seat]})
    assert match.view(0)["my_vote"] == 4
    assert match.view(1)["my_vote"] == 3 and match.view(1)["voted"] == [True] * 5 + [False]
    assert match.view(5)["my_vote"] is None and match.view(None)["my_vote"] is None
    events = match.apply(5, {"type": "vote", "candidate": 5})
    assert (match.smuggler, match.inspector) == (4, 5)  # North smuggles: seat 4 has 2 votes; South: seat 5
    assert events[-1].type == "representatives" and events[-1].data["votes"] == [4, 3, 4, 5, 0, 5]
    play_small_game(match, 0, None)
    assert match.ledger[0]["votes"] == [4, 3, 4, 5, 0, 5]


def test_a_tied_vote_goes_to_who_represented_least_then_the_lowest_seat() -> None:
    match = new(team_size=3, representatives="vote", small_games=3)
    # Small game 1: everyone votes for themselves: a three-way tie in each team, lowest seat wins.
    for seat in range(6):
        match.apply(seat, {"type": "vote", "candidate": seat})
    assert (match.smuggler, match.inspector) == (0, 1)
    play_small_game(match, 0, None)
    # Small game 2: again a tie; seats 0 and 1 have represented, so seats 2 and 3 go.
    for seat in range(6):
        match.apply(seat, {"type": "vote", "candidate": seat})
    assert (match.smuggler, match.inspector) == (3, 2)  # South smuggles now
    play_small_game(match, 0, None)
    # Small game 3: North ties 0, 4 and 2 (one vote each); seat 4 has never represented.
    for seat, candidate in enumerate([0, 1, 4, 1, 2, 3]):
        match.apply(seat, {"type": "vote", "candidate": candidate})
    assert match.smuggler == 4 and match.inspector == 1  # South: seat 1 has two votes


def test_a_team_of_one_needs_no_vote() -> None:
    match = new(team_size=1, representatives="vote")
    assert match.phase == "pack" and match.to_act() == (0,)


def test_deadlines_default_to_the_rotation_vote_an_empty_trunk_and_a_pass() -> None:
    match = new(team_size=2, representatives="vote")
    deadline = match.time_limit()
    # The evening's limits (docs/rules/smuggling.md, The default table): vote 30 s, packing 30 s, inspection 120 s.
    assert deadline is not None and deadline.phase == "vote:1" and deadline.seconds == 30
    assert deadline.defaults == {s: {"type": "vote", "candidate": s % 2} for s in range(4)}
    for seat, action in deadline.defaults.items():
        match.apply(seat, action)
    deadline = match.time_limit()
    assert deadline is not None and deadline.phase == "pack:1" and deadline.seconds == 30
    assert deadline.defaults == {0: {"type": "pack", "amount": 0}}
    match.apply(0, deadline.defaults[0])
    deadline = match.time_limit()
    assert deadline is not None and deadline.phase == "inspection:1" and deadline.seconds == 120
    assert deadline.defaults == {1: {"type": "pass"}}
    # The original rules: the vote 120 s, the packing 60 s, 「検査ルームにいる時間は10分間」.
    original = GAME.new(*GAME.preset_table("original"), seed=1)
    limits: list[tuple[str, float]] = []
    while not limits or not limits[-1][0].startswith("inspection"):
        limit = original.time_limit()
        assert limit is not None
        limits.append((limit.phase, limit.seconds))
        for seat, action in limit.defaults.items():
            original.apply(seat, action)
    assert limits == [("vote:1", 120), ("pack:1", 60), ("inspection:1", 600)]



def test_the_team_with_more_in_the_third_country_wins_and_prizes_share_the_opponents_leftovers() -> None:
    match = new(team_size=3, small_games=2)
    play_small_game(match, 10_000, None)  # seat 0 (North) smuggles 10,000 yen past seat 1
    play_small_game(match, 0, 20_000)  # seat 1 (South) smuggles nothing; seat 0 doubts 20,000: pays 10,000
    result = match.result()
    assert result is not None and result.termination == "last_small_game"
    assert result.detail["team_totals"] == {"north": 300 * M, "south": 300 * M + 10_000}
    assert result.detail["winning_team"] == "south" and result.winners == (1, 3, 5)
    # North shares South's 900,000,000 yen left in North (300M each): 300,000,000 each, no remainder.
    # South shares North's 899,990,000 yen: 299,996,666 each, and 2 yen stay with the organiser.
    north, south = result.seats[0].holdings, result.seats[1].holdings
    assert north["share"] == 300 * M and south["share"] == 299_996_666
    assert result.detail["remainders"] == {"north": 0, "south": 2}
    assert north["third"] == OKU and north["net"] == OKU + 300 * M - 4 * OKU == 0
    assert south["third"] == OKU + 10_000 and south["net"] == 10_000 + 299_996_666 - 300 * M == 6_666
    assert result.seats[2].holdings["net"] == 0 and result.seats[3].holdings["net"] == -3_334
    assert result.seats[3].holdings["debt"] == 3_334 and result.seats[3].score == -3_334
    assert sum(s.score for s in result.seats) + result.detail["organiser_keeps"] == 0


def test_caught_trunks_count_for_the_inspecting_team_though_nobody_smuggled_anything() -> None:
    """The seed's overview counts money smuggled; its rule counts third-country totals (docs/rules, the two
    wordings of the winner): both trunks are caught, so nothing was smuggled, and South, which caught
    more, wins."""
    match = new(team_size=1, small_games=2)
    assert play_small_game(match, 50_000, 50_000)["outcome"] == "caught"  # North's trunk, caught by South
    assert play_small_game(match, 30_000, 30_000)["outcome"] == "caught"  # South's trunk, caught by North
    result = match.result()
    assert result is not None
    assert result.detail["team_totals"] == {"north": OKU + 30_000, "south": OKU + 50_000}
    assert result.detail["winning_team"] == "south" and result.winners == (1,)


def test_equal_totals_are_a_draw_with_every_player_a_winner() -> None:
    match = new(team_size=2, small_games=2)
    play_small_game(match, 0, None)
    play_small_game(match, 0, None)
    result = match.result()
    assert result is not None and result.detail["winning_team"] is None
    assert result.winners == (0, 1, 2, 3) and {s.rank for s in result.seats} == {1}


def test_seat_count_follows_the_team_size_and_the_unit_must_divide_one_oku() -> None:
    assert list(GAME.seat_counts) == [2, 4, 6, 8, 10, 12, 14, 16, 18]
    assert list(GAME.seat_counts_for({"team_size": 4})) == [8]
    assert GAME.new(6).view(None)["small_games"] == 20  # the default table: three a side, 20 small games
    assert GAME.new(*GAME.preset_table("original")).view(None)["small_games"] == 50  # 「小ゲームを50ゲーム」
    with pytest.raises(InvalidOptions):
        GAME.new(6, {"team_size": 2})
    with pytest.raises(InvalidOptions, match="unit"):
        GAME.new(2, {"team_size": 1, "unit": 3})
    with pytest.raises(InvalidOptions):
        GAME.new(20, {"team_size": 10})


def test_each_team_gets_a_private_chat_channel() -> None:
    assert GAME.chat.fixed is not None
    channels = GAME.chat.fixed(6, GAME.options_class.parse({"team_size": 3}))
    assert channels == {"team:north": [0, 2, 4], "team:south": [1, 3, 5]}


def test_a_trunk_above_one_oku_or_the_opponent_country_balance_is_refused() -> None:
    """Seat 0 smuggles 70M three times (games 1, 3, 5): 300M -> 230M -> 160M -> 90M left in South, so in
    game 7 the cap is 90M: 100M (within 1億) is refused, 90M is accepted. At the start 1億 + 1 unit is refused."""
    match = new(small_games=8)
    before = match.to_json()
    with pytest.raises(IllegalAction) as info:
        match.apply(0, {"type": "pack", "amount": OKU + 10_000})
    assert info.value.code == "action/out_of_range" and match.to_json() == before
    for _ in range(3):
        play_small_game(match, 70 * M, None)
        play_small_game(match, 0, None)
    assert match.smuggler == 0 and match.opp[0] == 90 * M and match.third[0] == 310 * M
    before = match.to_json()
    with pytest.raises(IllegalAction):
        match.apply(0, {"type": "pack", "amount": OKU})
    assert match.to_json() == before
    match.apply(0, {"type": "pack", "amount": 90 * M})
    assert match.opp[0] == 0 and match.trunk == 90 * M


def test_a_doubt_of_exactly_twice_the_balance_is_legal_and_one_unit_below_the_trunk_is_too_low() -> None:
    """Seat 1 doubts 200M (2 x its 1億) on an empty trunk: it pays 1億 and has 0. Then seat 0 inspects
    a 40M trunk and doubts 39,990,000: one unit short, so seat 1 gets the trunk and 19,995,000."""
    match = new()
    entry = play_small_game(match, 0, 2 * OKU)
    assert entry["outcome"] == "empty_doubted" and match.third == [2 * OKU, 0]
    entry = play_small_game(match, 40 * M, 40 * M - 10_000)
    assert entry["outcome"] == "under_doubted"
    assert match.third == [2 * OKU - 19_995_000, 40 * M + 19_995_000] and match.opp == [3 * OKU, 260 * M]


def test_a_vote_for_a_member_of_the_other_team_is_refused() -> None:
    match = new(team_size=2, representatives="vote")
    before = match.to_json()
    with pytest.raises(IllegalAction) as info:
        match.apply(0, {"type": "vote", "candidate": 1})
    assert info.value.ja and match.to_json() == before


def test_the_ledger_entry_makes_trunk_declaration_transfers_and_totals_public() -> None:
    """Seat 0 (North) packs 60M, seat 1 doubts 20M: the trunk and 10M compensation go to seat 0."""
    match = new()
    play_small_game(match, 60 * M, 20 * M)
    assert match.view(1)["ledger"] == match.view(None)["ledger"] == [{
        "small_game": 1, "smuggling_team": "north", "smuggler": 0, "inspector": 1, "votes": None,
        "trunk": 60 * M, "declaration": "doubt", "doubt": 20 * M, "outcome": "under_doubted",
        "transfers": [{"kind": "trunk", "from": None, "to": 0, "amount": 60 * M},
                      {"kind": "compensation", "from": 1, "to": 0, "amount": 10 * M}],
        "totals": {"north": 170 * M, "south": 90 * M}}]
    assert match.view(1)["accounts"][0] == {"third": 170 * M, "opp": 240 * M}
