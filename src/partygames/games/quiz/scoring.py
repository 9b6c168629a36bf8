"""The pure rules of a question's outcome: judging an answer, splitting the field, the card targets."""

from __future__ import annotations

from collections.abc import Sequence

ROUNDS = 8  # ゲームは8ラウンド、つまり8問
PRIZE = 10**12
"""The question-8 prize, 1億万 points (「1億万点」): modelled as 10^12, shown as the seed writes it."""
FIELD_SCORE = FIELD_MONEY = 2  # 得点マーカーと裏金マーカー各2個を場に出し
STOCK_SCORE = STOCK_MONEY = 14  # 得点マーカー 14個, 裏金マーカー 14個


def judge(row: Sequence[int], words: Sequence[int]) -> int | None:
    """How many words an answer names correctly, or None when it is wrong: a word not in the row
    (一つでも正解カードと対応しないこと) or two words in the reverse of the row's order
    (順番がひっくりかえっている部分). Gaps are fine (抜けがあるのは構わない)."""
    place = {word: i for i, word in enumerate(row)}
    last = -1
    for word in words:
        where = place.get(word)
        if where is None or where < last:
            return None
        last = where
    return len(words)


def winners(counts: dict[int, int | None]) -> list[int]:
    """The seats with the most words among the answers that are not wrong (every such seat)."""
    correct = {seat: n for seat, n in counts.items() if n is not None}
    if not correct:
        return []
    best = max(correct.values())
    return sorted(seat for seat, n in correct.items() if n == best)


def split_secret_money(takers: int, field: int) -> tuple[int, int]:
    """(each taker's share, what stays on the field) of the field's secret money: one taker takes it
    all; two take one each (when there are two to take); three or more take nothing."""
    if takers == 1:
        return field, 0
    if takers == 2 and field >= 2:
        return 1, field - 2
    return 0, field


def answer_target(question: int, index: int) -> str:
    """The id of the answer card at `index` (0 nearest the question) of a question's row."""
    return f"a{question}.{index}"


def white_target(position: int) -> str:
    """The id of the white question card at a board position."""
    return f"w{position}"


def parse_target(target: str) -> tuple[str, int, int]:
    """("a", question, index) or ("w", position, 0) from a card id."""
    if target.startswith("a"):
        question, _, index = target[1:].partition(".")
        return "a", int(question), int(index)
    return "w", int(target[1:]), 0


def clockwise_from_left(parent: int, seats: int) -> list[int]:
    """Every seat from the parent's left, clockwise, the parent last (親の左隣から時計回り)."""
    return [(parent + k) % seats for k in range(1, seats + 1)]
