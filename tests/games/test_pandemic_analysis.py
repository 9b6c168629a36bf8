"""The Pandemic Game's analysis: the exact posterior over a saved match (public and a seat's own), and
`partygames analyze pandemic` with its strategies' pass rates and plot, in English and Japanese."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from partygames.cli.main import app
from partygames.engine import Session
from partygames.engine.log import MatchLog
from partygames.games import get
from partygames.games.pandemic.analysis import posterior

GAME = get("pandemic")
runner = CliRunner()


def _saved_match() -> MatchLog:
    """12 seats, 3 and 7 infected: 0 touches 1, 1 touches 2, and 2 reads its watch in a room."""
    match = GAME.new(12, {"minutes": 1}, seed=4, script={"infected": [3, 7]})
    session = Session(GAME, match)
    session.act(0, {"type": "offer", "target": 1}, 1_000)
    session.act(1, {"type": "accept", "offer": "0@1000"}, 1_000)
    session.catch_up(7_000)
    session.act(1, {"type": "offer", "target": 2}, 7_000)
    session.act(2, {"type": "accept", "offer": "1@7000"}, 7_000)
    session.catch_up(13_000)
    session.act(2, {"type": "visit"}, 13_000)
    session.catch_up(60_000)
    assert session.match.is_over
    return session.log


def test_the_posterior_follows_the_public_log_exactly() -> None:
    moments = posterior(GAME, _saved_match())
    assert [m.entry["kind"] if m.entry else None for m in moments] == [None, "contact", "contact"]
    assert moments[0].public == [Fraction(1, 6)] * 12
    # After 0-1: 0 and 1 are infected unless neither was: 1 - C(10, 2)/66 = 21/66.
    assert moments[1].public[0] == moments[1].public[1] == Fraction(21, 66)
    # After 1-2: 2 is infected in 21 of the 66 worlds (test_pandemic_rules.py works it out).
    assert moments[2].public[2] == Fraction(21, 66)


def test_a_seat_s_own_posterior_keeps_the_worlds_its_readings_allow() -> None:
    moments = posterior(GAME, _saved_match(), seat=2)
    last = moments[-1]
    # 2 read "healthy, one vaccine" after both contacts: only worlds where 0, 1 and 2 were healthy remain
    # (C(9, 2) = 36), and in those 0 and 1 have stayed healthy too.
    assert last.own is not None and last.own[2] == 0 and last.own[0] == 0 and last.own[1] == 0
    assert last.own[5] == Fraction(8, 36)


def test_analyze_prints_the_posterior_and_the_strategies_pass_rates_with_a_plot(tmp_path: Path) -> None:
    saved = tmp_path / "match.json"
    saved.write_text(json.dumps(_saved_match().to_json()), encoding="utf-8")
    plot = tmp_path / "rates.png"
    result = runner.invoke(app, ["analyze", "pandemic", "--log", str(saved), "--seat", "2", "--matches", "5",
                                 "--seats", "5", "--plot", str(plot), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert len(data["posterior"]) == 4
    assert {r["strategy"] for r in data["strategies"]} == {"heuristic", "cautious", "greedy", "checker", "random"}
    assert sum(r["seats"] for r in data["strategies"]) == 25
    assert plot.stat().st_size > 1000
    text = runner.invoke(app, ["analyze", "pandemic", "--log", str(saved), "--matches", "0"])
    assert text.exit_code == 0 and "Infection odds" in text.output


def _figures(output: str) -> list[str]:
    """Every figure printed, in order: seats, seconds, percentages, match counts."""
    return re.findall(r"\d+(?:\.\d+)?%?", output)


def test_analyze_speaks_japanese_with_the_same_figures(tmp_path: Path) -> None:
    saved = tmp_path / "match.json"
    saved.write_text(json.dumps(_saved_match().to_json()), encoding="utf-8")
    args = ["analyze", "pandemic", "--log", str(saved), "--seat", "2", "--matches", "2", "--seats", "5", "--no-plot"]
    wide = {"COLUMNS": "200"}  # no title or cell folds, so that the figures read in order
    english = runner.invoke(app, args, env=wide)
    japanese = runner.invoke(app, [*args, "--lang", "ja"], env=wide)
    assert english.exit_code == japanese.exit_code == 0, japanese.output
    out = japanese.output
    for shown in ("公開ログの出来事ごとの感染確率(12席)", "時刻", "出来事", "0秒", "開始", "60秒", "終了", "席2の推定",
                  "感染ゲーム: 戦略ごとの予選突破率(2試合、5席)", "戦略", "予選突破率", "95%信頼区間",
                  "ヒューリスティック", "慎重派", "強欲派", "確認派", "ランダム"):
        assert shown in out, shown
    assert "Infection odds" in english.output and "seat 2's own" in english.output
    assert _figures(out) == _figures(english.output) and "32%" in out and "45%" in out
    assert not re.search(r"[A-Za-z]{2,}", out), out  # no English left: "start", "qualified", "heuristic"
    # --json stays the same machine-readable figures whatever the language.
    figures = [json.loads(runner.invoke(app, [*args, "--json", *lang]).output) for lang in ([], ["--lang", "ja"])]
    assert figures[0] == figures[1] and len(figures[0]["posterior"]) == 4
    # A match with private contacts has no exact public odds: said in Japanese, and in English to other callers.
    match = GAME.new(4, {"minutes": 1, "public_contacts": False}, seed=1)
    private = tmp_path / "private.json"
    private.write_text(json.dumps(Session(GAME, match).log.to_json()), encoding="utf-8")
    refused = runner.invoke(app, ["analyze", "pandemic", "--log", str(private), "--matches", "0", "--lang", "ja"],
                            env=wide)
    assert refused.exit_code == 1 and "公開ログだけでは感染確率が決まりません" in refused.output
    with pytest.raises(ValueError, match="the public log does not determine it"):
        posterior(GAME, MatchLog.from_json(json.loads(private.read_text(encoding="utf-8"))))
