"""Typer's own words in both languages: a usage error (an unknown option, a missing argument, a value that
is not a number) and the titles and notes of help and error screens.

They are printed before `--lang` is read, like the help, so each holds English, then Japanese. Typer (and
the Click it carries) words its errors in English only; `BilingualGroup` adds a Japanese line by the
error's kind, with the option and the value it names, and Pydantic's problem (Typer converts values with
Pydantic) worded as the lobby words it (`engine.options.problem_text`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer.rich_utils
from pydantic import ValidationError
from rich.text import Text as RichText
from typer._click import Context  # Typer 0.29 carries its own Click, as typer._click
from typer._click.exceptions import (
    BadOptionUsage,
    BadParameter,
    MissingParameter,
    NoArgsIsHelpError,
    NoSuchOption,
    UsageError,
)
from typer.core import TyperGroup

from partygames.engine.options import problem_text

#: Typer's own wording of the usage errors it raises without a class of their own (core.py), and of a
#: choice refused (`Literal`), with the Japanese for each.
_WORDED = (
    (re.compile(r"^No such command '(.*)'\.$", re.S), "そのコマンドはありません: {0}"),
    (re.compile(r"^Missing command\.$"), "コマンドを指定してください。"),
    (re.compile(r"^Got unexpected extra argument\(s\) \((.*)\)$", re.S), "余分な引数があります: {0}"),
    (re.compile(r"^Argument '(.*)' takes (\d+) values\.$", re.S), "引数 {0} には値が {1} 個必要です。"),
)
_NOT_ONE_OF = re.compile(r"^(?:Value error, )?(.*) is not one of (.*)\.$", re.S)


def japanese(error: UsageError) -> str:
    """A Japanese line for one of Typer's usage errors."""
    if isinstance(error, MissingParameter):
        kind = "引数" if error.param is not None and error.param.param_type_name == "argument" else "オプション"
        return f"{kind} {_hint(error)} の指定が必要です。"
    if isinstance(error, BadParameter):
        return _problem(error, _hint(error))
    if isinstance(error, NoSuchOption):
        maybe = f" (候補: {', '.join(sorted(error.possibilities))})" if error.possibilities else ""
        return f"そのオプションはありません: {error.option_name}{maybe}"
    if isinstance(error, BadOptionUsage):
        if error.message.endswith("does not take a value."):
            return f"オプション {error.option_name} は値を取りません。"
        return f"オプション {error.option_name} には値が必要です。"
    for pattern, words in _WORDED:
        found = pattern.match(error.message)
        if found:
            return words.format(*found.groups())
    return "コマンドの使い方が正しくありません。"


def _hint(error: BadParameter) -> str:
    hint = error.param_hint
    if hint is None and error.param is not None:
        hint = error.param.get_error_hint()
    if hint is None:
        return "値"
    return hint if isinstance(hint, str) else " / ".join(hint)


def _problem(error: BadParameter, hint: str) -> str:
    """What was wrong with the value, from Pydantic's validation problems (Typer converts values with it)."""
    cause = error.__cause__
    if not isinstance(cause, ValidationError):
        return f"{hint} の値が正しくありません。"
    problems = []
    for problem in cause.errors():
        choice = _NOT_ONE_OF.match(problem["msg"]) if problem["type"] == "value_error" else None
        problems.append(f"{hint}: {choice[1]} は選べません (選べるもの: {choice[2]})" if choice
                        else problem_text(problem, hint).ja)
    return "。 ".join(problems) + "。"


class BilingualUsageError(UsageError):
    """A usage error worded in English, then Japanese."""


@contextmanager
def _bilingual() -> Iterator[None]:
    try:
        yield
    except BilingualUsageError:
        raise
    except NoArgsIsHelpError:
        raise  # Typer prints the help for it, not an error
    except UsageError as error:
        raise BilingualUsageError(f"{error.format_message()}\n{japanese(error)}", error.ctx) from error


class BilingualGroup(TyperGroup):
    """The `partygames` group: every usage error, its commands' and subgroups' included, in both languages
    (they all reach the top group's parsing or invocation)."""

    def make_context(self, info_name: str | None, args: list[str], parent: Context | None = None,
                     **extra: Any) -> Context:
        with _bilingual():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Context) -> Any:
        with _bilingual():
            return super().invoke(ctx)


def speak_both() -> None:
    """Typer's titles and notes on help and error screens in both languages. Typer reads them from its
    module at each use (English gettext strings, with no Japanese catalogue)."""
    rich = typer.rich_utils
    # A switch takes no value: its help shows none (Typer shows "<bool>").
    show_type = typer.core.TyperOption.display_type_rich
    if not getattr(show_type, "_speaks_both", False):
        def display_type(option: typer.core.TyperOption, ctx: Context) -> str | None:
            return None if option.is_flag else show_type(option, ctx)

        display_type._speaks_both = True  # type: ignore[attr-defined]
        typer.core.TyperOption.display_type_rich = display_type  # type: ignore[method-assign,assignment]
    # Japanese has no spaces to wrap at: a long run folds between its characters rather than being cut.
    make_text = rich._make_rich_text
    if not getattr(make_text, "_speaks_both", False):
        def folding_text(**kwargs: Any) -> Any:
            made = make_text(**kwargs)
            if isinstance(made, RichText):
                made.overflow = "fold"
            return made

        folding_text._speaks_both = True  # type: ignore[attr-defined]
        rich._make_rich_text = folding_text
    rich.ARGUMENTS_PANEL_TITLE = "Arguments 引数"
    rich.OPTIONS_PANEL_TITLE = "Options オプション"
    rich.COMMANDS_PANEL_TITLE = "Commands コマンド"
    rich.ERRORS_PANEL_TITLE = "Error エラー"
    rich.DEFAULT_STRING = "[default 既定: {}]"
    rich.REQUIRED_LONG_STRING = "[required 必須]"
    rich.ABORTED_TEXT = "Aborted. 中断しました。"
    rich.RICH_HELP = ("Try [blue]'{command_path} {help_option}'[/] for help.\n"
                      "ヘルプは [blue]'{command_path} {help_option}'[/] で見られます。")
