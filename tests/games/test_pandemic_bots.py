"""Pandemic bots over seeded matches in the rounds tempo: the heuristic bot (a belief from its view alone)
qualifies clearly more often than random. Figures appear in the run summary and in the messages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from partygames.analysis.stats import wilson_interval
from partygames.analysis.tournament import play_series
from partygames.engine.session import play
from partygames.games import get

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
