"""Exact Dice Derby probabilities: pinned values, a hand-computed anchor, a second exact method by brute
force over every roll, and a Monte Carlo check of the engine's own race code against the exact values."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import product

import pytest
import typer
from typer.testing import CliRunner

from partygames.engine.chance import Chance
from partygames.games.dice_derby import analysis
from partygames.games.dice_derby.commands import odds
from partygames.games.dice_derby.horses import GATES, PAIRS, faces, pair_name
from partygames.games.dice_derby.race import run_race


def test_probabilities_sum_to_one_with_and_without_falls() -> None:
    for fall in (Fraction(0), Fraction(1, 20), Fraction(1, 3)):
        assert sum(analysis.placings(fall).values()) == 1
        assert sum(analysis.win_probabilities(fall).values()) == 1
        assert sum(analysis.second_probabilities(fall).values()) == 1
        assert sum(analysis.quinella_probabilities(fall).values()) == 1
        assert set(analysis.quinella_probabilities(fall)) == set(PAIRS)


def test_d4_goes_out_in_the_first_furlong_with_the_hand_computed_probability() -> None:
    # d4 rolls v (1/4 each) and goes out when every other die rolls above v (it never loses a tie:
    # the others all have more faces). P = 1/4 * sum_v prod_f (f - v) / f over f = 6, 8, 10, 12, 20:
    #   v=1: 5*7*9*11*19 = 65835, v=2: 4*6*8*10*18 = 34560, v=3: 3*5*7*9*17 = 16065, v=4: 2*4*6*8*16 = 6144
    #   over 6*8*10*12*20 = 115200: (65835 + 34560 + 16065 + 6144) / (4 * 115200) = 122604 / 460800
    assert Fraction(122604, 460800) == Fraction(10217, 38400)
    assert analysis.first_furlong_out()[1] == Fraction(10217, 38400)
    assert sum(analysis.first_furlong_out().values()) == 1


def test_two_dice_race_matches_hand_computation_with_and_without_falls() -> None:
    # d4 vs d6: d4 wins when it rolls at least as high (a tie puts out the d6): sum_v v/6 over 4 = 10/24.
    assert analysis.placings(Fraction(0), (1, 2)) == {(1, 2): Fraction(5, 12), (2, 1): Fraction(7, 12)}
    # With falls q: d4 wins if only the d6 falls, or neither falls and d4 wins the roll; both fall: again.
    q = Fraction(1, 10)
    expected = (q * (1 - q) + (1 - q) ** 2 * Fraction(5, 12)) / (1 - q * q)
    assert expected == Fraction(19, 44)
    assert analysis.placings(q, (1, 2))[(1, 2)] == expected


def test_pinned_exact_win_probabilities() -> None:
    win = analysis.win_probabilities()
    assert win[1] == Fraction(6387188546495527, 260919263232000000)  # d4: 2.45%
    assert win[6] == Fraction(27545673688573199, 60397977600000000)  # d20: 45.6%
    assert [round(float(win[g]), 5) for g in GATES] == [0.02448, 0.05977, 0.1045, 0.15323, 0.20196, 0.45607]
    pairs = analysis.quinella_probabilities()
    assert round(float(pairs["5-6"]), 5) == 0.20455 and round(float(pairs["1-2"]), 5) == 0.01235
    fall = analysis.win_probabilities(Fraction(1, 20))
    assert [round(float(fall[g]), 5) for g in GATES] == [0.03823, 0.07647, 0.11974, 0.16356, 0.20519, 0.39681]


@cache
def _brute_force(runners: tuple[int, ...]) -> dict[tuple[int, int], Fraction]:
    """Second exact method: count every combination of rolls, furlong by furlong (no falls)."""
    losers: Counter[int] = Counter()
    for values in product(*(range(1, faces(g) + 1) for g in runners)):
        best = min(range(len(runners)), key=lambda i: (values[i], -faces(runners[i])))
        losers[runners[best]] += 1
    combos = math.prod(faces(g) for g in runners)
    dist: dict[tuple[int, int], Fraction] = {}
    for loser, count in losers.items():
        rest = tuple(g for g in runners if g != loser)
        if len(rest) == 1:
            dist[(rest[0], loser)] = dist.get((rest[0], loser), Fraction(0)) + Fraction(count, combos)
        else:
            for key, p in _brute_force(rest).items():
                dist[key] = dist.get(key, Fraction(0)) + Fraction(count, combos) * p
    return dict(dist)


def test_second_exact_method_by_enumerating_every_roll_agrees_exactly() -> None:
    assert _brute_force(GATES) == {k: v for k, v in analysis.placings().items() if v}


def _monte_carlo(fall: float | None, races: int, seed: int) -> tuple[Counter[int], Counter[str]]:
    chance = Chance(seed)
    wins: Counter[int] = Counter()
    pairs: Counter[str] = Counter()
    for _ in range(races):
        run = run_race(chance, fall)
        wins[run.first] += 1
        pairs[pair_name(run.first, run.second)] += 1
    return wins, pairs


def test_engine_races_agree_with_the_exact_probabilities_within_confidence_intervals(report_figures: Callable[[str], None]) -> None:
    races = 20_000
    for fall in (None, 0.2):
        exact_win = analysis.win_probabilities(analysis.as_fraction(fall or 0))
        exact_pair = analysis.quinella_probabilities(analysis.as_fraction(fall or 0))
        wins, pairs = _monte_carlo(fall, races, seed=2024)
        worst = 0.0
        for key, exact, seen in [*((g, exact_win[g], wins[g]) for g in GATES),
                                 *((p, exact_pair[p], pairs[p]) for p in PAIRS)]:
            p = float(exact)
            se = math.sqrt(p * (1 - p) / races)
            z = (seen / races - p) / se
            worst = max(worst, abs(z))
            print(f"fall={fall} {key}: exact {p:.4f} simulated {seen / races:.4f} "
                  f"95% CI [{seen / races - 1.96 * se:.4f}, {seen / races + 1.96 * se:.4f}] z={z:+.2f}")
        report_figures(f"fall={fall}: 21 exact win/quinella probabilities vs {races:,} engine races: "
                       f"largest deviation {worst:.2f} standard errors")
        # 21 checks per setting: |z| < 4.5 fails by chance with probability below 1e-4.
        assert worst < 4.5, f"fall={fall}: simulation is {worst:.1f} standard errors from the exact value"


def test_the_fall_rule_levels_the_field() -> None:
    plain, falls = analysis.win_probabilities(), analysis.win_probabilities(Fraction(1, 5))
    assert falls[1] > plain[1] and falls[6] < plain[6]


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command()(odds)
    return app


def test_odds_command_prints_fractions_decimals_fair_odds_and_time(report_figures: Callable[[str], None]) -> None:
    result = CliRunner().invoke(_app(), [])
    assert result.exit_code == 0, result.output
    assert "Fair odds" in result.output and "5-6" in result.output and " ms" in result.output
    data = json.loads(CliRunner().invoke(_app(), ["--json", "--fall", "1/20"]).output)
    assert data["fall_probability"] == "1/20"
    assert len(data["win"]) == 6 and len(data["quinella"]) == 15
    d20 = data["win"][5]
    assert Fraction(d20["probability"]) == analysis.win_probabilities(Fraction(1, 20))[6]
    assert abs(d20["fair_odds"] - 1 / d20["decimal"]) < 1e-9
    report_figures(f"odds --fall 1/20 computed in {data['elapsed_ms']} ms")
    assert json.loads(CliRunner().invoke(_app(), ["--json", "--fall", "0.05"]).output)["fall_probability"] == "1/20"


@pytest.mark.parametrize("width", [60, 80, 120])
def test_odds_never_cuts_a_fraction_however_narrow_the_terminal(width: int) -> None:
    result = CliRunner().invoke(_app(), ["--fall", "1/20"], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    assert "…" not in result.output
    # Each probability cell, folded over several lines, reads back as the exact fraction.
    cells: list[str] = []
    for line in result.output.splitlines():
        parts = line.split("│")
        if len(parts) == 7 and parts[2].strip() in {"d4", "d6", "d8", "d10", "d12", "d20"}:
            cells.append(parts[3].strip())
        elif len(parts) == 7 and not parts[1].strip() and cells:
            cells[-1] += parts[3].strip()  # the fold's next line
    exact = analysis.win_probabilities(Fraction(1, 20))
    assert [Fraction(cell) for cell in cells] == [exact[g] for g in range(1, 7)]
    assert max(map(len, cells)) > width // 3  # the fractions are long enough to need folding


def test_odds_command_refuses_a_bad_fall_probability() -> None:
    for bad in ("abc", "1", "-0.1"):
        result = CliRunner().invoke(_app(), ["--fall", bad])
        assert result.exit_code != 0


def test_odds_command_speaks_japanese_with_the_same_figures() -> None:
    wide = {"COLUMNS": "200"}  # no fraction folded, so each figure reads whole
    english = CliRunner().invoke(_app(), ["--fall", "1/20"], env=wide)
    japanese = CliRunner().invoke(_app(), ["--fall", "1/20", "--lang", "ja"], env=wide)
    assert english.exit_code == 0 and japanese.exit_code == 0, japanese.output
    for words in ("単勝(落馬確率 1/20)", "連複(1着と2着、順不同)", "枠番の組", "ダイス", "確率", "小数",
                  "公正オッズ", "4面体", "20面体", "ms で厳密に計算しました。"):
        assert words in japanese.output, words
    # The d20's exact probability, its decimal and fair odds, and the 5-6 quinella: as in English.
    d20 = analysis.win_probabilities(Fraction(1, 20))[6]
    pair = analysis.quinella_probabilities(Fraction(1, 20))["5-6"]
    for figure in (str(d20), f"{float(d20):.6f}", f"{float(1 / d20):.2f}", str(pair), f"{float(1 / pair):.2f}"):
        assert figure in english.output and figure in japanese.output, figure
    for heading in ("Win", "fall probability", "Quinella", "either order", "Gate", "Die", "Probability",
                    "Decimal", "Fair odds", "Pair", "Computed exactly", "d20"):
        assert heading in english.output and heading not in japanese.output, heading
    refused = CliRunner().invoke(_app(), ["--fall", "abc", "--lang", "ja"], env=wide)
    assert refused.exit_code != 0 and "0.05 や 1/20 のような数・分数ではありません" in refused.output
    assert "is not a number" not in refused.output
    assert "落馬確率は0以上1未満" in CliRunner().invoke(_app(), ["--fall", "1", "--lang", "ja"], env=wide).output
    # JSON is for programs: the same keys and figures whatever the language.
    as_json = ["--json", "--fall", "1/20"]
    en_data = json.loads(CliRunner().invoke(_app(), as_json).output)
    ja_data = json.loads(CliRunner().invoke(_app(), [*as_json, "--lang", "ja"]).output)
    en_data.pop("elapsed_ms"), ja_data.pop("elapsed_ms")
    assert ja_data == en_data
