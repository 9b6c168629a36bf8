"""The `partygames` command line, through Typer's CliRunner and a scripted terminal player."""

from __future__ import annotations

import io
import itertools
import json
import random
import re
from pathlib import Path
from typing import Any, TextIO

import pytest
import typer
from budoux import load_default_japanese_parser
from rich.cells import cell_len
from rich.console import Console
from rich.text import TextType
from typer.testing import CliRunner

from partygames import games
from partygames.cli import main as cli_main
from partygames.cli.main import app
from partygames.cli.play import Prompter, Quit, play_in_terminal
from partygames.cli.prose import Prose, wrap
from partygames.cli.terminal import render_result
from partygames.engine.actions import int_range, sequence, spec
from partygames.engine.session import Session, play, replay
from partygames.engine.text import Lang
from tests.toy_game import ORDER_GAME

runner = CliRunner()
GAME_IDS = games.ids()
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


class ScriptedConsole(Console):
    """A terminal whose player is a script: `answer(prompt)` is the line typed at each prompt."""

    def input(self, prompt: TextType = "", *, markup: bool = True, emoji: bool = True, password: bool = False,
              stream: TextIO | None = None) -> str:
        return self.answer(str(prompt))

    def answer(self, prompt: str) -> str:
        raise NotImplementedError


MENU_LINE = re.compile(r"^  (?=\S)")
MENU_KEY = re.compile(r"(?:^|(?<=\s\s))([0-9A-Za-z][0-9A-Za-z.\-]*)\) ")


class ScriptedPlayer(ScriptedConsole):
    """A terminal whose 'player' answers every prompt with a random valid entry, read from the menu the screen
    shows (its keys) or the prompt (a number's range), after first typing a wrong entry once per prompt to
    check that it is explained and asked again."""

    def __init__(self, seed: int) -> None:
        super().__init__(record=True, width=120, force_terminal=False, file=io.StringIO())
        self.rng = random.Random(seed)
        self.prompts = 0
        self._wrong_given = False
        self._read = 0
        self.keys: list[str] = []

    def _menu_keys(self) -> None:
        """The keys of the menu printed just before this prompt, if one was."""
        assert isinstance(self.file, io.StringIO)
        text = self.file.getvalue()
        lines = text[self._read:].splitlines()
        self._read = len(text)
        menu: list[str] = []
        for line in reversed(lines):
            if not MENU_LINE.match(line) or not MENU_KEY.search(line.strip()):
                break
            menu[:0] = MENU_KEY.findall(line)
        if menu:
            self.keys = menu

    def answer(self, prompt: str) -> str:
        self.prompts += 1
        self._menu_keys()
        if not self._wrong_given:
            self._wrong_given = True
            return "x?"  # neither a key nor a number, nor a word of either language
        self._wrong_given = False
        if "Press Enter" in prompt or "Enter で" in prompt:
            return ""
        if "[y/N]" in prompt:
            return self.rng.choice(["y", "n"])
        order = self._order(prompt)
        if order is not None:
            return order
        numbers = re.search(r"\((-?[\d,]+)-(-?[\d,]+)(?:, steps of ([\d,]+)|、([\d,]+) 刻み)?\)(?: \\?\[b to go back\]|\\?\[b で戻る\])?:", prompt)
        if numbers:
            low, high = int(numbers.group(1).replace(",", "")), int(numbers.group(2).replace(",", ""))
            step = int((numbers.group(3) or numbers.group(4) or "1").replace(",", ""))
            return str(low + step * self.rng.randint(0, (high - low) // step))
        assert self.keys, f"unexpected prompt {prompt!r}"
        return self.rng.choice(self.keys)

    def _order(self, prompt: str) -> str | None:
        """For an ordered list of distinct choices: random distinct keys, in order."""
        en = re.search(r"type (?:exactly (\d+)|up to (\d+)|(\d+) to (\d+)) of the numbers", prompt)
        ja = re.search(r"の番号から (?:(\d+) 個を|(\d+) 個まで|(\d+)〜(\d+) 個)", prompt)
        if en:
            exact, up_to, low, high = en.groups()
        elif ja:
            exact, up_to, low, high = ja.groups()
        else:
            return None
        length = self.rng.randint(int(exact or low or 0), min(int(exact or up_to or high), len(self.keys)))
        return " ".join(self.rng.sample(self.keys, length))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_player_can_play_every_game_to_the_end_in_the_terminal(game_id: str, lang: Lang) -> None:
    game = games.get(game_id)
    options = dict(game.samples.golden.options) if game.samples.golden else {}
    seats = min(game.seat_counts_for(options))
    bots = {s: game.make_bot("heuristic", s, seed=s) for s in range(1, seats)}
    session = Session.new(game, seats, options, seed=3, bots=bots)
    console = ScriptedPlayer(seed=7)
    assert play_in_terminal(console, session, 0, lang)
    assert session.match.is_over and session.log.reproduces(replay(game, session.log))
    # The player was asked and played: time did not run out on them while the bots moved.
    assert console.prompts and any(entry.seat == 0 for entry in session.log.entries)
    screen = console.export_text()
    assert ("Result" if lang == "en" else "結果") in screen
    if lang == "en":
        assert re.search(r"Type one of the (numbers|keys) shown|Enter a whole number", screen)
    else:
        assert re.search(r"(番号|記号)を入力してください|整数を入力してください", screen)
    # Events, views and results read as sentences and tables, never as raw data.
    assert not re.search(r"\{['\"]|\[['\"]|': |\": ", screen), screen


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


def test_mistakes_are_explained_in_japanese_with_lang_ja(tmp_path: Path) -> None:
    """Each refusal of the command line in the language asked for (English without --lang)."""
    cases = [
        (["rules", "chess"], "ゲーム「chess」はありません"),
        (["play", "lucky-nine", "--seat", "40"], "--seat は 0 から 3 までです。"),
        (["play", "lucky-nine", "--bot", "genius"], "lucky-nine にボット 'genius' はありません"),
        (["simulate", "lucky-nine", "--games", "2", "--bots", "genius"], "不明なボット: genius。"),
        (["simulate", "lucky-nine", "--games", "2", "-o", "rounds"], "--option は key=value の形で指定します"),
        (["simulate", "lucky-nine", "--games", "2", "-o", "rounds=0"], "rounds"),
        (["replay", str(tmp_path / "missing.json")], "を読めません"),
    ]
    for args, japanese in cases:
        result = runner.invoke(app, [*args, "--lang", "ja"], env={"COLUMNS": "200"})
        assert result.exit_code == 1 and japanese in result.output, (args, result.output)
        assert not re.search(r"[A-Za-z]{3,} [a-z]{3,}", result.output.replace("lucky-nine", "")), result.output
        english = runner.invoke(app, args, env={"COLUMNS": "200"})
        assert english.exit_code == 1 and not JAPANESE.search(english.output), english.output


@pytest.mark.parametrize(("args", "english", "japanese"), [
    (["play", "lucky-nine", "--bogus"], "No such option: --bogus", "そのオプションはありません: --bogus"),
    (["simulate"], "Missing argument 'game_id'.", "引数 'game_id' の指定が必要です。"),
    (["nosuch"], "No such command 'nosuch'.", "そのコマンドはありません: nosuch"),
    (["analyze", "chess"], "No such command 'chess'.", "そのコマンドはありません: chess"),
    (["play", "lucky-nine", "--seats", "x"], "Invalid value for '--seats'", "'--seats': 整数にしてください。"),
    (["simulate", "lucky-nine", "--games", "1e9"], "Invalid value for '--games'", "'--games': 整数にしてください。"),
    (["play", "lucky-nine", "--seats"], "Option '--seats' requires an argument.", "オプション --seats には値が必要です。"),
    (["play", "lucky-nine", "--lang", "fr"], "'fr' is not one of 'en', 'ja'.",
     "'--lang': 'fr' は選べません (選べるもの: 'en', 'ja')。"),
    (["games", "extra"], "Got unexpected extra argument(s) (extra)", "余分な引数があります: extra"),
])
def test_a_mistyped_command_is_explained_in_both_languages(args: list[str], english: str, japanese: str) -> None:
    """Typer refuses a command line before `--lang` is read, so its refusal holds both languages, like the
    help: Typer's English, then the same in Japanese, naming the same option and value."""
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 2, result.output
    assert english in result.output and japanese in result.output, result.output
    assert "Error エラー" in result.output
    assert ("Usage:" in result.output) == ("ヘルプは" in result.output), result.output  # Typer's note on --help


def test_typer_s_titles_on_the_help_are_in_both_languages() -> None:
    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "120"})
    for title in ("Arguments 引数", "Options オプション", "[required 必須]", "[default 既定: 0]"):
        assert title in result.output, result.output
    assert "Commands コマンド" in runner.invoke(app, ["--help"], env={"COLUMNS": "120"}).output


def _command(words: tuple[str, ...] = ()) -> Any:
    """The Click command that `partygames <words>` runs. Typer brings its own copy of Click, whose group class
    is not `click.Group`, so the walk goes by each group's `commands`."""
    command: Any = typer.main.get_command(app)
    for word in words:
        command = command.commands[word]
    return command


def _commands() -> list[tuple[str, ...]]:
    """Every command's words: `play`, ..., and each game's `analyze <game>` / `odds <game>`."""
    found: list[tuple[str, ...]] = []
    for name, command in _command().commands.items():
        subcommands = getattr(command, "commands", None)
        found += [(name, sub) for sub in subcommands] if subcommands else [(name,)]
    return found


@pytest.mark.parametrize("words", _commands(), ids=" ".join)
def test_every_command_and_option_is_explained_in_both_languages_and_nothing_is_cut(words: tuple[str, ...]) -> None:
    """A Japanese reader finds each option's help in Japanese too, and no terminal of 80 or 120 columns cuts
    it with "…"."""
    command = _command(words)
    assert JAPANESE.search(command.help or ""), words
    for param in command.params:
        text = getattr(param, "help", None)
        if param.name != "help" and text:
            assert JAPANESE.search(text), (words, param.name)
    for columns in ("80", "120"):
        result = runner.invoke(app, [*words, "--help"], env={"COLUMNS": columns})
        assert result.exit_code == 0 and "…" not in result.output, result.output


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


def test_without_seats_a_game_is_played_at_its_usual_table_else_the_smallest() -> None:
    """The Pandemic Game at 4 seats would let every healthy seat pass (6 qualifiers): it starts from the seed's
    12, Lucky Nine from a party of 4; a game without a usual table from its smallest."""
    pandemic = json.loads(runner.invoke(app, ["simulate", "pandemic", "--games", "1", "--json"]).output)
    assert pandemic["seats"] == 12 == games.get("pandemic").info()["default_seats"]
    nine = json.loads(runner.invoke(app, ["simulate", "lucky-nine", "--games", "1", "--json"]).output)
    assert nine["seats"] == 4 == games.get("lucky-nine").info()["default_seats"]
    lms = json.loads(runner.invoke(app, ["simulate", "last-man-standing", "--games", "1", "--json"]).output)
    assert lms["seats"] == min(games.get("last-man-standing").seat_counts) == 4


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


class TypedAnswers(ScriptedConsole):
    """A terminal whose player types the given answers, in order."""

    def __init__(self, *answers: str) -> None:
        super().__init__(record=True, width=160, force_terminal=False)
        self.answers = list(answers)
        self.prompts: list[str] = []

    def answer(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.answers.pop(0)


def test_a_player_types_an_ordered_list_and_every_mistake_is_explained() -> None:
    console = TypedAnswers("1", "2 x", "2 9", "2 1 2", "1", "1 2 3 4", "3, 1")
    specs = [spec("rank", order=sequence(["kiwi", "lemon", "mango", "peach"], min_len=2, max_len=3)), spec("pass")]
    action = Prompter(console, ORDER_GAME, "en").action(specs)
    assert action == {"type": "rank", "order": ["mango", "kiwi"]}
    assert "type 2 to 3 of the numbers 1-4 in order" in console.prompts[1] and "(e.g. 2 1 3)" in console.prompts[1]
    screen = console.export_text()
    for line in ("1) rank\n", "1) kiwi", "4) peach", "“x” is not in the list: type numbers shown (1-4)",
                 "“9” is not in the list", "2 is given twice: each may be chosen only once", "Choose 2 to 3 (you gave 1)",
                 "Choose 2 to 3 (you gave 4)", "Your order: mango → kiwi"):
        assert line in screen
    assert len(console.prompts) == 7


def test_the_ordered_list_prompt_speaks_japanese_and_may_allow_none() -> None:
    """A game without words for its numbers shows them as they are, and they are typed as shown (in
    full-width digits too), never shifted to menu places."""
    console = TypedAnswers("１０ １０", "")
    specs = [spec("rank", order=sequence([10, 20, 30], min_len=0, max_len=2))]
    assert Prompter(console, ORDER_GAME, "ja").action(specs) == {"type": "rank", "order": []}
    assert "10, 20, 30 の番号から 2 個までを順に空白区切りで入力。なしは Enter のみ(例: 20 10)" in console.prompts[0]
    screen = console.export_text()
    assert "10 が 2 回あります。同じものは 1 回しか選べません。" in screen and "あなたの順番: (なし)" in screen
    console = TypedAnswers("30 10 20")
    exact = [spec("rank", order=sequence([10, 20, 30], min_len=3, max_len=3))]
    assert Prompter(console, ORDER_GAME, "en").action(exact)["order"] == [30, 10, 20]
    assert "type exactly 3 of the numbers 10, 20, 30" in console.prompts[0]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_game_with_an_ordered_list_can_be_played_to_the_end_in_the_terminal(lang: str) -> None:
    session = Session.new(ORDER_GAME, 2, {"picks": 4}, seed=3, bots={1: ORDER_GAME.make_bot("random", 1, seed=1)})
    console = ScriptedPlayer(seed=5)
    assert play_in_terminal(console, session, 0, "ja" if lang == "ja" else "en")
    assert session.match.is_over and session.log.reproduces(replay(ORDER_GAME, session.log))
    guess = session.match.view(0)["my_guess"]
    assert 1 <= len(guess) <= 4 and len(set(guess)) == len(guess)
    screen = console.export_text()
    assert ("is not in the list" in screen) if lang == "en" else ("一覧にありません" in screen)
    assert (" → ".join(guess) in screen) and ("Result" in screen if lang == "en" else "結果" in screen)
    # A game without a terminal view of its own still reads without raw data (the generic view and events).
    assert not re.search(r"\{['\"]|\[['\"]|': |\": ", screen), screen


@pytest.mark.parametrize(("lang", "explained"), [
    ("en", "There is only one thing to do now (go): press Enter alone, or q to quit."),
    ("ja", "いまできるのは「go」だけです。Enter だけを押すか、q で終了してください。"),
])
def test_a_single_choice_prompt_takes_enter_only_and_explains_anything_else(lang: Lang, explained: str) -> None:
    console = TypedAnswers("yes", "1", "")
    assert Prompter(console, ORDER_GAME, lang).action([spec("go")]) == {"type": "go"}
    assert len(console.prompts) == 3
    assert console.export_text().count(explained) == 2
    with pytest.raises(Quit):  # q still quits, once the player says yes to stopping
        Prompter(TypedAnswers("q", "y"), ORDER_GAME, lang).action([spec("go")])


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_s_result_is_a_table_with_every_key_and_word_in_the_chosen_language(game_id: str,
                                                                                     lang: Lang) -> None:
    """Played over the game's conformance set-ups, so that every variant's holdings and details show."""
    game = games.get(game_id)
    conf = game.samples.conformance
    for seats in conf.seat_counts(game.seat_counts):
        bots = [game.make_bot("random", s, seed=s) for s in range(seats)]
        # Random bots never wait, so a real-time game plays its virtual-clock form here.
        match, _ = play(game, seats, bots, {**conf.options, **game.virtual_clock_options}, seed=seats)
        result = match.result()
        assert result is not None
        for width in (160, 72):  # wide: a column per holding; narrow: the holdings in one cell
            console = Console(record=True, width=width, file=io.StringIO())
            tables = render_result(game, result.to_json(), lang, you=0)
            console.print(tables)
            screen = console.export_text()
            assert not tables.missing, f"{game_id}: no {lang} label for {sorted(tables.missing)}"
            assert ("結果" if lang == "ja" else "Result") in screen and "…" not in screen
            assert not re.search(r"[{}]|\w_\w", screen), screen  # no raw maps, no raw keys
            if lang == "ja":
                assert ("詳細" in screen) == bool(result.detail)
                for key in result.seats[0].holdings:
                    assert game.labels.holdings[key].ja in screen


def test_play_starts_from_a_fresh_seed_it_prints_and_replays_the_same_deal_with_it() -> None:
    game_id = "last-man-standing" if "last-man-standing" in GAME_IDS else GAME_IDS[0]
    first = runner.invoke(app, ["play", game_id], input="q\n")
    seed = re.search(r"seed (\d+)", first.output)
    assert first.exit_code == 0 and seed, first.output
    again = runner.invoke(app, ["play", game_id, "--seed", seed.group(1)], input="q\n")
    assert f"--seed {seed.group(1)}" in again.output
    # The same seed deals the same first screen (the seed line aside).
    assert first.output.splitlines()[1:] == again.output.splitlines()[1:]
    outputs = [runner.invoke(app, ["play", game_id], input="q\n").output for _ in range(3)]
    seeds = {found.group(1) for found in (re.search(r"seed (\d+)", text) for text in outputs) if found}
    assert len(seeds | {seed.group(1)}) > 1  # fresh seeds differ (four equal draws of a million: ~1e-18)


def test_simulate_explains_win_rates_that_add_up_to_more_than_one_hundred_percent() -> None:
    game = next(g for g in games.all_games() if g.id == "smuggling")
    args = ["simulate", game.id, "--games", "4", "--seed", "1"]
    for key, value in (game.samples.golden.options if game.samples.golden else {}).items():
        args += ["-o", f"{key}={json.dumps(value)}"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "seed 1" in text and "4 of 4 matches had more than one winner" in text
    assert "the rates can add up to more than 100%" in text
    summary = json.loads(runner.invoke(app, [*args, "--json"]).output)
    assert summary["seed"] == 1 and summary["shared_wins"] == 4 and summary["winners_per_match"] >= 2


@pytest.mark.parametrize("game_id", ["smuggling", "dice-derby"])
def test_simulate_speaks_japanese_with_lang_ja_without_an_english_word(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The CLI's console takes its width when first imported: wide, so that no heading folds in its cell.
    monkeypatch.setattr(cli_main.out, "width", 160)
    game = games.get(game_id)
    args = ["simulate", game.id, "--games", "4", "--seed", "1", "--lang", "ja"]
    for key, value in (game.samples.golden.options if game.samples.golden else {}).items():
        args += ["-o", f"{key}={json.dumps(value)}"]
    result = runner.invoke(app, args, env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    text = "".join(result.output.split())
    assert not re.search(r"[A-Za-z]{2,}", result.output), result.output  # no heading, bot or note in English
    assert f"{game.title.ja}:4試合" in text and "シード1" in text
    assert "平均得点(95%信頼区間)" in text and "勝率(95%信頼区間)" in text and "ヒューリスティック" in text
    if game_id == "smuggling":  # every match has a winning team: the note explains the shared wins
        assert "4試合のうち4試合は勝者が複数いた" in text and "勝率の合計は100%を超えることがあります" in text


CLOSING = "。、)」』,"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_japanese_rules_are_bulleted_and_wrap_between_phrases_never_inside_a_figure(game_id: str) -> None:
    game = games.get(game_id)
    summary = re.sub(r"\n\s*", "", game.summary.ja.replace("**", ""))  # one run, to find each line in
    for width in range(24, 101, 7):
        console = Console(record=True, width=width, file=io.StringIO())
        console.print(Prose(game.summary.ja, "ja"))
        lines = console.export_text().splitlines()
        assert any(line.startswith("・") for line in lines)
        texts = [line.removeprefix("・").strip() for line in lines if line.strip()]
        for before, after in itertools.pairwise(texts):
            assert after[0] not in CLOSING, f"width {width}: a line starts with {after[0]!r}: {after!r}"
            inside_a_run = (before[-3:] + after[:3]) in summary  # not a break at a space
            figure = before[-1] in "0123456789,." and after[0] in "0123456789,."
            assert not (inside_a_run and figure), f"width {width}: a figure is split: {before!r} / {after!r}"
        assert all(text in summary for text in texts), "every line is a piece of the summary"
    if game_id == "dice-derby":
        for width in range(20, 80):
            console = Console(record=True, width=width, file=io.StringIO())
            console.print(Prose(game.summary.ja, "ja"))
            assert "10,000。" in console.export_text()


def test_a_japanese_line_breaks_only_where_budoux_puts_a_phrase_boundary() -> None:
    # BudouX alone would break "15,0|00": a figure is kept whole.
    for width in range(14, 40):
        assert any("15,000返済)。" in line for line in wrap("借金(10,000借りて最後に15,000返済)。", width, "ja"))
    text = "検査ルーム(10分)で検査官は「パス」か「ダウト X円」(第3国口座残高の2倍まで)を宣言します。"
    phrases = [p for word in text.split(" ") for p in load_default_japanese_parser().parse(word)]
    starts = {sum(map(len, phrases[:i])) for i in range(len(phrases) + 1)}
    for width in range(max(map(cell_len, phrases)), 60):  # (a phrase wider than the line must be cut)
        lines = wrap(text, width, "ja")
        assert all(cell_len(line) <= width for line in lines)
        lines = [line.replace(" ", "") for line in lines]
        assert "".join(lines) == text.replace(" ", "")
        offsets = [sum(map(len, lines[:i])) for i in range(len(lines))]
        assert set(offsets) <= starts, width


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_english_rules_wrap_between_words_and_option_defaults_read_as_typed(game_id: str) -> None:
    result = CliRunner().invoke(app, ["rules", game_id], env={"COLUMNS": "64"})
    assert result.exit_code == 0, result.output
    words = set(games.get(game_id).summary.en.replace("**", "").split())
    head = result.output.split("Options")[0]
    body = [w for line in head.splitlines()[1:] for w in line.split() if w != "•"]
    assert body and all(w in words for w in body), [w for w in body if w not in words]
    assert "• " in head and "…" not in result.output and "false" not in result.output


def test_the_readme_and_the_help_say_which_games_exist_now() -> None:
    """The help is computed from the registry; the README is checked against it, so both stay true."""
    titles = [game.title.en for game in games.all_games()]
    help_text = " ".join(runner.invoke(app, ["--help"], env={"COLUMNS": "200"}).output.split())
    assert f"{len(titles)} of the {games.PLANNED} games are playable now: {', '.join(titles)}." in help_text
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    words = ["zero", "one", "two", "three", "four", "five", "six", "seven"]
    claim = re.search(r"\*\*(?:(\w+) of the (\w+)|All (\w+)) games are playable now:\*\* ([^.]+)\.", readme)
    assert claim, "the README says how many games are playable now"
    if claim.group(3):  # "All seven games ..."
        assert claim.group(3) == words[games.PLANNED] == words[len(titles)]
    else:
        assert claim.group(1).lower() == words[len(titles)] and claim.group(2) == words[games.PLANNED]
    assert sorted(claim.group(4).split(", ")) == sorted(titles)


def test_a_number_prompt_writes_large_amounts_with_separators_and_accepts_them_typed_so() -> None:
    console = TypedAnswers("5", "50,000,000")
    specs = [spec("pack", amount=int_range(0, 100_000_000, 10_000))]
    assert Prompter(console, ORDER_GAME, "en").action(specs) == {"type": "pack", "amount": 50_000_000}
    assert "(0-100,000,000, steps of 10,000)" in console.prompts[0]
    assert "5 is not allowed: between 0 and 100,000,000, steps of 10,000." in console.export_text()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_replay_tells_actions_and_events_as_words_not_data(game_id: str, tmp_path: Path) -> None:
    game = games.get(game_id)
    args = ["simulate", game_id, "--games", "1", "--seed", "3", "--json", "--save", str(tmp_path)]
    for key, value in (game.samples.golden.options if game.samples.golden else {}).items():
        args += ["-o", f"{key}={json.dumps(value)}"]
    assert runner.invoke(app, args).exit_code == 0
    for lang in ("en", "ja"):
        result = runner.invoke(app, ["replay", str(next(tmp_path.glob("*.json"))), "--lang", lang],
                               env={"COLUMNS": "120"})
        assert result.exit_code == 0, result.output
        assert not re.search(r"[{}]|\[['\"]|\w_\w", result.output), result.output
        assert ("結果" if lang == "ja" else "Result") in result.output
    if game_id == "last-man-standing":  # a market slot reads as the card hired and its price
        assert re.search(r"Hire a fighter from the market \(Fighter to hire: (10|[2-9JQKA])[♠♥♦♣] for \$[0246]\)",
                         runner.invoke(app, ["replay", str(next(tmp_path.glob("*.json")))]).output)


@pytest.mark.parametrize(("lang", "kill"), [("en", r"\(you\) kills|kills \S+ \(you\)|\(Bot \w+\) kills"),
                                            ("ja", r"\(ボット \w+\)が|\(あなた\)が")])
def test_last_man_standing_fights_in_the_terminal_name_you_and_the_bots(lang: Lang, kill: str) -> None:
    game = games.get("last-man-standing")
    bots = {s: game.make_bot("heuristic", s, seed=s) for s in range(1, 4)}
    session = Session.new(game, 4, {}, seed=5, bots=bots)
    console = ScriptedPlayer(seed=7)
    assert play_in_terminal(console, session, 0, lang)
    screen = console.export_text()
    assert re.search(kill, screen), screen
    assert ("Bot Aoi hired" if lang == "en" else "ボット アオイ が") in screen
    told = "\n".join(line for line in screen.splitlines() if line.startswith(("  • ", "    ")))
    assert not re.search(r"[(（]seat \d|[(（]席 \d", told), told  # the events name every seat


def test_a_replay_names_the_bots_and_the_people_the_log_names(tmp_path: Path) -> None:
    args = ["simulate", "last-man-standing", "--games", "1", "--seed", "3", "--json", "--save", str(tmp_path)]
    assert runner.invoke(app, args).exit_code == 0
    path = next(tmp_path.glob("*.json"))
    output = runner.invoke(app, ["replay", str(path)], env={"COLUMNS": "160"}).output
    assert re.search(r"\(Bot (Aoi|Ben|Chika|Daichi)\) kills", output), output
    log = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**log, "names": ["Aki", "", "", ""]}), encoding="utf-8")
    output = runner.invoke(app, ["replay", str(path), "--lang", "ja"], env={"COLUMNS": "160"}).output
    assert "Aki: " in output and "ボット アオイ" in output
    assert "再生した結果は、保存された最終状態と一致しました。" in output


def test_play_against_search_bots_which_think_the_time_given() -> None:
    """`--bot search --think-ms N`: the search bots (the lobby's "Strong") are told the table and think N ms a
    decision; here seat 0's bot plays its first turn before the player is asked."""
    result = runner.invoke(app, ["play", "lucky-nine", "--seat", "1", "--bot", "search", "--think-ms", "5",
                                 "--seed", "3"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "Bot Aoi draws" in result.output, result.output
    assert runner.invoke(app, ["play", "lucky-nine", "--think-ms", "-5"], input="q\n").exit_code != 0


def test_simulate_with_search_bots_is_reproducible_with_a_simulation_count() -> None:
    args = ["simulate", "smuggling", "--games", "4", "--seed", "2", "--bots", "search,heuristic",
            "--search-simulations", "12", "-o", "team_size=1", "-o", "small_games=4", "--json"]
    runs = [json.loads(runner.invoke(app, args).output) for _ in range(2)]
    assert runs[0]["bots"] == runs[1]["bots"] and {b["bot"] for b in runs[0]["bots"]} == {"search", "heuristic"}


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's consoles take their width when first imported: wide, so that no line of a message folds."""
    monkeypatch.setattr(cli_main.out, "width", 300)
    monkeypatch.setattr(cli_main.err, "width", 300)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_corrupt_match_log_gets_one_clear_line_and_no_traceback(lang: Lang, tmp_path: Path, wide: None) -> None:
    """A list, a file that is not JSON, a missing file, a log without a game, an entry whose time goes back
    and an entry of the wrong shape: each is one line saying why, in the chosen language."""
    assert runner.invoke(app, ["simulate", "lucky-nine", "--games", "1", "--json", "--save", str(tmp_path)]).exit_code == 0
    log = json.loads(next(tmp_path.glob("*.json")).read_text())
    backwards = {**log, "entries": [[42, None, None], [0, None, None], *log["entries"]]}
    misshapen = {**log, "entries": [[0, 0]]}
    why = {"list": ("it holds no match log", "対戦ログ(ゲーム・席数・手順を持つ JSON オブジェクト)が入っていません"),
           "text": ("it is not JSON", "JSON ではありません"),
           "gone": ("there is no such file", "ファイルがありません"),
           "bare": ("it names no game or format", "ゲームや形式の記載がありません"),
           "back": ("step 2's time goes back", "2 手目の時刻が前に戻っています"),
           "shape": ("it is damaged", "壊れています")}
    contents = {"list": "[1,2,3]", "text": "not json", "bare": "{}", "back": json.dumps(backwards),
                "shape": json.dumps(misshapen)}
    for name, (english, japanese) in why.items():
        path = tmp_path / "bad" / f"{name}.json"
        path.parent.mkdir(exist_ok=True)
        if name in contents:
            path.write_text(contents[name])
        result = runner.invoke(app, ["replay", str(path), "--lang", lang], env={"COLUMNS": "300"})
        assert result.exit_code == 1 and not isinstance(result.exception, Exception), result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1, result.output
        assert (english if lang == "en" else japanese) in lines[0], result.output
        assert "Errno" not in lines[0] and "'list'" not in lines[0]


def test_seats_pick_the_options_that_follow_them_else_the_refusal_names_the_options_to_change(wide: None) -> None:
    """Smuggling's team size follows --seats (4 seats: two teams of 2), and Musical Chairs' gallery (the seats
    after the players); a fixed gallery names the options that make the count; a count no options allow says
    which do."""
    four = runner.invoke(app, ["play", "smuggling", "--seats", "4", "--seed", "1"], input="q\ny\n")
    assert "you play seat 0 of 4" in four.output, four.output
    simulated = runner.invoke(app, ["simulate", "smuggling", "--seats", "4", "--games", "2", "--json"])
    assert simulated.exit_code == 0 and json.loads(simulated.output)["seats"] == 4, simulated.output
    thirty = runner.invoke(app, ["play", "musical-chairs", "--seats", "30"], input="q\ny\n", env={"COLUMNS": "200"})
    assert "you play seat 0 of 30" in thirty.output, thirty.output  # the gallery follows the seats
    gallery = ["play", "musical-chairs", "--seats", "30", "-o", "gallery=10"]
    fixed_gallery = runner.invoke(app, gallery, env={"COLUMNS": "200"})
    assert fixed_gallery.exit_code == 1
    assert "takes 16 seats with -o gallery=10, not 30. For 30 seats, add -o players=20." in fixed_gallery.output
    japanese = runner.invoke(app, [*gallery, "--lang", "ja"], env={"COLUMNS": "200"})
    assert "30 席で遊ぶには -o players=20" in japanese.output, japanese.output
    odd = runner.invoke(app, ["play", "smuggling", "--seats", "5"])
    assert "smuggling takes 2, 4, 6, 8, 10, 12, 14, 16, 18 seats, not 5." in odd.output
    fixed = runner.invoke(app, ["play", "smuggling", "--seats", "4", "-o", "team_size=3"], env={"COLUMNS": "200"})
    assert "smuggling takes 6 seats with -o team_size=3, not 4." in fixed.output


@pytest.mark.parametrize(("option", "english", "japanese"), [
    ("rounds=x", "rounds: it takes one of 4, 5, 6 (not 'x')", "rounds: 4, 5, 6 のどれかにしてください"),
    ("seats=4", "seats: there is no such option. The options are: start_diamonds, rounds,", "seats: 不明な項目です"),
    ("press_seconds=x", "press_seconds: it takes a whole number (not 'x')", "press_seconds: 整数にしてください"),
    ("rounds=40", "rounds: it takes one of 4, 5, 6 (not 40)", "rounds: 4, 5, 6 のどれかにしてください"),
])
def test_a_refused_option_says_what_it_takes_in_words_for_people(option: str, english: str, japanese: str, wide: None) -> None:
    for lang, words in (("en", english), ("ja", japanese)):
        result = runner.invoke(app, ["play", "lucky-nine", "-o", option, "--lang", lang], env={"COLUMNS": "300"})
        assert result.exit_code == 1 and words in result.output, result.output
        assert "Input should" not in result.output and "Extra inputs" not in result.output


def test_an_action_no_longer_allowed_is_refused_naming_what_can_be_done_now() -> None:
    from partygames.cli.play import _refusal
    from partygames.engine.errors import IllegalAction

    game = games.get("lucky-nine")
    match = game.new(4, {}, 1)
    seat = match.to_act()[0]
    with pytest.raises(IllegalAction) as refused:
        match.apply(seat, {"type": "drop_out"}, 0)
    legal = match.legal_actions(seat)
    text = _refusal(game, refused.value, legal, "en")
    assert text.startswith("That can no longer be done. What you can do now: ") and "allowed:" not in text
    assert "press" not in text.split(": ", 1)[1] and "Press the button" in text, text
    assert _refusal(game, refused.value, legal, "ja").startswith("それはもうできません。いまできること: ")


def test_simulate_says_how_seats_and_teams_were_assigned_and_compares_team_line_ups(wide: None) -> None:
    """Three kinds on Smuggling's two teams of 3 put one of each kind in every team: every kind wins 50%,
    and the summary says that the teams mixed them, and shows the win rate per line-up; two kinds make
    teams of one kind each, which the line-ups compare. The table names a kind as --bots and --json do."""
    mixed = runner.invoke(app, ["simulate", "smuggling", "--games", "6", "--seats", "6", "--seed", "1",
                                "--bots", "heuristic,random,equilibrium"], env={"COLUMNS": "300"})
    text = " ".join(mixed.output.split())
    assert "Seats: the kinds take the seats in turn (heuristic, random, equilibrium, then again)" in text
    assert "Teams: seats 0, 2, 4 and seats 1, 3, 5" in text and "Every team mixed kinds" in text, text
    assert "│ equilibrium ×1, heuristic ×1, random ×1 │ 12 " in mixed.output
    apart = runner.invoke(app, ["simulate", "smuggling", "--games", "4", "--seats", "6", "--seed", "1", "--json",
                                "--bots", "heuristic,random"])
    lineups = json.loads(apart.output)["team_lineups"]
    assert [(x["kinds"], x["teams_played"]) for x in lineups] == [(["heuristic"] * 3, 4), (["random"] * 3, 4)]
    assert sum(x["teams_won"] for x in lineups) == 4
    search = runner.invoke(app, ["simulate", "lucky-nine", "--games", "1", "--seed", "1", "--bots", "search",
                                 "--search-simulations", "2"], env={"COLUMNS": "200"})
    assert "│ search " in search.output and "Strong" not in search.output
    assert "Teams:" not in search.output


def test_the_rules_option_table_lists_the_allowed_values_and_words_every_choice_in_the_language(wide: None) -> None:
    english = " ".join(runner.invoke(app, ["rules", "musical-chairs"], env={"COLUMNS": "200"}).output.split())
    assert "allowed" in english and "2-24" in english and "yes / no" in english and "2-25 (or not set)" in english
    assert "drawn (An island with the chairs scattered by lot)" in english
    japanese = runner.invoke(app, ["rules", "pandemic", "--lang", "ja"], env={"COLUMNS": "200"}).output
    assert "指定できる値" in japanese and japanese.count("lot(抽選で決める)") == 2  # allowed, and the default
    assert "real-time(リアルタイム)" in "".join(runner.invoke(app, ["rules", "musical-chairs", "--lang", "ja"],
                                                          env={"COLUMNS": "200"}).output.split())
    # A decimal option states its range too (Dice Derby's payout rate; its fall probability has an open end).
    derby = " ".join(runner.invoke(app, ["rules", "dice-derby"], env={"COLUMNS": "200"}).output.split())
    assert "0.5-2.0" in derby and "a number over 0.0, at most 0.5" in derby
    derby_ja = " ".join(runner.invoke(app, ["rules", "dice-derby", "--lang", "ja"], env={"COLUMNS": "200"}).output.split())
    assert "0.5〜2.0" in derby_ja and "0.0 より大きく 0.5 以下の数値" in derby_ja


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["a miss on the empty diamond chest pays three times the stake", "the dropper never shows the same chest",
            "every 5th hit in a row within a turn pays five times the stake", "one slot of the diamond chest"]),
    ("ja", ["ダイヤチェストへ賭け金の2倍ではなく3倍を投入", "ドロッパーは同じチェストを2回続けて出さない",
            "5回連続あたりごとに", "ダイヤチェストの賞品も1マス"]),
])
def test_lucky_nine_s_rules_say_what_each_variant_does(lang: Lang, words: list[str], wide: None) -> None:
    text = "".join(runner.invoke(app, ["rules", "lucky-nine", "--lang", lang], env={"COLUMNS": "200"}).output.split())
    assert all("".join(w.split()) in text for w in words), text


@pytest.mark.parametrize("words", _commands(), ids=" ".join)
def test_the_help_shows_no_python_types_and_its_japanese_has_no_stray_spaces(words: tuple[str, ...]) -> None:
    output = runner.invoke(app, [*words, "--help"], env={"COLUMNS": "200"}).output
    assert "<bool>" not in output and "<list[str]>" not in output, output
    command = _command(words)
    texts = [command.help or "", *(getattr(p, "help", None) or "" for p in command.params)]
    stray = [t for t in texts if re.search(r"[\u3040-\u30ff\u4e00-\u9fff、。] [\u3040-\u30ff\u4e00-\u9fff(]", t)]
    assert not stray, stray


def test_a_replay_names_an_unnamed_person_one_way_and_lucky_nine_s_end_names_no_running_lap(tmp_path: Path, wide: None) -> None:
    """A terminal player's saved match replays with "Human (seat 0)" in its lines and its table alike; the
    last board says the game is over without a lap or a stake, and the results say who stayed to the end."""
    saved = tmp_path / "m.json"
    played = runner.invoke(app, ["play", "lucky-nine", "--seed", "2", "--save", str(saved)], input="1\n\n" * 300,
                           env={"COLUMNS": "200"})
    assert played.exit_code == 0, played.output
    end = next(line for line in played.output.splitlines() if line.endswith("· Game over"))
    assert end.startswith("Round 5/5") and "lap" not in end and "stake" not in end, end
    results = played.output.split("Result", 1)[1]
    assert "stayed to the end" in results or "dropped out" in results
    assert "playing" not in results
    replayed = runner.invoke(app, ["replay", str(saved)], env={"COLUMNS": "200"}).output
    assert "Human (seat 0): Press the button" in replayed and "│ Human (seat 0)" in replayed
    assert "seat 0:" not in replayed and "Seat 0" not in replayed


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_ranks_a_seat_one_plus_the_seats_that_did_strictly_better(game_id: str) -> None:
    """One convention (docs/engine.md): ties share a rank and the next rank skips them (1, 2, 3, 3, 3, 6); in a
    team game a loser ranks behind the whole winning team. The order of "better": winners first, then score."""
    game = games.get(game_id)
    options = dict(game.virtual_clock_options)
    seats = game.default_seat_count(options)
    for seed in range(3):
        bots = [game.make_bot("heuristic", s, seed=seed * 100 + s) for s in range(seats)]
        match, _ = play(game, seats, bots, options, seed=seed)
        result = match.result()
        assert result is not None
        for mine in result.seats:
            better = sum(1 for other in result.seats if other.rank < mine.rank)
            assert mine.rank == 1 + better, (game_id, [(s.rank, s.is_winner, s.score) for s in result.seats])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_save_path_that_cannot_be_written_is_refused_before_the_match_in_words(lang: Lang, tmp_path: Path,
                                                                                wide: None) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")  # a file where a folder would have to be
    words = "cannot be made or written to" if lang == "en" else "を作れないか、書き込めません"
    played = runner.invoke(app, ["play", "lucky-nine", "--save", str(blocked / "m.json"), "--lang", lang], input="")
    simulated = runner.invoke(app, ["simulate", "lucky-nine", "--games", "1", "--save", str(blocked / "logs"),
                                    "--lang", lang])
    for result in (played, simulated):
        assert result.exit_code == 1 and words in result.output and "Errno" not in result.output, result.output
        assert not isinstance(result.exception, Exception)
    assert "Press Enter" not in played.output  # refused before any match began
