"""The 52-card deck (no jokers), the set-up table and the card vocabulary of the seed.

A card is a short string, rank then suit: "2S", "10H", "QD", "AC". Ranks run 2 < 3 < ... < 10 <
J < Q < K < A (「ランクは、低い順に2 < 3 < ... < 10 < J < Q < K < Aです」).
"""

from __future__ import annotations

RANK_NAMES: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
DECK: tuple[str, ...] = tuple(f"{r}{s}" for s in SUITS for r in RANK_NAMES)
# Rank 2..14 (A is 14) of every card, looked up on the hot path instead of parsing.
RANK: dict[str, int] = {f"{r}{s}": i + 2 for s in SUITS for i, r in enumerate(RANK_NAMES)}

# Position of every card in rank order (suits S, H, D, C within a rank): hands are kept sorted by it.
ORDER: dict[str, int] = {f"{r}{s}": 4 * i + j for i, r in enumerate(RANK_NAMES) for j, s in enumerate(SUITS)}

ENTRY_FEE: dict[int, int] = {4: 15, 5: 16, 6: 18, 7: 20, 8: 22}
MARKET_PRICES: tuple[int, ...] = (0, 2, 4, 6)  # slot 0 is farthest from the deck
DEALT_CARDS = 2
HAND_SIZE = 6
ROUNDS = 5


SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_text(card: str) -> str:
    """The card as players write it, with its suit symbol ("5C": "5♣"), as the web client shows it."""
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


def rank(card: str) -> int:
    """The card's rank, 2 (deuce) to 14 (ace)."""
    return RANK[card]


def by_rank(cards: list[str]) -> list[str]:
    """The cards sorted low to high (suits in S, H, D, C order within a rank)."""
    return sorted(cards, key=ORDER.__getitem__)
