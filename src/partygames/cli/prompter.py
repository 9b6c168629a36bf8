"""Asking the terminal player for an action: menus with stable keys, choices by name, a question before an
action that undoes something, and a deadline when the screen must change by itself."""

from __future__ import annotations

import json
import os
import select
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.markup import escape

from partygames.cli.menu import ActionKeys, Choice, Menu, key_order
from partygames.cli.terminal import label
from partygames.engine.actions import Action, ActionSpec
from partygames.engine.game import Game
from partygames.engine.text import Lang, Text

ChoiceText = Callable[..., "str | None"]
"""`choice_text(param, value, view, lang, names, action=...)` of a game's terminal (`cli/terminal.py`)."""
ChoiceKey = Callable[..., "str | tuple[str, ...] | None"]
"""`choice_key(param, value, view, action=...)` of a game's terminal."""
Confirm = Callable[[Action, dict[str, Any], Lang, Sequence[str]], "str | None"]

_YES = {"y", "yes", "はい", "ｙ"}
_QUIT = {"q", "quit", "exit"}
_BACK = {"b", "back", "戻る"}


class Quit(Exception):
    """The player ended the session (q, or end of input)."""


class Back(Exception):
    """The player went back from a parameter's menu to the menu of actions (b)."""


class Planned(Exception):
    """The player chose a standing plan (the game terminal's `PLANS`) rather than one move."""

    def __init__(self, plan: str) -> None:
        super().__init__(plan)
        self.plan = plan


@dataclass(frozen=True)
class _Plan:
    key: str


class Timeout(Exception):
    """The deadline passed before the player answered."""


def timed_input(console: Console, prompt: str, seconds: float) -> str | None:
    """A line typed within `seconds`, or None when the time runs out first (what was half typed is
    dropped). Where standard input cannot be waited on (Windows, a test's input), it waits for the line."""
    try:
        descriptor = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        descriptor = -1
    if descriptor < 0 or os.name == "nt":
        return console.input(prompt)
    console.print(prompt, end="")
    ready, _, _ = select.select([descriptor], [], [], max(0.0, seconds))
    if not ready:
        console.print()
        if sys.stdin.isatty():
            import termios

            termios.tcflush(descriptor, termios.TCIFLUSH)
        return None
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\r\n")


class Prompter:
    """Asks the player for an action built from the legal specs; a bad entry is explained and asked again.

    An action type keeps the key the game's terminal fixes for it (`ACTION_KEYS`), else its key through the
    view's phase (`ActionKeys`); a parameter's choices show their
    names (`choice_text`) and take the keys the screen shows for them (`choice_key`), else their place in
    the menu. The game's `confirm` may ask before an action is played (`cli/terminal.py`)."""

    def __init__(self, console: Console, game: Game, lang: Lang, names: Sequence[str] = (),
                 stop_note: Text | None = None) -> None:
        self.console = console
        #: What stopping keeps (where the match is saved), said when q or Ctrl-D asks to stop.
        self.stop_note = stop_note
        self.game = game
        self.lang = lang
        self.names = list(names)
        self.view: dict[str, Any] = {}
        self.deadline: float | None = None
        self.action_keys = ActionKeys(getattr(game.terminal, "ACTION_KEYS", None))
        #: Standing plans offered beside the moves of a one-action menu (key: words), while the game's
        #: terminal has `plan_action` to play them (`cli/play.py`).
        self.plans: Mapping[str, Text] = {}
        self._back = False  # whether b goes back to the menu of actions (while a chosen action's part is asked)
        terminal = game.terminal
        self._choice_text: ChoiceText | None = _hook(terminal, "choice_text")
        self._choice_key: ChoiceKey | None = _hook(terminal, "choice_key")
        self._confirm: Confirm | None = _hook(terminal, "confirm")
        self._menu_order: Callable[[str, list[Any]], list[Any] | None] | None = _hook(terminal, "menu_order")
        self._param_note: Callable[[str, str, Lang], str | None] | None = _hook(terminal, "param_note")

    def _t(self, en: str, ja: str) -> str:
        return ja if self.lang == "ja" else en

    def _ask(self, prompt: str) -> str:
        """A line typed at `prompt`, stripped. q or the end of input (Ctrl-D) asks whether to stop the match
        first (`Quit` on yes; the prompt again on no); the end of input at that question stops."""
        while True:
            try:
                answer = self._line(prompt)
            except Quit:
                answer = "q"
            if answer.lower() not in _QUIT:
                return answer
            note = f" {self.stop_note(self.lang)}" if self.stop_note is not None else ""
            try:
                sure = self._line(self._t(f"Stop this match?{note} [y/N]", f"この対戦をやめますか?{note} [y/N](はい = y)"))
            except Quit:  # the input ended at the question too: nothing more can be asked
                raise Quit from None
            if sure.lower() in _YES:
                raise Quit
            self.console.print(self._t("The match goes on.", "対戦を続けます。"))

    def _line(self, prompt: str) -> str:
        text = f"[bold cyan]{escape(prompt)}[/] "  # a prompt's own brackets ("[y/N]") are words, not markup
        try:
            if self.deadline is None:
                answer = self.console.input(text)
            else:
                remaining = self.deadline - time.monotonic()
                typed = timed_input(self.console, text, remaining) if remaining > 0 else None
                if typed is None:
                    raise Timeout
                answer = typed
        except EOFError:
            raise Quit from None
        answer = answer.strip()
        if self._back and answer.lower() in _BACK:
            raise Back
        return answer

    def _wrong(self, en: str, ja: str) -> None:
        self.console.print(f"[red]{escape(self._t(en, ja))}[/]")

    def action(self, specs: list[ActionSpec], view: dict[str, Any] | None = None, deadline: float | None = None) -> Action:
        """Asks for one of `specs`; `view` (the seat's) lets the game word its choices (a card, a price).
        With a `deadline` (a `time.monotonic()` time), raises Timeout if the player has not answered by then."""
        self.view = view or {}
        self.deadline = deadline
        while True:
            try:
                action = self._compose(specs)
            except Back:
                self.console.print(self._t("Back to the actions.", "行動の選択に戻ります。"))
                continue
            finally:
                self._back = False
            question = self._confirm(action, self.view, self.lang, self.names) if self._confirm else None
            if question is None:
                return action
            answer = self._ask(self._t(f"{question} [y/N]", f"{question} [y/N](はい = y)"))
            if answer.lower() in _YES:
                return action
            self.console.print(self._t("Not done.", "取りやめました。"))

    def _compose(self, specs: list[ActionSpec]) -> Action:
        if len(specs) == 1 and not specs[0]["params"]:
            title = label(self.game, "action", specs[0]["type"], self.lang)
            # Only one thing to do: still let the player set the pace, with Enter and nothing else.
            while self._ask(self._t(f"Press Enter to: {title} [q to quit]", f"Enter で実行: {title} [q で終了]")):
                self._wrong(f"There is only one thing to do now ({title}): press Enter alone, or q to quit.",
                            f"いまできるのは「{title}」だけです。Enter だけを押すか、q で終了してください。")
            return {"type": specs[0]["type"]}
        types = list(dict.fromkeys(s["type"] for s in specs))
        if len(types) == 1:  # no menu: still say what is being asked
            kind = types[0]
            self.console.print(f"[bold]{escape(label(self.game, 'action', kind, self.lang))}[/]")
        else:
            keys = self.action_keys.keys(self.view.get("phase"), types)
            menu = Menu(Choice(keys[t], label(self.game, "action", t, self.lang), t) for t in
                        sorted(types, key=lambda t: key_order(keys[t])))
            kind = self._pick(self._t("Your action", "行動を選んでください"), menu).value
            self._back = True  # what the action needs is asked next: b goes back to this menu
        chosen, settled = self._variant([s for s in specs if s["type"] == kind])
        action: Action = {"type": kind}
        for name, param in chosen["params"].items():
            param_label = label(self.game, "param", name, self.lang, kind)
            if "choice" in param:
                menu = self._menu(name, param["choice"], kind)
                if self.plans and len(types) == 1 and len(action) == 1:  # the first menu of the only action
                    menu = Menu([*menu.choices, *(Choice(k, t(self.lang), _Plan(k)) for k, t in self.plans.items())])
                if len(menu.choices) == 1:
                    if name not in settled:
                        self.console.print(f"  {escape(param_label)}: {escape(menu.choices[0].text)}")
                    action[name] = menu.choices[0].value
                else:
                    picked = self._pick(param_label, menu).value
                    if isinstance(picked, _Plan):
                        raise Planned(picked.key)
                    action[name] = picked
            elif "sequence" in param:
                note = self._param_note(kind, name, self.lang) if self._param_note else None
                if note:  # what the list does, and what it does not (a chair left off is never tried)
                    self.console.print(escape(note))
                action[name] = self._sequence(param_label, self._menu(name, param["sequence"], kind), param["min_len"],
                                              param["max_len"])
            elif param["min"] == param["max"]:  # nothing to choose: say what it is
                self.console.print(f"  {escape(param_label)}: {param['min']:,}")
                action[name] = param["min"]
            else:
                action[name] = self._number(param_label, param["min"], param["max"], param["step"])
        return action

    def _variant(self, specs: list[ActionSpec]) -> tuple[ActionSpec, set[str]]:
        """One of several specs of one action type (a gift of the medals of each name held), chosen by the
        parameter that tells them apart; with the names of the parameters the choice settled."""
        if len(specs) == 1:
            return specs[0], set()
        kind = specs[0]["type"]
        for name in specs[0]["params"]:
            values = [s["params"].get(name, {}).get("choice") for s in specs]
            if all(v is not None and len(v) == 1 for v in values) and len({json.dumps(v) for v in values}) == len(values):
                menu = self._menu(name, [v[0] for v in values if v is not None], kind)
                picked = self._pick(label(self.game, "param", name, self.lang, kind), menu)
                return specs[[v[0] for v in values if v is not None].index(picked.value)], {name}
        menu = Menu(Choice(str(i), self._summary(s), s) for i, s in enumerate(specs, 1))
        return self._pick(label(self.game, "action", kind, self.lang), menu).value, set()

    def _summary(self, spec: ActionSpec) -> str:
        """A spec's parameters in a few words, where nothing else tells two specs of one type apart."""
        parts = []
        for name, param in spec["params"].items():
            if "min" in param:
                values = f"{param['min']:,}-{param['max']:,}"
            else:
                shown = [self._value_text(name, v, spec["type"]) for v in param.get("choice", param.get("sequence", []))]
                values = "/".join(t if t is not None else _raw(v) for t, v in zip(shown, param.get(
                    "choice", param.get("sequence", [])), strict=True))
            parts.append(f"{label(self.game, 'param', name, self.lang, spec['type'])}: {values}")
        return "; ".join(parts)

    def _menu(self, param: str, values: list[Any], action: str) -> Menu:
        """The values' menu: each by its words, keyed as the screen shows it, else by its place (in the
        game's `menu_order` where it gives one)."""
        ordered = self._menu_order(param, values) if self._menu_order else None
        values = values if ordered is None else ordered
        texts = [self._value_text(param, v, action) for v in values]
        keys = [self._choice_key(param, v, self.view, action=action) if self._choice_key else None for v in values]
        if all(k is not None for k in keys):
            spelled = [(k,) if isinstance(k, str) else tuple(k) for k in keys if k is not None]
            if len({s[0] for s in spelled}) == len(spelled):
                return Menu(Choice(s[0], t or s[0], v, s[1:]) for s, t, v in zip(spelled, texts, values, strict=True))
        if all(t is None and isinstance(v, int) and not isinstance(v, bool) for t, v in zip(texts, values, strict=True)):
            return Menu(Choice(str(v), str(v), v) for v in values)  # a bare number is its own key
        return Menu(Choice(str(i), t if t is not None else _raw(v), v) for i, (t, v) in
                    enumerate(zip(texts, values, strict=True), 1))

    def _pick(self, title: str, menu: Menu) -> Choice:
        self.console.print(menu)
        hint = menu.hint()
        while True:
            answer = self._ask(self._t(f"{title} [{hint}{self._back_hint()}, q to quit]:",
                                       f"{title} [{hint}{self._back_hint()}、q で終了]:"))
            if len(answer.split()) > 1:  # "1 1" is not 11: one key, as the menu shows it
                self._wrong(f"“{answer}” has spaces: type one of the keys shown ({hint}), without spaces.",
                            f"「{answer}」には空白があります。表示されている記号を 1 つ、空白なしで入力してください({hint})。")
                continue
            found = menu.find(answer)
            if found is not None:
                return found
            if all(key.isdecimal() for key in menu.keys):
                self._wrong(f"Type one of the numbers shown ({hint}).", f"表示されている番号を入力してください({hint})。")
            else:
                self._wrong(f"Type one of the keys shown ({hint}).", f"表示されている記号を入力してください({hint})。")

    def _back_hint(self) -> str:
        return self._t(", b to go back", "、b で戻る") if self._back else ""

    def _sequence(self, name: str, menu: Menu, low: int, high: int) -> list[Any]:
        """An ordered list of distinct values: the player types their keys in order."""
        self.console.print(menu)
        keys, hint = menu.keys, menu.hint()
        ordered = keys[:1] if len(keys) == 1 else [keys[1], keys[0], *keys[2:]]
        example = " ".join(ordered[: max(low, min(high, 3))])
        if low == high:
            count_en, count_ja = f"exactly {low}", f"{low} 個"
        elif low == 0:
            count_en, count_ja = f"up to {high}", f"{high} 個まで"
        else:
            count_en, count_ja = f"{low} to {high}", f"{low}〜{high} 個"
        none_en, none_ja = (", or just Enter for none", "。なしは Enter のみ") if low == 0 else ("", "")
        prompt = self._t(f"{name}: type {count_en} of the numbers {hint} in order, separated by spaces{none_en} "
                         f"(e.g. {example}) [{'b to go back, ' if self._back else ''}q to quit]:",
                         f"{name}: {hint} の番号から {count_ja}を順に空白区切りで入力{none_ja}(例: {example})"
                         f"[{'b で戻る、' if self._back else ''}q で終了]:")
        while True:
            words = self._ask(prompt).replace(",", " ").replace("、", " ").split()
            found = [menu.find(w) for w in words]
            wrong = next((w for w, f in zip(words, found, strict=True) if f is None), None)
            chosen = [f for f in found if f is not None]
            repeated = next((f.key for i, f in enumerate(chosen) if f in chosen[:i]), None)
            if wrong is not None:
                self._wrong(f"“{wrong}” is not in the list: type numbers shown ({hint}), separated by spaces.",
                            f"「{wrong}」は一覧にありません。表示されている番号({hint})を空白で区切って入力してください。")
            elif repeated is not None:
                self._wrong(f"{repeated} is given twice: each may be chosen only once.",
                            f"{repeated} が 2 回あります。同じものは 1 回しか選べません。")
            elif not low <= len(chosen) <= high:
                self._wrong(f"Choose {count_en} (you gave {len(chosen)}).", f"{count_ja}選んでください(入力は {len(chosen)} 個)。")
            else:
                order = " → ".join(c.text for c in chosen) or self._t("(none)", "(なし)")
                self.console.print(escape(self._t(f"  Your order: {order}", f"  あなたの順番: {order}")))
                return [c.value for c in chosen]

    def _number(self, name: str, low: int, high: int, step: int) -> int:
        step_text = self._t(f", steps of {step:,}", f"、{step:,} 刻み") if step > 1 else ""
        while True:
            back = self._t(" [b to go back]", "[b で戻る]") if self._back else ""
            answer = self._ask(f"{name} ({low:,}-{high:,}{step_text}){back}:").replace(",", "").replace("_", "")
            try:
                value = int(answer)
            except ValueError:
                self._wrong("Enter a whole number.", "整数を入力してください。")
                continue
            if low <= value <= high and (value - low) % step == 0:
                return value
            self._wrong(f"{value:,} is not allowed: between {low:,} and {high:,}{step_text}.",
                        f"{value:,} は指定できません: {low:,} 以上 {high:,} 以下{step_text}。")

    def _value_text(self, param: str, value: Any, action: str) -> str | None:
        """The game's words for a value of `action`'s parameter, or None where it has none."""
        if self._choice_text is not None:
            return self._choice_text(param, value, self.view, self.lang, self.names, action=action)
        return None


def _raw(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _hook(terminal: object, name: str) -> Any:
    hook = getattr(terminal, name, None)
    return hook if callable(hook) else None
