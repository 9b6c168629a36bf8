"""A bot's memory of the cards its seat was shown: what it saw, when, among how many, and how likely it
is to recall it now. The bot feeds it only what its seat saw (the open table while memorising, then the
events addressed to it); nothing here reads the match."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class MemoryModel:
    """Recall of a card seen `age_ms` ago, among `load` cards seen at once, with `since` cards seen after it:
    `glance` x min(1, span / load) x 2^(-age / half_life) x interference^since."""

    glance: float = 0.95
    span: float = 12.0
    half_life_ms: float = 600_000.0
    interference: float = 0.995

    def recall(self, load: int, age_ms: int, since: int) -> float:
        p = self.glance * min(1.0, self.span / max(1, load))
        if math.isfinite(self.half_life_ms):
            p *= 0.5 ** (age_ms / self.half_life_ms)
        return p * self.interference ** since


PERFECT = MemoryModel(glance=1.0, span=math.inf, half_life_ms=math.inf, interference=1.0)
HUMAN = MemoryModel()


def constant(p: float) -> MemoryModel:
    """A memory that recalls every card with probability `p`, whenever and among however many it was seen."""
    return MemoryModel(glance=p, span=math.inf, half_life_ms=math.inf, interference=1.0)


@dataclass
class Trace:
    """One card as the seat last saw it."""

    content: int
    seen_at: int
    load: int
    index: int  # how many cards the seat had seen before this one


class Memory:
    """What a seat saw of each card (by card id: `aQ.I`, `wP`), with recall drawn from a `MemoryModel`.

    Whether a card is recalled is drawn once per card and question, so a bot does not remember a card
    at one moment and forget it the next within the same question."""

    def __init__(self, model: MemoryModel, rng: random.Random) -> None:
        self.model = model
        self.rng = rng
        self.traces: dict[str, Trace] = {}
        self.seen = 0
        self.question = 0
        self._drawn: dict[str, int | None] = {}

    def see(self, cards: dict[str, int], now: int) -> None:
        """Cards seen at once at `now` (card id -> content)."""
        for card, content in cards.items():
            self.traces[card] = Trace(content, now, len(cards), self.seen)
        self.seen += len(cards)
        for card in cards:
            self._drawn.pop(card, None)

    def forget(self, card: str) -> None:
        self.traces.pop(card, None)
        self._drawn.pop(card, None)

    def move(self, source: str, target: str) -> None:
        """A card seen moving: what was remembered at `source` is now remembered at `target`."""
        trace = self.traces.pop(source, None)
        drawn = self._drawn.pop(source, None)
        self.traces.pop(target, None)
        self._drawn.pop(target, None)
        if trace is not None:
            self.traces[target] = trace
            if drawn is not None:
                self._drawn[target] = drawn

    def new_question(self, question: int) -> None:
        if question != self.question:
            self.question = question
            self._drawn = {}

    def probability(self, card: str, now: int) -> float:
        trace = self.traces.get(card)
        if trace is None:
            return 0.0
        return self.model.recall(trace.load, now - trace.seen_at, self.seen - trace.index - 1)

    def recall(self, card: str, now: int) -> int | None:
        """The content the seat recalls for `card` now, or None."""
        if card not in self._drawn:
            trace = self.traces.get(card)
            hit = trace is not None and self.rng.random() < self.probability(card, now)
            self._drawn[card] = trace.content if hit and trace is not None else None
        return self._drawn[card]


def open_cards(view: dict[str, Any]) -> dict[str, int]:
    """Every card the view shows face up or peeked (card id -> word or question)."""
    cards: dict[str, int] = {}
    for row in view["rows"]:
        for card in row or ():
            if card["word"] is not None:
                cards[card["card"]] = card["word"]
    for white in view["board"]:
        if white is not None and white["question"] is not None:
            cards[white["card"]] = white["question"]
    return cards
