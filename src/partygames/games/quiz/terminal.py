"""Terminal rendering of a seat's view of It's a QUIZ? (pure functions of the view and its events).

Everything the player types is a number the screen shows: a word's number in the word list, a white card's
place on the board (0-15), a question's number (Q5 is 5), an answer card as its row and place in the row
("3-2": Q3's row, card 2). People are named as everywhere else ("Bot Aoi"), and chosen by their place in
the menu.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table

from partygames.cli.layout import Fit
from partygames.cli.narration import people
from partygames.engine import Text
from partygames.engine.names import acts, agree, name_of, subject_of
from partygames.engine.text import Lang
from partygames.games.quiz.labels import LABELS
from partygames.games.quiz.scoring import PRIZE, parse_target

FACE_DOWN = "■"
_KIND = {"score": Text("score", "得点"), "money": Text("secret money", "裏金")}
_CHOICE = {"answer": Text("answer", "解答"), "secret_money": Text("secret money", "裏金"),
           "peek": Text("peek", "覗き見"), None: Text("-", "-")}
_MARKER = {"score": Text("score marker", "得点マーカー"), "money": Text("secret-money marker", "裏金マーカー")}
#: Result details whose values are seats.
SEAT_KEYS = frozenset({"prize_winner", "seats", "seat"})
_PARAMS = {
    ("place", "card"): Text("White card (its place)", "白いカード(位置)"),
    ("open", "card"): Text("White card to open (its place)", "開く白いカード(位置)"),
    ("look", "card"): Text("Card to peek at (a white card's place, or row-card: 3-2 is Q3's row, card 2)",
                           "覗き見るカード(白いカードは位置、正解カードは列-枚目: 3-2 は Q3の列の2枚目)"),
    ("move", "card"): Text("White card to move (its place)", "動かす白いカード(位置)"),
    ("move", "to"): Text("To the empty place", "移動先の空いた位置"),
    ("swap", "cards"): Text("Two white cards (their places)", "白いカード2枚(位置)"),
    ("show", "to"): Text("Show it to", "見せる相手"),
    ("give", "to"): Text("Give to", "渡す相手"),
    ("call", "card"): Text("Card to turn over (row-card: 3-2 is Q3's row, card 2)",
                           "めくるカード(列-枚目: 3-2 は Q3の列の2枚目)"),
    ("place", "kind"): Text("Marker", "マーカー"),
    ("deal", "row"): Text("Row (its question)", "列(問題)"),
}


def points(total: int, lang: Lang) -> str:
    """A total with the question-8 prize written as the seed writes it (1億万), in English in English words."""
    if total >= PRIZE:
        rest = total - PRIZE
        return f"1億万 + {rest}" if lang == "ja" else f"1 trillion (the prize) + {rest}"
    return str(total)


def card_name(target: str, lang: Lang) -> str:
    """A card by where it lies: "Q3's row, card 2" ("a3.1"), "the white card at place 5" ("w5")."""
    kind, place, index = parse_target(target)
    if kind == "a":
        return f"Q{place}の列の{index + 1}枚目" if lang == "ja" else f"Q{place}'s row, card {index + 1}"
    return f"位置{place}の白いカード" if lang == "ja" else f"the white card at place {place}"


def card_key(target: str) -> str:
    """The key typed for a card, as the board shows it: "3-2" for Q3's row, card 2; "5" for place 5."""
    kind, place, index = parse_target(target)
    return f"{place}-{index + 1}" if kind == "a" else str(place)


def _answer(view: Mapping[str, Any] | None, word: int, lang: Lang) -> str:
    """A word by its name and number ("violin (17)"), by its number alone without the deck."""
    if view is None or "deck" not in view:
        return Text(f"word {word}", f"単語{word}")(lang)
    return f"{view['deck']['answers'][word][lang]} ({word})"


def _word(view: Mapping[str, Any], word: int | None, lang: Lang) -> str:
    return FACE_DOWN if word is None else f"{view['deck']['answers'][word][lang]} ({word})"


def _question(view: Mapping[str, Any], question: int, lang: Lang) -> str:
    return f"Q{question} {view['deck']['questions'][question][lang]}"


def _rows(view: dict[str, Any], lang: Lang) -> Table:
    table = Table(title=Text("Questions and their rows (nearest first)", "問題と正解カードの列(問題に近い順)")(lang),
                  box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(Text("Question", "問題")(lang))
    table.add_column(Text("Answer cards", "正解カード")(lang), overflow="fold")
    for question, row in enumerate(view["rows"]):
        if row is None:
            continue
        mark = " ◀" if question == view["asked"] else ""
        cards = "  ".join(f"{i}:{_word(view, card['word'], lang)}" for i, card in enumerate(row, 1))
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


def _seats(view: dict[str, Any], lang: Lang, names: Sequence[str]) -> Table:
    table = Table(title=Text("Markers (score / secret money)", "マーカー(得点 / 裏金)")(lang))
    for header in (Text("Who", "参加者"), Text("Score", "得点"), Text("Secret money", "裏金"), Text("Points", "得点合計")):
        table.add_column(header(lang), justify="right", no_wrap=True)
    for seat, held in enumerate(view["held"]):
        tags = f" ({Text('parent', '親')(lang)})" if seat == view["parent"] else ""
        table.add_row(f"{subject_of(names, seat, lang)}{tags}", str(held["score"]), str(held["money"]),
                      points(view["totals"][seat], lang))
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


def redraw_at(view: Mapping[str, Any]) -> int | None:
    """A peek shows its card for its seconds only: the screen turns it face down at its end, whether or not
    the player has typed anything (`cli/terminal.py`)."""
    peek = view["peek"]
    if peek is not None and ("word" in peek or "question" in peek):
        return int(peek["until"])
    return None


def render(view: dict[str, Any], lang: Lang = "en", names: Sequence[str] = ()) -> RenderableType:
    """A panel with the phase, the rows, the white cards beside everyone's markers, and the word list."""
    number = (f"{Text('Question', '第')(lang)} {view['question']}/{view['rounds_total']}{'問' if lang == 'ja' else ''} — "
              if view["question"] else "")
    lines = [number + LABELS.phases[view["phase"]](lang)
             + f"   {Text('Field', '場')(lang)}: {view['field']['score']}/{view['field']['money']}   "
             f"{Text('Stock', 'ストック')(lang)}: {view['stock']['score']}/{view['stock']['money']}"]
    if view["memorise_until"] is not None:
        lines.append(Text(f"Memorise! The cards turn at {view['memorise_until'] / 1000:.0f} s.",
                          f"覚えてください。{view['memorise_until'] / 1000:.0f}秒でカードが裏返ります。")(lang))
    if view["asked"] is not None:
        lines.append(f"{Text('Asked', '出題')(lang)}: {_question(view, view['asked'], lang)}")
    if view["peek"] is not None and ("word" in view["peek"] or "question" in view["peek"]):
        peek = view["peek"]
        seen = _word(view, peek["word"], lang) if "word" in peek else _question(view, peek["question"], lang)
        left = max(0, peek["until"] - view["now"]) / 1000
        lines.append(f"{Text('You see', '見えているカード')(lang)} {card_name(peek['card'], lang)}: {seen} "
                     + Text(f"(for {left:.0f} s)", f"(あと{left:.0f}秒)")(lang))
    lines += _peek_note(view, lang)
    if view["pending"]:
        lines.append(Text("To deal: ", "配る正解カード: ")(lang) + ", ".join(_word(view, w, lang) for w in view["pending"]))
    if view["sheets"] is not None:
        lines.append(Text("Sheets: ", "記入: ")(lang) + "; ".join(
            f"{name_of(names, s, lang)}: {_CHOICE[sheet['choice']](lang)}"
            + (" " + " → ".join(view["deck"]["answers"][w][lang] for w in sheet["words"]) if sheet.get("words") else "")
            for s, sheet in enumerate(view["sheets"]) if sheet))
    if view["rounds"]:
        last = view["rounds"][-1]
        best = people(names, last["winners"], lang) if last["winners"] else Text("nobody", "なし")(lang)
        lines.append(f"{Text('Last question', '前の問題')(lang)}: {_question(view, last['asked'], lang)} — "
                     f"{Text('most correct', '最多正解')(lang)}: {best}")
    if view["result"] is not None:
        lines.append(f"{Text('Winner', '優勝')(lang)}: {subject_of(names, view['winner'], lang)}")
    beside = Table.grid(padding=(0, 2))
    beside.add_row(_board(view, lang), _seats(view, lang, names))
    side = Fit(beside, Group(_board(view, lang), _seats(view, lang, names)))  # stacked on a narrow terminal
    return Panel(Group("\n".join(lines), _rows(view, lang), side, _words(view, lang)),
                 title=Text("It's a QUIZ?", "くいずです")(lang))


def _peek_note(view: dict[str, Any], lang: Lang) -> list[str]:
    """Why a peeker cannot look: a look costs a marker per peeker, and the seat holds fewer (said while the
    sheets are written too, where a seat holds none)."""
    me = view.get("seat")
    if me is None:
        return []
    held = view["held"][me]["score"] + view["held"][me]["money"]
    if view["phase"] == "answer" and held == 0:
        return [Text("You hold no markers: if you pass and peek, you cannot look at a card (a look costs one "
                     "marker per peeker).",
                     "マーカーを持っていないので、パスして覗き見を選んでもカードは見られません(1枚につき覗き見する人数分の"
                     "マーカーが必要です)。")(lang)]
    cost = len(view["peekers"] or [])
    if view["phase"] == "peek" and me in (view["peekers"] or []) and held < cost:
        return [Text(f"You hold {held} marker(s) and a look costs {cost} (one per peeker): you can only stop.",
                     f"マーカーは {held} 個で、1枚見るには {cost} 個(覗き見する人数分)必要です。覗き見を終えるしかありません。")(lang)]
    return []


#: Each phase's moves keep their keys from question to question (`cli/terminal.py`), and a gift is 4 in
#: every phase that allows one, whether or not the seat still has markers to place.
ACTION_KEYS = {"ready": "1", "extend": "2", "place": "1", "pass": "2", "open": "1", "answer": "1",
               "secret_money": "2", "peek": "3", "look": "1", "show": "2", "stop": "3", "deal": "1", "move": "1",
               "swap": "2", "done": "3", "call": "1", "wait": "1", "give": "4"}


def choice_text(param: str, value: Any, view: dict[str, Any], lang: Lang, names: Sequence[str] = (),
                action: str = "") -> str | None:
    """A menu's words: a person by name, a word by its name, a card by where it lies, a question by its text."""
    if param in ("to", "cards", "card") and isinstance(value, int) and action not in ("show", "give"):
        white = view["board"][value] if "board" in view and 0 <= value < len(view["board"]) else None
        if white is None:
            return Text("empty place", "空いた位置")(lang)
        markers = white["markers"]
        if markers["score"] + markers["money"]:
            return Text(f"white card [{markers['score']}/{markers['money']}]",
                        f"白いカード [{markers['score']}/{markers['money']}]")(lang)
        return Text("white card", "白いカード")(lang)
    if param == "to" and isinstance(value, int):
        return name_of(names, value, lang)
    if param == "card" and isinstance(value, str):  # keyed "3-2" or "5": the words say which row or what
        kind, place, index = parse_target(value)
        if kind == "a":
            return Text(f"Q{place}, card {index + 1}", f"Q{place}の{index + 1}枚目")(lang)
        return Text("white card", "白いカード")(lang)
    if param in ("words", "word") and isinstance(value, int) and "deck" in view:
        return str(view["deck"]["answers"][value][lang])
    if param == "row" and isinstance(value, int) and "deck" in view:
        return _question(view, value, lang)
    if param == "kind" and value in _MARKER:
        return _MARKER[value](lang)
    return None


def choice_key(param: str, value: Any, view: dict[str, Any], action: str = "") -> str | None:
    """The key of a choice as the screen shows it: a word's number, a place, a question's number, a card's
    row-card ("3-2"); None (their place in the menu) for people and markers."""
    if param in ("words", "word", "row", "cards") and isinstance(value, int):
        return str(value)
    if param in ("card", "to") and isinstance(value, int) and action not in ("show", "give"):
        return str(value)
    if param == "card" and isinstance(value, str):
        return card_key(value)
    return None


def param_label(action: str, param: str, lang: Lang) -> str | None:
    """A parameter's label for one action ("To" is a place for a move, people for a show)."""
    text = _PARAMS.get((action, param))
    return None if text is None else text(lang)


def describe_event(event: dict[str, Any], lang: Lang = "en", names: Sequence[str] = (),
                   view: Mapping[str, Any] | None = None) -> str | None:
    """One line for each event a player follows, naming the seats by `names` (by number where there is none)
    and the words by the deck in `view` (by number without it): "Bot Aoi passes.", "ボット アオイはパス。"."""
    kind, d = event["type"], event["data"]
    ja = lang == "ja"

    def who(seat: int) -> str:
        return name_of(names, seat, lang)

    def subject(seat: int) -> str:
        return subject_of(names, seat, lang)

    def several(seats: list[int]) -> str:
        return people(names, seats, lang) if seats else ("なし" if ja else "nobody")

    def take() -> Text:
        takers = d["takers"]
        verb = "take" if len(takers) > 1 else agree(who(takers[0]), "takes", "take")
        if d["each"] == 0:  # the field's secret money does not go round: it stays where it is
            return Text(f"Secret money: too little on the field to share out among {several(takers)}, so nobody "
                        "takes any; it stays on the field.",
                        f"裏金: 場の裏金が{several(takers)}に行き渡らないため、誰も取れません(場に残ります)。")
        return Text(f"Secret money: {several(takers)} {verb} {d['each']} each.",
                    f"裏金: {several(takers)}が{d['each']}個ずつ取りました。")

    def kind_of(key: str) -> Text:
        return _KIND.get(d.get(key, ""), Text("", ""))

    def question(number: int) -> Text:
        if view is None or "deck" not in view:
            return Text(f"Q{number}", f"Q{number}")
        asked = view["deck"]["questions"][number]
        return Text(f"Q{number} “{asked['en']}”", f"Q{number}「{asked['ja']}」")

    def word(number: int) -> Text:
        return Text(_answer(view, number, "en"), _answer(view, number, "ja"))

    def scored() -> Text:
        best = d["winners"]
        line = Text(f"Most correct: {several(best)}.", f"最多正解: {several(best)}。")
        taken = [(s, n) for s, n in enumerate(d.get("taken", [])) if n]
        if taken:
            won = ", ".join(f"{who(s)} {n}" for s, n in taken)
            line = Text(f"{line.en} Score markers taken: {won}.", f"{line.ja}得点マーカーの獲得: {won}。")
        return line

    def sheets() -> Text:
        chosen = [(s, sheet["choice"]) for s, sheet in enumerate(d["sheets"])]
        return Text("The sheets are revealed: " + "; ".join(f"{who(s)}: {_CHOICE[c]('en')}" for s, c in chosen) + ".",
                    "記入が公開されました: " + "、".join(f"{who(s)}: {_CHOICE[c]('ja')}" for s, c in chosen) + "。")

    def vote() -> Text:
        if d["vote"] == "extend":
            return Text(f"{acts(names, d['seat'], lang, 'votes', 'vote')} to extend the memorising time.",
                        f"{who(d['seat'])}が記憶時間の延長に賛成しました。")
        return Text(f"{acts(names, d['seat'], lang, 'is', 'are')} done memorising.", f"{who(d['seat'])}は記憶完了。")

    def passed() -> Text:
        if d.get("no_markers"):
            return Text(f"{acts(names, d['seat'], lang, 'has', 'have')} no markers and {agree(who(d['seat']), 'passes', 'pass')}.",
                        f"{who(d['seat'])}はマーカーがないのでパス。")
        return Text(f"{acts(names, d['seat'], lang, 'passes', 'pass')}.", f"{who(d['seat'])}はパス。")

    lines: dict[str, Callable[[], Text]] = {
        "memorise_vote": vote,
        "cards_turned": lambda: Text("The cards are turned face down.", "カードが裏返されました。"),
        "memorise_extended": lambda: Text("Memorising time extended by 60 s.", "記憶の時間が60秒延長されました。"),
        "parent_drawn": lambda: Text(f"{acts(names, d['parent'], lang, 'is', 'are')} the first parent.",
                                     f"最初の親は{who(d['parent'])}です。"),
        "selection_started": lambda: Text(
            f"Question {d['question']}: the question is chosen; {who(d['parent'])} {agree(who(d['parent']), 'is', 'are')} "
            "the parent.", f"第{d['question']}問: 問題の選択。親は{who(d['parent'])}です。"),
        "placed": lambda: Text(f"{subject(d['seat'])} placed a {kind_of('kind')('en')} marker on place {d['card']}.",
                               f"{who(d['seat'])}が位置{d['card']}に{kind_of('kind')('ja')}マーカーを置きました。"),
        "passed": passed,
        "question_opened": lambda: Text(
            f"Question {d['question']}: the white card at place {d['card']} is {question(d['asked']).en}",
            f"第{d['question']}問: 位置{d['card']}の白いカードは {question(d['asked']).ja}。"),
        "field_filled": lambda: Text(f"{d['score']} score and {d['money']} secret-money markers go to the field.",
                                     f"場に得点マーカー{d['score']}個と裏金マーカー{d['money']}個が出ました。"),
        "field_cleared": lambda: Text(
            f"The last question: the field's markers ({d['score']} score, {d['money']} secret money) go back to the "
            "stock; the sole winner takes the prize.",
            f"最終問題: 場のマーカー(得点{d['score']}個・裏金{d['money']}個)はストックに戻り、単独勝者が賞を得ます。"),
        "sheet_written": lambda: Text(f"{acts(names, d['seat'], lang, 'has', 'have')} written a sheet.",
                                      f"{who(d['seat'])}が記入しました。"),
        "sheets_revealed": sheets,
        "secret_money_taken": take,
        "peeks_started": lambda: Text(f"Peeking: {several(d['peekers'])}; each card costs {d['cost']} marker(s).",
                                      f"覗き見: {several(d['peekers'])}。1枚につきマーカー{d['cost']}個。"),
        "looked": lambda: Text(f"{acts(names, d['seat'], lang, 'peeks', 'peek')} at {card_name(d['card'], 'en')}.",
                               f"{who(d['seat'])}が{card_name(d['card'], 'ja')}を覗き見ました。"),
        # Only which card: its content is in the view while the peek lasts (and the screen is cleared once
        # it is gone: `face_up`).
        "card_seen": lambda: Text(f"You see {card_name(d['card'], 'en')} (shown above while the peek lasts).",
                                  f"{card_name(d['card'], 'ja')}が見えます(覗き見の間だけ上に表示)。"),
        "card_shown": lambda: Text(f"{acts(names, d['seat'], lang, 'shows', 'show')} {card_name(d['card'], 'en')} "
                                   f"to {several(d['to'])}.",
                                   f"{who(d['seat'])}が{card_name(d['card'], 'ja')}を{several(d['to'])}に見せました。"),
        "peek_ended": lambda: Text("The peeked card is face down again.", "覗き見たカードは再び伏せられました。"),
        "peek_turn_ended": lambda: Text(f"{acts(names, d['seat'], lang, 'is', 'are')} done peeking.",
                                        f"{who(d['seat'])}の覗き見が終わりました。"),
        "row_opened": lambda: Text(
            f"Q{d['asked']}'s row: " + ", ".join(word(w).en for w in d["words"]) + ".",
            f"Q{d['asked']}の列: " + "、".join(word(w).ja for w in d["words"]) + "。"),
        "scored": scored,
        # Announced as at the table (全員にはっきりと告げます); the terminal clears it once the card is face down
        # and the player has read on (`face_up`, docs/rules/quiz.md).
        "card_dealt": lambda: Text(
            f"{word(d['word']).en[:1].upper()}{word(d['word']).en[1:]} goes face down to the end of Q{d['row']}'s row.",
            f"{word(d['word']).ja}を Q{d['row']}の列の末尾に伏せて置きました。"),
        "white_moved": lambda: Text(f"A white card moves from place {d['from']} to {d['to']}.",
                                    f"白いカードが位置{d['from']}から{d['to']}へ移動しました。"),
        "white_swapped": lambda: Text(f"The white cards at places {d['cards'][0]} and {d['cards'][1]} are swapped.",
                                      f"位置{d['cards'][0]}と{d['cards'][1]}の白いカードを入れ替えました。"),
        "given": lambda: Text(f"{acts(names, d['seat'], lang, 'gives', 'give')} {who(d['to'])} {d['score']} score and "
                              f"{d['money']} secret-money markers.",
                              f"{who(d['seat'])}が{who(d['to'])}に得点{d['score']}個・裏金{d['money']}個を渡しました。"),
        "tiebreak_started": lambda: Text(f"Tie-break between {several(d['seats'])}: call the face-down cards in turn.",
                                         f"同点決勝: {several(d['seats'])}。伏せられたカードを順に宣言してめくります。"),
        "called": lambda: Text(f"{acts(names, d['seat'], lang, 'calls', 'call')} {card_name(d['card'], 'en')} as "
                               f"{word(d['word']).en}: it is {word(d['actual']).en}.",
                               f"{who(d['seat'])}が{card_name(d['card'], 'ja')}を{word(d['word']).ja}と宣言: "
                               f"実際は{word(d['actual']).ja}。"),
        "match_over": lambda: Text(f"{acts(names, d['winner'], lang, 'wins', 'win')}.", f"{who(d['winner'])}の優勝です。"),
    }
    make = lines.get(kind)
    return None if make is None else make()(lang)


def describe_events(kind: str, events: list[dict[str, Any]], lang: Lang, names: Sequence[str] = ()) -> str | None:
    """Everyone's sheets and memorising votes, each as one line."""
    if kind not in ("sheet_written", "memorise_vote"):
        return None
    seats = [e["data"]["seat"] for e in events]
    if kind == "sheet_written":
        return Text(f"{people(names, seats, lang, start=True)} have written their sheets.", f"{people(names, seats, lang)}が記入しました。")(lang)
    if kind == "memorise_vote" and len({e["data"]["vote"] for e in events}) == 1:
        if events[0]["data"]["vote"] == "ready":
            return Text(f"{people(names, seats, lang, start=True)} are done memorising.", f"{people(names, seats, lang)}は記憶完了。")(lang)
        return Text(f"{people(names, seats, lang, start=True)} vote to extend the memorising time.",
                    f"{people(names, seats, lang)}が記憶時間の延長に賛成しました。")(lang)
    return None


def value_text(key: str, value: Any, lang: Lang, names: Sequence[str] = ()) -> str | None:
    """An answer card in a result ("a5.2") reads as its place: question 5's row, card 3."""
    if key == "card" and isinstance(value, str) and value[:1] in ("a", "w"):
        return card_name(value, lang)
    return None
