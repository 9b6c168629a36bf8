"""What the commands share to speak both languages (partygames' own and the games' `analyze`/`odds`):
the `--lang` option, the line that says where a plot went, a table whose Japanese title is not cut, and a
95% interval as each language writes it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.cells import cell_len
from rich.table import Table

from partygames.engine.text import Lang, Text

# Help is read before any option, so it holds both languages, the Japanese on a line of its own.
LangOption = Annotated[Lang, typer.Option("--lang", help="Language: en or ja.\n\n言語。")]

_PLOT_SAVED = Text("Plot saved to {path}", "グラフを保存しました: {path}")


def plot_saved(path: Path, lang: Lang) -> str:
    return _PLOT_SAVED(lang).format(path=path)


def titled_table(title: Text, lang: Lang) -> Table:
    """A table under `title`; in Japanese at least as wide as the title where the terminal allows, since Rich
    folds a title without spaces at any character, mid-word (an English one wraps between words)."""
    return Table(title=title(lang), min_width=cell_len(title(lang)) if lang == "ja" else None)


def interval(low: float, high: float, lang: Lang) -> str:
    """A 95% interval of shares: "12.0%-30.5%", "12.0%〜30.5%"."""
    return f"{low:.1%}{'〜' if lang == 'ja' else '-'}{high:.1%}"
