"""`partygames analyze quiz`: the exact worth of a peek, and memory winning against memory."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import typer
from typer.testing import CliRunner

from partygames.games.quiz.analysis import peek_worth, plot, win_rates
from partygames.games.quiz.commands import analyze


def test_a_peeked_card_is_asked_later_with_the_exact_odds_of_the_remaining_rows() -> None:
    worth = {(w.question, w.peekers): w for w in peek_worth()}
    # Question 1: nine rows remain, seven more questions are asked; one of the nine is question 8's.
    first = worth[(1, 1)]
    assert (first.later, first.final, first.markers) == (Fraction(7, 9), Fraction(1, 9), Fraction(14, 9))
    assert first.pays_in_score_markers and not worth[(1, 2)].pays_in_score_markers
    # Question 7: three rows remain and only question 8 is left to ask.
    last = worth[(7, 1)]
    assert last.later == last.final == Fraction(1, 3) and not last.pays_in_score_markers
    assert (8, 1) not in worth and worth[(3, 4)].cost == 4


def test_a_better_memory_wins_more_often_and_the_plot_is_written(tmp_path: Path) -> None:
    rows = win_rates((0.1, 0.9), games=60, seats=2)
    weak, strong = rows
    assert weak.seats == strong.seats == 60
    assert strong.win_rate > weak.win_rate and strong.mean_score > weak.mean_score
    assert plot(rows, tmp_path / "q.png").read_bytes().startswith(b"\x89PNG")


def test_analyze_command_prints_both_tables_and_json(tmp_path: Path) -> None:
    app = typer.Typer()
    app.command()(analyze)
    runner = CliRunner()
    result = runner.invoke(app, ["--games", "10", "--seats", "2", "--recalls", "0.2,0.8", "--plot", str(tmp_path / "p.png")])
    assert result.exit_code == 0, result.output
    assert "Win rate against recall" in result.output and "7/9" in result.output and (tmp_path / "p.png").exists()
    result = runner.invoke(app, ["--games", "4", "--seats", "2", "--recalls", "0.5,1", "--json", "--no-plot"])
    data = json.loads(result.output)
    assert [r["recall"] for r in data["recall"]] == [0.5, 1.0] and data["plot"] is None
    assert data["peek"][0] == {"question": 1, "peekers": 1, "cost": 1, "later": "7/9", "final": "1/9", "markers": "14/9"}
    bad = runner.invoke(app, ["--recalls", "1.5", "--no-plot"])
    assert bad.exit_code != 0


def _table_numbers(output: str) -> list[str]:
    """The figures in the tables' body rows, in order."""
    return re.findall(r"\d[\d,.]*(?:/\d+)?", "".join(line for line in output.splitlines() if line.startswith("│")))


def test_analyze_command_speaks_japanese_with_the_same_figures() -> None:
    app = typer.Typer()
    app.command()(analyze)
    runner = CliRunner()
    args = ["--games", "6", "--seats", "2", "--recalls", "0.2,0.8", "--no-plot"]
    english = runner.invoke(app, args)
    japanese = runner.invoke(app, [*args, "--lang", "ja"])
    assert english.exit_code == japanese.exit_code == 0, japanese.output
    out = japanese.output
    for shown in ("記憶の確率と勝率(2 席の卓で 6 試合)", "記憶の確率", "勝率", "95%信頼区間", "得点マーカー(平均)",
                  "他の列のカードを覗き見る価値", "何問目", "P(第8問の列)", "なし", "裏金マーカーで払えば"):
        assert shown in out, shown
    assert _table_numbers(out) == _table_numbers(english.output) and "14/9 (1.556)" in out
    assert not re.search("[A-Za-z]{2,}", out), out  # no English word left: "win rate", "none", "Paid in ..."
    bad = runner.invoke(app, ["--recalls", "0.5,0.5", "--no-plot", "--lang", "ja"])
    assert bad.exit_code != 0 and "記憶の確率はそれぞれ0から1までの" in bad.output
