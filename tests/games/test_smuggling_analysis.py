"""The small game's equilibrium, pinned by hand.

With trunk cap C and a doubt cap of at least C, the value is C/3: the smuggler packs nothing with
probability 2/3 and the full cap with 1/3; the inspector passes with 2/3 and doubts C with 1/3.
Proof (on any grid holding 0 and C): against that inspector a trunk 0 < T <= C earns
2/3 T - 1/3 T = T/3 <= C/3 and an empty trunk earns 1/3 C; against that smuggler a pass concedes
1/3 C, a doubt 0 < X < C concedes 2/3 X + 1/3 (C + X) = X + C/3, and X = C concedes
2/3 C - 1/3 C = C/3. So each side guarantees C/3. When the inspector cannot doubt C (2 x balance < C),
the full trunk can never be caught and the value is C.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from partygames.games.smuggling.analysis import TOLERANCE, payoff_matrix, plot, solve
from partygames.games.smuggling.commands import analyze
from partygames.games.smuggling.settlement import settle

M = 1_000_000
OKU = 100 * M


def test_one_step_grid_matches_the_two_by_two_game_solved_by_hand() -> None:
    # Rows T in {0, C}, columns pass / doubt C: [[0, C], [C, -C]]. Mixing p on T = C: p = 1 - 2p, p = 1/3.
    matrix = payoff_matrix((0, OKU), (0, OKU))
    assert matrix.tolist() == [[0, OKU], [OKU, -OKU]]
    solution = solve(OKU, None, OKU)
    assert solution.value == pytest.approx(OKU / 3, abs=1)
    assert solution.smuggler == pytest.approx((2 / 3, 1 / 3)) and solution.inspector == pytest.approx((2 / 3, 1 / 3))


@pytest.mark.parametrize("grid", [50 * M, 10 * M, 1 * M])
def test_the_value_is_a_third_of_the_trunk_cap_on_every_grid(grid: int) -> None:
    solution = solve(OKU, None, grid)
    assert solution.value == pytest.approx(OKU / 3, rel=1e-9)
    assert solution.exploitability < TOLERANCE * OKU
    assert len(solution.trunks) == OKU // grid + 1


def test_the_default_solution_is_all_or_nothing_on_both_sides() -> None:
    solution = solve()
    assert [(x, round(p, 6)) for x, p in solution.top("smuggler")] == [(0, 0.666667), (OKU, 0.333333)]
    assert [(x, round(p, 6)) for x, p in solution.top("inspector")] == [(0, 0.666667), (OKU, 0.333333)]


def test_a_poor_inspector_cannot_stop_the_full_trunk() -> None:
    solution = solve(OKU, 2 * 30 * M)  # balance 30M: doubts up to 60M
    assert solution.value == pytest.approx(OKU)
    assert [(x, round(p, 6)) for x, p in solution.top("smuggler")] == [(OKU, 1.0)]
    assert max(solution.doubts) == 60 * M
    rich = solve(OKU, 2 * 50 * M)  # exactly 2 x 50M = 1億: the cap no longer binds
    assert rich.value == pytest.approx(OKU / 3)


def test_a_smaller_trunk_cap_scales_the_value() -> None:
    solution = solve(57_330_000, None)  # off the grid: the cap itself is a strategy
    assert solution.trunks[-1] == 57_330_000
    assert solution.value == pytest.approx(57_330_000 / 3, rel=1e-9)


def test_the_payoff_matrix_is_the_change_in_the_teams_difference() -> None:
    points = tuple(range(0, 10 * M + 1, 2 * M))
    matrix = payoff_matrix(points, points)
    for i, trunk in enumerate(points):
        for j, doubt in enumerate(points):
            assert matrix[i, j] == settle(trunk, doubt or None).difference_change


def test_plot_writes_a_png(tmp_path: Path) -> None:
    path = plot(solve(OKU, None, 10 * M), tmp_path / "smuggling.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_analyze_command_prints_value_strategies_and_json(tmp_path: Path) -> None:
    app = typer.Typer()
    app.command()(analyze)
    runner = CliRunner()
    result = runner.invoke(app, ["--grid", "10000000", "--plot", str(tmp_path / "p.png")])
    assert result.exit_code == 0, result.output
    assert "33,333,333" in result.output and "pass" in result.output and (tmp_path / "p.png").exists()
    result = runner.invoke(app, ["--inspector-balance", "30000000", "--json", "--no-plot"])
    data = json.loads(result.output)
    assert data["plot"] is None
    assert data["value"] == pytest.approx(OKU) and data["checked"] is True
    assert data["smuggler"] == [{"trunk": OKU, "probability": pytest.approx(1.0)}]


def test_analyze_saves_the_plot_by_default_in_the_user_data_folder_never_the_current_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here, data = tmp_path / "here", tmp_path / "data"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))  # platformdirs' user data folder on Linux
    app = typer.Typer()
    app.command()(analyze)
    result = CliRunner().invoke(app, ["--grid", "10000000"])
    assert result.exit_code == 0, result.output
    saved = data / "partygames" / "analysis" / "smuggling-equilibrium.png"
    assert saved.read_bytes().startswith(b"\x89PNG") and not list(here.iterdir())
    assert f"Plot saved to {saved}" in result.output
    result = CliRunner().invoke(app, ["--grid", "10000000", "--json"])
    assert json.loads(result.output)["plot"] == str(saved)


def test_analyze_command_speaks_japanese_with_the_same_figures() -> None:
    app = typer.Typer()
    app.command()(analyze)
    runner = CliRunner()
    args = ["--grid", "10000000", "--inspector-balance", "60000000", "--no-plot"]
    english = runner.invoke(app, args)
    japanese = runner.invoke(app, [*args, "--lang", "ja"])
    assert english.exit_code == japanese.exit_code == 0, japanese.output
    out = japanese.output
    for shown in ("アタッシュケースの上限 100,000,000 円、格子 10,000,000 円(純粋戦略 11 x 11)",
                  "検査官の第3国口座 60,000,000 円: ダウトは 120,000,000 円まで", "ゲームの値", "33,333,333 円",
                  "搾取可能性", "合格", "密輸人: 確率の高い金額", "検査官: 確率の高い金額", "ケースの中身(円)",
                  "ダウト額(円)", "確率", "パス"):
        assert shown in out, shown
    figures = re.compile(r"\d[\d,.]*")
    assert figures.findall(out.replace("第3国", "")) == figures.findall(english.output)
    assert not re.search("[A-Za-z]{2,}", out), out  # no English word left: "Trunk cap", "pass", "yen", "ok"
    # The JSON is for machines: the same in both languages.
    assert runner.invoke(app, [*args, "--json", "--lang", "ja"]).output == runner.invoke(app, [*args, "--json"]).output
