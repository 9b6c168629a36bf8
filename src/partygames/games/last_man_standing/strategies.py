"""Named strategies that `partygames analyze last-man-standing` compares with the game's two bots.

They are variants of the game's bots (they see only their seat's view), kept out of `GAME.bots` so that
tables offer the two bots players know. A strategy is named by an id: `heuristic` and `random` are the
game's bots; `keeper`, `lowest`, `highest` and `buy-10-q:<cap>` are described on `STRATEGY_TITLES`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from partygames.engine import Action, Bot, Observation, RandomBot
from partygames.engine.text import Text
from partygames.games.last_man_standing.bots import HeuristicBot
from partygames.games.last_man_standing.cards import MARKET_PRICES, RANK

# The ranks a card-value study at a table of heuristic players finds worth most (docs/rules/last-man-standing.md).
BUY_RANKS = frozenset({10, 11, 12})
BUY_PREFIX = "buy-10-q:"


class KeeperBot(HeuristicBot):
    """The heuristic bot valuing each fighter it keeps alive at its full share of the pot in every round."""

    survivor_weight = 1.0


class LowestFirstBot(Bot):
    """Hires the free card; plays its lowest card every round (what the time limit plays for an absent seat)."""

    highest = False

    def act(self, obs: Observation) -> Action:
        legal = obs.legal[0]
        if legal["type"] == "hire":
            return {"type": "hire", "slot": 0}
        cards: list[str] = legal["params"]["card"]["choice"]  # the hand, sorted low to high
        return {"type": "play", "card": cards[-1] if self.highest else cards[0]}


class HighestFirstBot(LowestFirstBot):
    """Hires the free card; plays its highest card every round."""

    highest = True


class BuyerBot(HeuristicBot):
    """The heuristic bot's play; in the draft, the cheapest 10, J or Q of the market costing at most `cap`
    (the free card when it is one, or when none is that cheap)."""

    cap = 0

    def _slot(self, view: dict[str, Any], slots: list[int]) -> int:
        for slot in slots:  # cheapest first: slot k costs MARKET_PRICES[k]
            if MARKET_PRICES[slot] <= self.cap and RANK[view["market"][slot]["card"]] in BUY_RANKS:
                return slot
        return 0


@cache
def buyer(cap: int) -> type[BuyerBot]:
    """The `buy-10-q:<cap>` strategy: a `BuyerBot` that pays at most `cap` for a hire."""
    return type(f"BuyerBot{cap}", (BuyerBot,), {"cap": cap})


_FIXED: dict[str, type[Bot]] = {"heuristic": HeuristicBot, "random": RandomBot, "keeper": KeeperBot,
                                "lowest": LowestFirstBot, "highest": HighestFirstBot}

STRATEGY_TITLES: dict[str, Text] = {
    "heuristic": Text("heuristic", "ヒューリスティック"),
    "random": Text("random", "ランダム"),
    "keeper": Text("keeper (values its survivors)", "生き残り重視"),
    "lowest": Text("lowest card first", "小さい順に出す"),
    "highest": Text("highest card first", "大きい順に出す"),
}


def strategy_bot(strategy: str) -> type[Bot]:
    """The bot class of a strategy id; raises KeyError for an unknown one."""
    if strategy.startswith(BUY_PREFIX):
        cap = strategy.removeprefix(BUY_PREFIX)
        if cap in {str(p) for p in MARKET_PRICES[1:]}:
            return buyer(int(cap))
    return _FIXED[strategy]


def strategy_title(strategy: str) -> Text:
    """A strategy's name in both languages."""
    if strategy.startswith(BUY_PREFIX):
        cap = strategy.removeprefix(BUY_PREFIX)
        return Text(f"buys 10-Q up to ${cap}", f"10〜Qを${cap}まで雇う")
    return STRATEGY_TITLES[strategy]
