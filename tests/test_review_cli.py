"""`partygames review` (cli/review.py) through Typer's CliRunner: every game, both languages, the graph, the
saved-match formats it takes, and its one-line refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from partygames import games
from partygames.cli.main import app

runner = CliRunner()


def saved_match(game_id: str, folder: Path, seed: int = 3) -> Path:
    """A finished match of heuristic bots, saved by `simulate --save`."""
    game = games.get(game_id)
    args = ["simulate", game_id, "--games", "1", "--seed", str(seed), "--bots", "heuristic", "--json",
            "--save", str(folder)]
    setup = game.samples.golden
    if setup is not None:
        args += ["--seats", str(setup.seats)]
        for key, value in setup.options.items():
            args += ["-o", f"{key}={json.dumps(value)}"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return next(folder.glob("*.json"))


@pytest.mark.parametrize("game_id", games.ids())
def test_every_game_reviews_a_saved_match_as_json(game_id: str, tmp_path: Path) -> None:
    path = saved_match(game_id, tmp_path)
    result = runner.invoke(app, ["review", str(path), "--seat", "0", "--simulations", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == game_id and data["seat"] == 0 and data["steps"] == len(json.loads(path.read_text())["entries"])
    for decision in data["decisions"]:
        assert len(decision["candidates"]) >= 2 and decision["mark"] in (None, "best", "good", "inaccuracy", "mistake",
                                                                          "blunder")
    assert [point[0] for point in data["series"]] == [d["step"] for d in data["decisions"]]


@pytest.mark.parametrize(("lang", "heads"), [("en", ("played", "best", "mark")), ("ja", ("指した手", "最善手", "評価"))])
def test_the_table_words_moves_with_the_games_labels(lang: str, heads: tuple[str, ...], tmp_path: Path) -> None:
    path = saved_match("smuggling", tmp_path)
    result = runner.invoke(app, ["review", str(path), "--seat", "1", "--simulations", "4", "--lang", lang],
                           env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert all(head in result.output for head in heads)
    assert not re.search(r"[{}]|\[['\"]|'type'", result.output), result.output  # words, not action data
    if lang == "ja":
        assert "シミュレーション" in result.output and "simulations" not in result.output
    # Smuggling is judged by the team's lead in yen (games/smuggling/review.py): named, and in whole yen.
    # (The title may wrap at the console's width: read it as one line.)
    flat = re.sub(r"\s*\n\s*", "" if lang == "ja" else " ", result.output)
    assert ("自チームのリード" if lang == "ja" else "expected lead of the seat's team") in flat
    assert re.search(r"\(-?[\d,]+[-〜]-?[\d,]+\)", result.output) and not re.search(r"\d\.\d\d", result.output)


def test_the_graph_is_saved_as_a_png(tmp_path: Path) -> None:
    path = saved_match("lucky-nine", tmp_path)
    plot = tmp_path / "graph" / "review.png"
    result = runner.invoke(app, ["review", str(path), "--seat", "0", "--simulations", "4", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_server_download_and_an_old_format_log_are_reviewed_alike(tmp_path: Path) -> None:
    path = saved_match("smuggling", tmp_path)
    data = json.loads(path.read_text())
    expected = runner.invoke(app, ["review", str(path), "--seat", "0", "--simulations", "4", "--json"])
    # The server's log download (the host's copy): HTML-escaped names and a redaction flag besides the log.
    server = tmp_path / "server.json"
    server.write_text(json.dumps({**data, "names": ["&lt;Ann&gt;"] + [""] * (data["seats"] - 1), "redacted": False}))
    # Format 1: [seat, action] pairs without times.
    old = tmp_path / "old.json"
    old.write_text(json.dumps({**data, "format": 1, "actions": [[s, a] for _, s, a in data["entries"] if s is not None],
                               "final_state": None}))
    for other in (server, old):
        result = runner.invoke(app, ["review", str(other), "--seat", "0", "--simulations", "4", "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["decisions"] == json.loads(expected.output)["decisions"]


def test_what_cannot_be_reviewed_is_refused_in_one_line(tmp_path: Path) -> None:
    path = saved_match("lucky-nine", tmp_path)
    data = json.loads(path.read_text())
    running = tmp_path / "running.json"
    running.write_text(json.dumps({**data, "entries": data["entries"][:-3], "final_state": None}))
    spectator = tmp_path / "spectator.json"
    spectator.write_text(json.dumps({**data, "seed": None, "final_state": None, "redacted": True}))
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps({**data, "final_state": {**data["final_state"], "version": -1}}))
    garbage = tmp_path / "garbage.json"
    garbage.write_text("not json")
    cases = [([str(running), "--seat", "0"], "not finished"),
             ([str(path), "--seat", str(data["seats"])], "not one of the match's seats"),
             ([str(spectator), "--seat", "0"], "spectator's copy"),
             ([str(tampered), "--seat", "0"], "does not reproduce"),
             ([str(garbage), "--seat", "0"], "Cannot read match log"),
             ([str(tmp_path / "missing.json"), "--seat", "0"], "Cannot read match log"),
             ([str(path), "--seat", "0", "--simulations", "4", "--think-ms", "5"], "not both")]
    for args, message in cases:
        result = runner.invoke(app, ["review", *args])
        assert result.exit_code == 1, (args, result.output)
        assert message in result.output and "Traceback" not in result.output, result.output
    result = runner.invoke(app, ["review", str(running), "--seat", "0", "--lang", "ja"])
    assert result.exit_code == 1 and "終わっていません" in result.output


def test_a_think_time_budget_reviews_with_at_least_two_worlds_a_decision(tmp_path: Path) -> None:
    path = saved_match("smuggling", tmp_path)
    result = runner.invoke(app, ["review", str(path), "--seat", "0", "--think-ms", "5", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["budget"] == "5 ms" and data["decisions"]
    assert all(c["simulations"] >= 2 for d in data["decisions"] for c in d["candidates"])
