"""The Pandemic Game's analysis: the exact posterior over a saved match (public and a seat's own), and
`partygames analyze pandemic` with its strategies' pass rates and plot."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

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
