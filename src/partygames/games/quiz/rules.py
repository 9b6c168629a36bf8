"""It's a QUIZ? (くいずです) state machine: memorise, then eight questions of selection, sealed answers,
peeks and scoring, then the final count and the tie-break.

Phases: `memorise` (all cards open; seats vote to extend), then per question `select` (markers on
white cards, turn by turn), `open` (the parent picks among the least-marked white cards, when there is
a choice), `answer` (sealed, all at once), `peek` (the peekers one by one), `deal` (the parent deals
the opened answer cards), `move` (the parent may move white cards); at the end `tiebreak` and `over`.
Outside `memorise` (nobody holds a marker) and `tiebreak` (the totals are counted), every seat holding
markers may give some away at any time (「交渉やマーカーの収受 ご自由にどうぞ」), while answering too: it is
awaited (after the seats whose turn it is) until it says `wait` for the rest of the phase.

After memorising, a face-down card's content is in no view, event or error, except for the seat
peeking at it (and the seats it shows the card to), while the peek lasts. Time is the engine's: the
peek's end and the memorising time are wake-ups of their own (`wake_at`, `advance`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from enum import StrEnum
from functools import cache
from typing import Any, ClassVar

from partygames.engine import (
    Action,
    ActionSpec,
    Event,
    IllegalAction,
    Match,
    Result,
    SeatResult,
    choice,
    int_range,
    sequence,
    spec,
)
from partygames.engine.copying import Shape
from partygames.engine.match import TimeLimit
from partygames.games.quiz.decks import ANSWERS, QUESTIONS, Deck
from partygames.games.quiz.options import QuizOptions
from partygames.games.quiz.scoring import (
    FIELD_MONEY,
    FIELD_SCORE,
    PRIZE,
    ROUNDS,
    STOCK_MONEY,
    STOCK_SCORE,
    answer_target,
    clockwise_from_left,
    judge,
    parse_target,
    split_secret_money,
    white_target,
    winners,
)
from partygames.games.quiz.view import seat_view

BOARD = 16  # the white cards lie at 10 of 16 places
EXTEND_MS = 60_000  # each agreed extension of the memorising time
MAX_EXTENSIONS = 5
MAX_ANSWER = 10  # the longest row there can be: 30 cards on the 3 rows left at question 8
MOVES = 2  # 伏せられている白い問題カードを2枚まで
GIVING_PHASES = frozenset({"select", "open", "answer", "peek", "deal", "move"})
KINDS = ("score", "money")

#: Chance labels, in the order drawn.
WHITE_LABEL = "white_positions"  # the board places of the ten white cards: a shuffle of the 16 places
DEAL_LABEL = "deal"  # 正解カード30枚をよくシャッフル: a shuffle of the 30 words, three per row in order
PARENT_LABEL = "first_parent"  # 適当な手段で、最初の親を決めます: a uniform seat
LOT_LABEL = "tiebreak_lot"  # the tie-break's last resort


class Termination(StrEnum):
    """How a match of It's a QUIZ? ends (`Result.termination`)."""

    MOST_POINTS = "most_points"
    """After question 8, one seat had the highest total (score markers plus the question-8 prize)."""
    TIE_BREAK = "tie_break"
    """The highest total was tied and the tie-break's calls decided the winner."""
    TIE_BREAK_LOT = "tie_break_lot"
    """The tie-break ran out of cards on a wrong call with several seats left, and they were tied in
    correct calls too: a lot decided."""


# Read-only specs and parts shared by every call (specs are never changed by those who read them).
_WAIT: ActionSpec = spec("wait")
_MEMORISE_SPECS: tuple[ActionSpec, ...] = (spec("ready"), spec("extend"))
_ANSWER_SPECS: tuple[ActionSpec, ...] = (spec("answer", words=sequence(list(range(ANSWERS)), 1, MAX_ANSWER)),
                                         spec("secret_money"), spec("peek"))


@cache
def _answer_targets() -> tuple[tuple[str, ...], ...]:
    """`answer_target(q, i)` for every question and every place a row can have, written once."""
    return tuple(tuple(answer_target(q, i) for i in range(ANSWERS)) for q in range(QUESTIONS))


@cache
def _others(seats: int) -> tuple[dict[str, list[int]], ...]:
    """Per seat, the choice of every other seat (a gift's `to`)."""
    return tuple(choice([s for s in range(seats) if s != seat]) for seat in range(seats))


@cache
def _gifts(seats: int, seat: int, score: int, money: int) -> tuple[tuple[ActionSpec, ...], tuple[ActionSpec, ...]]:
    """`QuizMatch._gift_specs` of a seat holding these markers, and a bystander's whole list (the gifts,
    then `wait`), built once (specs are read-only; at most 4 x 5 x 29 x 29 keys: 28 markers in all)."""
    others = _others(seats)[seat]
    specs = [spec("give", to=others, score=int_range(1, score), money=int_range(0, money))] if score else []
    if money:
        specs.append(spec("give", to=others, score=int_range(0, 0), money=int_range(1, money)))
    return tuple(specs), (*specs, _WAIT)


def _markers(score: int = 0, money: int = 0) -> dict[str, int]:
    return {"score": score, "money": money}


_NO_MARKERS = _markers()  # read-only: compared with


#: The seats a set of seats holds, by its bits (seat s is bit 1 << s), for up to 5 seats (`seat_counts`):
#: sets of seats are kept as bits where they are updated after the steps (adding or taking out a seat is one
#: operation).
_SEATS_IN: tuple[tuple[int, ...], ...] = tuple(tuple(s for s in range(5) if bits >> s & 1) for bits in range(1 << 5))


class QuizMatch(Match):
    # markers or money given away: the person's own (docs/rules/quiz.md, Stand-ins)
    PERSONAL = frozenset({"give"})
    game_id = "quiz"
    options_class = QuizOptions
    seat_counts = (2, 3, 4, 5)
    CLONE_SHAPES: ClassVar[dict[str, Shape]] = {
        **dict.fromkeys(("board", "votes", "stock", "field", "waiting", "passed", "peekers", "looks", "pending"),
                        Shape.FLAT),
        **dict.fromkeys(("rows", "held", "on_cards"), Shape.ROWS), "rounds": Shape.LOG}

    # Caches (not stored, so clone() and from_json start without them): `to_act()`, `turns()`, `time_limit()`
    # (in a tuple: None is a limit) and the specs of the seats whose turn it is (`_primary_specs`, the same
    # for each of them). A turn's action drops them all (`_apply`); a gift or a wait only what it changes
    # (`_give`, `_wait`); time passing only when something fell due (`advance`).
    _waiting: tuple[int, ...] | None = None
    _turns: tuple[int, ...] | None = None
    _limit: tuple[TimeLimit | None] | None = None
    _specs: tuple[ActionSpec, ...] | None = None
    # Kept until the cards they list move (dropped or updated where a card is dealt, opened, moved or
    # scored): `face_down_white()` and `shortest_rows()`, read by the specs, the time limits and the view.
    _down: list[int] | None = None
    _short: list[int] | None = None
    # Kept across the turns, for the bystanders, as bits (`_SEATS_IN`): the seats holding markers
    # (`_holders`, updated where a seat's markers reach or leave zero) and those of them that have not said
    # `wait` in this phase (`_free`: the holders again where the phase starts, one fewer after a `wait`).
    _holders: int | None = None
    _free: int | None = None
    # Kept for the phase (dropped where a phase starts, `_set_phase`: no card moves, is opened or dealt
    # within the select, open and peek phases, and no marker is placed in the open phase): parts of the
    # turn's specs, the select's specs per kinds of markers held, the peek's look targets, the open phase's
    # candidates.
    _parts: dict[Any, Any] | None = None

    @property
    def opts(self) -> QuizOptions:
        assert isinstance(self.options, QuizOptions)
        return self.options

    @property
    def deck(self) -> Deck:
        deck: Deck | None = getattr(self, "_deck", None)
        if deck is None:
            deck = self._deck = self.opts.the_deck()
        return deck

    # -- set-up ----------------------------------------------------------------------------------------
    def _setup(self) -> None:
        places = list(range(BOARD))
        self.chance.shuffle(WHITE_LABEL, places)
        self.board: list[int | None] = [None] * BOARD  # place -> question of the white card there
        for question in range(QUESTIONS):
            self.board[places[question]] = question
        words = list(range(ANSWERS))
        self.chance.shuffle(DEAL_LABEL, words)
        # rows[q]: the words beside black card q, nearest first; None once the question has left the game
        self.rows: list[list[int] | None] = [words[3 * q:3 * q + 3] for q in range(QUESTIONS)]
        self.phase = "memorise"
        self.memorise_from = 0
        self.memorise_until = self.opts.memorise_seconds * 1000
        self.extensions = 0
        self.votes: list[str | None] = [None] * self.seats
        self.parent: int | None = None
        self.question = 0  # 1..8 once the questions begin
        self.stock = _markers(STOCK_SCORE, STOCK_MONEY)
        self.field = _markers()
        self.held = [_markers() for _ in range(self.seats)]
        self.on_cards: list[dict[str, int]] = [_markers() for _ in range(BOARD)]
        self.waiting = [False] * self.seats  # said `wait`: not awaited again until the phase changes
        self.step = 0  # counts the primary actions: each starts a new time limit (a peeking turn counts looks)
        self.turn: int | None = None
        self.passed = [False] * self.seats
        self.asked: int | None = None  # the question being asked
        self.asked_place: int | None = None
        self.sheets: list[dict[str, Any] | None] = [None] * self.seats
        self.peekers: list[int] = []
        self.peek_turn = 0
        self.looks = [0] * self.seats  # cards each seat looked at in this question's peeks (public)
        self.peek: dict[str, Any] | None = None  # the live peek: seat, target, until, shown_to
        self.pending: list[int] = []  # opened answer cards the parent has still to deal
        self.moves_left = 0
        self.rounds: list[dict[str, Any]] = []  # each question's public outcome (no card contents)
        self.prize_winner: int | None = None
        self.tiebreak: dict[str, Any] | None = None
        self.winner: int | None = None
        self.termination: str | None = None

    # -- helpers ---------------------------------------------------------------------------------------
    def holds(self, seat: int) -> int:
        return self.held[seat]["score"] + self.held[seat]["money"]

    def face_down_white(self) -> list[int]:
        """Places of the white cards lying face down."""
        return list(self._face_down_white())

    def _face_down_white(self) -> list[int]:
        """`face_down_white()`, kept (`_down`, read-only)."""
        down = self._down
        if down is None:
            if self.phase == "memorise":
                down = []
            else:
                down = [p for p, q in enumerate(self.board) if q is not None and p != self.asked_place]
            self._down = down
        return down

    def face_down_answers(self) -> list[str]:
        """Ids of the answer cards lying face down (every card in a row, once memorising is over)."""
        if self.phase == "memorise":
            return []
        targets = _answer_targets()
        face_down: list[str] = []
        for q, row in enumerate(self.rows):  # a row's targets as one slice, not card by card
            if row is not None:
                face_down += targets[q][:len(row)]
        if self.tiebreak and self.tiebreak["opened"]:
            opened = set(self.tiebreak["opened"])
            return [t for t in face_down if t not in opened]
        return face_down

    def content(self, target: str) -> dict[str, int]:
        """What a card shows: {"word": id} for an answer card, {"question": id} for a white card."""
        kind, a, b = parse_target(target)
        if kind == "a":
            row = self.rows[a]
            assert row is not None
            return {"word": row[b]}
        question = self.board[a]
        assert question is not None
        return {"question": question}

    def _order(self) -> list[int]:
        assert self.parent is not None
        return clockwise_from_left(self.parent, self.seats)

    def _set_phase(self, phase: str) -> None:
        # A new phase finds the seats holding markers again (`_holders`: kept within a phase, whose steps
        # update them; the secret money and the score markers taken are followed by a new phase); the deal
        # phase, begun again after each card dealt, keeps them.
        if phase != self.phase:
            self._holders = None
        self.phase = phase
        self.waiting = [False] * self.seats
        self._free = self._holders
        self._parts = None

    def _primary(self) -> tuple[int, ...]:
        """The seats whose turn it is (`turns()`), kept with `to_act()` until the state changes."""
        primary = self._turns
        if primary is None:
            primary = self._turns = self._find_primary()
        return primary

    def _find_primary(self) -> tuple[int, ...]:
        phase = self.phase
        if phase in ("open", "deal", "move"):  # the most frequent first
            assert self.parent is not None
            return (self.parent,)
        if phase == "answer":
            sheets = self.sheets
            return tuple([s for s in range(self.seats) if sheets[s] is None])
        if phase == "select":
            return () if self.turn is None else (self.turn,)
        if phase == "peek":
            return (self.peekers[self.peek_turn],)
        if phase == "memorise":
            return tuple([s for s in range(self.seats) if self.votes[s] is None])
        if phase == "tiebreak":
            assert self.tiebreak is not None
            return (self.tiebreak["turn"],)
        return ()

    def bystanders(self) -> tuple[int, ...]:
        """Seats awaited only because they may give markers now."""
        return self.to_act()[len(self._primary()):]

    def _awaited(self) -> tuple[int, ...]:
        """`to_act()`: the seats whose turn it is, then the bystanders, found in one call (asked again
        after every turn's action)."""
        primary = self._turns
        if primary is None:
            primary = self._turns = self._find_primary()
        if self.phase not in GIVING_PHASES:
            return primary
        # The bystanders: the holders that have not said `wait` (kept), less the seats whose turn it is.
        free = self._free
        if free is None:
            free = self._free = self._find_free()
        for s in primary:
            free &= ~(1 << s)
        return primary + _SEATS_IN[free] if free else primary

    def _find_free(self) -> int:
        """The seats holding markers that have not said `wait` in this phase (bits)."""
        holders = self._holders
        if holders is None:
            holders, bit = 0, 1
            for markers in self.held:
                if markers != _NO_MARKERS:  # (one comparison, in C)
                    holders |= bit
                bit <<= 1
            self._holders = holders
        waiting = self.waiting
        if True in waiting:
            for s in range(self.seats):
                if waiting[s]:
                    holders &= ~(1 << s)
        return holders

    # -- the contract ----------------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        # The seat whose turn it is comes first: when its time runs out, its default moves the phase on
        # before any bystander's `wait` is applied. Kept until the state changes (`_waiting`, a cache
        # dropped or updated by every `_apply` and `advance` that changes it): hosts ask it several times a step.
        waiting = self._waiting
        if waiting is None:
            waiting = self._waiting = self._awaited()
        return waiting

    def turns(self) -> tuple[int, ...]:
        # A bystander may give markers, but nothing waits for it: it is not its turn.
        return self._primary()

    def _legal_actions(self, seat: int) -> list[ActionSpec]:
        # Asked at every step of every simulation: the turn's specs are kept (`_specs`), the gifts' are
        # built once per markers held (`_gifts`); each call returns a list of its own.
        held = self.held[seat]
        if seat in (self._turns or self._primary()):
            specs = self._specs
            if specs is None:
                specs = self._specs = tuple(self._primary_specs(seat))
            if held != _NO_MARKERS and self.phase in GIVING_PHASES:
                return [*specs, *_gifts(self.seats, seat, held["score"], held["money"])[0]]
            return list(specs)
        # A bystander (asked only for a seat in `to_act()`): it holds markers, and may give or wait for the
        # rest of the phase.
        return list(_gifts(self.seats, seat, held["score"], held["money"])[1])

    def _gift_specs(self, seat: int) -> list[ActionSpec]:
        """Both counts in one action, and a gift moves at least one marker: two specs of `give` share the
        legal pairs out, at least one score marker (with any secret money), or none and at least one
        secret-money marker. A gift of nothing is not listed, so it is refused."""
        held = self.held[seat]
        return list(_gifts(self.seats, seat, held["score"], held["money"])[0])

    def _primary_specs(self, seat: int) -> list[ActionSpec]:
        phase = self.phase
        if phase == "memorise":
            return list(_MEMORISE_SPECS if self.extensions < MAX_EXTENSIONS else _MEMORISE_SPECS[:1])
        if phase == "select":
            held = self.held[seat]
            key = ("select", held["score"] > 0, held["money"] > 0)
            parts = self._phase_parts()
            specs = parts.get(key)
            if specs is None:
                kinds = [k for k in KINDS if held[k]]  # none left if the seat gave them away
                place = [spec("place", card=choice(self._face_down_white()), kind=choice(kinds))] if kinds else []
                specs = parts[key] = [*place, spec("pass")]
            return specs
        if phase == "open":
            return [spec("open", card=choice(self._least_marked()))]
        if phase == "answer":
            return list(_ANSWER_SPECS)
        if phase == "peek":
            specs = []
            cost = len(self.peekers)
            score, money = self.held[seat]["score"], self.held[seat]["money"]
            if score + money >= cost:
                parts = self._phase_parts()
                targets = parts.get("look")
                if targets is None:
                    targets = parts["look"] = choice(
                        self.face_down_answers() + [white_target(p) for p in self._face_down_white()])
                specs.append(spec("look", card=targets, paid_money=int_range(max(0, cost - score), min(cost, money))))
            if self.peek is not None and self.peek["seat"] == seat:
                unshown = [s for s in range(self.seats) if s != seat and s not in self.peek["shown_to"]]
                if unshown:
                    specs.append(spec("show", to=sequence(unshown, 1)))
            specs.append(spec("stop"))
            return specs
        if phase == "deal":
            return [{"type": "deal", "params": {"row": {"choice": self._shortest_rows()}}}]  # spec(choice()) written out
        if phase == "move":
            cards, free = self._face_down_white(), [p for p, question in enumerate(self.board) if question is None]
            specs = [spec("move", card=choice(cards), to=choice(free))]
            if self.moves_left >= 2:
                # sequence(cards, 2, 2) written out: its checks cannot fail, 3 or more white cards lie face
                # down until question 8, whose outcome ends the match before any move
                specs.append({"type": "swap", "params": {"cards": {"sequence": list(cards), "min_len": 2, "max_len": 2}}})
            specs.append(spec("done"))
            return specs
        if phase == "tiebreak":
            return [spec("call", card=choice(self.face_down_answers()), word=choice(list(range(ANSWERS))))]
        raise AssertionError(f"no actions in phase {phase!r}")

    def _phase_parts(self) -> dict[Any, Any]:
        parts = self._parts
        if parts is None:
            parts = self._parts = {}
        return parts

    def _least_marked(self) -> list[int]:
        """`least_marked()` in the open phase, kept (`_parts`, read-only): no marker is placed any more."""
        parts = self._phase_parts()
        least: list[int] | None = parts.get("least")
        if least is None:
            least = parts["least"] = self.least_marked()
        return least

    def least_marked(self) -> list[int]:
        """The face-down white cards with the fewest markers on them (zero is fewest)."""
        cards = self._face_down_white()
        on_cards = self.on_cards
        counts = [on_cards[p]["score"] + on_cards[p]["money"] for p in cards]
        fewest = min(counts)
        return [p for p, n in zip(cards, counts, strict=True) if n == fewest]

    def shortest_rows(self) -> list[int]:
        """The remaining rows with the fewest answer cards (列ごとの正解カードの枚数がなるべく均等)."""
        return list(self._shortest_rows())

    def _shortest_rows(self) -> list[int]:
        """`shortest_rows()`, kept (`_short`, read-only; `_deal_to` updates it)."""
        if self._short is not None:
            return self._short
        shortest: list[int] = []
        fewest = ANSWERS + 1  # more than any row holds
        for q, row in enumerate(self.rows):  # one plain pass: asked after every card dealt
            if row is not None:
                if len(row) < fewest:
                    fewest, shortest = len(row), [q]
                elif len(row) == fewest:
                    shortest.append(q)
        self._short = shortest
        return shortest

    def apply(self, seat: int, action: Mapping[str, Any], now: int | None = None) -> list[Event]:
        # A gift of nothing is outside both `give` specs; say why in words rather than by either's range.
        if ((type(action) is dict or isinstance(action, Mapping)) and action.get("type") == "give"
                and type(action.get("score")) is int and type(action.get("money")) is int
                and action["score"] == 0 and action["money"] == 0):
            raise IllegalAction("A gift must give at least one marker.", "渡すマーカーを1個以上にしてください。",
                                code="action/out_of_range")
        return super().apply(seat, action, now)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        if kind == "give":
            return self._give(seat, action["to"], action["score"], action["money"])
        if kind == "wait":
            return self._wait(seat)
        handler = getattr(self, _HANDLERS[kind])  # (the names made once: a new string is hashed anew)
        self.step += 1
        events: list[Event] = handler(seat, action)
        self._waiting = self._turns = self._limit = self._specs = None  # a turn's action: all may change
        return events

    # -- giving ----------------------------------------------------------------------------------------
    def _give(self, seat: int, to: int, score: int, money: int) -> list[Event]:
        giver, taker = self.held[seat], self.held[to]
        giver["score"] -= score
        giver["money"] -= money
        taker["score"] += score
        taker["money"] += money
        # The kept answers change only where a gift can change them: the seats holding markers, and so who
        # is awaited (and the time limit's defaults), when the giver has nothing left or the taker had
        # nothing, and the turn's specs only where they read the markers held (a placed marker's kinds, a
        # look's price) when a seat whose turn it is gives or takes.
        flip = 0 if giver["score"] + giver["money"] else 1 << seat
        if taker["score"] + taker["money"] == score + money:
            flip |= 1 << to
        if flip:
            self._waiting = self._limit = None
            if self._holders is not None:
                self._holders ^= flip
            if self._free is not None:
                self._free = None if self.waiting[seat] or self.waiting[to] else self._free ^ flip
        if self.phase in ("select", "peek"):
            turns = self._turns
            if turns is None or seat in turns or to in turns:
                self._specs = None
        return [Event("given", {"seat": seat, "to": to, "score": score, "money": money})]

    def _wait(self, seat: int) -> list[Event]:
        """A bystander waits for the rest of the phase: no longer awaited (the turn's specs stay)."""
        self.waiting[seat] = True
        if self._free is not None:
            self._free &= ~(1 << seat)
        waiting = self._waiting
        if waiting is not None and seat in waiting:
            at = waiting.index(seat)
            self._waiting = waiting[:at] + waiting[at + 1:]
        self._limit = None
        return []

    # -- memorising ------------------------------------------------------------------------------------
    def _do_ready(self, seat: int, action: Action) -> list[Event]:
        return self._vote(seat, "ready")

    def _do_extend(self, seat: int, action: Action) -> list[Event]:
        return self._vote(seat, "extend")

    def _vote(self, seat: int, vote: str) -> list[Event]:
        self.votes[seat] = vote
        events = [Event("memorise_vote", {"seat": seat, "vote": vote})]
        said = [self.votes[h] for h in self.humans]  # the humans' votes (counted in C, not by generators)
        if said and said.count("extend") == len(said):
            self.extensions += 1
            self.memorise_from = self.now
            self.memorise_until += EXTEND_MS
            self.votes = [None] * self.seats
            return [*events, Event("memorise_extended", {"until": self.memorise_until, "extensions": self.extensions})]
        # Every seat has looked (bots learn the table from the view they are shown when asked to vote)
        # and every human is ready: a table of bots alone does not wait for the time either.
        if None not in self.votes and said.count("ready") == len(said):
            return events + self._end_memorising()
        return events

    def _end_memorising(self) -> list[Event]:
        self.parent = self.chance.randint(PARENT_LABEL, 0, self.seats - 1)
        self._down = None  # the white cards are face down from now on
        events = [Event("cards_turned", {"at": self.now}), Event("parent_drawn", {"parent": self.parent})]
        self.question = 1
        return events + self._start_selection()

    # -- question selection ----------------------------------------------------------------------------
    def _start_selection(self) -> list[Event]:
        self._set_phase("select")
        self.passed = [False] * self.seats
        assert self.parent is not None
        events = [Event("selection_started", {"question": self.question, "parent": self.parent})]
        return events + self._next_turn((self.parent + 1) % self.seats)

    def _next_turn(self, candidate: int) -> list[Event]:
        """Gives the turn to the first seat from `candidate` on, clockwise, that has not passed; a seat
        without markers passes at once (it has nothing to place)."""
        events: list[Event] = []
        for k in range(self.seats):
            seat = (candidate + k) % self.seats
            if self.passed[seat]:
                continue
            if self.holds(seat):
                self.turn = seat
                return events
            self.passed[seat] = True
            events.append(Event("passed", {"seat": seat, "no_markers": True}))
        self.turn = None
        return events + self._selection_over()

    def _do_place(self, seat: int, action: Action) -> list[Event]:
        card, kind = action["card"], action["kind"]
        self.held[seat][kind] -= 1
        if not self.holds(seat):
            self._holders = self._free = None
        self.on_cards[card][kind] += 1
        return [Event("placed", {"seat": seat, "card": card, "kind": kind}), *self._next_turn((seat + 1) % self.seats)]

    def _do_pass(self, seat: int, action: Action) -> list[Event]:
        self.passed[seat] = True
        return [Event("passed", {"seat": seat, "no_markers": False}), *self._next_turn((seat + 1) % self.seats)]

    def _selection_over(self) -> list[Event]:
        candidates = self.least_marked()
        if len(candidates) == 1:
            return self._open_card(candidates[0])
        self._set_phase("open")
        self._phase_parts()["least"] = candidates  # (`_least_marked()`, found already)
        return []

    def _do_open(self, seat: int, action: Action) -> list[Event]:
        return self._open_card(action["card"])

    def _open_card(self, place: int) -> list[Event]:
        question = self.board[place]
        assert question is not None
        self.asked, self.asked_place = question, place
        down = self._down
        if down is not None:  # the opened card is no longer face down
            down = down.copy()  # (the kept list may be in a spec)
            down.remove(place)
            self._down = down
        returned = _markers()
        for markers in self.on_cards:
            if markers == _NO_MARKERS:
                continue  # most cards hold none (one comparison, in C)
            for kind in KINDS:
                returned[kind] += markers[kind]
                self.stock[kind] += markers[kind]
                markers[kind] = 0
        events = [Event("question_opened", {"question": self.question, "card": place, "asked": question,
                                            "returned": returned})]
        if self.question < ROUNDS:
            # The stock always holds enough: only these additions take markers out of it, two of each
            # kind per question, so before question k at most 2(k-1) <= 12 of each kind are out.
            assert self.stock["score"] >= FIELD_SCORE and self.stock["money"] >= FIELD_MONEY, self.stock
            self.stock["score"] -= FIELD_SCORE
            self.stock["money"] -= FIELD_MONEY
            self.field["score"] += FIELD_SCORE
            self.field["money"] += FIELD_MONEY
            events.append(Event("field_filled", {"score": FIELD_SCORE, "money": FIELD_MONEY}))
        else:
            cleared = dict(self.field)
            for kind in KINDS:
                self.stock[kind] += self.field[kind]
                self.field[kind] = 0
            events.append(Event("field_cleared", cleared))
        self._set_phase("answer")
        self.sheets = [None] * self.seats
        self.turn = None
        return events

    # -- answers ---------------------------------------------------------------------------------------
    def _do_answer(self, seat: int, action: Action) -> list[Event]:
        return self._write(seat, {"choice": "answer", "words": list(action["words"])})

    def _do_secret_money(self, seat: int, action: Action) -> list[Event]:
        return self._write(seat, {"choice": "secret_money"})

    def _do_peek(self, seat: int, action: Action) -> list[Event]:
        return self._write(seat, {"choice": "peek"})

    def _write(self, seat: int, sheet: dict[str, Any]) -> list[Event]:
        self.sheets[seat] = sheet
        events = [Event("sheet_written", {"seat": seat})]
        if None in self.sheets:  # (a sheet is a dict, never equal to None)
            return events
        return events + self._reveal()

    def _reveal(self) -> list[Event]:
        sheets: list[dict[str, Any]] = [dict(s) for s in self.sheets if s is not None]
        events = [Event("sheets_revealed", {"question": self.question, "sheets": sheets})]
        takers = [s for s in range(self.seats) if sheets[s]["choice"] == "secret_money"]
        share, stays = split_secret_money(len(takers), self.field["money"])
        if takers:
            for seat in takers:
                self.held[seat]["money"] += share  # (the peek or the scoring begins next: `_set_phase`)
            self.field["money"] = stays
            events.append(Event("secret_money_taken", {"takers": takers, "each": share}))
        self.peekers = [s for s in self._order() if sheets[s]["choice"] == "peek"]
        self.peek_turn = 0
        self.looks = [0] * self.seats
        if self.peekers:
            self._set_phase("peek")
            events.append(Event("peeks_started", {"peekers": list(self.peekers), "cost": len(self.peekers)}))
            return events
        return events + self._score()

    # -- peeks -----------------------------------------------------------------------------------------
    def _do_look(self, seat: int, action: Action) -> list[Event]:
        cost, money = len(self.peekers), action["paid_money"]
        paid = _markers(cost - money, money)
        for kind in KINDS:
            self.held[seat][kind] -= paid[kind]
            self.stock[kind] += paid[kind]
        self._holders = self._free = None
        target = action["card"]
        until = self.now + self.opts.peek_seconds * 1000
        self.peek = {"seat": seat, "target": target, "until": until, "shown_to": []}
        self.looks[seat] += 1
        return [Event("looked", {"seat": seat, "card": target, "paid": paid, "until": until}),
                Event("card_seen", {"card": target, **self.content(target), "by": seat, "until": until}, to=(seat,))]

    def _do_show(self, seat: int, action: Action) -> list[Event]:
        assert self.peek is not None
        to = sorted(action["to"])
        self.peek["shown_to"] = sorted(self.peek["shown_to"] + to)
        target = self.peek["target"]
        return [Event("card_shown", {"seat": seat, "card": target, "to": to}),
                Event("card_seen", {"card": target, **self.content(target), "by": seat, "until": self.peek["until"]},
                      to=tuple(to))]

    def _do_stop(self, seat: int, action: Action) -> list[Event]:
        events = [*self._end_peek(), Event("peek_turn_ended", {"seat": seat})]
        self.peek_turn += 1
        if self.peek_turn < len(self.peekers):
            self.waiting = [False] * self.seats
            self._free = self._holders
            return events
        return events + self._score()

    def _end_peek(self) -> list[Event]:
        if self.peek is None:
            return []
        seat = self.peek["seat"]
        self.peek = None
        return [Event("peek_ended", {"seat": seat})]

    # -- scoring ---------------------------------------------------------------------------------------
    def _score(self) -> list[Event]:
        asked = self.asked
        assert asked is not None
        row = self.rows[asked]
        assert row is not None
        counts: dict[int, int | None] = {}
        for seat, sheet in enumerate(self.sheets):
            if sheet is not None and sheet["choice"] == "answer":
                counts[seat] = judge(row, sheet["words"])
        best = winners(counts)
        final = self.question == ROUNDS
        taken = [0] * self.seats
        if len(best) == 1:
            # 親もこの時点で勝者に移ります, at question 8 too: its exception covers only the markers
            # (最終問題に限っては、誰も(勝者も)得点マーカーを獲得できません).
            self.parent = best[0]
            if final:
                self.prize_winner = best[0]
            else:
                taken[best[0]] = self.field["score"]
        elif len(best) == 2 and not final and self.field["score"] >= 2:
            taken[best[0]] = taken[best[1]] = 1
        for seat, n in enumerate(taken):
            self.held[seat]["score"] += n
            self.field["score"] -= n  # (the deal, the moves or the tie-break begins next: `_set_phase`)
        outcome = {"question": self.question, "asked": asked,
                   "choices": [s["choice"] if s else None for s in self.sheets],
                   "correct": [counts.get(s) if s in counts else None for s in range(self.seats)],
                   "wrong": [s in counts and counts[s] is None for s in range(self.seats)],
                   "winners": best, "taken": taken, "parent": self.parent,
                   "prize_winner": self.prize_winner if final else None}
        self.rounds.append(outcome)
        events = [Event("row_opened", {"question": self.question, "asked": asked, "words": list(row)}),
                  Event("scored", dict(outcome))]
        self.rows[asked] = None
        self._short = None
        assert self.asked_place is not None
        self.board[self.asked_place] = None  # 2枚ともにゲームから撤去
        self.asked_place = None  # (the card was no longer face down: `_down` stays)
        if final:
            return events + self._finish()
        self.pending = list(row)
        return events + self._deal_next()

    # -- preparing the next question -------------------------------------------------------------------
    def _deal_next(self) -> list[Event]:
        events: list[Event] = []
        while self.pending:
            rows = self._shortest_rows()
            if len(rows) > 1:
                self._set_phase("deal")
                return events
            events += self._deal_to(rows[0])
        self.moves_left = MOVES
        self._set_phase("move")
        return events

    def _deal_to(self, question: int) -> list[Event]:
        word = self.pending.pop(0)
        row = self.rows[question]
        assert row is not None
        row.append(word)
        # Dealt to one of the shortest rows: the others stay the shortest; none left, they are found again.
        short = self._short
        if short is not None and len(short) > 1 and question in short:
            short = short.copy()  # (the kept list may be in a spec)
            short.remove(question)
            self._short = short
        else:
            self._short = None
        return [Event("card_dealt", {"word": word, "row": question, "index": len(row) - 1})]

    def _do_deal(self, seat: int, action: Action) -> list[Event]:
        return self._deal_to(action["row"]) + self._deal_next()

    def _do_move(self, seat: int, action: Action) -> list[Event]:
        card, to = action["card"], action["to"]
        self.board[to], self.board[card] = self.board[card], None
        self._down = None
        self.moves_left -= 1
        return [Event("white_moved", {"from": card, "to": to}), *self._after_move()]

    def _do_swap(self, seat: int, action: Action) -> list[Event]:
        a, b = action["cards"]
        self.board[a], self.board[b] = self.board[b], self.board[a]  # (the same places face down: `_down` stays)
        self.moves_left -= 2
        return [Event("white_swapped", {"cards": [a, b]}), *self._after_move()]

    def _do_done(self, seat: int, action: Action) -> list[Event]:
        self.moves_left = 0
        return self._after_move()

    def _after_move(self) -> list[Event]:
        if self.moves_left > 0:
            return []
        self.question += 1
        self.asked = None
        self.sheets = [None] * self.seats
        self.peekers = []
        return self._start_selection()

    # -- the end ---------------------------------------------------------------------------------------
    def totals(self) -> list[int]:
        """Each seat's points: a point per score marker, plus the question-8 prize."""
        return [self.held[s]["score"] + (PRIZE if s == self.prize_winner else 0) for s in range(self.seats)]

    def _finish(self) -> list[Event]:
        totals = self.totals()
        top = max(totals)
        tied = [s for s in self._order() if totals[s] == top]
        self._set_phase("tiebreak")
        if len(tied) == 1:
            return self._over(tied[0], Termination.MOST_POINTS)
        self.tiebreak = {"seats": tied, "alive": list(tied), "turn": tied[0], "correct": [0] * self.seats,
                         "opened": [], "calls": []}
        return [Event("tiebreak_started", {"seats": tied})]

    def _do_call(self, seat: int, action: Action) -> list[Event]:
        tb = self.tiebreak
        assert tb is not None
        card, word = action["card"], action["word"]
        actual = self.content(card)["word"]
        right = actual == word
        tb["opened"].append(card)
        call = {"seat": seat, "card": card, "word": word, "actual": actual, "right": right}
        tb["calls"].append(call)
        events = [Event("called", dict(call))]
        order = tb["alive"]
        after = order[(order.index(seat) + 1) % len(order)]
        if right:
            tb["correct"][seat] += 1
        else:
            order.remove(seat)
        if len(order) == 1:
            return events + self._over(order[0], Termination.TIE_BREAK)
        if not self.face_down_answers():
            if right:
                return events + self._over(seat, Termination.TIE_BREAK)
            most = max(tb["correct"][s] for s in order)
            best = [s for s in order if tb["correct"][s] == most]
            if len(best) == 1:
                return events + self._over(best[0], Termination.TIE_BREAK)
            return events + self._over(self.chance.choice(LOT_LABEL, best), Termination.TIE_BREAK_LOT)
        tb["turn"] = after
        return events

    def _over(self, winner: int, how: Termination) -> list[Event]:
        self.winner, self.termination = winner, str(how)
        self._set_phase("over")
        return [Event("match_over", {"winner": winner, "totals": self.totals(), "termination": str(how)})]

    def _ended(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        totals = self.totals()
        key = [(totals[s], s == self.winner) for s in range(self.seats)]
        seats = tuple(
            SeatResult(seat=s, rank=1 + sum(k > key[s] for k in key), is_winner=s == self.winner,
                       score=float(totals[s]),
                       holdings={"score": self.held[s]["score"], "money": self.held[s]["money"],
                                 "prize": PRIZE if s == self.prize_winner else 0, "total": totals[s]})
            for s in range(self.seats))
        detail = {"prize_winner": self.prize_winner,
                  "tiebreak": None if self.tiebreak is None else {k: self.tiebreak[k] for k in ("seats", "calls")}}
        return Result(seats, self.termination or Termination.MOST_POINTS, detail)

    # -- time ------------------------------------------------------------------------------------------
    def time_limit(self) -> TimeLimit | None:
        # Asked at every step that moves the clock (hosts, the environments), and again while waking.
        cached = self._limit
        if cached is None:
            cached = self._limit = (self._time_limit(),)
        return cached[0]

    def _time_limit(self) -> TimeLimit | None:
        o, q = self.opts, self.question
        phase = self.phase
        primary = self._primary()
        defaults: dict[int, Action] = {}
        for s in self.to_act()[len(primary):]:  # the bystanders (a loop: cheaper than a comprehension's call)
            defaults[s] = {"type": "wait"}
        if phase == "memorise":
            if not primary:
                return None
            seconds = (self.memorise_until - self.memorise_from) / 1000
            return TimeLimit(f"memorise:{self.extensions}", seconds, {s: {"type": "ready"} for s in primary})
        if phase == "answer":
            return TimeLimit(f"answer:{q}", float(o.answer_seconds), {**{s: {"type": "peek"} for s in primary}, **defaults})
        if not primary:
            return None
        seat = primary[0]
        if phase == "select":
            return TimeLimit(f"select:{q}:{self.step}", float(o.select_seconds), {seat: {"type": "pass"}, **defaults})
        if phase == "peek":
            # Counted again after each card the peeker looks at, not after a `show`: showing is free
            # negotiation (覗き見した正解カードを他人に見せたりしても構いません), like giving.
            return TimeLimit(f"peek:{q}:{self.peek_turn}:{self.looks[seat]}", float(o.peek_turn_seconds),
                             {seat: {"type": "stop"}, **defaults})
        if phase == "open":
            first: Action = {"type": "open", "card": self._least_marked()[0]}
        elif phase == "deal":
            first = {"type": "deal", "row": self._shortest_rows()[0]}
        elif phase == "move":
            first = {"type": "done"}
        else:  # tiebreak
            first = {"type": "call", "card": self.face_down_answers()[0], "word": 0}
        return TimeLimit(f"{phase}:{q}:{self.step}", float(o.parent_seconds), {seat: first, **defaults})

    def wake_at(self) -> int | None:
        # The earliest of the time limit, the peek's end and the memorising time's (compared, not min() of a
        # list: asked at every step that moves the clock).
        due = self.time_limit_due()
        if self.peek is not None and (due is None or self.peek["until"] < due):
            due = self.peek["until"]
        if self.phase == "memorise" and (due is None or self.memorise_until < due):
            due = self.memorise_until
        return due

    def advance(self, now: int) -> list[Event]:
        events = super().advance(now)
        changed = False
        if self.peek is not None and now >= self.peek["until"]:
            events += self._end_peek()
            changed = True
        if self.phase == "memorise" and now >= self.memorise_until:
            events += self._end_memorising()
            changed = True
        if changed:  # (a time limit's defaults were applied by `_apply`, which dropped what they changed)
            self._legal_cache.clear()
            self.clock.unchecked = True
            self._waiting = self._turns = self._limit = self._specs = None
        return events

    # -- views -----------------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        return seat_view(self, seat)

    # -- secrets ---------------------------------------------------------------------------------------
    def perturb_secrets(self, owner: int | None, rng: random.Random) -> Match | None:
        if self.phase == "memorise":
            return None  # everything is open
        if owner is None:
            return self._swap_unseen(rng)
        if self.phase == "answer" and self.sheets[owner] is not None:
            other = self.clone()
            assert isinstance(other, QuizMatch)
            current = self.sheets[owner]
            assert current is not None
            options: list[dict[str, Any]] = [{"choice": "secret_money"}, {"choice": "peek"},
                       {"choice": "answer", "words": [rng.randrange(ANSWERS)]}]
            other.sheets[owner] = rng.choice([o for o in options if o != current])
            return other
        if self.peek is not None and self.peek["seat"] == owner and not self.peek["shown_to"]:
            return self._swap_looked(rng)
        return None

    def _swap_looked(self, rng: random.Random) -> Match | None:
        """A copy in which the card the owner is looking at (shown to nobody else) holds what another
        face-down card of its kind holds, and that card what it held."""
        assert self.peek is not None
        kind, a, b = parse_target(self.peek["target"])
        other = self.clone()
        assert isinstance(other, QuizMatch)
        if kind == "a":
            others = [parse_target(t) for t in self.face_down_answers() if t != self.peek["target"]]
            _, c, d = rng.choice(others)
            row_a, row_c = other.rows[a], other.rows[c]
            assert row_a is not None and row_c is not None
            row_a[b], row_c[d] = row_c[d], row_a[b]
        else:
            p = rng.choice([p for p in self.face_down_white() if p != a])
            other.board[a], other.board[p] = other.board[p], other.board[a]
        return other

    def _swap_unseen(self, rng: random.Random) -> Match | None:
        """A copy in which two face-down cards nobody is looking at have swapped contents."""
        looked = self.peek["target"] if self.peek else None
        answers = [t for t in self.face_down_answers() if t != looked]
        whites = [p for p in self.face_down_white() if white_target(p) != looked]
        other = self.clone()
        assert isinstance(other, QuizMatch)
        if len(answers) >= 2:
            a, b = (parse_target(t) for t in rng.sample(answers, 2))
            row_a, row_b = other.rows[a[1]], other.rows[b[1]]
            assert row_a is not None and row_b is not None
            row_a[a[2]], row_b[b[2]] = row_b[b[2]], row_a[a[2]]
        if len(whites) >= 2:
            p, r = rng.sample(whites, 2)
            other.board[p], other.board[r] = other.board[r], other.board[p]
        return other


#: Each action type's handler's name, `_do_<type>` (looked up by name, so that a method patched on the class
#: is the one called).
_HANDLERS = {name.removeprefix("_do_"): name for name in dir(QuizMatch) if name.startswith("_do_")}
