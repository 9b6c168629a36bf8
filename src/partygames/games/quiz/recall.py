"""A seat's perfect recall of It's a QUIZ?, for the information state (docs/rules/quiz.md, Encoding): the
last face it saw at each card place and in which question, who was seen looking at each card, and every
revealed answer sheet. Fed the seat's first view (the open table while memorising) and then only the
events the seat may see, as the bots' `memory.Memory` is; it never reads the match, and no view ever
carries it (a view goes to a player's browser, which must not hold the notes the seed forbids).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from partygames.engine.encoding import Recall
from partygames.engine.match import Event
from partygames.games.quiz.memory import open_cards
from partygames.games.quiz.scoring import ROUNDS, answer_target, white_target


class QuizRecall(Recall):
    """What `seat` (None: a spectator, who hears only public events) was shown. Cards are named by their
    place, as in the views (`aQ.I`, `wP`); each entry is `[content, question]`: the word or question the
    seat last saw there and the question during which it saw it (0: while memorising). A white card seen
    moving takes its entry along; a card leaving the game (its row asked, its white card used) drops it."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.question = 0
        self.cards: dict[str, list[int]] = {}
        self.seen_by: dict[str, list[int]] = {}  # card -> seats seen looking at it or shown it (public)
        self.sheets: list[list[dict[str, Any]] | None] = [None] * ROUNDS  # each question's revealed sheets

    def see(self, view: Mapping[str, Any]) -> None:
        self.question = view["question"]
        for card, content in open_cards(dict(view)).items():
            self.cards[card] = [content, self.question]

    def hear(self, event: Event) -> None:
        data, kind = event.data, event.type
        if kind == "selection_started":
            self.question = data["question"]
        elif kind == "card_seen":  # a peek: mine, or shown to me
            self.cards[data["card"]] = [data["word"] if "word" in data else data["question"], self.question]
        elif kind == "looked":
            self._seen_by(data["card"], [data["seat"]])
        elif kind == "card_shown":
            self._seen_by(data["card"], data["to"])
        elif kind == "question_opened":
            self.question = data["question"]
            self.cards[white_target(data["card"])] = [data["asked"], self.question]
        elif kind == "sheets_revealed":
            self.sheets[data["question"] - 1] = [dict(s) for s in data["sheets"]]
        elif kind == "row_opened":  # the row and its white card leave the game; the words are dealt next
            asked = data["asked"]
            gone = [answer_target(asked, i) for i in range(len(data["words"]))]
            gone += [c for c, (content, _) in self.cards.items() if c.startswith("w") and content == asked]
            for card in gone:
                self.cards.pop(card, None)
                self.seen_by.pop(card, None)
        elif kind == "card_dealt":  # announced to everyone (その正解カードと配置先の列を全員にはっきりと告げます)
            self.cards[answer_target(data["row"], data["index"])] = [data["word"], self.question]
        elif kind == "white_moved":
            self._move(white_target(data["from"]), white_target(data["to"]))
        elif kind == "white_swapped":
            a, b = (white_target(p) for p in data["cards"])
            self._move(a, "swap")
            self._move(b, a)
            self._move("swap", b)
        elif kind == "called":  # the tie-break turns the called card face up
            self.cards[data["card"]] = [data["actual"], self.question]

    def _seen_by(self, card: str, seats: list[int]) -> None:
        self.seen_by[card] = sorted({*self.seen_by.get(card, ()), *seats})

    def _move(self, source: str, target: str) -> None:
        for record in (self.cards, self.seen_by):
            entry = record.pop(source, None)
            record.pop(target, None)
            if entry is not None:
                record[target] = entry

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "question": self.question, "cards": self.cards, "seen_by": self.seen_by,
                "sheets": self.sheets}
