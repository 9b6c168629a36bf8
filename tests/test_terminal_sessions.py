"""Whole terminal sessions, as a player types them: menus keep their keys through a turn and show choices by
name, what is typed is what the screen shows, an undoing action asks first, nothing raw reaches the
screen, a peek ends on time, and Ctrl-C leaves the match saved."""

from __future__ import annotations

import io
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from partygames import games
from partygames.cli import main as cli_main
from partygames.cli import prompter
from partygames.cli.main import app
from partygames.cli.play import load_log, play_in_terminal
from partygames.cli.terminal import render_result, render_view
from partygames.engine.names import seat_names
from partygames.engine.session import Session, replay
from partygames.engine.text import Lang
from partygames.games.quiz.rules import QuizMatch
from tests.test_cli import ScriptedConsole, ScriptedPlayer

runner = CliRunner()
ROOT = Path(__file__).parents[1]

#: What must never reach a player's screen: seat numbers, Python lists and reprs, card ids, offer ids,
#: JSON nulls, exponents, keys in snake_case.
RAW = {
    "a seat by number": re.compile(r"\b[Ss]eat:? \d|席 ?\d"),
    "a list": re.compile(r"\[\d+(?:, \d+)*\]"),
    "a card id": re.compile(r"\ba\d+\.\d+\b|\bw\d+\b"),
    "an offer id": re.compile(r"\d@\d"),
    "an empty value": re.compile(r"\b(?:null|None|True|False)\b"),
    "an exponent": re.compile(r"\d[eE]-?\d\d"),
    "a Python repr": re.compile(r"\{['\"]|\[['\"]|': |\": |<\w+ object"),
    "a key": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "a rules shorthand": re.compile(r"\b(?:offer|accept|decline):"),
}
#: Latin words a Japanese screen may hold: dice (d4), questions (Q3), keys, the y/N of a question.
JAPANESE_LATIN = re.compile(r"\b(?:d\d+|Q\d+|Enter|q|y|N|[a-z]\d*)\b")


def raw_text(screen: str, lang: Lang) -> list[str]:
    """Every raw thing on a screen, named."""
    found = [f"{what}: {hit.group(0)!r}" for what, pattern in RAW.items() for hit in pattern.finditer(screen)]
    if lang == "ja":
        latin = [w for w in re.findall(r"[A-Za-z][A-Za-z_]+", JAPANESE_LATIN.sub("", screen))]
        found += [f"an English word: {w!r}" for w in latin]
    return found


class Typed(ScriptedConsole):
    """A terminal whose player types the given lines, then ends the input (as at the end of a pipe)."""

    def __init__(self, *lines: str) -> None:
        super().__init__(record=True, width=120, force_terminal=False, file=io.StringIO())
        self.lines = list(lines)
        self.prompts: list[str] = []

    def answer(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def test_dice_derby_keys_keep_their_meaning_after_a_purchase_and_a_cancel_asks_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Buying a ticket adds "Cancel a ticket" to the menu without moving "Buy a quinella ticket" off 2; a pair
    is typed as the board shows it ("5-6", in full width and reversed too); cancelling asks, and "n" keeps
    the ticket."""
    monkeypatch.setattr(cli_main.out, "width", 120)
    typed = ["2",                     # the auction: pass
             "1", "6", "1000",        # a win ticket on gate 6
             "2", "5-6", "500",       # 2 is still the quinella: 5-6
             "2", "５－４", "300",     # 4-5, typed in full width the other way round
             "4", "1", "n",           # cancel the win ticket? no
             "3"]                     # done betting
    result = runner.invoke(app, ["play", "dice-derby", "--seed", "7"], input="\n".join(typed) + "\n")
    screen = result.output
    assert result.exit_code == 0, screen
    menus = re.findall(r"((?:  \d\) .+\n)+)Your action", screen)
    betting = [m for m in menus if "Buy a win ticket" in m or "Buy a quinella ticket" in m]
    assert betting[0] == "  1) Buy a win ticket\n  2) Buy a quinella ticket\n  3) Done betting\n"
    # After the purchase: the quinella keeps 2, Done keeps 3, and the cancel takes a key of its own.
    assert betting[1] == "  2) Buy a quinella ticket\n  3) Done betting\n  4) Cancel a ticket\n"
    assert all("  2) Buy a quinella ticket" in m and "  4) Cancel a ticket" in m for m in betting[1:5])
    assert "Bought: quinella 5-6 500" in screen and "Bought: quinella 4-5 300" in screen
    assert "Cancel your ticket win 6 1,000? Its stake comes back to you. [y/N]" in screen
    assert "Not done." in screen and "Cancelled" not in screen
    assert "Tickets: you: win 6 1,000, quinella 5-6 500, quinella 4-5 300" in screen


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_quiz_answer_menu_takes_the_word_list_s_numbers_and_names_the_words(lang: Lang) -> None:
    """The word list shows "17 violin"; the answer menu lists violin as 17 and takes 17 for it."""
    game = games.get("quiz")
    script: dict[str, list[Any]] = {"white_positions": [list(range(16))], "deal": [list(range(30))], "first_parent": [0]}
    bots = {1: game.make_bot("heuristic", 1, seed=1)}
    session = Session(game, game.new(2, {}, 0, script=script, bots=[1]), bots)
    # Memorised; the cards turn; the player (the parent) opens the white card at place 4, which is Q4 (rows
    # are dealt in order: Q4's row holds words 12, 13, 14) and answers 12 13 14.
    console = Typed("1", "", "4", "1", "12 13 14")
    assert not play_in_terminal(console, session, 0, lang)
    screen = console.export_text()
    words = [w[lang] for w in session.match.view(0)["deck"]["answers"]]
    assert f"17 {words[17]}" in screen and f"17) {words[17]}" in screen and f"0) {words[0]}" in screen
    assert any(("numbers 0-29" if lang == "en" else "0-29 の番号から") in p for p in console.prompts)
    order = " → ".join(words[12:15])
    assert (f"Your order: {order}" if lang == "en" else f"あなたの順番: {order}") in screen
    round_ = session.match.view(0)["rounds"][0]
    assert round_["asked"] == 4 and round_["correct"][0] == 3 and round_["winners"] == [0]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game_id", games.ids())
def test_a_whole_session_shows_nothing_raw(game_id: str, lang: Lang) -> None:
    """A scripted player plays the game's golden table to the end; the screen names every person and word,
    and no seat number, list, id, null, exponent, repr or key reaches it (nor English in Japanese)."""
    game = games.get(game_id)
    options = {**game.virtual_clock_options, **(game.samples.golden.options if game.samples.golden else {})}
    seats = min(game.seat_counts_for(options))
    bots = {s: game.make_bot("heuristic", s, seed=s) for s in range(1, seats)}
    session = Session.new(game, seats, options, seed=3, bots=bots)
    console = ScriptedPlayer(seed=11)
    assert play_in_terminal(console, session, 0, lang)
    screen = console.export_text()
    assert not raw_text(screen, lang), raw_text(screen, lang)[:10]
    names = seat_names(seats, range(1, seats), lang, you=0)
    assert names[1] in screen  # a bot is named


@pytest.mark.parametrize("game_id", games.ids())
def test_every_board_fits_a_screen_of_40_rows_at_its_usual_table(game_id: str) -> None:
    """The board of the table `play` starts (and of the largest table, for the games that grow to 24 or 30
    seats) keeps within 40 rows of 120 columns in both languages, through a whole match of bots."""
    game = games.get(game_id)
    options = dict(game.virtual_clock_options)
    for seats in sorted({game.default_seat_count(options), max(game.seat_counts_for(options))}):
        bots = {s: game.make_bot("heuristic", s, seed=s) for s in range(seats)}
        session = Session.new(game, seats, options, seed=1, bots=bots)
        tallest = 0
        for step in range(1500):
            if step % 41 == 0 or session.match.is_over:
                for lang in ("en", "ja"):
                    console = Console(width=120, file=io.StringIO(), record=True)
                    console.print(render_view(game, session.match.view(0), lang,
                                              seat_names(seats, range(1, seats), lang, you=0)))
                    tallest = max(tallest, len(console.export_text().splitlines()))
            if session.match.is_over:
                break
            waiting = session.bots_to_ask()
            if waiting:
                session.bot_turn(waiting[0])
            elif not session.wake_next():
                break
        assert tallest <= 40, f"{game_id} at {seats} seats: a board of {tallest} rows"


def test_a_peek_turns_face_down_on_time_though_the_player_types_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The peeker looks at a card and types nothing: when the peek's seconds are up, the screen clears and
    is drawn again with the card face down, without an answer from the player."""
    game = games.get("quiz")
    script: dict[str, list[Any]] = {"white_positions": [list(range(16))], "deal": [list(range(30))], "first_parent": [0]}
    match = game.new(2, {}, 0, script=script, bots=[1])
    assert isinstance(match, QuizMatch)
    for seat in range(2):
        match.apply(seat, {"type": "ready"}, 1000)
    match.apply(0, {"type": "open", "card": 4}, 1000)
    match.held[0] = {"score": 0, "money": 1}
    match.stock["money"] -= 1
    match.apply(1, {"type": "secret_money"}, 2000)
    match.apply(0, {"type": "peek"}, 2000)
    waited: list[float] = []

    def deadline_passes(console: Console, prompt: str, seconds: float) -> str | None:
        waited.append(seconds)
        console.print(prompt)
        return None  # nothing typed before the deadline

    monkeypatch.setattr(prompter, "timed_input", deadline_passes)
    session = Session(game, match, {1: game.make_bot("heuristic", 1, seed=1)})
    word = match.view(0)["deck"]["answers"][29]["en"]  # the last card of Q9's row
    console = Typed("1", "9-3", "1", "")  # look at Q9's row, card 3, paying the secret-money marker
    assert not play_in_terminal(console, session, 0, "en")
    screen = console.export_text()
    until = 2000 + match.opts.peek_seconds * 1000
    assert len(waited) == 1 and 0 < waited[0] <= 10
    shown = screen.index(f"You see Q9's row, card 3: {word} (29)")
    ended = screen.index("The peeked card is face down again.", shown)
    # The player reads on, the screen is cleared (then the input ends: the next prompt asks to stop).
    assert "Cards are turned face down" in console.prompts[-3] and "Stop this match?" in console.prompts[-1]
    assert f"{word} (29)" not in screen[ended:] and "It's a QUIZ?" in screen[ended:]  # drawn again, face down
    assert match.peek is None and match.now == until


def test_a_timed_prompt_reads_a_line_typed_in_time_and_gives_up_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    read, write = os.pipe()
    with os.fdopen(read, "r") as stdin, os.fdopen(write, "w") as typing:
        monkeypatch.setattr(sys, "stdin", stdin)
        console = Console(file=io.StringIO(), force_terminal=False)
        started = time.monotonic()
        assert prompter.timed_input(console, "Your action:", 0.2) is None
        assert time.monotonic() - started >= 0.2
        typing.write("5-6\n")
        typing.flush()
        assert prompter.timed_input(console, "Your action:", 5) == "5-6"


def _read_until(process: subprocess.Popen[str], text: str, seconds: float = 60) -> str:
    """What the process printed until `text` appeared."""
    assert process.stdout is not None
    seen = ""
    end = time.monotonic() + seconds
    while text not in seen:
        assert time.monotonic() < end, f"no {text!r} in {seen!r}"
        ready, _, _ = select.select([process.stdout], [], [], 1)
        if ready:
            chunk = os.read(process.stdout.fileno(), 65536).decode()
            assert chunk, f"the process ended: {seen!r}"
            seen += chunk
    return seen


def test_ctrl_c_stops_the_match_with_a_message_and_saves_it(tmp_path: Path) -> None:
    saved = tmp_path / "match.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "120", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "partygames.cli.main", "play", "lucky-nine", "--seed", "4",
                                "--save", str(saved)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env=env,
                               # Ctrl-C as in a terminal, even when this run's SIGINT is ignored (a job
                               # started in the background by a shell ignores it, and children inherit that).
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert process.stdin is not None
        _read_until(process, "Press Enter")
        process.stdin.write("\n")  # the player presses the button once
        process.stdin.flush()
        _read_until(process, "q to quit")
        process.send_signal(signal.SIGINT)
        output, _ = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, output
    assert "Interrupted (Ctrl-C)." in output and f"The match so far is saved to {saved}" in output
    assert "Traceback" not in output
    log = load_log(saved)
    assert any(entry.seat == 0 for entry in log.entries)
    replay(games.get("lucky-nine"), log)  # the saved match replays
    assert runner.invoke(app, ["replay", str(saved)]).exit_code == 0


@pytest.mark.parametrize(("lang", "words"), [("en", "The match so far is saved to"), ("ja", "ここまでの対戦を")])
def test_ctrl_c_says_so_in_the_player_s_language(lang: Lang, words: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*_: Any) -> bool:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "play_in_terminal", interrupted)
    result = runner.invoke(app, ["play", "lucky-nine", "--save", str(tmp_path / "m.json"), "--lang", lang])
    assert result.exit_code == 130 and words in result.output
    assert ("Interrupted" in result.output) == (lang == "en") and json.loads((tmp_path / "m.json").read_text())


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game_id", ["musical-chairs", "pandemic"])
def test_a_real_time_game_says_at_the_start_that_the_terminal_plays_it_in_rounds(game_id: str, lang: Lang) -> None:
    result = runner.invoke(app, ["play", game_id, "--lang", lang], input="q\n")
    text = "".join(result.output.split())
    assert ("playedinrounds" if lang == "en" else "ラウンド制で遊びます") in text, result.output


def test_the_musical_chairs_map_has_a_legend_and_a_race_is_told_in_a_few_lines() -> None:
    game = games.get("musical-chairs")
    options = dict(game.virtual_clock_options)
    seats = game.default_seat_count(options)
    bots = {s: game.make_bot("heuristic", s, seed=s) for s in range(1, seats)}
    session = Session.new(game, seats, options, seed=2, bots=bots)
    console = Typed("1", "1 2 3 4 5 6 7")  # the chair plan: the totem, then chairs 1 to 7
    assert not play_in_terminal(console, session, 0, "en")
    screen = console.export_text()
    assert "@ you   p player   g gallery   T totem pole" in screen
    race = screen[screen.index("GO!"):screen.index("The race is over.")]
    assert len(race.splitlines()) <= 6, race  # GO, who touched the totem, who sat where
    assert "Touched the totem pole: " in race and "Seated: " in race and "changes course" not in race


def test_two_gifts_of_one_kind_are_told_apart_by_the_name_on_the_medals() -> None:
    """Musical Chairs offers a gift per name on the medals held: the menu shows "Give medals" once, then asks
    whose name the medals bear, by name."""
    game = games.get("musical-chairs")
    match = game.new(4, {"tempo": "rounds", "players": 2, "gallery": 2, "chairs": 2, "island": "test", "medals": 3})
    match.apply(0, {"type": "give", "to": 1, "name": 0, "count": 1}, 0)
    gifts = [s for s in match.legal_actions(1) if s["type"] == "give"]
    assert len(gifts) == 2  # the medals with seat 0's name and those with seat 1's own
    names = seat_names(4, {0, 2, 3}, "en", you=1)
    # Give is 3 in every round; people are keyed by their seat's number from 1 (Bot Aoi 1, you 2, Bot Ben 3).
    console = Typed("3", "1", "3", "1")  # give; the medals of Bot Aoi; to Bot Ben; one medal
    action = prompter.Prompter(console, game, "en", names).action(match.legal_actions(1), match.view(1))
    screen = console.export_text()
    assert screen.count("Give medals") == 1
    assert "  1) Bot Aoi\n  2) you\n" in screen  # whose name: the medals held with Bot Aoi's name, with yours
    assert any(p.startswith("[bold cyan]Medals bearing the name of [1, 2") for p in console.prompts)
    assert action == {"type": "give", "to": 2, "name": 0, "count": 1}


def _row(table: str, name: str) -> tuple[str, str]:
    """The title and default (last) columns of option `name`'s row in a `rules` table, each joined across the
    lines the row wraps over (where it wraps depends on the console's width)."""
    lines = table.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"│ {name} +│", line))
    cells = [lines[start].split("│")[1:-1]]
    for line in lines[start + 1:]:
        parts = line.split("│")[1:-1]
        if len(parts) != 4 or parts[0].strip():
            break
        cells.append(parts)
    title = " ".join(c[1].strip() for c in cells if c[1].strip())
    value = " ".join(c[-1].strip() for c in cells if c[-1].strip())
    return (title.replace(" ", "") if re.search(r"[^\x00-\x7f]", title) else title), value


@pytest.mark.parametrize(("lang", "unset", "empty", "original"), [("en", "not set", "none", "original rules"),
                                                                ("ja", "指定なし", "なし", "原作")])
def test_rules_say_what_an_unset_option_and_the_original_rules_are(lang: Lang, unset: str, empty: str,
                                                                   original: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An option left unset reads as such, not "null"; an empty list as none, not "[]"; the seed's figures
    are the original rules', not a "seed" to mistake for --seed."""
    monkeypatch.setattr(cli_main.out, "width", 160)  # the CLI console took its width when first imported
    chairs = runner.invoke(app, ["rules", "musical-chairs", "--lang", lang], env={"COLUMNS": "160"}).output
    prizes = runner.invoke(app, ["rules", "lucky-nine", "--lang", lang], env={"COLUMNS": "160"}).output
    chips = runner.invoke(app, ["rules", "last-man-standing", "--lang", lang], env={"COLUMNS": "160"}).output
    title, value = _row(chairs, "chairs")
    assert original in title and value == unset, chairs
    assert _row(prizes, "special_prizes")[1] == empty, prizes
    assert original in chips
    for screen in (chairs, prizes, chips):
        assert "null" not in screen and "[]" not in screen and "seed:" not in screen and "seed 600" not in screen


def test_an_answer_with_inner_spaces_is_refused_not_read_as_another_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the Pandemic Game at 80 columns, `1 1` does not choose item 11: it is explained and asked again."""
    monkeypatch.setattr(cli_main.out, "width", 80)  # the CLI console took its width when first imported
    result = runner.invoke(app, ["play", "pandemic", "--seed", "1"], input="1 1\n",
                           env={"COLUMNS": "80"})
    screen = result.output
    assert "“1 1” has spaces: type one of the keys shown" in screen
    assert "You offer contact" not in screen and "offer to" not in screen


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_q_and_ctrl_d_ask_before_stopping_and_say_where_the_match_is_saved(lang: Lang, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """q asks first (no: the match goes on); the end of input (Ctrl-D) asks too, and at a second one the match
    stops, saved where the question said."""
    monkeypatch.setattr(cli_main.out, "width", 300)  # the CLI console took its width when first imported
    saved = tmp_path / "m.json"
    result = runner.invoke(app, ["play", "lucky-nine", "--seed", "4", "--save", str(saved), "--lang", lang],
                           input="q\nn\n")
    screen = "".join(result.output.split())
    question = "Stopthismatch?Itissavedto" if lang == "en" else "この対戦をやめますか?"
    assert screen.count(question) == 2, result.output  # after q, and after the input ended
    assert ("Thematchgoeson." if lang == "en" else "対戦を続けます。") in screen
    assert "".join(str(saved).split()) in screen and load_log(saved).entries is not None
    stopped = runner.invoke(app, ["play", "lucky-nine", "--seed", "4"], input="q\ny\n")
    assert "Stop this match? It is not saved" in stopped.output and "Stopped." in stopped.output


def test_a_parameter_s_menu_goes_back_to_the_actions_with_b(monkeypatch: pytest.MonkeyPatch) -> None:
    """Musical Chairs' "Show my medals" asks to whom; b goes back to the menu of actions (the prompt says so),
    and nothing was shown."""
    monkeypatch.setattr(cli_main.out, "width", 80)  # the CLI console took its width when first imported
    result = runner.invoke(app, ["play", "musical-chairs", "--seed", "1"], input="4\nb\n", env={"COLUMNS": "80"})
    screen = result.output
    assert "To [2-24, b to go back, q to quit]:" in screen, screen  # people by their seat's number from 1
    after = screen.split("Back to the actions.", 1)[1]
    assert "4) Show my medals" in after and "Your action [1, 3, 4, q to quit]" in after
    assert "showed" not in screen.lower()


@pytest.mark.parametrize("game_id", games.ids())
def test_at_80_columns_no_name_or_amount_is_cut(game_id: str) -> None:
    """An 80-column terminal shows every board (at the usual table and the largest) and the results without
    an ellipsis: tables that sit side by side at 120 columns are stacked, names and amounts stay whole."""
    game = games.get(game_id)
    options = dict(game.virtual_clock_options)
    for seats in sorted({game.default_seat_count(options), max(game.seat_counts_for(options))}):
        bots = {s: game.make_bot("heuristic", s, seed=s) for s in range(seats)}
        session = Session.new(game, seats, options, seed=1, bots=bots)
        cut: list[str] = []
        for step in range(3000):
            if step % 53 == 0 or session.match.is_over:
                for lang in ("en", "ja"):
                    names = seat_names(seats, range(1, seats), lang, you=0)
                    console = Console(width=80, file=io.StringIO(), record=True)
                    console.print(render_view(game, session.match.view(0), lang, names))
                    if session.match.is_over:
                        result = session.match.result()
                        assert result is not None
                        console.print(render_result(game, result.to_json(), lang, 0, names))
                    screen = console.export_text().replace("1, 2…", "")  # the map's legend: "chairs 1, 2…"
                    cut += [line for line in screen.splitlines() if "…" in line]
                    assert all(len(line) <= 80 for line in screen.splitlines())
            if session.match.is_over:
                break
            waiting = session.bots_to_ask()
            if waiting:
                session.bot_turn(waiting[0])
            elif not session.wake_next():
                break
        assert not cut, f"{game_id} at {seats} seats, 80 columns:\n" + "\n".join(cut[:8])


#: Each game at a small table, with the options that offer a move in one round and not in another (Dice
#: Derby's loans: "Borrow" is offered until the loan is taken).
KEYED_GAMES = {"smuggling": {}, "musical-chairs": {}, "quiz": {}, "dice-derby": {"loans": True}, "lucky-nine": {}}


@pytest.mark.parametrize("game_id", sorted(KEYED_GAMES))
def test_a_move_keeps_its_key_from_round_to_round_at_80_columns(game_id: str) -> None:
    """A whole match at 80 columns, the player choosing at random from each menu: every move offered again in
    a later round, turn, question or race has the key it had before (Musical Chairs' "Show my medals" stays
    4 when no medals are left to give, the Quiz's gift 4 whether or not markers are left to place, Dice
    Derby's "Done betting" 3 once the loan is taken), and so does every person in Musical Chairs' menus
    however many candidates are left."""
    game = games.get(game_id)
    options = {**(dict(game.samples.golden.options) if game.samples.golden else {}), **KEYED_GAMES[game_id]}
    seats = min(game.seat_counts_for(options))
    bots = {s: game.make_bot("heuristic", s, seed=s) for s in range(1, seats)}
    session = Session.new(game, seats, options, seed=3, bots=bots)
    asked: list[tuple[str, str]] = []  # each prompt, with what was printed since the last one

    class Player(ScriptedPlayer):
        def answer(self, prompt: str) -> str:
            assert isinstance(self.file, io.StringIO)
            asked.append((prompt, self.file.getvalue()[self._read:]))
            return super().answer(prompt)

    console = Player(seed=3)
    console.width = 80
    assert play_in_terminal(console, session, 0, "en")
    keys: dict[str, set[str]] = {}  # the words of a move or a person: the keys they were shown with
    shown: dict[str, int] = {}  # how many menus showed them
    for prompt, printed in asked:
        if not re.match(r"\[bold cyan\](Your action|Parent|To|Player) \[", prompt):
            continue
        for key, words in re.findall(r"^  (\S+)\) (.+)$", printed, re.M):
            keys.setdefault(words.strip(), set()).add(key)
            shown[words.strip()] = shown.get(words.strip(), 0) + 1
    recurring = {words: found for words, found in keys.items() if shown[words] > 1}
    assert len(recurring) >= 2, asked
    assert {words: found for words, found in recurring.items() if len(found) > 1} == {}


@pytest.mark.parametrize("width", [80, 120])
def test_no_japanese_option_title_breaks_inside_its_parenthesised_phrase(width: int,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """`rules --lang ja` at 80 columns (each option stacked under its name where the table cannot fit) and
    wider (a table whose titles' column fits the widest phrase): "(トーテムポールから・メートル)" and every
    other parenthesised phrase of an option's title stands whole on one line, and no line is cut."""
    from rich.cells import cell_len

    monkeypatch.setattr(cli_main.out, "width", width)  # the CLI console took its width when first imported
    checked = 0
    for game_id in games.ids():
        result = runner.invoke(app, ["rules", game_id, "--lang", "ja"])
        assert result.exit_code == 0, result.output
        options = result.output.split("オプション", 1)[1].splitlines()
        assert all(cell_len(line) <= width for line in options)
        for field in games.get(game_id).options_class.describe()["properties"].values():
            for phrase in re.findall(r"[((][^))]*[))]", field.get("title_ja", "")):
                checked += 1
                assert any(phrase in line for line in options), (game_id, phrase, "\n".join(options))
    assert checked > 40
