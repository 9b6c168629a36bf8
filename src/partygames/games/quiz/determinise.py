"""It's a QUIZ? matches a seat cannot tell from its own (docs/rules/quiz.md, Determinisation).

Markers, sheets once revealed, who looked where and every move are public; what lies under a face-down
card is not. A sample puts on each face-down card what the seat's record says it saw there last (its
`QuizRecall`: the table memorised, peeks, cards shown to it, cards dealt and moved in front of
everyone), and deals the words and questions it cannot pin uniformly over the places left. Other seats'
sealed sheets are drawn as a random player would write them."""

from __future__ import annotations

import random
from typing import Any

from partygames.engine.actions import sample
from partygames.engine.knowledge import Determiniser, SeatRecord, Template
from partygames.engine.match import Event, Match
from partygames.games.quiz.decks import ANSWERS, QUESTIONS
from partygames.games.quiz.recall import QuizRecall
from partygames.games.quiz.rules import GIVING_PHASES, QuizMatch
from partygames.games.quiz.scoring import ROUNDS

_STEP_PHASES = ("select", "open", "deal", "move", "tiebreak")  # time limits named `<phase>:<question>:<step>`


class QuizMemory(QuizRecall):
    """The recall of the information state (`QuizRecall`: what the seat saw last at each card place),
    and the words of the last question's row, which leave the game when it is opened."""

    def __init__(self, seat: int | None) -> None:
        super().__init__(seat)
        self.out: set[int] = set()

    def hear(self, event: Event) -> None:
        super().hear(event)
        if event.type == "row_opened" and event.data["question"] == ROUNDS:
            self.out = set(event.data["words"])


class QuizDeterminiser(Determiniser):
    """What the view shows and the record recalls, the rest dealt uniformly (see the module docstring)."""

    def __init__(self, record: SeatRecord) -> None:
        super().__init__(record)
        view, me, seats = self.view, self.seat, record.seats
        phase = view["phase"]
        recalled = self._recalled(record.memory)
        # Answer places: the word the view shows (open, or peeked now), else the one recalled, else unknown.
        answer_cards = [c for cards in view["rows"] if cards is not None for c in cards]
        words = iter(_pin([(c["card"], c["word"]) for c in answer_cards], recalled))
        rows: list[list[int | None] | None] = [None if cards is None else [next(words) for _ in cards]
                                               for cards in view["rows"]]
        whites = [w for w in view["board"] if w is not None]
        questions = iter(_pin([(w["card"], w["question"]) for w in whites], recalled))
        board: list[int | None] = [None if w is None else next(questions) for w in view["board"]]
        # Words not pinned: in a row (all but those waiting to be dealt, and the last question's, which left
        # the game when its row was opened) and questions not pinned (a question's white card is on the
        # board while its row is in the game).
        pending = view["pending"] or []
        pinned_words = {w for row in rows if row is not None for w in row if w is not None}
        out = record.memory.out if isinstance(record.memory, QuizMemory) else set()
        self.words = [w for w in range(ANSWERS) if w not in pinned_words and w not in pending and w not in out]
        self.word_places = [(q, i) for q, row in enumerate(rows) if row is not None for i, w in enumerate(row) if w is None]
        pinned_questions = {q for q in board if q is not None}
        self.questions = [q for q in range(QUESTIONS) if rows[q] is not None and q not in pinned_questions]
        self.white_places = [p for p, q in enumerate(board) if q is None and view["board"][p] is not None]
        # (More words than places only when the record missed the last row: which left is drawn too.)
        assert len(self.words) >= len(self.word_places) and len(self.questions) == len(self.white_places)
        memorising, answering, peeking = phase == "memorise", phase == "answer", phase == "peek"
        to_act, held = view["to_act"], view["held"]
        primary = view["turns"]
        peek = view["peek"]
        deadline = record.deadline
        step = 0  # only names the time limit (every action changes it): exact where the name shows it
        if deadline is not None and phase in _STEP_PHASES:
            step = int(deadline.phase.rsplit(":", 1)[1])
        memorise_from = 0
        if memorising and deadline is not None:
            memorise_from = view["memorise_until"] - round(deadline.seconds * 1000)
        tiebreak = view["tiebreak"]
        peekers = view["peekers"] or []
        self.state = Template({
            "board": board,
            "rows": rows,
            "phase": phase,
            "memorise_from": memorise_from,
            "memorise_until": view["memorise_until"] or 0,
            "extensions": view["extensions"],
            "votes": view["votes"] or [None] * seats,
            "parent": view["parent"],
            "question": view["question"],
            "stock": view["stock"],
            "field": view["field"],
            "held": held,
            "on_cards": [w["markers"] if w is not None else {"score": 0, "money": 0} for w in view["board"]],
            # Said `wait`: holds markers, may give, and is not awaited (one holding none: taken not to have).
            "waiting": [phase in GIVING_PHASES and s not in primary and s not in to_act
                        and held[s]["score"] + held[s]["money"] > 0 for s in range(seats)],
            "step": step,
            "turn": view["turn"],
            "passed": view["passed"] or [False] * seats,
            "asked": view["asked"],
            "asked_place": next((p for p, w in enumerate(view["board"]) if w is not None and w["open"]), None)
            if not memorising else None,
            "sheets": view["sheets"] if peeking else [view["my_sheet"] if s == me and answering else None
                                                      for s in range(seats)],
            "peekers": peekers,
            "peek_turn": peekers.index(view["peeker"]) if peeking else 0,
            "looks": view["looks"] or [0] * seats,
            "peek": None if peek is None else {"seat": peek["seat"], "target": peek["card"], "until": peek["until"],
                                               "shown_to": peek["shown_to"]},
            "pending": pending,
            "moves_left": view["moves_left"] or 0,
            "rounds": view["rounds"],
            "prize_winner": view["prize_winner"],
            "tiebreak": None if tiebreak is None else {
                "seats": tiebreak["seats"], "alive": tiebreak["alive"], "turn": tiebreak["turn"],
                "correct": tiebreak["correct"], "opened": [c["card"] for c in tiebreak["calls"]],
                "calls": tiebreak["calls"]},
            "winner": None,
            "termination": None,
        })
        # Another seat's sealed sheet: written (public) and not seen. (A seat that wrote may still be
        # awaited: it may give markers while the others write.)
        self.writers = [s for s in range(seats) if answering and s != me and view["written"][s]]

    @classmethod
    def memory(cls, seat: int) -> QuizMemory:
        return QuizMemory(seat)

    @staticmethod
    def _recalled(memory: object) -> dict[str, int]:
        """The record's card places and what it saw there last."""
        if not isinstance(memory, QuizRecall):
            return {}
        return {card: content for card, (content, _) in memory.cards.items()}

    def sample(self, rng: random.Random) -> Match:
        state: dict[str, Any] = self.state.copy()
        words = list(self.words)
        rng.shuffle(words)
        rows = state["rows"]
        for (q, i), word in zip(self.word_places, words, strict=False):
            rows[q][i] = word
        questions = list(self.questions)
        rng.shuffle(questions)
        board = state["board"]
        for place, question in zip(self.white_places, questions, strict=True):
            board[place] = question
        return self.assemble(state, rng, lambda match: self._draw_sheets(match, rng))

    def _draw_sheets(self, match: Match, rng: random.Random) -> None:
        """Another seat's sealed sheet, as the random bot writes it (an answer of random words, secret
        money or a peek, one spec each)."""
        assert isinstance(match, QuizMatch)
        for seat in self.writers:
            action = sample(match._primary_specs(seat), rng)
            kind = action["type"]
            match.sheets[seat] = {"choice": kind, "words": list(action["words"])} if kind == "answer" else {"choice": kind}


def _pin(places: list[tuple[str, int | None]], recalled: dict[str, int]) -> list[int | None]:
    """Each place's content: what the view shows, else what the record recalls there, else None (not
    pinned). A content recalled at two places, or recalled at one and shown at another (a record that
    missed a move), pins neither recalled place: a sample never holds a card twice."""
    shown = {value for _, value in places if value is not None}
    recalls = [recalled.get(card) if value is None else None for card, value in places]
    twice = {v for v in recalls if v is not None and (v in shown or recalls.count(v) > 1)}
    return [value if value is not None else None if recall in twice else recall
            for (_, value), recall in zip(places, recalls, strict=True)]
