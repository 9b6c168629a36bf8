"""Musical Chairs bots over seeded matches in the rounds tempo: the heuristic player wins clearly more
often than the random one (its player seats against random player seats; the ガヤ seats alternate
between the kinds too). Figures appear in the run summary and in the messages."""

from __future__ import annotations

from collections.abc import Callable

from partygames.analysis.stats import wilson_interval
from partygames.analysis.tournament import play_series
from partygames.engine.session import play
from partygames.games import get

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


def test_heuristic_bots_play_the_real_time_tempo_to_the_end() -> None:
    """In real time every seat may always act: the bots must leave the clock room to move."""
    options = {"players": 4, "gallery": 3}
    bots = [GAME.make_bot("heuristic" if s % 2 else "random", s, seed=s) for s in range(7)]
    match, log = play(GAME, 7, bots, options, seed=2, max_entries=20_000)
    result = match.result()
    assert result is not None and result.winners
    assert any(entry.action and entry.action["type"] == "plan" for entry in log.entries)
