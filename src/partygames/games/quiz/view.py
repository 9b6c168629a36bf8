"""What one seat of It's a QUIZ? may know now: after memorising, a face-down card shows its content
only to the seat peeking at it (and the seats it shows it to), while the peek lasts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from partygames.games.quiz.scoring import ROUNDS, answer_target, white_target

if TYPE_CHECKING:
    from partygames.games.quiz.rules import QuizMatch


def sees(match: QuizMatch, seat: int | None, target: str) -> bool:
    """Whether `seat` is looking at a face-down card now: its own peek, or one shown to it."""
    peek = match.peek
    return peek is not None and seat is not None and peek["target"] == target and (
        peek["seat"] == seat or seat in peek["shown_to"])

def seat_view(match: QuizMatch, seat: int | None) -> dict[str, Any]:
    memorising = match.phase == "memorise"
    opened = set(match.tiebreak["opened"]) if match.tiebreak else set()
    rows: list[list[dict[str, Any]] | None] = []
    for q, row in enumerate(match.rows):
        if row is None:
            rows.append(None)
            continue
        cards = []
        for i, word in enumerate(row):
            target = answer_target(q, i)
            open_ = memorising or target in opened
            cards.append({"card": target, "word": word if open_ or sees(match, seat, target) else None,
                          "open": open_})
        rows.append(cards)
    board: list[dict[str, Any] | None] = []
    for p, white in enumerate(match.board):
        if white is None:
            board.append(None)
            continue
        open_ = memorising or p == match.asked_place
        board.append({"card": white_target(p), "question": white if open_ or sees(match, seat, white_target(p)) else None,
                      "open": open_, "markers": dict(match.on_cards[p])})
    peek = None
    if match.peek is not None:
        peek = {"seat": match.peek["seat"], "card": match.peek["target"], "until": match.peek["until"],
                "shown_to": list(match.peek["shown_to"])}
        if sees(match, seat, match.peek["target"]):
            peek.update(match.content(match.peek["target"]))
    answering = match.phase == "answer"
    tb = match.tiebreak
    return {
        "phase": match.phase,
        "now": match.now,  # match time of this view, for the countdowns to `until` and `memorise_until`
        "question": match.question,
        "rounds_total": ROUNDS,
        "deck": match.deck.to_json(),
        "rows": rows,
        "board": board,
        "asked": match.asked,
        "parent": match.parent,
        "turn": match.turn if match.phase == "select" else None,
        "passed": list(match.passed) if match.phase == "select" else None,
        "stock": dict(match.stock),
        "field": dict(match.field),
        "held": [dict(h) for h in match.held],
        "memorise_until": match.memorise_until if memorising else None,
        "extensions": match.extensions,
        "votes": list(match.votes) if memorising else None,
        "written": [s is not None for s in match.sheets] if answering else None,
        "my_sheet": match.sheets[seat] if answering and seat is not None else None,
        "sheets": [dict(s) if s else None for s in match.sheets] if match.phase == "peek" else None,
        "peekers": list(match.peekers) if match.phase == "peek" else None,
        "peeker": match.peekers[match.peek_turn] if match.phase == "peek" else None,
        "peek_cost": len(match.peekers) if match.phase == "peek" else None,
        "looks": list(match.looks) if match.phase == "peek" else None,
        "peek": peek,
        "pending": list(match.pending) if match.phase == "deal" else None,
        "shortest_rows": match.shortest_rows() if match.phase == "deal" else None,
        "moves_left": match.moves_left if match.phase == "move" else None,
        "rounds": [dict(r) for r in match.rounds],
        "totals": match.totals(),
        "prize_winner": match.prize_winner,
        "tiebreak": None if tb is None else {"seats": list(tb["seats"]), "alive": list(tb["alive"]),
                                             "turn": tb["turn"] if match.phase == "tiebreak" else None,
                                             "correct": list(tb["correct"]), "calls": [dict(c) for c in tb["calls"]]},
        "winner": match.winner,
    }

