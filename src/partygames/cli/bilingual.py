"""What the commands share to speak both languages (partygames' own and the games' `analyze`/`odds`):
the `--lang` option, where a plot goes and the line that says so, a progress bar while an analysis runs, a
table whose Japanese title is not cut, and numbers (a 95% interval, a tiny figure) as each language writes
them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from rich.cells import cell_len
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from partygames.analysis.files import output_path
from partygames.engine.text import Lang, Text

# Help is read before any option, so it holds both languages, the Japanese on a line of its own.
LangOption = Annotated[Lang, typer.Option("--lang", help="Language: en or ja.\n\n言語。")]
# The server's database, for the commands that read or change it (`db upgrade`, `ratings`; `serve` says more).
DatabaseUrlOption = Annotated[str | None, typer.Option(
    help="SQLAlchemy URL (default: SQLite in the data folder); postgresql://... for PostgreSQL.\n\n"
         "SQLAlchemy の URL (既定: データフォルダの SQLite)。 PostgreSQL なら postgresql://...。",
    envvar="PARTYGAMES_DATABASE_URL")]
DataDirOption = Annotated[Path | None, typer.Option(
    help="The folder of the SQLite database (default: your user data folder).\n\n"
         "SQLite のデータベースのフォルダ(既定: ユーザーデータフォルダ)。", envvar="PARTYGAMES_DATA_DIR",
    file_okay=False)]

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


def plot_target(given: Path | None, no_plot: bool, name: str) -> Path | None:
    """Where an analysis writes its plot: `--plot`'s path, nowhere with `--no-plot`, else `name` in the user
    data folder (never the current folder, which a command should not litter)."""
    if no_plot:
        return None
    return given if given is not None else output_path(name)


@contextmanager
def progress(description: Text, total: int, lang: Lang) -> Iterator[Callable[[], None]]:
    """A progress bar on standard error while a long analysis runs (gone when it ends), and the function
    that advances it by one step."""
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description(lang), total=total)
        yield lambda: bar.advance(task)


@contextmanager
def working(description: Text, lang: Lang) -> Iterator[None]:
    """A spinner with the time spent, on standard error, while one long computation runs."""
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        bar.add_task(description(lang), total=None)
        yield


def plain(value: float, digits: int = 3) -> str:
    """A number without an exponent, to `digits` significant figures: 0.000000228, not 2.28e-07."""
    return str(np.format_float_positional(value, precision=digits, unique=False, fractional=False, trim="-"))
