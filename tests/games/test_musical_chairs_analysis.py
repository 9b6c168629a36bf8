"""`partygames analyze musical-chairs`: win rates by starting spot and bribery budget, and the plot, in English
and Japanese."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from partygames.cli.main import app
from partygames.games.musical_chairs.analysis import plot, win_rates

runner = CliRunner()


def test_every_match_has_one_winner_counted_once_and_bribing_ガヤ_pays(tmp_path: Path) -> None:
    spots, budgets = win_rates(30, {"players": 4, "gallery": 8}, budgets=(0, 4))
    assert [r.group for r in spots] == [1, 2, 3, 4] and all(r.played == 30 for r in spots)
    assert sum(r.wins for r in spots) == sum(r.wins for r in budgets) <= 30
    assert sum(r.played for r in budgets) == 4 * 30
    generous, stingy = budgets[1], budgets[0]
    assert generous.group == 4 and generous.rate > stingy.rate  # the ガヤ vote and hold chairs for their patron
    path = plot(spots, budgets, tmp_path / "rates.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _figures(output: str) -> list[str]:
    """Every figure printed, in order: counts, percentages, the totem's rank 1 in the title."""
    return re.findall(r"\d+(?:\.\d+)?%?", output)


def test_analyze_speaks_japanese_with_the_same_figures(tmp_path: Path) -> None:
    args = ["analyze", "musical-chairs", "--matches", "3", "--players", "3", "--gallery", "2", "--budgets", "0,2"]
    wide = {"COLUMNS": "200"}  # no title or cell folds, so that the figures read in order
    english = runner.invoke(app, [*args, "--no-plot"], env=wide)
    japanese = runner.invoke(app, [*args, "--no-plot", "--lang", "ja"], env=wide)
    assert english.exit_code == japanese.exit_code == 0, japanese.output
    out = japanese.output
    for shown in ("スタート地点別の勝率(1: トーテムポールに最も近い)",
                  "買収の予算別の勝率(休憩ごとにガヤへ渡す自分のメダルの枚数)",
                  "順位", "枚数", "勝利数", "試合数", "勝率", "95%信頼区間"):
        assert shown in out, shown
    assert "Win rate by starting spot" in english.output and "95% interval" in english.output
    assert _figures(out) == _figures(english.output) and len(_figures(out)) > 30
    assert not re.search(r"[A-Za-z]{2,}", out), out  # no English heading left: "Win rate", "group", "played"
    # --json stays the same machine-readable figures whatever the language.
    figures = [json.loads(runner.invoke(app, [*args, "--no-plot", "--json", *lang]).output)
               for lang in ([], ["--lang", "ja"])]
    assert figures[0] == figures[1] and figures[0]["matches"] == 3
    plotted = runner.invoke(app, [*args, "--plot", str(tmp_path / "rates.png"), "--lang", "ja"], env=wide)
    assert f"グラフを保存しました: {tmp_path / 'rates.png'}" in plotted.output and "Plot saved" not in plotted.output
    bad = runner.invoke(app, [*args, "--budgets", "0,two", "--lang", "ja"], env=wide)
    assert bad.exit_code == 1 and "whole numbers" not in bad.output and "カンマ区切り" in bad.output
    bad = runner.invoke(app, [*args, "--budgets", "-1"], env=wide)
    assert bad.exit_code == 1 and "whole numbers" in bad.output and "カンマ区切り" not in bad.output
