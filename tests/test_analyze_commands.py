"""Every game's `partygames analyze` (and `odds dice-derby`) runs with small sizes in both languages, writes
its plot where `--plot` says, and says where; the analyses' own tests check their figures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from partygames import games
from partygames.cli.main import app
from partygames.engine.text import Lang

runner = CliRunner()
MOUNTED = [f"{group} {game.id}" for game in games.all_games() for group in game.commands]

#: Small sizes, so that each run takes a few seconds (a game whose analysis is not mounted yet is skipped).
SMALL: dict[str, list[str]] = {
    "analyze last-man-standing": ["--checks", "10", "--matches", "4", "--table", "4", "--pairs", "2"],
    "analyze dice-derby": [],
    "odds dice-derby": [],
    "analyze lucky-nine": ["--games", "10", "--seats", "3"],
    "analyze musical-chairs": ["--matches", "2", "--players", "2", "--gallery", "1"],
    "analyze pandemic": ["--matches", "2", "--seats", "4"],
    "analyze quiz": ["--games", "4", "--seats", "2"],
    "analyze smuggling": ["--grid", "10000000"],
}
SAVED = {"en": "Plot saved to", "ja": "グラフを保存しました:"}


def test_every_analysis_has_small_sizes_here() -> None:
    assert set(MOUNTED) <= set(SMALL), sorted(set(MOUNTED) - set(SMALL))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("command", [c for c in SMALL if c in MOUNTED])
def test_every_analysis_runs_and_writes_its_plot_where_plot_says(command: str, lang: Lang, tmp_path: Path) -> None:
    plot = tmp_path / "deeper" / "plot.png"
    result = runner.invoke(app, [*command.split(), *SMALL[command], "--plot", str(plot), "--lang", lang],
                           env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert plot.read_bytes().startswith(b"\x89PNG")
    assert f"{SAVED[lang]} {plot}" in result.output
    assert not re.search(r"\d[eE]-\d", result.output), result.output  # no figure with an exponent
    if lang == "ja":
        assert "Plot saved" not in result.output


def test_analyze_dice_derby_is_the_odds_with_a_plot(tmp_path: Path) -> None:
    """`analyze dice-derby` used to answer "No such command": it prints the same odds as `odds dice-derby`."""
    odds = runner.invoke(app, ["odds", "dice-derby", "--json"])
    analyzed = runner.invoke(app, ["analyze", "dice-derby", "--json", "--no-plot"])
    assert odds.exit_code == analyzed.exit_code == 0, analyzed.output
    drop = re.compile(r'\s*"elapsed_ms": [\d.]+,?')
    assert drop.sub("", odds.output) == drop.sub("", analyzed.output)


def test_analyze_musical_chairs_plots_a_rate_of_zero(tmp_path: Path) -> None:
    """A group that never wins has a 95% interval whose lower bound can fall a rounding error above 0: the
    plot used to refuse it ("'yerr' must not contain negative values") after the whole simulation."""
    plot = tmp_path / "rates.png"
    result = runner.invoke(app, ["analyze", "musical-chairs", "--matches", "3", "--players", "2", "--gallery", "1",
                                 "--budgets", "0,1", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert "0.0%" in result.output and plot.stat().st_size > 1000


def test_the_quiz_analysis_refuses_too_few_matches_for_its_recall_levels() -> None:
    for lang, words in (("en", "3 matches leave a recall level without a seat"), ("ja", "座らない記憶の確率")):
        result = runner.invoke(app, ["analyze", "quiz", "--games", "3", "--seats", "2", "--no-plot", "--lang", lang],
                               env={"COLUMNS": "200"})
        assert result.exit_code == 1 and words in result.output


@pytest.mark.parametrize(("lang", "words"), [("en", "No plot written to"), ("ja", "にグラフは保存していません")])
def test_analyze_pandemic_with_a_log_and_no_matches_says_why_it_writes_no_plot(lang: Lang, words: str,
                                                                                tmp_path: Path) -> None:
    assert CliRunner().invoke(app, ["simulate", "pandemic", "--games", "1", "--seed", "1", "--json",
                                    "--save", str(tmp_path)]).exit_code == 0
    log = next(tmp_path.glob("*.json"))
    plot = tmp_path / "X.png"
    result = CliRunner().invoke(app, ["analyze", "pandemic", "--log", str(log), "--plot", str(plot), "--matches", "0",
                                      "--lang", lang], env={"COLUMNS": "300"})
    assert result.exit_code == 0 and not plot.exists()
    assert words in result.output, result.output


def test_analyze_pandemic_s_odds_over_a_saved_match_cut_no_figure_at_80_columns(tmp_path: Path) -> None:
    assert CliRunner().invoke(app, ["simulate", "pandemic", "--games", "1", "--seed", "1", "--json",
                                    "--save", str(tmp_path)]).exit_code == 0
    log = next(tmp_path.glob("*.json"))
    for lang in ("en", "ja"):
        result = CliRunner().invoke(app, ["analyze", "pandemic", "--log", str(log), "--seat", "0", "--matches", "0",
                                          "--lang", lang], env={"COLUMNS": "80"})
        assert result.exit_code == 0 and "…" not in result.output, result.output
        assert all(len(line) <= 80 for line in result.output.splitlines())
        assert "┃    11 ┃" in result.output or "┃   11 ┃" in result.output or " 11 ┃" in result.output
