"""Musical Chairs bots over seeded matches in the rounds tempo: the heuristic player wins clearly more
often than the random one (its player seats against random player seats; the ガヤ seats alternate
between the kinds too). Figures appear in the run summary and in the messages."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from partygames.analysis.stats import wilson_interval
from partygames.analysis.tournament import play_series
from partygames.engine import Action, Observation
from partygames.engine.session import play
from partygames.games import get
from partygames.games.musical_chairs.bots import HeuristicBot
from partygames.games.musical_chairs.rules import MusicalChairsMatch

GAME = get("musical-chairs")
OPTIONS: dict[str, object] = {"tempo": "rounds", "players": 6, "gallery": 6}
PLAYERS = 6


def test_heuristic_players_win_clearly_more_often_than_random_ones_over_1000_matches(
        report_figures: Callable[[str], None]) -> None:
    wins = {"heuristic": 0, "random": 0}
    played_seats = {"heuristic": 0, "random": 0}
    for played in play_series(GAME, 1000, 12, ["heuristic", "random"], options=OPTIONS):
        for player in range(PLAYERS):
            kind = played.kinds[player]
            played_seats[kind] += 1
            wins[kind] += played.result.winners == (player,)
    rates = {k: wins[k] / played_seats[k] for k in wins}
    heuristic_low, _ = wilson_interval(wins["heuristic"], played_seats["heuristic"])
    _, random_high = wilson_interval(wins["random"], played_seats["random"])
    figures = (f"rounds tempo, 6 players + 6 ガヤ, 1000 matches: a heuristic player wins {rates['heuristic']:.1%} "
               f"(95% from {heuristic_low:.1%}), a random one {rates['random']:.1%} (95% up to {random_high:.1%}); "
               f"a fair share is {1 / 6:.1%}")
    report_figures(figures)
    assert heuristic_low > random_high and rates["heuristic"] > 2 * rates["random"], figures


@pytest.mark.parametrize("seed", [2, 4, 8])
def test_heuristic_bots_play_the_real_time_tempo_to_the_end(seed: int) -> None:
    """In real time every seat may always act: the bots must leave the clock room to move. Seeds 4 and 8 once
    ended in a ガヤ asking again and again, at one instant, to hold the chair it stood at (each ask restarted a
    walk of no length); seed 2 ends with nobody seated, an ending of its own."""
    options = {"players": 4, "gallery": 3}
    bots = [GAME.make_bot("heuristic" if s % 2 else "random", s, seed=s) for s in range(7)]
    match, log = play(GAME, 7, bots, options, seed=seed, max_entries=20_000)
    result = match.result()
    assert result is not None and (result.winners or result.termination == "nobody_sat")
    assert any(entry.action and entry.action["type"] == "plan" for entry in log.entries)


def _heuristic(match: MusicalChairsMatch, seat: int) -> Action | None:
    """What a fresh heuristic bot does in this seat now."""
    observation = Observation(seat, match.legal_actions(seat), lambda: match.view(seat), match.now)
    return HeuristicBot(seat).act(observation)


@pytest.mark.parametrize("at_totem", [True, False])
def test_heuristic_bots_walk_to_the_voting_place_in_the_gathering_when_only_ballots_there_count(
        at_totem: bool) -> None:
    """The test island, 3 players and 1 ガヤ at chair 4: the players sit on chairs 1, 2 and 3 (50, 60 and 70 m
    out) and a 30 s gathering follows. With `vote_at_totem` the players run to the totem; so does the ガヤ
    once it holds a remaining player's medals (without any it has no stake, and stays). Without
    `vote_at_totem` nobody moves."""
    match = GAME.new(4, {"players": 3, "gallery": 1, "island": "test", "first_break_seconds": 10,
                         "gather_seconds": 30, "vote_at_totem": at_totem})
    assert isinstance(match, MusicalChairsMatch)
    match.apply(3, {"type": "run_to_chair", "chair": 4}, 0)  # the ガヤ holds chair 4, 80 m out
    match.advance(10_000)
    for seat, chair in ((0, 1), (1, 2), (2, 3)):
        match.apply(seat, {"type": "run_to_chair", "chair": chair}, 10_000)
    match.advance(24_000)
    assert match.phase == "gather"
    go = {"type": "run_to_totem"} if at_totem else None
    assert [_heuristic(match, seat) for seat in range(4)] == [go, go, go, None]
    match.apply(0, {"type": "give", "to": 3, "name": 0, "count": 2}, 24_000)
    assert _heuristic(match, 3) == go
    match.apply(0, {"type": "run_to_totem"}, 24_000)
    assert _heuristic(match, 0) is None  # on its way


def test_heuristic_bots_play_real_time_with_a_gathering_and_vote_at_the_totem() -> None:
    """Every remaining heuristic player reaches the totem in the gathering and votes for itself, so no tally
    has fewer votes than candidates (the 5 s vote is too short to run there from most chairs)."""
    options = {"players": 4, "gallery": 3, "gather_seconds": 60, "vote_at_totem": True, "vote_seconds": 5}
    bots = [GAME.make_bot("heuristic", s, seed=s) for s in range(7)]
    match, _ = play(GAME, 7, bots, options, seed=3, max_entries=20_000)
    assert isinstance(match, MusicalChairsMatch)
    result = match.result()
    assert result is not None and result.winners
    tallies = [entry["vote"] for entry in match.history if "vote" in entry]
    assert tallies and all(sum(t["votes"].values()) >= len(t["candidates"]) for t in tallies), tallies


def test_a_gallery_bot_without_medals_names_a_candidate_and_the_vote_leads_everyone_s_actions() -> None:
    """Issue 29: in a first vote 5 of 11 ballots were blank, cast by ガヤ bots with nobody's medals; and the
    vote sat below the moves on a phone. The test island, 3 players seated and a ガヤ with no medals."""
    match = GAME.new(4, {"players": 3, "gallery": 1, "island": "test", "first_break_seconds": 10})
    assert isinstance(match, MusicalChairsMatch)
    match.advance(10_000)
    for seat, chair in ((0, 1), (1, 2), (2, 3)):
        match.apply(seat, {"type": "run_to_chair", "chair": chair}, 10_000)
    match.advance(24_000)
    assert match.phase == "vote"
    assert [match.legal_actions(seat)[0]["type"] for seat in range(4)] == ["vote"] * 4
    ballots = [HeuristicBot(3, seed).act(Observation(3, match.legal_actions(3), lambda: match.view(3), match.now))
               for seed in range(20)]
    assert all(b is not None and b["type"] == "vote" and b["candidate"] in (0, 1, 2) for b in ballots), ballots
    assert len({b["candidate"] for b in ballots if b}) > 1  # by lot, not always the same player
    # The rounds tempo (the analyses, the bot figures) keeps the blank ballot of a ガヤ with no stake.
    seen_in_rounds = Observation(3, match.legal_actions(3), lambda: {**match.view(3), "tempo": "rounds"}, match.now)
    assert HeuristicBot(3).act(seen_in_rounds) == {"type": "vote", "candidate": "blank"}
