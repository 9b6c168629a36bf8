"""The gathering before the parent vote (「着座確定の5分後に行われ、その時間に投票会場に居なかった者はその回の投票
においては「棄権」とみなされます。」), option `gather_seconds`, with worked numbers on the fixed test island.

The test island: the totem at (100, 100), everyone starts there, chair 1 is 50 m from the totem, chair 2
60 m, chair 3 70 m. At 5 m/s a metre takes 200 ms. With a 10 s first break GO is at 10,000 ms; players
running at GO to chairs 1, 2 and 3 sit at 20,000, 22,000 and 24,000 ms, when the race ends (everyone
seated: seating is settled).
"""

from __future__ import annotations

from typing import Any

import pytest

from partygames.engine import Deadline
from partygames.engine.errors import InvalidOptions
from partygames.games.musical_chairs import terminal
from partygames.games.musical_chairs.options import MusicalChairsOptions
from partygames.games.musical_chairs.rules import MusicalChairsMatch
from tests.games.test_musical_chairs_rules import new as table
from tests.games.test_musical_chairs_terminal import _text

GO = 10_000
SETTLED = GO + 14_000  # the third player sits on chair 3 (70 m): everyone is seated


def new(players: int = 3, gallery: int = 1, **options: Any) -> MusicalChairsMatch:
    """The rules tests' table (test island, 10 s phases, 8 chairs), with three players by default."""
    return table(players, gallery, **options)


def race_to_seats(match: MusicalChairsMatch) -> list[str]:
    """Players 0, 1 and 2 run at GO to chairs 1, 2 and 3; the events of the moment the race ends."""
    match.advance(GO)
    for seat, chair in ((0, 1), (1, 2), (2, 3)):
        match.apply(seat, {"type": "run_to_chair", "chair": chair}, GO)
    match.advance(SETTLED - 1)
    assert match.phase == "race"
    return [e.type for e in match.advance(SETTLED)]


def kinds(match: MusicalChairsMatch, seat: int) -> set[str]:
    return {s["type"] for s in match.legal_actions(seat)}


def ballot_choices(match: MusicalChairsMatch, seat: int) -> list[Any]:
    vote = next(s for s in match.legal_actions(seat) if s["type"] == "vote")
    return list(vote["params"]["candidate"]["choice"])


def test_gather_seconds_follows_the_preset_and_the_rounds_tempo_skips_it() -> None:
    def gather_ms(**options: Any) -> int:
        parsed = MusicalChairsOptions.parse({"players": 2, "gallery": 22, **options})
        assert isinstance(parsed, MusicalChairsOptions)
        return parsed.gather_ms

    assert gather_ms() == 0  # the digital default: the vote opens as the race ends
    assert gather_ms(preset="seed") == 300_000  # 「着座確定の5分後」
    assert gather_ms(preset="seed", gather_seconds=0) == 0
    assert gather_ms(gather_seconds=3600) == 3_600_000
    assert gather_ms(preset="seed", tempo="rounds") == 0 and gather_ms(gather_seconds=60, tempo="rounds") == 0
    for bad in (-1, 3601):
        with pytest.raises(InvalidOptions):
            MusicalChairsOptions.parse({"gather_seconds": bad})


def test_the_estimate_counts_each_gathering_in_full() -> None:
    # The seed preset in real time, 25 chairs: 24 periods; breaks 120 + 23 x 45 and 24 gatherings of 300 s
    # in full, then 24 x (race 600 + vote 45 + remove 30) / 2.
    seed = MusicalChairsOptions.parse({"preset": "seed", "players": 6, "gallery": 18})
    assert seed.estimated_seconds(24) == 1155 + 24 * 300 + 24 * 675 / 2
    # Rounds: no gathering.
    rounds = MusicalChairsOptions.parse({"preset": "seed", "players": 6, "gallery": 18, "tempo": "rounds"})
    assert rounds.estimated_seconds(24) == 1155 / 2 + 24 * 675 / 2


def test_the_vote_opens_gather_seconds_after_the_race_ends_and_everyone_moves_meanwhile() -> None:
    match = new(gather_seconds=30)
    events = race_to_seats(match)
    assert events[-2:] == ["race_ended", "gather"]
    view = match.view(None)
    assert (view["phase"], view["phase_started"], view["phase_ends"]) == ("gather", SETTLED, SETTLED + 30_000)
    assert match.deadline() == Deadline("gather:1", SETTLED + 30_000, 30.0)
    # As in the break: run, walk, stop, medals; a ガヤ may hold a chair. No plan, no ballot.
    assert kinds(match, 0) == {"run_to_chair", "run_to_totem", "walk_to", "stop", "give", "show_medals"}
    assert kinds(match, 3) == {"run_to_chair", "run_to_totem", "walk_to", "stop", "hold", "show_medals"}
    match.apply(0, {"type": "give", "to": 3, "name": 0, "count": 1}, SETTLED + 1_000)
    match.apply(0, {"type": "walk_to", "x": 130, "y": 160}, SETTLED + 1_000)  # 20 m: there at + 5,000
    match.advance(SETTLED + 5_000)
    assert match.where(0) == (130, 160) and match.phase == "gather"
    match.advance(SETTLED + 29_999)
    assert match.phase == "gather"
    assert [e.type for e in match.advance(SETTLED + 30_000)] == ["vote_opened"]
    assert (match.phase, match.candidates, match.phase_ends) == ("vote", [0, 1, 2], SETTLED + 40_000)
    assert match.medals[3] == {"0": 1}


def test_without_a_gathering_the_vote_opens_the_moment_the_race_ends() -> None:
    match = new()
    assert race_to_seats(match)[-2:] == ["race_ended", "vote_opened"]
    assert (match.phase, match.phase_started) == ("vote", SETTLED)


def test_a_single_player_left_ends_the_game_at_once_without_gathering() -> None:
    match = new(players=2, gallery=1, gather_seconds=30, race_seconds=20)
    match.advance(GO)
    match.apply(0, {"type": "run_to_chair", "chair": 1}, GO)
    match.advance(GO + 20_000)
    assert match.phase == "over" and match.winner == 0


def test_with_vote_at_totem_presence_is_judged_when_the_ballot_is_cast() -> None:
    """「その時間に投票会場に居なかった者はその回の投票においては「棄権」」: the gathering is the time to walk to the
    totem. Player 0 runs back from chair 1 during it (50 m: 10,000 ms) and votes; player 1 stays at chair 2
    (60 m away: a blank ballot only); player 2 leaves chair 3 only when the vote opens, 70 m out: within
    15 m after 55 m, 11,000 ms, after the 10 s vote has closed, so it abstains."""
    match = new(players=3, gallery=0, gather_seconds=20, vote_at_totem=True)
    race_to_seats(match)
    match.apply(0, {"type": "run_to_totem"}, SETTLED)
    match.advance(SETTLED + 10_000)
    assert match.where(0) == (100, 100) and match.phase == "gather"
    opened = SETTLED + 20_000
    match.advance(opened)
    assert match.phase == "vote"
    assert ballot_choices(match, 0) == [0, 1, 2, "blank"]
    assert ballot_choices(match, 1) == ["blank"] and ballot_choices(match, 2) == ["blank"]
    match.apply(0, {"type": "vote", "candidate": 0}, opened)
    match.apply(2, {"type": "run_to_totem"}, opened)
    match.advance(opened + 9_999)
    assert ballot_choices(match, 2) == ["blank"]  # 20 m from the totem still
    match.advance(opened + 10_000)
    assert match.history[-1]["vote"] == {"candidates": [0, 1, 2], "votes": {"0": 1, "1": 0, "2": 0},
                                         "abstained": 2}
    assert match.parent == 0


def test_the_rounds_tempo_goes_from_the_race_straight_to_the_vote() -> None:
    match = new(players=2, gallery=0, tempo="rounds", gather_seconds=30)
    match.apply(0, {"type": "plan", "chairs": [1]}, 0)
    match.apply(1, {"type": "plan", "chairs": [2]}, 0)  # GO at once
    assert match.phase == "race"
    match.advance(12_000)  # chair 2 is 60 m away
    assert match.phase == "vote" and match.phase_started == 12_000


def test_the_terminal_shows_the_gathering_its_countdown_and_the_voting_place_in_both_languages() -> None:
    match = new(gather_seconds=30, vote_at_totem=True)
    race_to_seats(match)
    match.advance(SETTLED + 12_500)
    english, japanese = _text(match.view(0), "en", width=200), _text(match.view(0), "ja", width=200)
    assert "Period 1 — Gathering before the vote" in english and "Time left: 17.5 s" in english
    assert "only a ballot cast within 15 m of the totem pole counts" in english
    assert "ピリオド 1 — 投票前の集合" in japanese and "残り時間: 17.5秒" in japanese
    assert "トーテムポールから15m以内で投じた票だけが有効です" in japanese
    event = {"type": "gather", "data": {"period": 1, "at": SETTLED, "ends": SETTLED + 30_000}}
    assert terminal.describe_event(event, "en") == "Seating is settled: the parent vote follows the gathering."
    assert terminal.describe_event(event, "ja") == "着座確定: 集合時間の後に親決め投票です。"


@pytest.mark.parametrize("preset", [None, "original"])
def test_the_original_rules_count_only_ballots_cast_at_the_totem(preset: str | None) -> None:
    """「その時間に投票会場に居なかった者はその回の投票においては「棄権」とみなされます」: the lobby's "Original rules"
    play it (docs/rules/musical-chairs.md, The parent vote); the quicker default does not. On the drawn island
    the six players plan in the break for chairs 1-6 (each at least 25 m from the totem), run by the totem at GO
    and sit; once the vote opens, each of them, still at its chair, may cast a blank ballot only under the
    original rules."""
    from partygames.games import get

    game = get("musical-chairs")
    seats, options = game.preset_table(preset) if preset else (24, game.options_for(24, {}))
    match = game.new(seats, options, seed=2)
    assert isinstance(match, MusicalChairsMatch)
    for seat in range(6):
        match.apply(seat, {"type": "plan", "chairs": [seat + 1]}, 0)
    while match.phase != "vote":
        due = match.wake_at()
        assert due is not None and match.period == 1 and not match.rerun
        match.advance(due)
    assert sorted(match.candidates) == list(range(6))  # everyone sat: seating was settled
    for seat in range(6):
        assert ballot_choices(match, seat) == (["blank"] if preset else [*range(6), "blank"])
