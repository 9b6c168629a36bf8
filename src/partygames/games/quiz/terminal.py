"""Terminal rendering of a seat's view of It's a QUIZ? (pure functions of the view and its events)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table

from partygames.engine import Text
from partygames.engine.names import acts, agree, name_of, subject_of
from partygames.engine.text import Lang
from partygames.games.quiz.labels import LABELS
from partygames.games.quiz.scoring import PRIZE

FACE_DOWN = "■"
_KIND = {"score": Text("score", "得点"), "money": Text("secret money", "裏金")}
_CHOICE = {"answer": Text("answer", "解答"), "secret_money": Text("secret money", "裏金"),
           "peek": Text("peek", "覗き見"), None: Text("-", "-")}


def points(total: int, lang: Lang) -> str:
    """A total with the question-8 prize written as the seed writes it (1億万), in English in English words."""
    if total >= PRIZE:
        rest = total - PRIZE
        return f"1億万 + {rest}" if lang == "ja" else f"1 trillion (the prize) + {rest}"
    return str(total)


def _word(view: dict[str, Any], word: int | None, lang: Lang) -> str:
    return FACE_DOWN if word is None else f"{view['deck']['answers'][word][lang]} ({word})"


def _question(view: dict[str, Any], question: int, lang: Lang) -> str:
    return f"Q{question} {view['deck']['questions'][question][lang]}"


def _rows(view: dict[str, Any], lang: Lang) -> Table:
    table = Table(title=Text("Questions and their rows (nearest first)", "問題と正解カードの列(問題に近い順)")(lang))
    table.add_column(Text("Question", "問題")(lang))
    table.add_column(Text("Answer cards", "正解カード")(lang))
    for question, row in enumerate(view["rows"]):
        if row is None:
            continue
        mark = " ◀" if question == view["asked"] else ""
        cards = "  ".join(f"{i}:{_word(view, card['word'], lang)}" for i, card in enumerate(row))
        table.add_row(_question(view, question, lang) + mark, cards)
    return table


def _board(view: dict[str, Any], lang: Lang) -> Table:
    table = Table(title=Text("White cards (places 0-15)", "白い問題カード(位置0〜15)")(lang), show_header=False)
    for _ in range(4):
        table.add_column()
    for r in range(4):
        cells = []
        for c in range(4):
            place = 4 * r + c
            white = view["board"][place]
            if white is None:
                cells.append(f"{place}: ·")
                continue
            content = FACE_DOWN if white["question"] is None else f"Q{white['question']}"
            markers = white["markers"]
            extra = f" [{markers['score']}/{markers['money']}]" if markers["score"] + markers["money"] else ""
            cells.append(f"{place}: {content}{extra}")
        table.add_row(*cells)
    return table


def _seats(view: dict[str, Any], lang: Lang) -> Table:
    table = Table(title=Text("Markers (score / secret money)", "マーカー(得点 / 裏金)")(lang))
    for header in (Text("Seat", "席"), Text("Score", "得点"), Text("Secret money", "裏金"), Text("Points", "得点合計")):
        table.add_column(header(lang), justify="right")
    for seat, held in enumerate(view["held"]):
        tags = (" *" if seat == view["seat"] else "") + (f" {Text('parent', '親')(lang)}" if seat == view["parent"] else "")
        table.add_row(f"{seat}{tags}", str(held["score"]), str(held["money"]), points(view["totals"][seat], lang))
    return table


def _words(view: dict[str, Any], lang: Lang) -> str:
    words = view["deck"]["answers"]
    return Text("Word list: ", "単語一覧: ")(lang) + ", ".join(f"{i} {w[lang]}" for i, w in enumerate(words))


def face_up(view: Mapping[str, Any]) -> frozenset[Hashable]:
    """What the view shows that the seat may see only while it is shown: each face-up answer card and
    white card where it lies (memorising, a peek, a card shown, the asked question), and the cards waiting
    to be dealt. The terminal clears what it printed once any of them is gone (`Game.face_up`)."""
    shown: set[Hashable] = set()
    for row in view["rows"]:
        for card in row or ():
            if card["word"] is not None:
                shown.add((card["card"], card["word"]))
    for white in view["board"]:
        if white is not None and white["question"] is not None:
            shown.add((white["card"], white["question"]))
    shown.update(("pending", word) for word in view["pending"] or ())
    return frozenset(shown)


def render(view: dict[str, Any], lang: Lang = "en") -> RenderableType:
    """A panel with the phase, the rows, the white cards, everyone's markers and the word list."""
    number = (f"{Text('Question', '第')(lang)} {view['question']}/{view['rounds_total']}{'問' if lang == 'ja' else ''} — "
              if view["question"] else "")
    lines = [number + LABELS.phases[view["phase"]](lang),
             f"{Text('Field', '場')(lang)}: {view['field']['score']}/{view['field']['money']}   "
             f"{Text('Stock', 'ストック')(lang)}: {view['stock']['score']}/{view['stock']['money']}"]
    if view["memorise_until"] is not None:
        lines.append(Text(f"Memorise! The cards turn at {view['memorise_until'] / 1000:.0f} s.",
                          f"覚えてください。{view['memorise_until'] / 1000:.0f}秒でカードが裏返ります。")(lang))
    if view["asked"] is not None:
        lines.append(f"{Text('Asked', '出題')(lang)}: {_question(view, view['asked'], lang)}")
    if view["peek"] is not None and ("word" in view["peek"] or "question" in view["peek"]):
        peek = view["peek"]
        seen = _word(view, peek["word"], lang) if "word" in peek else _question(view, peek["question"], lang)
        lines.append(f"{Text('You see', '見えているカード')(lang)} {peek['card']}: {seen} "
                     f"({Text('until', '表示終了')(lang)} {peek['until'] / 1000:.0f} s)")
    if view["pending"]:
        lines.append(Text("To deal: ", "配る正解カード: ")(lang) + ", ".join(_word(view, w, lang) for w in view["pending"]))
    if view["sheets"] is not None:
        lines.append(Text("Sheets: ", "記入: ")(lang) + "; ".join(
            f"{s}: {_CHOICE[sheet['choice']](lang)}"
            + (" " + " → ".join(view["deck"]["answers"][w][lang] for w in sheet["words"]) if sheet.get("words") else "")
            for s, sheet in enumerate(view["sheets"]) if sheet))
    if view["rounds"]:
        last = view["rounds"][-1]
        lines.append(f"{Text('Last question', '前の問題')(lang)}: {_question(view, last['asked'], lang)} — "
                     f"{Text('winners', '最多正解')(lang)} {last['winners'] or '-'}")
    if view["result"] is not None:
        lines.append(f"{Text('Winner', '優勝')(lang)}: {Text('seat', '席')(lang)} {view['winner']}")
    return Panel(Group("\n".join(lines), _rows(view, lang), _board(view, lang), _seats(view, lang), _words(view, lang)),
                 title=Text("It's a QUIZ?", "くいずです")(lang))


def describe_event(event: dict[str, Any], lang: Lang = "en", names: Sequence[str] = ()) -> str | None:
    """One line for the events a player follows, naming the seats by `names` (by number where there is none):
    "Bot Aoi passes.", "ボット アオイはパス。"; None for the rest."""
    kind, d = event["type"], event["data"]
    ja = lang == "ja"

    def who(seat: int) -> str:
        return name_of(names, seat, lang)

    def subject(seat: int) -> str:
        return subject_of(names, seat, lang)

    def several(seats: list[int]) -> str:
        return ("、" if ja else ", ").join(map(who, seats)) or ("なし" if ja else "nobody")

    def take() -> Text:
        takers = d["takers"]
        verb = "take" if len(takers) > 1 else agree(who(takers[0]), "takes", "take")
        return Text(f"Secret money: {several(takers)} {verb} {d['each']} each.",
                    f"裏金: {several(takers)}が{d['each']}個ずつ取りました。")

    def kind_of(key: str) -> Text:
        return _KIND.get(d.get(key, ""), Text("", ""))

    lines: dict[str, Callable[[], Text]] = {
        "cards_turned": lambda: Text("The cards are turned face down.", "カードが裏返されました。"),
        "memorise_extended": lambda: Text("Memorising time extended by 60 s.", "記憶の時間が60秒延長されました。"),
        "parent_drawn": lambda: Text(f"{acts(names, d['parent'], lang, 'is', 'are')} the first parent.",
                                     f"最初の親は{who(d['parent'])}です。"),
        "placed": lambda: Text(f"{subject(d['seat'])} placed a {kind_of('kind')('en')} marker on place {d['card']}.",
                               f"{who(d['seat'])}が位置{d['card']}に{kind_of('kind')('ja')}マーカーを置きました。"),
        "passed": lambda: Text(f"{acts(names, d['seat'], lang, 'passes', 'pass')}.", f"{who(d['seat'])}はパス。"),
        "question_opened": lambda: Text(
            f"Question {d['question']}: the white card at place {d['card']} is Q{d['asked']}.",
            f"第{d['question']}問: 位置{d['card']}の白いカードは Q{d['asked']}。"),
        "sheets_revealed": lambda: Text("The sheets are revealed.", "記入が公開されました。"),
        "secret_money_taken": take,
        "looked": lambda: Text(f"{acts(names, d['seat'], lang, 'peeks', 'peek')} at {d['card']}.",
                               f"{who(d['seat'])}が{d['card']}を覗き見ました。"),
        # Only which card: its content is in the view while the peek lasts (and the screen is cleared once
        # it is gone: `face_up`).
        "card_seen": lambda: Text(f"You see {d['card']} (shown in the table above while the peek lasts).",
                                  f"{d['card']} が見えます(覗き見の間だけ上の表に表示)。"),
        "card_shown": lambda: Text(f"{acts(names, d['seat'], lang, 'shows', 'show')} {d['card']} to {several(d['to'])}.",
                                   f"{who(d['seat'])}が{d['card']}を{several(d['to'])}に見せました。"),
        "row_opened": lambda: Text(f"Q{d['asked']}'s row: words {d['words']}.", f"Q{d['asked']}の列: 単語{d['words']}。"),
        "scored": lambda: Text(f"Most correct: {several(d['winners'])}.", f"最多正解: {several(d['winners'])}。"),
        # Announced as at the table (全員にはっきりと告げます); the terminal clears it once the card is face down
        # and the player has read on (`face_up`, docs/rules/quiz.md).
        "card_dealt": lambda: Text(f"Word {d['word']} goes face down to the end of Q{d['row']}'s row.",
                                   f"単語{d['word']}を Q{d['row']}の列の末尾に伏せて置きました。"),
        "white_moved": lambda: Text(f"A white card moves from place {d['from']} to {d['to']}.",
                                    f"白いカードが位置{d['from']}から{d['to']}へ移動しました。"),
        "white_swapped": lambda: Text(f"White cards at places {d['cards']} are swapped.",
                                      f"位置{d['cards']}の白いカードを入れ替えました。"),
        "given": lambda: Text(f"{acts(names, d['seat'], lang, 'gives', 'give')} {who(d['to'])} {d['score']} score and {d['money']} "
                              "secret-money markers.",
                              f"{who(d['seat'])}が{who(d['to'])}に得点{d['score']}個・裏金{d['money']}個を渡しました。"),
        "called": lambda: Text(f"{acts(names, d['seat'], lang, 'calls', 'call')} {d['card']} as word {d['word']}: "
                               f"it is {d['actual']}.",
                               f"{who(d['seat'])}が{d['card']}を単語{d['word']}と宣言: 実際は{d['actual']}。"),
        "match_over": lambda: Text(f"{acts(names, d['winner'], lang, 'wins', 'win')}.", f"{who(d['winner'])}の優勝です。"),
    }
    make = lines.get(kind)
    return None if make is None else make()(lang)


def value_text(key: str, value: Any, lang: Lang) -> str | None:
    """An answer card in a result ("a5.2") reads as its place: question 5's row, second card."""
    if key == "card" and isinstance(value, str) and value.startswith("a") and "." in value:
        row, index = value[1:].split(".", 1)
        if row.isdigit() and index.isdigit():
            return f"Q{row}の列の{int(index) + 1}枚目" if lang == "ja" else f"Q{row}'s row, card {int(index) + 1}"
    return None
