"""The exact turn analysis (values worked out by hand), its agreement with the real rules engine, the
house-edge Monte Carlo and `partygames analyze lucky-nine`."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from fractions import Fraction

from typer.testing import CliRunner

from partygames.cli.main import app
from partygames.games import get
from partygames.games.lucky_nine.analysis import solver
from partygames.games.lucky_nine.commands import myopic_rule_is_optimal, turn_tables
from partygames.games.lucky_nine.montecarlo import house_edge
from partygames.games.lucky_nine.rules import DIAMOND, NON_DIAMOND, LuckyNineMatch


def test_continuing_with_eight_lit_chests_and_an_empty_diamond_chest_is_worth_26_27_of_the_stake() -> None:
    # By hand, s = stake, diamond chest empty. A press hits one of the k lit chests (s each, k/9),
    # else it costs 2s. With k <= 6 the next press loses or breaks even, (3k - 18)s / 9 <= 0, and it
    # stays so after further hits, so V(k) = 0 there. Then:
    #   C(7) = [7(s + V(6)) - 2 * 2s] / 9 = 3s / 9 = s/3
    #   C(8) = [8(s + V(7)) - 2s] / 9 = [8 * 4s/3 - 2s] / 9 = 26s/27
    for stake in (1, 2, 4, 6, 9):
        solve = solver(stake)
        assert solve.cont(8, 0) == Fraction(26, 27) * stake
        assert solve.cont(7, 0) == Fraction(stake, 3)
        assert solve.cont(6, 0) == 0 and not solve.should_continue(6, 0)
        assert solve.cont(4, 0) == Fraction(-6 * stake, 9)


def test_with_no_other_chest_lit_continue_only_when_the_diamond_chest_holds_more_than_16_stakes() -> None:
    # k = 0, D diamonds: a 1/9 chance of D (then special rule a refills, worth 0 more), else -2s.
    # C = (D - 16s) / 9: at stake 1, D = 17 gives +1/9 and D = 16 gives 0 (pass).
    solve = solver(1)
    assert solve.cont(0, 17) == Fraction(1, 9) and solve.cont(0, 16) == 0
    assert solve.threshold(0) == 17 and solver(9).threshold(0) == 145


def test_the_optimal_stop_rule_is_the_one_step_rule_at_every_default_stake() -> None:
    assert all(myopic_rule_is_optimal(s) for s in (1, 2, 4, 6, 9))
    tables = turn_tables((1, 2, 4, 6, 9))
    assert tables["continue_if_diamond_chest_at_least"]["2"] == {
        "0": 33, "1": 27, "2": 21, "3": 15, "4": 9, "5": 3, "6": 1, "7": 0, "8": 0}


def test_variant_d_makes_continuing_with_eight_lit_chests_worth_more() -> None:
    assert solver(1, chain_bonus=True).cont(8, 0) > solver(1).cont(8, 0)
    # Variant a only changes misses on the diamond chest, which cost 3s instead of 2s.
    assert solver(1, triple_diamond=True).cont(7, 0) == Fraction(7 - 2 - 3, 9)


def _eight_lit_turn(seed: int) -> int:
    """Gain of one turn from a decision with all eight other chests lit at stake 1 and an empty
    diamond chest, playing the exact stop rule through the real rules engine."""
    match = LuckyNineMatch(3, None, seed)
    for chest in NON_DIAMOND:
        match.chests[chest] = 1
    match.house -= 4  # the four extra diamonds come from the house
    match.phase = "decide"
    start = match.holdings[0]
    solve = solver(1)
    while match.phase == "decide" and match.turn_seat == 0:
        k = sum(1 for c in NON_DIAMOND if match.chests[c])
        if not solve.should_continue(k, match.chests[DIAMOND], match.chain):
            break
        match.apply(0, {"type": "continue"})
    return match.holdings[0] - start


def test_the_engine_agrees_with_the_exact_value_of_continuing(report_figures: Callable[[str], None]) -> None:
    gains = [_eight_lit_turn(seed) for seed in range(20_000)]
    mean = sum(gains) / len(gains)
    sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (len(gains) - 1))
    half = 4 * sd / math.sqrt(len(gains))
    report_figures(f"engine: {mean:.4f} +- {half:.4f}; exact 26/27 = {26 / 27:.4f}")
    assert abs(mean - 26 / 27) < half


def test_house_edge_estimate_has_a_confidence_interval_and_the_ledger_matches_the_players() -> None:
    edge = house_edge(6, {}, games=200, seed=3, drop_out=False)
    assert edge.games == 200 and edge.net_half_width > 0 and edge.paid_per_game > 0
    assert abs(edge.edge - edge.net_per_game / edge.paid_per_game) < 1e-12


def test_analyze_command_prints_the_tables_and_json() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["analyze", "lucky-nine", "--games", "30", "--json", "--no-plot"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["continue_value_empty_diamond_chest"]["1"]["8"] == "26/27"
    assert set(data["house_edge"]["by_policy"]["heuristic"]) == {
        "none", "a: triple diamond", "b: sweep bonus", "c: no repeat", "d: chain bonus"}
    text = runner.invoke(app, ["analyze", "lucky-nine", "--games", "20", "--no-plot"])
    assert text.exit_code == 0 and "Optimal stop rule" in text.output and "House edge" in text.output
    assert get("lucky-nine").id == "lucky-nine"


def test_analyze_command_speaks_japanese_with_the_same_figures() -> None:
    runner = CliRunner()
    wide = {"COLUMNS": "200"}
    command = ["analyze", "lucky-nine", "--games", "20", "--seed", "5"]
    english = runner.invoke(app, command, env=wide)
    japanese = runner.invoke(app, [*command, "--lang", "ja"], env=wide)
    assert english.exit_code == 0 and japanese.exit_code == 0, japanese.output
    # Japanese prose wraps between phrases, without a space: the lines joined read as written.
    joined = "".join(japanese.output.splitlines())
    for words in ("続行の期待値(もう1回押し、以後は最適に止める。パスは0)", "ダイヤチェストが空、厳密値",
                  "最適停止ルール: ダイヤチェストのダイヤがこの数以上なら続行", "点灯数 k", "賭け金 9",
                  "最適停止ルール(厳密、どの賭け金でも)", "もっと先まで読んでも判断は変わりません。",
                  "変則ルール別の主催者の取り分", "全席「ヒューリスティック」", "全席「ドロップアウトしない」",
                  "主催者の収支", "ハズレでの投入", "a・トリプルダイヤ", "d・チェーンボーナス",
                  "主催者の取り分は推定値です。"):
        assert words in joined, words
    # The same exact values and the same Monte Carlo estimates (same games and seed) as in English.
    data = json.loads(runner.invoke(app, [*command, "--json"]).output)
    none = data["house_edge"]["by_policy"]["never drop out"]["none"]
    figures = ["+0.963 (26/27)", "(104/27)", "145", f"{none['house_net_per_game']:+.2f}",
               f"{none['paid_on_misses_per_game']:.1f}", f"{100 * none['edge']:+.2f}%"]
    for figure in figures:
        assert figure in english.output and figure in japanese.output, figure
    for heading in ("Expected gain", "Optimal stop rule", "lit chests", "stake", "House edge", "Monte Carlo",
                    "heuristic", "never drop out", "variant", "house net", "paid on misses", "triple diamond",
                    "chain bonus", "The turn model", "A whole game", "none"):
        assert heading in english.output and heading not in japanese.output, heading
    # JSON is for programs: the stop rule stays in English and the keys are unchanged.
    assert json.loads(runner.invoke(app, [*command, "--json", "--lang", "ja"]).output) == data
    refused = runner.invoke(app, ["analyze", "lucky-nine", "--seats", "1", "--lang", "ja"])
    assert refused.exit_code == 1 and "--seats は2〜20" in refused.output
