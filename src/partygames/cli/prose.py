"""A game's rules summary in the terminal: a small Markdown (`## headings`, `- bullets` whose following
lines are indented, paragraphs, `**bold**`), wrapped to the screen.

Rich wraps only at spaces and folds a longer run of text at any cell, so Japanese, written without
spaces, breaks mid-word and can leave a "。" alone at the start of a line. Here Japanese breaks only
between the phrases BudouX finds (it keeps "各10,000。" together), English only between words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from budoux import Parser, load_default_japanese_parser
from rich.cells import cell_len, chop_cells
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text as RichText

from partygames.engine.text import Lang

_BULLET = re.compile(r"^\s*(?:[-*]\s+|・\s*)")
_HEADING = re.compile(r"^#{1,3}\s+")
_NO_LINE_START = set("。、,.)」』】〕!?!?:;:;ー々ぁぃぅぇぉっゃゅょァィゥェォッャュョ")
_FIGURE = re.compile(r"[0-9,.]")
_WIDE = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")
#: A parenthesised phrase with the space after it (full-width or ASCII brackets, not nested).
_PARENTHESISED = re.compile(r"([((][^()()]*[))]\s*)")


@dataclass(frozen=True)
class Block:
    kind: str  # "heading", "bullet" or "paragraph"
    text: str


def blocks(markdown: str) -> list[Block]:
    """The summary's headings, bullets and paragraphs, each one logical line."""
    found: list[Block] = []
    current: list[str] = []
    kind = "paragraph"

    def close() -> None:
        if current:
            found.append(Block(kind, _join(current)))
            current.clear()

    for raw in markdown.splitlines():
        line = raw.rstrip()
        if not line.strip():
            close()
            kind = "paragraph"
        elif _HEADING.match(line):
            close()
            found.append(Block("heading", _HEADING.sub("", line)))
            kind = "paragraph"
        elif _BULLET.match(line) and not line.startswith("  "):
            close()
            kind = "bullet"
            current.append(_BULLET.sub("", line))
        elif kind == "bullet" and line.startswith(" "):
            current.append(line.strip())  # the bullet goes on
        elif kind == "bullet":
            close()  # an unindented line after a bullet starts a paragraph
            kind = "paragraph"
            current.append(line.strip())
        else:
            current.append(line.strip())
    close()
    return found


def _join(lines: list[str]) -> str:
    """Lines of one block as one: a space between words, none between Japanese characters."""
    text = lines[0]
    for line in lines[1:]:
        wide = _WIDE.match(line[:1]) or _WIDE.match(text[-1:])
        text += line if wide else " " + line
    return text


def _styled(text: str) -> RichText:
    """**bold** spans as bold."""
    out = RichText()
    for i, part in enumerate(text.split("**")):
        out.append(part, style="bold" if i % 2 else "")
    return out


@cache
def _parser() -> Parser:
    return load_default_japanese_parser()


def _units(text: str, lang: Lang, whole: bool = False) -> list[str]:
    """The pieces a line may break between: words (with their trailing spaces), and in Japanese the
    phrases inside a run of text without spaces; with `whole`, a Japanese parenthesised phrase
    ("(トーテムポールから・メートル)") is one piece, never broken inside."""
    if whole and lang == "ja" and _PARENTHESISED.search(text):
        units: list[str] = []
        for part in _PARENTHESISED.split(text):
            if _PARENTHESISED.fullmatch(part.rstrip()):
                units.append(part)
            elif part:
                space = part[: len(part) - len(part.lstrip())]
                if units:
                    units[-1] += space  # the space after a phrase stays with it, as after a word
                units += _units(part, lang)
        return _kinsoku(units)
    words = re.findall(r"\S+\s*", text)
    if lang != "ja":
        return words
    units = []
    for word in words:
        stripped = word.rstrip()
        phrases = _parser().parse(stripped) if _WIDE.search(stripped) else [stripped]
        phrases[-1] += word[len(stripped):]
        units += _kinsoku(phrases)
    return units


def _kinsoku(phrases: list[str]) -> list[str]:
    """BudouX's phrases, joined again where a break would split a figure ("15,0|00") or start a line
    with closing punctuation."""
    joined = phrases[:1]
    for phrase in phrases[1:]:
        if phrase[0] in _NO_LINE_START or (_FIGURE.match(joined[-1][-1]) and _FIGURE.match(phrase[0])):
            joined[-1] += phrase
        else:
            joined.append(phrase)
    return joined


def wrap(text: str, width: int, lang: Lang, whole: bool = False) -> list[str]:
    """Line breaks of `text` within `width` cells, only between units (a unit wider than a line is cut;
    `whole`: a Japanese parenthesised phrase is one unit)."""
    lines: list[str] = []
    line = ""
    for unit in _units(text, lang, whole):
        if line and cell_len((line + unit).rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        while cell_len(unit.rstrip()) > width:
            head = _fitting_head(unit, width)
            lines.append(head)
            unit = unit[len(head):]
        line += unit
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _fitting_head(unit: str, width: int) -> str:
    """The longest start of a too-wide unit that fits, cut neither before closing punctuation nor inside a
    figure (Japanese line-breaking rules, kinsoku); the plain cut if no such place exists."""
    head = chop_cells(unit, width)[0]
    cut = len(head)
    while cut > 1 and (unit[cut] in _NO_LINE_START or (_FIGURE.match(unit[cut - 1]) and _FIGURE.match(unit[cut]))):
        cut -= 1
    return unit[:cut] if cut > 1 else head


def _lines(text: str, width: int, lang: Lang, whole: bool = False) -> Iterator[RichText]:
    """The wrapped lines with the bold spans kept (the **markers** take no room)."""
    styled = _styled(text)
    plain = styled.plain
    position = 0
    for line in wrap(plain, max(width, 4), lang, whole):
        start = plain.index(line, position)
        position = start + len(line)
        yield styled[start:position]


class Prose:
    """The renderable summary."""

    def __init__(self, markdown: str, lang: Lang) -> None:
        self.blocks = blocks(markdown)
        self.lang = lang

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        bullet = "・" if self.lang == "ja" else "• "
        hang = " " * cell_len(bullet)
        previous = ""
        following = [*self.blocks[1:], None]
        for block, after in zip(self.blocks, following, strict=True):
            if previous and not (previous == block.kind == "bullet"):
                yield RichText("")
            if block.kind == "bullet":
                for i, line in enumerate(_lines(block.text, width - len(hang), self.lang)):
                    yield RichText(bullet if i == 0 else hang) + line
            else:
                # A paragraph that introduces a list ("The fight:") reads as the list's heading.
                lead = block.text.endswith((":", ":")) and after is not None and after.kind == "bullet"
                for line in _lines(block.text, width, self.lang):
                    if block.kind == "heading" or lead:
                        line.stylize("bold underline" if block.kind == "heading" else "bold")
                    yield line
            previous = block.kind


class Phrases:
    """One text that wraps like the summary (for a table cell): as narrow as its widest phrase. `whole`: a
    Japanese parenthesised phrase is not broken (an option's title: "(トーテムポールから・メートル)")."""

    def __init__(self, text: str, lang: Lang, whole: bool = False) -> None:
        self.text, self.lang, self.whole = text, lang, whole

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((cell_len(unit.rstrip()) for unit in _units(self.text, self.lang, self.whole)), default=0)
        return Measurement(widest, cell_len(self.text)).clamp(max_width=options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from _lines(self.text, options.max_width, self.lang, self.whole)
