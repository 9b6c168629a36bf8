"""Bots that remember: each keeps a `Memory` of what its seat was shown (the open table while memorising,
then the events addressed to it) and recalls it through a memory model; `heuristic` forgets as a person
does, `perfect` forgets nothing. Neither ever reads a face-down card from the match."""

from __future__ import annotations

from typing import Any, ClassVar

from partygames.engine import Action, Bot, Event, Observation, Text, search
from partygames.games.quiz.decks import ANSWERS
from partygames.games.quiz.memory import HUMAN, PERFECT, Memory, MemoryModel, constant, open_cards
from partygames.games.quiz.scoring import ROUNDS

MAX_PLACEMENTS = 2  # markers a bot places per selection
MAX_LOOKS = 2  # cards a bot peeks at per peeking turn


class MemoryBot(Bot):
    """The heuristic strategy on top of a memory model (`model`, a class attribute per kind)."""

    model: ClassVar[MemoryModel] = HUMAN

    def __init__(self, seat: int, seed: int = 0) -> None:
        super().__init__(seat, seed)
        self.memory = Memory(self.model, self.rng)
        self.memorised = False
        self.placed = 0
        self.looked = 0
        self.now = 0

    # -- memory: only what the seat is shown --------------------------------------------------------
    def observe(self, event: Event) -> None:
        data = event.data
        kind = event.type
        if kind == "card_seen":
            content = data["word"] if "word" in data else data["question"]
            self.memory.see({data["card"]: content}, self.now)
        elif kind == "card_dealt":
            self.memory.see({f"a{data['row']}.{data['index']}": data["word"]}, self.now)
        elif kind == "question_opened":
            self.memory.forget(f"w{data['card']}")
            self.memory.new_question(data["question"])
            self.placed = 0
        elif kind == "row_opened":
            for i in range(len(data["words"])):
                self.memory.forget(f"a{data['asked']}.{i}")
        elif kind == "white_moved":
            self.memory.move(f"w{data['from']}", f"w{data['to']}")
        elif kind == "white_swapped":
            a, b = data["cards"]
            self.memory.move(f"w{a}", "swap")
            self.memory.move(f"w{b}", f"w{a}")
            self.memory.move("swap", f"w{b}")
        elif kind == "peeks_started":
            self.looked = 0

    # -- what the bot believes ------------------------------------------------------------------------
    def recalled_row(self, view: dict[str, Any], question: int) -> list[int]:
        """The words the seat recalls in a row, nearest the question first."""
        row = view["rows"][question] or []
        words = [self.memory.recall(card["card"], self.now) for card in row]
        return [w for w in words if w is not None]

    def white_question(self, card: str) -> int | None:
        return self.memory.recall(card, self.now)

    def knowledge(self, view: dict[str, Any], white: dict[str, Any]) -> float:
        """How many words the seat expects to recall if this white card is asked (0 if it cannot tell
        which question it is)."""
        question = self.white_question(white["card"])
        if question is None or view["rows"][question] is None:
            return 0.0
        return sum(self.memory.probability(c["card"], self.now) for c in view["rows"][question])

    # -- decisions ------------------------------------------------------------------------------------
    def act(self, obs: Observation) -> Action | None:
        self.now = obs.now
        types = {s["type"]: s for s in obs.legal}
        view = obs.view
        self.memory.new_question(view["question"])
        if view["phase"] == "memorise":
            if not self.memorised:
                self.memory.see(open_cards(view), obs.now)
                self.memorised = True
            return {"type": "ready"}
        primary = [t for t in types if t not in ("give", "wait")]
        if not primary:
            # A bystander: this bot gives nothing away, and says so, so that no table waits for it.
            return {"type": "wait"} if "wait" in types else None
        phase = view["phase"]
        if phase == "select":
            return self._select(view, types)
        if phase == "open":
            whites = {w["card"]: w for w in view["board"] if w is not None}
            cards = types["open"]["params"]["card"]["choice"]
            return {"type": "open", "card": max(cards, key=lambda p: self.knowledge(view, whites[f"w{p}"]))}
        if phase == "answer":
            return self._answer(view, obs.seat)
        if phase == "peek":
            return self._peek(view, types)
        if phase == "deal":
            return {"type": "deal", "row": types["deal"]["params"]["row"]["choice"][0]}
        if phase == "move":
            return {"type": "done"}
        if phase == "tiebreak":
            return self._call(types)
        return None

    def _select(self, view: dict[str, Any], types: dict[str, Any]) -> Action:
        """Secret money on the white card it knows least, so that a card it knows better is asked."""
        place = types.get("place")
        if place is None or self.placed >= MAX_PLACEMENTS or "money" not in place["params"]["kind"]["choice"]:
            return {"type": "pass"}
        whites = [w for w in view["board"] if w is not None and not w["open"]]
        scored = sorted(whites, key=lambda w: (self.knowledge(view, w), w["card"]))
        worst, best = scored[0], scored[-1]
        if self.knowledge(view, best) <= self.knowledge(view, worst):
            return {"type": "pass"}
        if _markers(best) < _markers(worst):
            return {"type": "pass"}  # the best card is already the least marked
        self.placed += 1
        return {"type": "place", "card": int(worst["card"][1:]), "kind": "money"}

    def _answer(self, view: dict[str, Any], seat: int) -> Action:
        asked = view["asked"]
        words = self.recalled_row(view, asked)
        if words:
            return {"type": "answer", "words": words[:10]}
        if view["question"] == ROUNDS:
            return {"type": "answer", "words": [self.rng.randrange(ANSWERS)]}  # nothing else can win
        held = view["held"][seat]
        others_with_markers = sum(1 for s, h in enumerate(view["held"]) if s != seat and h["score"] + h["money"])
        if held["money"] + held["score"] >= 3 and held["money"] >= 2 and others_with_markers <= 1:
            return {"type": "peek"}
        return {"type": "secret_money"}

    def _peek(self, view: dict[str, Any], types: dict[str, Any]) -> Action:
        look = types.get("look")
        if look is None or self.looked >= MAX_LOOKS or look["params"]["paid_money"]["min"] > 0:
            return {"type": "stop"}  # pays with secret money only: score markers are points
        asked = view["asked"]
        unknown = [c for c in look["params"]["card"]["choice"]
                   if c.startswith("a") and not c.startswith(f"a{asked}.") and self.memory.recall(c, self.now) is None]
        if not unknown:
            return {"type": "stop"}
        self.looked += 1
        return {"type": "look", "card": self.rng.choice(unknown), "paid_money": look["params"]["paid_money"]["max"]}

    def _call(self, types: dict[str, Any]) -> Action:
        cards = types["call"]["params"]["card"]["choice"]
        known = [(self.memory.probability(c, self.now), c) for c in cards if self.memory.recall(c, self.now) is not None]
        if known:
            card = max(known)[1]
            word = self.memory.recall(card, self.now)
            assert word is not None
            return {"type": "call", "card": card, "word": word}
        return {"type": "call", "card": cards[0], "word": self.rng.randrange(ANSWERS)}


def _markers(white: dict[str, Any]) -> int:
    return int(white["markers"]["score"] + white["markers"]["money"])


class HeuristicBot(MemoryBot):
    """Forgets as a person does: a card seen among forty is recalled far less than one peeked at alone."""

    title = Text("heuristic, human-like memory", "ヒューリスティック・人並みの記憶")
    model = HUMAN


class PerfectBot(MemoryBot):
    """The same play with perfect recall of everything its seat was shown."""

    title = Text("perfect recall", "完全記憶")
    model = PERFECT


def recall_bot(p: float) -> type[MemoryBot]:
    """A bot kind recalling each card it saw with probability `p` (for the analysis)."""
    return type(f"Recall{round(p * 100)}Bot", (MemoryBot,), {"model": constant(p)})


class SearchBot(search.SearchBot):
    """The search bot (`engine/search.py`) with the `perfect` bot as prior and rollout policy: a program
    remembers everything its seat was shown (its record and its drawn worlds do, too)."""

    policy = "perfect"
