"""It's a QUIZ? for learning agents: the observation vector of a seat's view, the information state, and
the action codec (layouts in docs/rules/quiz.md, Encoding).

The observation is the table as the seat sees it now: while memorising, every card; afterwards only the
cards open to everyone and the one it peeks at (or is shown). What it saw before is not in its view: a
view holding it would hold the whole table (everything is seen while memorising and every later move is
public) and hand it to every browser. The information state adds it from a `QuizRecall` that whoever
steps the match keeps for the seat from the seat's first view and the events it may see
(`recalled_state`); the research adapters do (docs/rl.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any

import numpy as np

from partygames.engine.actions import Action, ActionSpec
from partygames.engine.encoding import (
    _PLAIN,
    BOUND,
    MASK_CACHE,
    ActionCodec,
    Encoder,
    Layout,
    Mask,
    Move,
    Recall,
    Vector,
    Writer,
    one_hot,
)
from partygames.engine.match import Match
from partygames.engine.options import Options
from partygames.games.quiz.decks import ANSWERS, QUESTIONS
from partygames.games.quiz.options import QuizOptions
from partygames.games.quiz.recall import QuizRecall
from partygames.games.quiz.rules import BOARD, KINDS, MAX_ANSWER, MAX_EXTENSIONS, QuizMatch
from partygames.games.quiz.scoring import (
    PRIZE,
    ROUNDS,
    STOCK_SCORE,
    answer_target,
    parse_target,
    white_target,
)
from partygames.games.quiz.view import sees

assert KINDS == ("score", "money"), "observe_match writes the markers of each kind in this order"
PHASES = ("memorise", "select", "open", "answer", "peek", "deal", "move", "tiebreak", "over")
CHOICES = ("answer", "secret_money", "peek")
VOTES = ("ready", "extend")
#: Marker counts are divided by the stock of a kind (14); totals too (question 8's prize is clipped).
MARKERS = float(STOCK_SCORE)
#: Every answer card a row can hold, and every white card: what `look` and `call` name.
ANSWER_CARDS = [answer_target(q, i) for q in range(QUESTIONS) for i in range(MAX_ANSWER)]
CARDS = [*ANSWER_CARDS, *(white_target(p) for p in range(BOARD))]
#: Gifts and payments in thirds of what the seat holds: none, half, all.
GIFT_LEVELS = (0.0, 0.5, 1.0)
#: Look payments: as few secret-money markers as the seat can, or as many.
PAY_LEVELS = (0.0, 1.0)
#: Answers the codec writes: every word alone and every ordered pair (a longer answer is cut to its first
#: two words by `nearest`: a prefix of a right answer is right).
ANSWER_LENGTH = 2


#: Types whose masks `QuizCodec.mask` looks up combination by combination: a card to open, a row to deal
#: to, a card and a kind to place, a card and a place to move to (at most 60 combinations).
_DIRECT = frozenset({"open", "deal", "place", "move"})


def _places(params: dict[str, Any], name: str, listed: str = "choice") -> list[int] | None:
    """The places a parameter offers (its choice or sequence), or None when it has another shape or a value
    that is no place (left to the generic mask)."""
    param = params.get(name)
    values = None if param is None else param.get(listed)
    if values is None or not all(type(v) is int and 0 <= v < BOARD for v in values):
        return None
    return values  # type: ignore[no-any-return]


def _card_index(card: str) -> int:
    kind, a, b = parse_target(card)
    return a * MAX_ANSWER + b if kind == "a" else len(ANSWER_CARDS) + a


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _key(kind: str, fixed: Mapping[str, Any]) -> tuple[Any, ...]:
    return (kind, *sorted((name, _frozen(v)) for name, v in fixed.items()))


class QuizCodec(ActionCodec):
    """An `ActionCodec` that finds a move of fixed parameters by lookup (an answer among 900, a tie-break
    call among 3,000), brings an action it cannot express to the nearest it can, and reads a gift's levels
    as shares of what the seat holds across both `give` specs (a gift moves at least one marker: none of
    either is never legal). (Every codec remembers the masks of the specs it met: here the answer's spec is
    the same at every question, and checking 900 word lists each time was most of a random rollout's cost.)"""

    def __init__(self, moves: Sequence[Move]) -> None:
        super().__init__(moves)
        self._fixed = {_key(m.type, m.fixed): i for i, m in enumerate(self.moves) if not m.scaled}
        self._scaled_types = {m.type for m in self.moves if m.scaled}
        self._gifts = self._by_type.get("give", [])
        # Worked out directly (`mask`): the types without parameters, the types of one or two choices of few
        # combinations, the swaps (pairs of places, smaller first), and the gifts remembered per offer.
        self._plain = {kind: indices for kind, indices in self._by_type.items()
                       if all(not self.moves[i].fixed and not self.moves[i].scaled for i in indices)}
        # Per pair of distinct places (a card's and another, the smaller first for a swap), the move between
        # them and the swap of them: every such pair has both.
        self._move_at = [[-1] * BOARD for _ in range(BOARD)]
        self._swap_at = [[-1] * BOARD for _ in range(BOARD)]
        for i, m in enumerate(self.moves):
            if m.type == "move":
                self._move_at[m.fixed["card"]][m.fixed["to"]] = i
            elif m.type == "swap":
                a, b = m.fixed["cards"]
                self._swap_at[a][b] = i
        assert all((self._move_at[a][b] >= 0) == (a != b) and (self._swap_at[a][b] >= 0) == (a < b)
                   for a in range(BOARD) for b in range(BOARD))
        self._gift_masks: dict[tuple[Any, ...], list[int]] = {}

    def mask(self, specs: Sequence[ActionSpec]) -> Mask:
        """The generic mask (remembered by the specs' values) for the answer and the rarer specs; worked out
        directly for the rest: a table meets ever new lists of cards to open, rows to deal to and places to
        move between, more than a cache keeps, while each takes a few lookups."""
        allowed: list[int] = []
        generic: list[ActionSpec] = []
        gifts = False
        for spec in specs:
            kind = spec["type"]
            params = spec["params"]
            if kind == "move":
                cards, places = _places(params, "card"), _places(params, "to")
                if cards is not None and places is not None and len(params) == 2:
                    move_at = self._move_at
                    allowed += [move_at[a][b] for a in cards for b in places if a != b]
                    continue
            elif kind in _DIRECT:
                found = self._keyed_moves(kind, params)
                if found is not None:
                    allowed += found
                    continue
            elif kind == "swap":
                cards = _places(params, "cards", "sequence")
                if cards is not None and len(params) == 1 and params["cards"]["min_len"] <= 2 <= params["cards"]["max_len"]:
                    swap_at = self._swap_at
                    allowed += [swap_at[a][b] for a in cards for b in cards if a < b]
                    continue
            elif kind == "give":
                gifts = True
                continue
            elif not params and kind in self._plain:
                allowed += self._plain[kind]
                continue
            generic.append(spec)
        mask = super().mask(generic) if generic else np.zeros(len(self.moves), dtype=np.int8)
        mask[allowed] = 1
        if gifts:
            mask[self._gift_moves(specs)] = 1
        return mask

    def _keyed_moves(self, kind: str, params: dict[str, Any]) -> list[int] | None:
        """The moves a spec of choices allows, looked up combination by combination (None: a spec of
        another shape, left to the generic mask)."""
        keyed = self._keyed.get(kind)
        if keyed is None or keyed.scaled or len(params) != len(keyed.names):
            return None
        choices = []
        for name in keyed.names:
            param = params.get(name)
            if param is None or "choice" not in param:
                return None
            choices.append([(type(v), v) for v in param["choice"] if type(v) in _PLAIN])
        table = keyed.table
        return [i for combination in product(*choices) for i in table.get(combination, ())]

    def _gift_moves(self, specs: Sequence[ActionSpec]) -> list[int]:
        """The gift moves `specs` allow (`_gift`), remembered per offer: each `give` spec's seats and ranges."""
        key = tuple((tuple(p["to"]["choice"]), p["score"]["min"], p["score"]["max"], p["money"]["min"],
                     p["money"]["max"]) for spec in specs if spec["type"] == "give"
                    for p in (spec["params"],))
        known = self._gift_masks.get(key)
        if known is None:
            known = [i for i in self._gifts if self._gift(self.moves[i], specs) is not None]
            if len(self._gift_masks) >= MASK_CACHE:
                self._gift_masks.clear()
            self._gift_masks[key] = known
        return known

    @staticmethod
    def _gift(move: Move, specs: Sequence[ActionSpec]) -> Action | None:
        """The gift `move` stands for: its levels of the most of each kind any `give` spec allows, if a
        spec allows the result (None otherwise: not legal now)."""
        gifts = [spec["params"] for spec in specs if spec["type"] == "give"]
        if not gifts:
            return None
        action: Action = {"type": "give", **move.fixed}
        for name, fraction in move.scaled.items():
            action[name] = int(fraction * max(params[name]["max"] for params in gifts))
        allowed = any(action["to"] in params["to"]["choice"] and all(
            params[name]["min"] <= action[name] <= params[name]["max"] for name in move.scaled) for params in gifts)
        return action if allowed else None

    def decode(self, index: int, specs: Sequence[ActionSpec]) -> Action | None:
        move = self.moves[int(index)]
        return self._gift(move, specs) if move.type == "give" else super().decode(index, specs)

    def encode(self, action: Mapping[str, Any], specs: Sequence[ActionSpec]) -> int | None:
        kind = str(action.get("type"))
        if kind == "give":
            return next((i for i in self._gifts if self._gift(self.moves[i], specs) == dict(action)), None)
        if kind in self._scaled_types:
            return super().encode(action, specs)
        i = self._fixed.get(_key(kind, {k: v for k, v in action.items() if k != "type"}))
        return i if i is not None and self.moves[i].resolve(specs) == dict(action) else None

    def nearest(self, action: Mapping[str, Any], specs: Sequence[ActionSpec]) -> int | None:
        near = dict(action)
        if near.get("type") == "give":
            exact = self.encode(near, specs)
            if exact is not None:
                return exact
            # The legal gift to the same seat whose counts are nearest.
            options = [(i, self._gift(self.moves[i], specs)) for i in self._gifts]
            scored = [(abs(g["score"] - near.get("score", 0)) + abs(g["money"] - near.get("money", 0)), i)
                      for i, g in options if g is not None and g["to"] == near.get("to")]
            return min(scored)[1] if scored else None
        if near.get("type") == "answer":
            near["words"] = list(near["words"])[:ANSWER_LENGTH]
        elif near.get("type") == "swap":
            near["cards"] = sorted(near["cards"])
        elif near.get("type") == "show":
            near["to"] = list(near["to"])[:1]
        return super().nearest(near, specs)


def moves(seats: int) -> list[Move]:
    """The codec's table: every phase's actions, with every place, card, word and seat they can name."""
    places, rows, words = range(BOARD), range(QUESTIONS), range(ANSWERS)
    return [
        Move("ready"), Move("extend"),
        *(Move("place", {"card": p, "kind": k}) for p in places for k in KINDS), Move("pass"),
        *(Move("open", {"card": p}) for p in places),
        *(Move("answer", {"words": [w]}) for w in words),
        *(Move("answer", {"words": [a, b]}) for a in words for b in words if a != b),
        Move("secret_money"), Move("peek"),
        *(Move("look", {"card": c}, {"paid_money": f}) for c in CARDS for f in PAY_LEVELS),
        *(Move("show", {"to": [s]}) for s in range(seats)), Move("stop"),
        *(Move("deal", {"row": q}) for q in rows),
        *(Move("move", {"card": a, "to": b}) for a in places for b in places if a != b),
        *(Move("swap", {"cards": [a, b]}) for a in places for b in places if a < b), Move("done"),
        *(Move("call", {"card": c, "word": w}) for c in ANSWER_CARDS for w in words),
        *(Move("give", {"to": s}, {"score": fs, "money": fm}) for s in range(seats)
          for fs in GIFT_LEVELS for fm in GIFT_LEVELS),
        Move("wait"),
    ]


class QuizEncoder(Encoder):
    def __init__(self, seats: int, options: Options) -> None:
        super().__init__(seats, options)
        assert isinstance(options, QuizOptions)
        self.memorise_ms = options.memorise_seconds * 1000
        self.peek_ms = options.peek_seconds * 1000
        n, q, lq = seats, QUESTIONS, QUESTIONS * MAX_ANSWER
        self.layout = Layout((
            ("me", n), ("phase", len(PHASES)), ("question", 1), ("asked", q), ("parent", n), ("turn", n),
            ("passed", n), ("stock", 2), ("field", 2), ("held", 2 * n), ("totals", n),
            ("memorise_left", 1), ("extensions", 1), ("voted", n), ("my_vote", len(VOTES)),
            ("written", n), ("my_sheet", len(CHOICES)), ("sheets", len(CHOICES) * n),
            ("peekers", n), ("peeker", n), ("peek_cost", 1), ("looks", n),
            ("peek_seat", n), ("peek_card", len(CARDS)), ("peek_left", 1), ("shown_to", n),
            ("pending", ANSWERS), ("shortest_rows", q), ("moves_left", 1),
            ("row_present", q), ("row_length", q), ("card_open", lq), ("card_word", lq * ANSWERS),
            ("white_present", BOARD), ("white_open", BOARD), ("white_question", BOARD * q),
            ("white_markers", BOARD * len(KINDS)),
            ("tiebreak_seats", n), ("tiebreak_alive", n), ("tiebreak_turn", n), ("tiebreak_correct", n),
            ("last_correct", n), ("last_wrong", n), ("last_winners", n), ("winner", n), ("prize_winner", n),
        ))
        slices = self.layout.slices()
        self._at = {name: part.start for name, part in slices.items()}  # where each part begins
        spans = {name: list(range(part.start, part.stop)) for name, part in slices.items()}
        assert slices["stock"].stop == slices["field"].start and slices["held"].stop == slices["totals"].start
        self._places = {"passed": spans["passed"], "looks": spans["looks"], "tiebreak_correct": spans["tiebreak_correct"],
                        "markers": spans["stock"] + spans["field"] + spans["held"] + spans["totals"],
                        "last": spans["last_correct"] + spans["last_wrong"]}
        r = ROUNDS
        # The parts the information state adds after the observation.
        self.recall_layout = Layout((
            ("recall_word", lq * ANSWERS), ("recall_word_when", lq),
            ("recall_question", BOARD * q), ("recall_question_when", BOARD),
            ("seen_by", len(CARDS) * n),
            ("history_asked", r * q), ("history_choices", r * n * len(CHOICES)),
            ("history_words", r * n * ANSWERS), ("history_correct", r * n), ("history_winners", r * n),
        ))
        self._information = Layout((*self.layout.parts, *self.recall_layout.parts))
        self.codec = QuizCodec(moves(n))

    def observe(self, view: Mapping[str, Any]) -> Vector:
        n, seat = self.seats, view["seat"]
        w = Writer(self.layout)
        now = view["now"]
        w.put("me", one_hot(seat, n))
        w.put("phase", one_hot(PHASES.index(view["phase"]), len(PHASES)))
        w.put("question", [view["question"] / ROUNDS])
        w.put("asked", one_hot(view["asked"], QUESTIONS))
        w.put("parent", one_hot(view["parent"], n))
        w.put("turn", one_hot(view["turn"], n))
        w.put_hot("passed", (s for s, p in enumerate(view["passed"] or ()) if p), n)
        w.put("stock", [view["stock"][k] / MARKERS for k in KINDS])
        w.put("field", [view["field"][k] / MARKERS for k in KINDS])
        w.put("held", [h[k] / MARKERS for h in view["held"] for k in KINDS])
        w.put("totals", [t / MARKERS for t in view["totals"]])
        until = view["memorise_until"]
        w.put("memorise_left", [0.0 if until is None else max(0, until - now) / self.memorise_ms])
        w.put("extensions", [view["extensions"] / MAX_EXTENSIONS])
        votes = view["votes"] or [None] * n
        w.put_hot("voted", (s for s, v in enumerate(votes) if v is not None), n)
        mine = votes[seat] if seat is not None else None
        w.put("my_vote", one_hot(None if mine is None else VOTES.index(mine), len(VOTES)))
        w.put_hot("written", (s for s, x in enumerate(view["written"] or ()) if x), n)
        sheet = view["my_sheet"]
        w.put("my_sheet", one_hot(None if sheet is None else CHOICES.index(sheet["choice"]), len(CHOICES)))
        sheets = view["sheets"] or [None] * n
        w.put("sheets", [float(x is not None and x["choice"] == c) for x in sheets for c in CHOICES])
        w.put_hot("peekers", view["peekers"] or (), n)
        w.put("peeker", one_hot(view["peeker"], n))
        w.put("peek_cost", [(view["peek_cost"] or 0) / n])
        w.put("looks", [x / MAX_ANSWER for x in view["looks"] or [0] * n])
        peek = view["peek"]
        w.put("peek_seat", one_hot(None if peek is None else peek["seat"], n))
        w.put("peek_card", one_hot(None if peek is None else _card_index(peek["card"]), len(CARDS)))
        w.put("peek_left", [0.0 if peek is None else max(0, peek["until"] - now) / self.peek_ms])
        w.put_hot("shown_to", () if peek is None else peek["shown_to"], n)
        w.put_hot("pending", view["pending"] or (), ANSWERS)
        w.put_hot("shortest_rows", view["shortest_rows"] or (), QUESTIONS)
        w.put("moves_left", [(view["moves_left"] or 0) / 2])
        self._rows(w, view["rows"])
        self._board(w, view["board"])
        tb = view["tiebreak"]
        w.put_hot("tiebreak_seats", () if tb is None else tb["seats"], n)
        w.put_hot("tiebreak_alive", () if tb is None else tb["alive"], n)
        w.put("tiebreak_turn", one_hot(None if tb is None else tb["turn"], n))
        w.put("tiebreak_correct", [0.0] * n if tb is None else [c / MAX_ANSWER for c in tb["correct"]])
        last = view["rounds"][-1] if view["rounds"] else None
        w.put("last_correct", [0.0] * n if last is None else [(c or 0) / MAX_ANSWER for c in last["correct"]])
        w.put("last_wrong", [0.0] * n if last is None else [float(x) for x in last["wrong"]])
        w.put_hot("last_winners", () if last is None else last["winners"], n)
        w.put("winner", one_hot(view["winner"], n))
        w.put("prize_winner", one_hot(view["prize_winner"], n))
        return w.done()

    def observe_match(self, match: Match, seat: int) -> Vector:
        """`observe(match.view(seat))` read straight from the state, part by part as there: the view copies
        every row, board place, sheet and round and lists the legal actions, none of which this needs.
        The vector is set as positions among zeros: those set to 1 (a one-hot part, a word on a card),
        then those set to other values (markers, lengths). What the seat may not know stays out as
        there: a face-down card's word or question unless the seat peeks at it now or is shown it (never
        what it saw before), the other seats' sheets until all are revealed."""
        assert isinstance(match, QuizMatch)
        n, phase, now, at = self.seats, match.phase, match.now, self._at
        memorising, answering, peeking = phase == "memorise", phase == "answer", phase == "peek"
        hot = [seat, at["phase"] + PHASES.index(phase)]
        places, values = [at["question"]], [match.question / ROUNDS]
        if match.asked is not None:
            hot.append(at["asked"] + match.asked)
        if match.parent is not None:
            hot.append(at["parent"] + match.parent)
        if phase == "select":
            if match.turn is not None:
                hot.append(at["turn"] + match.turn)
            places += self._places["passed"]
            values += [float(p) for p in match.passed]
        places += self._places["markers"]  # stock, field, held, totals (KINDS: score, then money)
        stock, field, held, prize_winner = match.stock, match.field, match.held, match.prize_winner
        values += (stock["score"] / MARKERS, stock["money"] / MARKERS, field["score"] / MARKERS,
                   field["money"] / MARKERS)
        for h in held:
            values += (h["score"] / MARKERS, h["money"] / MARKERS)
        values += [(h["score"] + (PRIZE if s == prize_winner else 0)) / MARKERS for s, h in enumerate(held)]
        if memorising:
            places.append(at["memorise_left"])
            values.append(max(0, match.memorise_until - now) / self.memorise_ms)
            hot += [at["voted"] + s for s, x in enumerate(match.votes) if x is not None]
            vote = match.votes[seat]
            if vote is not None:
                hot.append(at["my_vote"] + VOTES.index(vote))
        places.append(at["extensions"])
        values.append(match.extensions / MAX_EXTENSIONS)
        if answering:
            hot += [at["written"] + s for s, x in enumerate(match.sheets) if x is not None]
            sheet = match.sheets[seat]
            if sheet is not None:
                hot.append(at["my_sheet"] + CHOICES.index(sheet["choice"]))
        if peeking:
            sheets = at["sheets"]
            hot += [sheets + s * len(CHOICES) + CHOICES.index(x["choice"]) for s, x in enumerate(match.sheets)
                    if x is not None and x["choice"] in CHOICES]
            hot += [at["peekers"] + s for s in match.peekers]
            hot.append(at["peeker"] + match.peekers[match.peek_turn])
            places.append(at["peek_cost"])
            values.append(len(match.peekers) / n)
            places += self._places["looks"]
            values += [x / MAX_ANSWER for x in match.looks]
        peek = match.peek
        if peek is not None:
            hot.append(at["peek_seat"] + peek["seat"])
            hot.append(at["peek_card"] + _card_index(peek["target"]))
            places.append(at["peek_left"])
            values.append(max(0, peek["until"] - now) / self.peek_ms)
            hot += [at["shown_to"] + s for s in peek["shown_to"]]
        if phase == "deal":
            hot += [at["pending"] + w for w in match.pending]
            hot += [at["shortest_rows"] + q for q in match.shortest_rows()]
        if phase == "move":
            places.append(at["moves_left"])
            values.append(match.moves_left / 2)
        # The cards: open to all while memorising (every card), an answer card turned over in the tie-break
        # and the white card asked; besides, the one card the seat peeks at or is shown, while it lasts.
        rows, board = match.rows, match.board
        seen = peek["target"] if peek is not None and sees(match, seat, peek["target"]) else None
        present, length = at["row_present"], at["row_length"]
        for q, row in enumerate(rows):
            if row is not None:
                hot.append(present + q)
                places.append(length + q)
                values.append(len(row) / MAX_ANSWER)
        card_open, words = at["card_open"], at["card_word"]
        if memorising:
            for q, row in enumerate(rows):
                for i, word in enumerate(row or ()):
                    hot.append(card_open + q * MAX_ANSWER + i)
                    hot.append(words + (q * MAX_ANSWER + i) * ANSWERS + word)
        else:
            shown = [(target, True) for target in match.tiebreak["opened"]] if match.tiebreak else []
            if seen is not None and seen.startswith("a"):
                shown.append((seen, False))
            for target, open_ in shown:
                _, q, i = parse_target(target)
                row = rows[q]
                if row is not None and i < len(row):
                    if open_:
                        hot.append(card_open + q * MAX_ANSWER + i)
                    hot.append(words + (q * MAX_ANSWER + i) * ANSWERS + row[i])
        asked = match.asked_place
        seen_place = parse_target(seen)[1] if seen is not None and seen.startswith("w") else None
        white_present, white_open, white_question = at["white_present"], at["white_open"], at["white_question"]
        markers = at["white_markers"]
        on_cards = match.on_cards
        for p, white in enumerate(board):
            if white is not None:
                hot.append(white_present + p)
                if memorising or p in (asked, seen_place):
                    hot.append(white_question + p * QUESTIONS + white)
                    if memorising or p == asked:
                        hot.append(white_open + p)
                at_card = markers + 2 * p  # KINDS: score, then money
                places += (at_card, at_card + 1)
                marked = on_cards[p]
                values += (marked["score"] / MARKERS, marked["money"] / MARKERS)
        tb = match.tiebreak
        if tb is not None:
            hot += [at["tiebreak_seats"] + s for s in tb["seats"]]
            hot += [at["tiebreak_alive"] + s for s in tb["alive"]]
            if phase == "tiebreak" and tb["turn"] is not None:
                hot.append(at["tiebreak_turn"] + tb["turn"])
            places += self._places["tiebreak_correct"]
            values += [c / MAX_ANSWER for c in tb["correct"]]
        if match.rounds:
            last = match.rounds[-1]
            places += self._places["last"]  # last_correct, last_wrong
            values += [(c or 0) / MAX_ANSWER for c in last["correct"]]
            values += [float(x) for x in last["wrong"]]
            hot += [at["last_winners"] + s for s in last["winners"]]
        if match.winner is not None:
            hot.append(at["winner"] + match.winner)
        if match.prize_winner is not None:
            hot.append(at["prize_winner"] + match.prize_winner)
        vector = np.zeros(self.layout.size, dtype=np.float32)
        vector[hot] = 1.0
        if max(values) > BOUND or min(values) < -BOUND:  # the ones set above are within bounds
            values = [min(max(x, -BOUND), BOUND) for x in values]
        vector[places] = values
        return vector

    def _rows(self, w: Writer, rows: Sequence[Sequence[Mapping[str, Any]] | None]) -> None:
        """Each row (present, length) and each of its cards: open to all, and its word where the view
        shows it (all while memorising; afterwards the opened ones and a card peeked at or shown)."""
        w.put_hot("row_present", (q for q, row in enumerate(rows) if row is not None), QUESTIONS)
        w.put("row_length", [0.0 if row is None else len(row) / MAX_ANSWER for row in rows])
        cards = [(q * MAX_ANSWER + i, card) for q, row in enumerate(rows) for i, card in enumerate(row or ())]
        w.put_hot("card_open", (k for k, card in cards if card["open"]), QUESTIONS * MAX_ANSWER)
        w.put_hot("card_word", (k * ANSWERS + card["word"] for k, card in cards if card["word"] is not None),
                  QUESTIONS * MAX_ANSWER * ANSWERS)

    def _board(self, w: Writer, board: Sequence[Mapping[str, Any] | None]) -> None:
        """Each place of the board: a white card there, open to all, its question where the view shows it,
        and the markers on it."""
        w.put_hot("white_present", (p for p, white in enumerate(board) if white is not None), BOARD)
        w.put_hot("white_open", (p for p, white in enumerate(board) if white is not None and white["open"]), BOARD)
        w.put_hot("white_question", (p * QUESTIONS + white["question"] for p, white in enumerate(board)
                                     if white is not None and white["question"] is not None), BOARD * QUESTIONS)
        w.put("white_markers", [0.0 if white is None else white["markers"][k] / MARKERS
                                for white in board for k in KINDS])

    # -- the information state: the observation, then the seat's recall (docs/rules/quiz.md, Encoding) ---
    @property
    def information_layout(self) -> Layout:
        return self._information

    def recall(self, seat: int | None) -> QuizRecall:
        return QuizRecall(seat)

    def information_state(self, view: Mapping[str, Any]) -> Vector:
        """The information state of a seat that remembers only what `view` shows now (no record kept)."""
        return self.recalled_state(view, None)

    def recalled_state(self, view: Mapping[str, Any], recall: Recall | None) -> Vector:
        """The observation, then what `recall` holds (a record of only this view when None)."""
        if recall is None:
            recall = QuizRecall(view["seat"])
            recall.see(view)
        assert isinstance(recall, QuizRecall)
        return np.concatenate((self.observe(view), self._recalled(view, recall)))

    def _recalled(self, view: Mapping[str, Any], recall: QuizRecall) -> Vector:
        n, when = self.seats, ROUNDS + 1.0
        w = Writer(self.recall_layout)
        words, word_when = [], [0.0] * (QUESTIONS * MAX_ANSWER)
        questions, question_when = [], [0.0] * BOARD
        for card, (content, question) in recall.cards.items():
            k = _card_index(card)
            if k < len(ANSWER_CARDS):
                words.append(k * ANSWERS + content)
                word_when[k] = (question + 1) / when
            else:
                place = k - len(ANSWER_CARDS)
                questions.append(place * QUESTIONS + content)
                question_when[place] = (question + 1) / when
        w.put_hot("recall_word", words, len(ANSWER_CARDS) * ANSWERS)
        w.put("recall_word_when", word_when)
        w.put_hot("recall_question", questions, BOARD * QUESTIONS)
        w.put("recall_question_when", question_when)
        w.put_hot("seen_by", (_card_index(card) * n + s for card, seats in recall.seen_by.items() for s in seats),
                  len(CARDS) * n)
        rounds = view["rounds"]
        w.put_hot("history_asked", (i * QUESTIONS + r["asked"] for i, r in enumerate(rounds)), ROUNDS * QUESTIONS)
        w.put_hot("history_choices", ((i * n + s) * len(CHOICES) + CHOICES.index(c) for i, r in enumerate(rounds)
                                      for s, c in enumerate(r["choices"]) if c is not None),
                  ROUNDS * n * len(CHOICES))
        w.put_hot("history_words", ((i * n + s) * ANSWERS + word for i, sheets in enumerate(recall.sheets)
                                    for s, sheet in enumerate(sheets or ()) for word in sheet.get("words", ())),
                  ROUNDS * n * ANSWERS)
        w.put("history_correct", [0.0 if i >= len(rounds) or rounds[i]["correct"][s] is None
                                  else rounds[i]["correct"][s] / MAX_ANSWER for i in range(ROUNDS) for s in range(n)])
        w.put_hot("history_winners", (i * n + s for i, r in enumerate(rounds) for s in r["winners"]), ROUNDS * n)
        return w.done()
