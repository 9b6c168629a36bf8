"""The `partygames` command line, through Typer's CliRunner and a scripted terminal player."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from partygames import games
from partygames.cli.main import app
from partygames.cli.play import play_in_terminal
from partygames.engine.session import Session, replay

runner = CliRunner()
GAME_IDS = games.ids()


class ScriptedPlayer(Console):
    """A terminal whose 'player' answers every prompt with a random valid entry, after first typing a
    wrong entry once per prompt to check that it is explained and asked again."""

    def __init__(self, seed: int) -> None:
        super().__init__(record=True, width=120, force_terminal=False)
        self.rng = random.Random(seed)
        self.prompts = 0
        self._wrong_given = False

    def input(self, prompt: str = "", **kwargs: object) -> str:  # type: ignore[override]
        self.prompts += 1
        if "Press Enter" in prompt:
            return ""
        if not self._wrong_given:
            self._wrong_given = True
            return "not a number"
        self._wrong_given = False
        menu = re.search(r"\[1-(\d+)", prompt)
        if menu:
            return str(self.rng.randint(1, int(menu.group(1))))
        numbers = re.search(r"\((-?\d+)-(-?\d+)(?:, steps of (\d+)|、(\d+) 刻み)?\)", prompt)
        assert numbers, f"unexpected prompt {prompt!r}"
        low, high = int(numbers.group(1)), int(numbers.group(2))
        step = int(numbers.group(3) or numbers.group(4) or 1)
        return str(low + step * self.rng.randint(0, (high - low) // step))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_player_can_play_every_game_to_the_end_in_the_terminal(game_id: str) -> None:
    game = games.get(game_id)
    options = dict(game.samples.golden.options) if game.samples.golden else {}
    seats = min(game.seat_counts_for(options))
    bots = {s: game.make_bot("heuristic", s, seed=s) for s in range(1, seats)}
    session = Session.new(game, seats, options, seed=3, bots=bots)
    console = ScriptedPlayer(seed=7)
    assert play_in_terminal(console, session, 0, "en")
    assert session.match.is_over and session.log.reproduces(replay(game, session.log))
    screen = console.export_text()
    assert "Result" in screen
    if console.prompts:
        assert "Enter a number" in screen or "Enter a whole number" in screen


def test_games_lists_every_game_in_both_languages() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for game in games.all_games():
        assert game.id in result.output and game.title.ja in result.output


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_rules_prints_the_summary_in_each_language(game_id: str) -> None:
    game = games.get(game_id)
    for lang in ("en", "ja"):
        result = runner.invoke(app, ["rules", game_id, "--lang", lang])
        assert result.exit_code == 0, result.output
        assert game.title(lang) in result.output


def test_unknown_game_and_bad_options_are_explained() -> None:
    result = runner.invoke(app, ["rules", "chess"])
    assert result.exit_code == 1 and "No game 'chess'" in result.output
    if GAME_IDS:
        result = runner.invoke(app, ["simulate", GAME_IDS[0], "--games", "2", "-o", "no_such_option=1"])
        assert result.exit_code == 1 and "no_such_option" in result.output
        result = runner.invoke(app, ["simulate", GAME_IDS[0], "--games", "2", "--bots", "genius"])
        assert result.exit_code == 1 and "genius" in result.output


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_simulate_json_summary_and_saved_logs_replay(game_id: str, tmp_path: Path) -> None:
    game = games.get(game_id)
    options = game.samples.golden.options if game.samples.golden else {}
    args = ["simulate", game_id, "--games", "3", "--seed", "5", "--json", "--save", str(tmp_path)]
    for key, value in options.items():
        args += ["-o", f"{key}={json.dumps(value)}"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 3 and summary["games_per_second"] > 0
    assert {b["bot"] for b in summary["bots"]} == {"heuristic", "random"}
    assert sum(b["seats_played"] for b in summary["bots"]) == 3 * summary["seats"]
    saved = sorted(tmp_path.glob("*.json"))
    assert len(saved) == 3
    replayed = runner.invoke(app, ["replay", str(saved[0])])
    assert replayed.exit_code == 0, replayed.output
    assert "reproduces the stored final state" in replayed.output


def test_replay_detects_a_tampered_log(tmp_path: Path) -> None:
    game_id = GAME_IDS[0]
    golden = games.get(game_id).samples.golden
    options = golden.options if golden else {}
    args = ["simulate", game_id, "--games", "1", "--json", "--save", str(tmp_path)]
    for key, value in options.items():
        args += ["-o", f"{key}={json.dumps(value)}"]
    assert runner.invoke(app, args).exit_code == 0
    path = next(tmp_path.glob("*.json"))
    data = json.loads(path.read_text())
    data["final_state"]["version"] += 1
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "NOT reproduce" in result.output
