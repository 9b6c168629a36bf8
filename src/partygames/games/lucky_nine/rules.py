"""The Lucky Nine state machine (seed 004): nine chests, a dropper, press your luck, the house pays.

A turn: the player presses the button and the dropper shows one of the nine chests. A lit chest
(one holding diamonds or prizes) is a hit: the player takes what it holds and then continues (presses
again) or passes. An empty chest is a miss: the player pays the stake into that chest and into the
diamond chest (twice the stake into the diamond chest when the draw is the diamond chest) and the turn
ends. After a turn the player may drop out. Conservation: the players' diamonds, the chests' diamonds
and the house ledger (what the house has paid out, negative, or collected) always sum to
`seats * start_diamonds`.
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any, ClassVar

from partygames.engine import Action, ActionSpec, Event, Match, Result, TimeLimit, choice, spec
from partygames.engine.copying import Shape
from partygames.games.lucky_nine.options import LuckyNineOptions

CHESTS: tuple[str, ...] = ("wood", "stone", "coal", "iron", "lapis", "redstone", "gold", "emerald", "diamond")
DIAMOND = "diamond"
NON_DIAMOND: tuple[str, ...] = CHESTS[:-1]
# The chests the house funds at set-up and refills under special rule a.
FUNDED: tuple[str, ...] = ("lapis", "redstone", "gold", "emerald")
# Variant b gives one inventory slot of the diamond chest: at most one stack of diamonds.
SLOT_DIAMONDS = 64
CHAIN_LENGTH = 5  # variant d: every 5th consecutive hit in a turn pays 5x the stake
CHAIN_MULTIPLIER = 5

ACTIVE, DROPPED, DISQUALIFIED = "active", "dropped", "disqualified"


class Termination(StrEnum):
    """How a match of Lucky Nine ends (`Result.termination`)."""

    ROUNDS_COMPLETE = "rounds_complete"
    """Every round was played."""
    NO_ACTIVE_PLAYERS = "no_active_players"
    """Every player dropped out or was disqualified before the last round ended."""


# The dropper's outcomes, with variant c's exclusion of the previous result precomputed.
_ALL_DRAWS: tuple[str, ...] = CHESTS
_DRAWS_WITHOUT: dict[str, tuple[str, ...]] = {c: tuple(x for x in CHESTS if x != c) for c in CHESTS}


class LuckyNineMatch(Match):
    # dropping out of the game: the person's own (docs/rules/lucky-nine.md, Stand-ins)
    PERSONAL = frozenset({"drop_out"})
    CLONE_SHAPES: ClassVar[dict[str, Shape]] = {
        **dict.fromkeys(("holdings", "status", "chests", "prizes", "turn_draws"), Shape.FLAT), "claimed": Shape.ROWS}
    game_id = "lucky-nine"
    options_class = LuckyNineOptions
    seat_counts = tuple(range(2, 21))

    options: LuckyNineOptions

    # -- set-up --------------------------------------------------------------------------------
    def _setup(self) -> None:
        o = self.options
        n = self.seats
        self.holdings: list[int] = [o.start_diamonds] * n
        self.claimed: list[dict[str, int]] = [{} for _ in range(n)]
        self.status: list[str] = [ACTIVE] * n
        self.chests: dict[str, int] = dict.fromkeys(CHESTS, 0)
        self.prizes: dict[str, int] = {p.name: p.count for p in o.special_prizes}
        # 「主催者がプレイヤー人数分のダイヤモンドを、ラピス・レッドストーン・金・エメラルドのチェストに
        # 1個ずつ、ダイヤチェストに残りのダイヤ入れます」: with fewer than 4 players the four are still funded.
        for chest in FUNDED:
            self.chests[chest] = 1
        self.chests[DIAMOND] = max(0, n - len(FUNDED))
        self.house = -sum(self.chests.values())  # the house ledger: negative while it has paid out
        self.round = 0  # 0-based index into the stake table
        self.lap = 0  # 0-based lap within the round (two laps with 6 or fewer players)
        self.turn_seat = 0
        self.phase = "press"  # press | claim | decide | dropout | over
        self.claim_mode: str | None = None  # "kind" (diamond-chest hit) or "slot" (variant b bonus)
        self.last_draw: str | None = None
        self.turn_draws: list[str] = []
        self.chain = 0  # hits so far in this turn (variant d)
        self.turn_number = 1
        self.termination: str | None = None
        self.collected = 0

    # -- derived facts ---------------------------------------------------------------------------
    @property
    def laps(self) -> int:
        """Turns per player per round: 「7名以上の場合は…1回手番・6名または6名以下の場合は2回手番」."""
        return 1 if self.seats >= 7 else 2

    @property
    def stake(self) -> int:
        return self.options.stakes[min(self.round, self.options.rounds - 1)]

    def is_lit(self, chest: str) -> bool:
        """A chest holding diamonds or prizes: its lamp is on and drawing it is a hit."""
        if chest == DIAMOND:
            return self.chests[DIAMOND] > 0 or any(self.prizes.values())
        return self.chests[chest] > 0

    def diamond_chest_kinds(self) -> list[str]:
        """What a claim from the diamond chest may name: "diamond" and each prize kind left."""
        kinds = [DIAMOND] if self.chests[DIAMOND] > 0 else []
        kinds += [name for name, count in self.prizes.items() if count > 0]
        return kinds

    # -- the contract ----------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        return () if self.phase == "over" else (self.turn_seat,)

    def _legal_actions(self, seat: int) -> list[ActionSpec]:
        phase = self.phase
        if phase == "press":
            return [spec("press")]
        if phase == "decide":
            return [spec("continue"), spec("pass")]
        if phase == "dropout":
            return [spec("stay"), spec("drop_out")]
        return [spec("claim", kind=choice(self.diamond_chest_kinds()))]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        kind = action["type"]
        if kind in ("press", "continue"):
            self._draw(seat, events)
        elif kind == "pass":
            events.append(Event("pass", {"seat": seat}))
            self._end_turn(seat, events)
        elif kind == "claim":
            self._claim(seat, action["kind"], events)
            self._after_hit(events)
        elif kind == "stay":
            self._advance(events)
        elif kind == "drop_out":
            self.status[seat] = DROPPED
            events.append(Event("drop_out", {"seat": seat}))
            self._advance(events)
        else:
            raise AssertionError(f"unknown action {kind!r}: the base class checked it against the specs")
        return events

    # -- time ------------------------------------------------------------------------------------
    def time_limit(self) -> TimeLimit | None:
        """Every decision has its own limit; on timeout the player presses (the only choice), passes,
        claims the kind worth most, or stays in. The phase name holds the turn number and the presses so
        far in the turn, so it changes with every decision and each one gets its full time."""
        phase = self.phase
        if phase == "over":
            return None
        o = self.options
        default: Action
        if phase == "press":
            # A player's first turn of the match opens with a longer limit: a newcomer reads the machine first
            # (issue 29: 15 s timed a newcomer's first turn out).
            first = self.round == 0 and self.lap == 0
            seconds, default = o.first_press_seconds if first else o.press_seconds, {"type": "press"}
        elif phase == "decide":
            seconds, default = o.decide_seconds, {"type": "pass"}
        elif phase == "claim":
            seconds, default = o.claim_seconds, {"type": "claim", "kind": self.most_valuable_kind()}
        else:
            seconds, default = o.dropout_seconds, {"type": "stay"}
        return TimeLimit(f"{phase}:{self.turn_number}:{len(self.turn_draws)}", float(seconds),
                         {self.turn_seat: default})

    def most_valuable_kind(self) -> str:
        """The kind a claim now would bring the most of, in diamonds (a prize at its `value`); on a tie
        the first in `diamond_chest_kinds()` order (diamonds, then prizes in the options' order)."""
        slot = self.claim_mode == "slot"
        values = {p.name: p.value for p in self.options.special_prizes}

        def worth(kind: str) -> int:
            if kind == DIAMOND:
                return min(SLOT_DIAMONDS, self.chests[DIAMOND]) if slot else self.chests[DIAMOND]
            return values[kind] * (1 if slot else self.prizes[kind])

        return max(self.diamond_chest_kinds(), key=worth)

    # -- a draw ----------------------------------------------------------------------------------
    def _draw(self, seat: int, events: list[Event]) -> None:
        last = self.last_draw
        outcomes = _DRAWS_WITHOUT[last] if self.options.no_repeat and last is not None else _ALL_DRAWS
        chest = self.chance.choice("dropper", outcomes)
        self.last_draw = chest
        self.turn_draws.append(chest)
        if self.chests[chest] > 0 or (chest == DIAMOND and any(self.prizes.values())):
            self._hit(seat, chest, events)
        else:
            self._miss(seat, chest, events)

    def _hit(self, seat: int, chest: str, events: list[Event]) -> None:
        events.append(Event("draw", {"seat": seat, "chest": chest, "hit": True}))
        self.chain += 1
        if self.options.chain_bonus and self.chain % CHAIN_LENGTH == 0:
            bonus = CHAIN_MULTIPLIER * self.stake
            self.holdings[seat] += bonus
            self.house -= bonus
            events.append(Event("chain_bonus", {"seat": seat, "hits": self.chain, "diamonds": bonus}))
        if chest == DIAMOND:
            kinds = self.diamond_chest_kinds()
            if len(kinds) > 1:
                self.phase, self.claim_mode = "claim", "kind"
                return
            self.claim_mode = "kind"
            self._claim(seat, kinds[0], events)
        else:
            amount = self.chests[chest]
            self.chests[chest] = 0
            self.holdings[seat] += amount
            events.append(Event("take", {"seat": seat, "chest": chest, "kind": DIAMOND, "count": amount}))
            if self.options.sweep_bonus and not any(self.chests[c] for c in NON_DIAMOND):
                kinds = self.diamond_chest_kinds()
                if len(kinds) > 1:
                    self.phase, self.claim_mode = "claim", "slot"
                    return
                if kinds:
                    self.claim_mode = "slot"
                    self._claim(seat, kinds[0], events)
        self._after_hit(events)

    def _claim(self, seat: int, kind: str, events: list[Event]) -> None:
        """Takes from the diamond chest: all of one kind (a hit) or one slot (variant b)."""
        is_slot = self.claim_mode == "slot"
        if kind == DIAMOND:
            amount = self.chests[DIAMOND]
            if is_slot:
                amount = min(SLOT_DIAMONDS, amount)
            self.chests[DIAMOND] -= amount
            self.holdings[seat] += amount
        else:
            amount = 1 if is_slot else self.prizes[kind]
            self.prizes[kind] -= amount
            self.claimed[seat][kind] = self.claimed[seat].get(kind, 0) + amount
        events.append(Event("sweep_bonus" if is_slot else "take",
                            {"seat": seat, "chest": DIAMOND, "kind": kind, "count": amount}))
        self.claim_mode = None

    def _after_hit(self, events: list[Event]) -> None:
        # Special rule a: 「全てのチェストが空きの場合、主催者がラピス・レッドストーン・金・エメラルドの
        # チェストに賭け金の数字分ずつのダイヤを入れます」.
        if not any(self.chests.values()) and not any(self.prizes.values()):
            stake = self.stake
            for chest in FUNDED:
                self.chests[chest] = stake
            self.house -= stake * len(FUNDED)
            events.append(Event("refill", {"chests": list(FUNDED), "diamonds": stake}))
        self.phase = "decide"

    def _miss(self, seat: int, chest: str, events: list[Event]) -> None:
        stake = self.stake
        if chest == DIAMOND:
            times = 3 if self.options.triple_diamond else 2
            owed = [(DIAMOND, times * stake)]
        else:
            owed = [(chest, stake), (DIAMOND, stake)]
        total = sum(amount for _, amount in owed)
        have = self.holdings[seat]
        paid: dict[str, int] = {}
        if have < stake:
            # Special rule b: all the player holds goes into the diamond chest, and the player is out.
            paid[DIAMOND] = have
        else:
            left = have
            for target, amount in owed:
                pay = min(amount, left)
                paid[target] = paid.get(target, 0) + pay
                left -= pay
        for target, amount in paid.items():
            self.chests[target] += amount
            self.holdings[seat] -= amount
        short = have < total
        events.append(Event("draw", {"seat": seat, "chest": chest, "hit": False}))
        events.append(Event("pay", {"seat": seat, "owed": total, "paid": paid}))
        if short:
            self.status[seat] = DISQUALIFIED
            events.append(Event("disqualified", {"seat": seat}))
        self._end_turn(seat, events)

    # -- turn order ------------------------------------------------------------------------------
    def _end_turn(self, seat: int, events: list[Event]) -> None:
        self.chain = 0
        has_later_turn = self.round < self.options.rounds - 1 or self.lap < self.laps - 1
        if self.status[seat] == ACTIVE and has_later_turn:
            self.phase = "dropout"
        else:
            self._advance(events)

    def _advance(self, events: list[Event]) -> None:
        """Moves to the next active seat, closing laps, rounds and the game as they end."""
        self.turn_draws = []
        status = self.status
        if ACTIVE not in status:
            self._finish(Termination.NO_ACTIVE_PLAYERS, events)
            return
        n = self.seats
        for seat in range(self.turn_seat + 1, n):
            if status[seat] == ACTIVE:
                self._start_turn(seat)
                return
        self.lap += 1
        if self.lap == self.laps:
            self.lap = 0
            self.round += 1
            if self.round == self.options.rounds:
                self._finish(Termination.ROUNDS_COMPLETE, events)
                return
            self._top_up(events)
        self._start_turn(status.index(ACTIVE))

    def _start_turn(self, seat: int) -> None:
        self.turn_seat = seat
        self.phase = "press"
        self.turn_number += 1

    def _top_up(self, events: list[Event]) -> None:
        # 「ダイヤチェスト以外の、ダイヤが入っているチェストに次ラウンドの賭け金になるようにダイヤを補充」
        stake = self.stake
        added: dict[str, int] = {}
        for chest in NON_DIAMOND:
            have = self.chests[chest]
            if 0 < have < stake:
                added[chest] = stake - have
                self.chests[chest] = stake
        self.house -= sum(added.values())
        events.append(Event("round_start", {"round": self.round + 1, "stake": stake, "top_up": added}))

    def _finish(self, termination: Termination, events: list[Event]) -> None:
        # 「チェストにある全てのダイヤは主催者が回収いたします」
        self.collected = sum(self.chests.values())
        self.house += self.collected
        self.chests = dict.fromkeys(CHESTS, 0)
        self.phase = "over"
        self.termination = termination
        events.append(Event("game_over", {"termination": termination, "house_collects": self.collected}))

    def perturb_secrets(self, owner: int | None, rng: random.Random) -> Match | None:
        """Nothing is hidden but the future: the copy has another random state (future dropper results)."""
        if owner is not None:
            return None
        other = self.clone()
        other.chance.state = rng.getrandbits(64)
        return other

    # -- views and result ------------------------------------------------------------------------
    def score(self, seat: int) -> int:
        """Final standing: diamonds plus the diamond value of claimed prizes (0 unless set)."""
        return self._scores()[seat]

    def _scores(self) -> list[int]:
        values = {p.name: p.value for p in self.options.special_prizes}
        return [held + sum(values[k] * c for k, c in claimed.items())
                for held, claimed in zip(self.holdings, self.claimed, strict=True)]

    def _view(self, seat: int | None) -> dict[str, Any]:
        o = self.options
        over = self.phase == "over"
        return {
            "round": min(self.round, o.rounds - 1) + 1,
            "rounds": o.rounds,
            "stakes": list(o.stakes),
            "stake": self.stake,
            # (after the last round the lap is the last one, not the first of a round that never starts)
            "lap": self.laps if over and self.round >= o.rounds else self.lap + 1,
            "laps": self.laps,
            "turn_number": self.turn_number,
            "turn_seat": None if over else self.turn_seat,
            "phase": self.phase,
            "chests": dict(self.chests),
            "lit": [c for c in CHESTS if self.is_lit(c)],
            "prizes": dict(self.prizes),
            "prize_values": {p.name: p.value for p in o.special_prizes},
            "claim": None if self.phase != "claim" else {"mode": self.claim_mode,
                                                         "kinds": self.diamond_chest_kinds()},
            "last_draw": self.last_draw,
            "turn_draws": list(self.turn_draws),
            "chain": self.chain,
            "players": [{"seat": s, "diamonds": self.holdings[s], "status": self.status[s],
                         "prizes": dict(self.claimed[s])} for s in range(self.seats)],
            "house": self.house,
            "start_diamonds": o.start_diamonds,
            "variants": {"triple_diamond": o.triple_diamond, "sweep_bonus": o.sweep_bonus,
                         "no_repeat": o.no_repeat, "chain_bonus": o.chain_bonus},
        }

    def _ended(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        start = self.options.start_diamonds
        holdings = [{"diamonds": held, "net": held - start, "status": status, "prizes": dict(claimed)}
                    for held, status, claimed in zip(self.holdings, self.status, self.claimed, strict=True)]
        return Result.ranked([float(score) for score in self._scores()], self.termination or "",
                             holdings, {"house": self.house, "house_collected": self.collected,
                                        "prizes_left": dict(self.prizes)})

    def total_diamonds(self) -> int:
        """Players + chests + house ledger: constant, `seats * start_diamonds`."""
        return sum(self.holdings) + sum(self.chests.values()) + self.house
