"""Playing one seat in the terminal against bots."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from partygames.cli.narration import tell
from partygames.cli.prompter import Planned, Prompter, Quit, Timeout
from partygames.cli.terminal import label, render_result, render_view
from partygames.engine.actions import ActionSpec
from partygames.engine.errors import EngineError, IllegalAction
from partygames.engine.game import Game
from partygames.engine.log import READABLE_FORMATS, Entry, MatchLog
from partygames.engine.match import Event
from partygames.engine.names import seat_names
from partygames.engine.session import Session
from partygames.engine.text import Lang, Text

__all__ = ["Prompter", "Quit", "load_log", "play_in_terminal", "save_log"]


def play_in_terminal(console: Console, session: Session, you: int, lang: Lang, save: Path | None = None) -> bool:
    """Runs the match to the end with the player at seat `you` and bots at the session's other seats.
    Returns False if the player quit. Time does not pass while the player thinks, except up to a moment at
    which the screen changes by itself (a peek's end: the game terminal's `redraw_at`), which comes in real
    time. What happened since the player was last asked is told just before the screen is drawn again.
    `save`: where the match is saved when it stops, said when the player asks to stop (q, Ctrl-D)."""
    game, match = session.game, session.match
    names = seat_names(match.seats, match.bot_seats, lang, you=you)
    prompter = Prompter(console, game, lang, names, stop_note=_stop_note(save))
    previous = session.on_entry
    face_up = game.face_up
    redraw_at = getattr(game.terminal, "redraw_at", None)
    # A standing plan (`PLANS`, played by `plan_action(plan, start_view, view)`): moves made for the player
    # until something happens to them, without asking (the Pandemic Game: wait until then).
    plan_action = getattr(game.terminal, "plan_action", None)
    if callable(plan_action):
        prompter.plans = getattr(game.terminal, "PLANS", {})
    quiet: frozenset[str] = frozenset(getattr(game.terminal, "PLAN_QUIET", ()))
    plan: tuple[str, dict[str, Any]] | None = None  # the plan and the view it began from
    seen: set[Hashable] = set()  # what the screen has shown face up since it was last cleared
    untold: list[Event] = []

    def on_entry(_entry: Entry, events: list[Event]) -> None:
        untold.extend(event for event in events if event.is_visible_to(you)
                      and not (plan is not None and event.type in quiet))
        if face_up is not None:
            seen.update(face_up(match.view(you)))

    def tell_untold() -> None:
        for line in tell(game, [event.to_json() for event in untold], lang, names, match.view(you)):
            console.print(f"  • {escape(line)}")
        untold.clear()

    session.on_entry = on_entry
    try:
        shown_version = -1
        deadline: tuple[int, float] | None = None  # a match time and the real time it comes at
        while True:
            session.run_bots(until=match.now)  # the bots act now; the clock stays where it is
            if match.is_over:
                break
            if you not in match.to_act():
                # Nobody to ask: time moves on to the next wake-up (never while the player is awaited,
                # else the phase's time limit would play the player's default action for them).
                if not session.wake_next():
                    raise RuntimeError(f"{game.id}: the match waits for no seat the terminal can play")
                continue
            if plan is not None and callable(plan_action):
                planned = plan_action(plan[0], plan[1], match.view(you))
                if planned is not None:
                    session.act(you, planned)
                    continue
                plan = None
                console.print(Text("Your standing plan ends: something happened to you.",
                                   "予定していた行動を終えます。あなたに何か起きました。")(lang), style="bold")
            if match.version != shown_version:
                tell_untold()
                view = match.view(you)
                if face_up is not None:
                    showing = face_up(view)
                    if not seen <= showing:
                        _turn_face_down(console, lang)
                        seen.clear()
                    seen.update(showing)
                console.print(render_view(game, view, lang, names))
                shown_version = match.version
                due = redraw_at(view) if callable(redraw_at) else None
                deadline = (due, time.monotonic() + (due - match.now) / 1000) if due and due > match.now else None
            while True:
                try:
                    action = prompter.action(match.legal_actions(you), match.view(you),
                                             deadline[1] if deadline else None)
                except Quit:
                    return False
                except Planned as chosen:
                    plan = (chosen.plan, match.view(you))
                    break
                except Timeout:
                    assert deadline is not None
                    session.catch_up(deadline[0])  # the moment came while the player was thinking
                    deadline = None
                    break
                try:
                    session.act(you, action)
                    break
                except IllegalAction as error:
                    console.print(f"[red]{escape(_refusal(game, error, match.legal_actions(you), lang))}[/]")
    finally:
        session.on_entry = previous
        tell_untold()
    session.log.final_state = match.to_json()
    console.print(render_view(game, match.view(you), lang, names))
    result = match.result()
    assert result is not None
    console.print(render_result(game, result.to_json(), lang, you, names))
    return True


def _refusal(game: Game, error: IllegalAction, legal: list[ActionSpec], lang: Lang) -> str:
    """Why an action was refused, in words: an action no longer possible names what is, by its labels."""
    if error.code != "action/not_allowed":
        return error.ja if lang == "ja" else error.en
    can = ", ".join(dict.fromkeys(label(game, "action", spec["type"], lang) for spec in legal))
    return Text(f"That can no longer be done. What you can do now: {can}.",
                f"それはもうできません。いまできること: {can}。")(lang)


def _stop_note(save: Path | None) -> Text:
    """What stopping keeps, said before the player stops."""
    if save is None:
        return Text("It is not saved (--save FILE keeps a match).",
                    "保存はされません(--save ファイル名 を付けると対戦を保存できます)。")
    return Text(f"It is saved to {save}, and `partygames replay {save}` steps through it.",
                f"{save} に保存され、`partygames replay {save}` で再生できます。")


def _turn_face_down(console: Console, lang: Lang) -> None:
    """Something the screen showed is now face down: once the player has read what is printed, the screen and
    its scrollback are cleared (a terminal keeps what scrolled away; Rich's `clear` leaves the scrollback,
    ESC[3J takes it). A console that is not a terminal drops the control codes."""
    with contextlib.suppress(EOFError):  # no more input: clear all the same
        console.input(Text("[bold cyan]Cards are turned face down: press Enter to clear the screen.[/] ",
                           "[bold cyan]カードが伏せられました。 Enter で画面を消去します。[/] ")(lang))
    console.clear()
    if console.is_terminal and not console.is_dumb_terminal:
        console.file.write("\x1b[3J")  # the scrollback (what `clear` also sends; Rich has no code for it)


def save_log(path: Path, log: MatchLog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(log.to_json(), ensure_ascii=False), encoding="utf-8")


def load_log(path: Path) -> MatchLog:
    """A saved match log (from `play --save` or `simulate --save`); an EngineError of one line in both
    languages, saying why, when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        why = (Text("there is no such file", "ファイルがありません") if isinstance(error, FileNotFoundError)
               else Text("it is a folder, not a file", "ファイルではなくフォルダです") if isinstance(error, IsADirectoryError)
               else Text("there is no permission to read it", "読む権限がありません") if isinstance(error, PermissionError)
               else Text("the file cannot be read", "ファイルを読み込めません"))
        raise _unreadable(path, why) from None
    except UnicodeDecodeError:
        raise _unreadable(path, Text("it is not text (a match log is JSON)", "テキストではありません(対戦ログは JSON です)")) from None
    try:
        data = json.loads(text)
    except ValueError:
        raise _unreadable(path, Text("it is not JSON (a match log is a JSON file)",
                                     "JSON ではありません(対戦ログは JSON ファイルです)")) from None
    if not isinstance(data, dict):
        raise _unreadable(path, Text("it holds no match log (a JSON object with the game, the seats and the moves)",
                                     "対戦ログ(ゲーム・席数・手順を持つ JSON オブジェクト)が入っていません"))
    if "format" not in data or "game" not in data:
        raise _unreadable(path, Text("it holds no match log (it names no game or format)",
                                     "対戦ログではありません(ゲームや形式の記載がありません)"))
    if data.get("format") not in READABLE_FORMATS:
        formats = ", ".join(map(str, READABLE_FORMATS))
        raise _unreadable(path, Text(f"its format is {data.get('format')!r}; this version reads formats {formats}",
                                     f"形式 {data.get('format')!r} はこの版では読めません(読める形式: {formats})"))
    try:
        return MatchLog.from_json(data)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        detail = str(error) if isinstance(error, ValueError) and "time goes back" in str(error) else ""
        if detail:
            step = detail.split("'", 1)[0].removeprefix("entry ")
            raise _unreadable(path, Text(f"step {step}'s time goes back (the file was altered or damaged)",
                                         f"{step} 手目の時刻が前に戻っています(ファイルが書き換えられたか壊れています)")) from None
        raise _unreadable(path, Text("it is damaged: a part of the match log is missing or not what it should be",
                                     "壊れています: 対戦ログの一部が欠けているか、正しい値ではありません")) from None


def _unreadable(path: Path, why: Text) -> EngineError:
    return EngineError(f"Cannot read match log {path}: {why.en}.", f"対戦ログ {path} を読めません: {why.ja}。")
