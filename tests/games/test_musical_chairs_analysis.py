"""`partygames analyze musical-chairs`: win rates by starting spot and bribery budget, and the plot."""

from __future__ import annotations

from pathlib import Path

from partygames.games.musical_chairs.analysis import plot, win_rates


def test_every_match_has_one_winner_counted_once_and_bribing_ガヤ_pays(tmp_path: Path) -> None:
    spots, budgets = win_rates(30, {"players": 4, "gallery": 8}, budgets=(0, 4))
    assert [r.group for r in spots] == [1, 2, 3, 4] and all(r.played == 30 for r in spots)
    assert sum(r.wins for r in spots) == sum(r.wins for r in budgets) <= 30
    assert sum(r.played for r in budgets) == 4 * 30
    generous, stingy = budgets[1], budgets[0]
    assert generous.group == 4 and generous.rate > stingy.rate  # the ガヤ vote and hold chairs for their patron
    path = plot(spots, budgets, tmp_path / "rates.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
