"""Playing one seat in the terminal against bots."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

from rich.console import Console

from partygames.cli.terminal import describe_event, label, render_result, render_view
from partygames.engine.actions import Action, ActionSpec
from partygames.engine.errors import EngineError, IllegalAction
from partygames.engine.game import Game
from partygames.engine.log import Entry, MatchLog
from partygames.engine.match import Event
from partygames.engine.names import seat_names
from partygames.engine.session import Session
from partygames.engine.text import Lang, Text

ChoiceText = Callable[[str, Any, dict[str, Any], Lang], "str | None"]
"""A game terminal's optional `choice_text(param, value, view, lang)`: a choice's words, or None for the raw value."""


class Quit(Exception):
    """The player ended the session (q, or end of input)."""


class Prompter:
    """Asks the player for an action built from the legal specs; a bad entry is explained and asked again."""

    def __init__(self, console: Console, game: Game, lang: Lang) -> None:
        self.console = console
        self.game = game
        self.lang = lang
        self.view: dict[str, Any] = {}
        hook = getattr(game.terminal, "choice_text", None)
        self._choice_text: ChoiceText | None = hook if callable(hook) else None

    def _t(self, en: str, ja: str) -> str:
        return ja if self.lang == "ja" else en

    def _ask(self, prompt: str) -> str:
        try:
            answer = self.console.input(f"[bold cyan]{prompt}[/] ").strip()
        except EOFError:
            raise Quit from None
        if answer.lower() in {"q", "quit", "exit"}:
            raise Quit
        return answer

    def _pick(self, title: str, options: list[str]) -> int:
        if len(options) == 1:
            return 0
        for i, text in enumerate(options, 1):
            self.console.print(f"  [bold]{i}[/]) {text}")
        while True:
            answer = self._ask(self._t(f"{title} [1-{len(options)}, q to quit]:",
                                       f"{title} [1-{len(options)}、q で終了]:"))
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return int(answer) - 1
            self.console.print(self._t(f"[red]Enter a number from 1 to {len(options)}.[/]",
                                       f"[red]1 から {len(options)} の番号を入力してください。[/]"))

    def action(self, specs: list[ActionSpec], view: dict[str, Any] | None = None) -> Action:
        """Asks for one of `specs`; `view` (the seat's) lets the game word its choices (a card, a price)."""
        self.view = view or {}
        titles = [self._describe_spec(s) for s in specs]
        if len(specs) == 1 and not specs[0]["params"]:
            # Only one thing to do: still let the player set the pace, with Enter and nothing else.
            while self._ask(self._t(f"Press Enter to: {titles[0]} [q to quit]",
                                    f"Enter で実行: {titles[0]} [q で終了]")):
                self.console.print(self._t(
                    f"[red]There is only one thing to do now ({titles[0]}): press Enter alone, or q to quit.[/]",
                    f"[red]いまできるのは「{titles[0]}」だけです。Enter だけを押すか、q で終了してください。[/]"))
            return {"type": specs[0]["type"]}
        if len(specs) == 1:  # no menu: still say what is being asked
            self.console.print(f"[bold]{label(self.game, 'action', specs[0]['type'], self.lang)}[/]")
        chosen = specs[self._pick(self._t("Your action", "行動を選んでください"), titles)]
        action: Action = {"type": chosen["type"]}
        for name, param in chosen["params"].items():
            param_label = label(self.game, "param", name, self.lang)
            if "choice" in param:
                values = param["choice"]
                index = self._pick(param_label, [self._value_text(v, name) for v in values])
                action[name] = values[index]
            elif "sequence" in param:
                action[name] = self._sequence(param_label, param["sequence"], param["min_len"], param["max_len"],
                                              name)
            else:
                action[name] = self._number(param_label, param["min"], param["max"], param["step"])
        return action

    def _number(self, name: str, low: int, high: int, step: int) -> int:
        step_text = self._t(f", steps of {step:,}", f"、{step:,} 刻み") if step > 1 else ""
        while True:
            answer = self._ask(f"{name} ({low:,}-{high:,}{step_text}):").replace(",", "").replace("_", "")
            try:
                value = int(answer)
            except ValueError:
                self.console.print(self._t("[red]Enter a whole number.[/]", "[red]整数を入力してください。[/]"))
                continue
            if low <= value <= high and (value - low) % step == 0:
                return value
            self.console.print(self._t(f"[red]{value:,} is not allowed: between {low:,} and {high:,}{step_text}.[/]",
                                       f"[red]{value:,} は指定できません: {low:,} 以上 {high:,} 以下{step_text}。[/]"))

    def _sequence(self, name: str, values: list[Any], low: int, high: int, param: str = "") -> list[Any]:
        """An ordered list of distinct values: the player types their menu numbers in order."""
        for i, value in enumerate(values, 1):
            self.console.print(f"  [bold]{i}[/]) {self._value_text(value, param)}")
        n = len(values)
        ordered = [1] if n == 1 else [2, 1, *range(3, n + 1)]
        example = " ".join(map(str, ordered[: max(low, min(high, 3))]))
        if low == high:
            count_en, count_ja = f"exactly {low}", f"{low} 個"
        elif low == 0:
            count_en, count_ja = f"up to {high}", f"{high} 個まで"
        else:
            count_en, count_ja = f"{low} to {high}", f"{low}〜{high} 個"
        none_en, none_ja = (", or just Enter for none", "。なしは Enter のみ") if low == 0 else ("", "")
        prompt = self._t(f"{name}: type {count_en} of the numbers 1-{n} in order, separated by spaces{none_en} "
                         f"(e.g. {example}) [q to quit]:",
                         f"{name}: 1-{n} の番号から {count_ja}を順に空白区切りで入力{none_ja}(例: {example})[q で終了]:")
        while True:
            words = self._ask(prompt).replace(",", " ").replace("、", " ").split()
            if not all(w.isdecimal() for w in words):  # full-width digits are welcome
                self.console.print(self._t("[red]Type only numbers from the list, separated by spaces.[/]",
                                           "[red]一覧の番号だけを空白で区切って入力してください。[/]"))
                continue
            numbers = [int(w) for w in words]
            wrong = next((k for k in numbers if not 1 <= k <= n), None)
            repeated = next((k for i, k in enumerate(numbers) if k in numbers[:i]), None)
            if wrong is not None:
                self.console.print(self._t(f"[red]There is no {wrong}: enter numbers from 1 to {n}.[/]",
                                           f"[red]{wrong} はありません。1 から {n} の番号を入力してください。[/]"))
            elif repeated is not None:
                self.console.print(self._t(f"[red]{repeated} is given twice: each may be chosen only once.[/]",
                                           f"[red]{repeated} が 2 回あります。同じものは 1 回しか選べません。[/]"))
            elif not low <= len(numbers) <= high:
                self.console.print(self._t(f"[red]Choose {count_en} (you gave {len(numbers)}).[/]",
                                           f"[red]{count_ja}選んでください(入力は {len(numbers)} 個)。[/]"))
            else:
                chosen = [values[k - 1] for k in numbers]
                order = " → ".join(self._value_text(v, param) for v in chosen) or self._t("(none)", "(なし)")
                self.console.print(self._t(f"  Your order: {order}", f"  あなたの順番: {order}"))
                return chosen

    def _describe_spec(self, spec: ActionSpec) -> str:
        text = label(self.game, "action", spec["type"], self.lang)
        parts = []
        for name, param in spec["params"].items():
            if "min" in param:
                rng = f"{param['min']:,}-{param['max']:,}"
            elif "sequence" in param:
                lo, hi = param["min_len"], param["max_len"]
                count = str(lo) if lo == hi else f"{lo}-{hi}"
                rng = self._t(f"{count} in order of ", f"{count} 個を順に: ")
                rng += "/".join(self._value_text(v, name) for v in param["sequence"][:12])
            else:
                rng = "/".join(self._value_text(v, name) for v in param["choice"][:12])
            parts.append(f"{label(self.game, 'param', name, self.lang)}: {rng}")
        return text + (f" ({'; '.join(parts)})" if parts else "")

    def _value_text(self, value: Any, param: str = "") -> str:
        if self._choice_text is not None:
            text = self._choice_text(param, value, self.view, self.lang)
            if text is not None:
                return text
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def play_in_terminal(console: Console, session: Session, you: int, lang: Lang) -> bool:
    """Runs the match to the end with the player at seat `you` and bots at the session's other seats.
    Returns False if the player quit. Time does not pass while the player thinks."""
    game, match = session.game, session.match
    prompter = Prompter(console, game, lang)
    previous = session.on_entry
    names = seat_names(match.seats, match.bot_seats, lang, you=you)
    face_up = game.face_up
    seen: set[Hashable] = set()  # what the screen has shown face up since it was last cleared

    def on_entry(_entry: Entry, events: list[Event]) -> None:
        _show_events(console, game, events, you, lang, names)
        if face_up is not None:
            seen.update(face_up(match.view(you)))

    session.on_entry = on_entry
    try:
        shown_version = -1
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
            if match.version != shown_version:
                view = match.view(you)
                if face_up is not None:
                    showing = face_up(view)
                    if not seen <= showing:
                        _turn_face_down(console, lang)
                        seen.clear()
                    seen.update(showing)
                console.print(render_view(game, view, lang))
                shown_version = match.version
            while True:
                try:
                    action = prompter.action(match.legal_actions(you), match.view(you))
                except Quit:
                    return False
                try:
                    session.act(you, action)
                    break
                except IllegalAction as error:
                    console.print(f"[red]{error.ja if lang == 'ja' else error.en}[/]")
    finally:
        session.on_entry = previous
    session.log.final_state = match.to_json()
    console.print(render_view(game, match.view(you), lang))
    result = match.result()
    assert result is not None
    console.print(render_result(game, result.to_json(), lang, you))
    return True


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


def _show_events(console: Console, game: Game, events: list[Event], you: int, lang: Lang,
                 names: list[str]) -> None:
    for event in events:
        if event.is_visible_to(you):
            console.print(f"  • {describe_event(game, event.to_json(), lang, names)}")


def save_log(path: Path, log: MatchLog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(log.to_json(), ensure_ascii=False), encoding="utf-8")


def load_log(path: Path) -> MatchLog:
    """A saved match log (from `play --save` or `simulate --save`); an EngineError in both languages when
    it cannot be read (the system words an OSError in English only)."""
    try:
        return MatchLog.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as error:
        why = ("ファイルがありません" if isinstance(error, FileNotFoundError)
               else "読む権限がありません" if isinstance(error, PermissionError)
               else "ファイルを読めません" if isinstance(error, OSError)
               else "対戦ログの形式ではありません")
        raise EngineError(f"Cannot read match log {path}: {error}", f"対戦ログ {path} を読めません: {why}。") from None
