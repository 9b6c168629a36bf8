"""Bots for Musical Chairs. They read only their view and legal actions.

The heuristic player races sensibly: it predicts who reaches which chair first (everyone runs to the
totem, then the earliest arrival at a chair takes it) and plans the chair it wins, then the others by
its own arrival; it votes for itself, offers `budget` of its medals to ガヤ each break (a bribe for
their votes and their holds), and as parent removes the chair its leading rival would take. The
heuristic ガヤ votes for the player whose medals it holds most (its expected payout, every remaining
player being as likely to win), or, holding none, by lot among the candidates in real time (blank in the
rounds tempo), and holds the best chair for that player. In the gathering before the
vote both walk to the totem when only ballots cast near it count (a ガヤ with nobody to vote for stays).
"""

from __future__ import annotations

from typing import Any

from partygames.engine import Action, Bot, Observation, search
from partygames.engine.actions import MAX_SEQUENCE_LEN, sample
from partygames.games.musical_chairs.island import distance, position, travel_ms
from partygames.games.musical_chairs.rules import BLANK


class RealTimeRandomBot(Bot):
    """Uniformly random legal actions; in the real-time tempo at most one per moment of match time (every
    seat may always act there, so a bot that always acts would keep the clock from ever moving)."""

    name = "random"

    def __init__(self, seat: int, seed: int = 0) -> None:
        super().__init__(seat, seed)
        self.acted_at: int | None = None

    def act(self, obs: Observation) -> Action | None:
        if obs.now == self.acted_at and obs.view["tempo"] == "real-time":
            return None
        self.acted_at = obs.now
        return sample(obs.legal, self.rng)


class Board:
    """What a bot works out from a view: positions, distances in time, and who may sit where."""

    def __init__(self, view: dict[str, Any], now: int) -> None:
        self.view = view
        self.now = now
        self.totem = tuple(view["island"]["totem"])
        self.speed = view["speed"]
        self.people = view["people"]
        self.chairs = {c["number"]: c for c in view["chairs"] if not c["removed"]}

    def where(self, seat: int) -> tuple[int, int] | None:
        motion = self.people[seat]["motion"]
        return None if motion is None else position(motion, self.now)

    def ms(self, a: Any, b: Any) -> int:
        return travel_ms(distance(a, b), self.speed)

    def to_totem(self, seat: int) -> int:
        """Time this player still needs before running to a chair (0 once the totem is touched)."""
        here = self.where(seat)
        return 0 if here is None or self.people[seat]["touched"] else self.ms(here, self.totem)

    def arrival(self, seat: int, number: int) -> int:
        """When the player would reach the chair: via the totem unless touched already."""
        at = self.chairs[number]["at"]
        here = self.where(seat)
        if here is None:
            return 10**9
        if self.people[seat]["touched"]:
            return self.ms(here, at)
        return self.ms(here, self.totem) + self.ms(self.totem, at)

    def open_to(self, seat: int, number: int) -> bool:
        chair = self.chairs[number]
        return (number != self.people[seat]["last_chair"] and chair["occupant"] in (None, seat)
                and (chair["holder"] is None or chair["for"] == seat))

    def predicted(self) -> dict[int, int]:
        """Who takes which chair if everyone runs for the chair they reach first: earliest arrivals first."""
        remaining = self.view["remaining"]
        races = sorted((self.arrival(p, n), p, n) for p in remaining for n in self.chairs if self.open_to(p, n))
        taken: dict[int, int] = {}
        chairs: set[int] = set()
        for _, player, number in races:
            if player not in taken and number not in chairs:
                taken[player] = number
                chairs.add(number)
        return taken

    def plan(self, seat: int) -> list[int]:
        """The chair this player is predicted to win (a chair held for it first), then the rest by arrival."""
        last = self.people[seat]["last_chair"]
        mine = [n for n in self.chairs if n != last]
        held = [n for n in mine if self.chairs[n]["for"] == seat]
        won = self.predicted().get(seat)
        # Chairs closed now (held for another, occupied) last: a hold may end before this player gets there.
        order = sorted(mine, key=lambda n: (n not in held, n != won, not self.open_to(seat, n),
                                            self.arrival(seat, n), n))
        return order[:MAX_SEQUENCE_LEN]


def _legal(obs: Observation, kind: str) -> dict[str, Any] | None:
    return next((s for s in obs.legal if s["type"] == kind), None)


class HeuristicBot(Bot):
    """A sensible player or ガヤ (see the module docstring). `budget`: medals offered to ガヤ per break."""

    name = "heuristic"
    budget = 2

    def __init__(self, seat: int, seed: int = 0) -> None:
        super().__init__(seat, seed)
        self.bribed: dict[int, int] = {}  # period -> medals given in that break
        self.given: dict[int, int] = {}  # ガヤ seat -> medals given it
        self.lot: dict[tuple[int, bool, str], int] = {}  # a vote (period, rerun, phase) -> the seat drawn

    def act(self, obs: Observation) -> Action | None:
        view = obs.view
        me = view["people"][self.seat]
        board = Board(view, obs.now)
        if view["phase"] in ("vote", "runoff"):
            return self._vote(obs)
        if view["phase"] == "gather":
            return self._gather(obs, board)
        if me["role"] == "player":
            return self._player(obs, board)
        return self._gallery(obs, board)

    # -- players -------------------------------------------------------------------------------------
    def _player(self, obs: Observation, board: Board) -> Action | None:
        view = obs.view
        if view["phase"] == "remove":
            return self._remove(obs, board) if _legal(obs, "remove_chair") else None
        if view["phase"] == "break":
            bribe = self._bribe(obs)
            if bribe is not None:
                return bribe
        if _legal(obs, "pass"):
            return {"type": "pass"}
        me = view["people"][self.seat]
        if me["chair"] is not None or _legal(obs, "plan") is None:
            return None
        if view["tempo"] == "real-time":
            if view["phase"] == "break":
                here = board.where(self.seat)
                target = me["target"] or {}
                if here != board.totem and target.get("kind") != "totem":
                    return {"type": "run_to_totem"}  # wait for GO at the totem
            if view["my_plan"] is not None:
                return None
        plan = board.plan(self.seat)
        if view["phase"] == "race":  # running already: only chairs open now (else the plan ends at once)
            plan = [n for n in plan if board.open_to(self.seat, n)]
        if not plan:
            return None
        return {"type": "plan", "chairs": plan}

    def _bribe(self, obs: Observation) -> Action | None:
        """One medal of its own to each of `budget` ガヤ per break, those given least first."""
        view = obs.view
        period = view["period"]
        own = str(self.seat)
        if self.bribed.get(period, 0) >= self.budget or not view["my_medals"].get(own):
            return None
        gallery = [s for s, p in enumerate(view["people"]) if p["role"] == "gallery"]
        if not gallery:
            return None
        target = min(gallery, key=lambda s: (self.given.get(s, 0), s))
        self.bribed[period] = self.bribed.get(period, 0) + 1
        self.given[target] = self.given.get(target, 0) + 1
        return {"type": "give", "to": target, "name": self.seat, "count": 1}

    def _remove(self, obs: Observation, board: Board) -> Action:
        """The chair the leading rival (most votes in the last tally) is predicted to take."""
        view = obs.view
        entry = view["history"][-1]
        tally = entry.get("runoff") or entry.get("vote") or {"votes": {}}
        rivals = [p for p in view["remaining"] if p != self.seat]
        leader = max(rivals, key=lambda p: (tally["votes"].get(str(p), 0), -p))
        mine = board.plan(self.seat)
        theirs = [n for n in board.plan(leader) if not mine or n != mine[0]]
        choices = _legal(obs, "remove_chair")
        assert choices is not None
        allowed = choices["params"]["chair"]["choice"]
        chair = theirs[0] if theirs and theirs[0] in allowed else allowed[-1]
        return {"type": "remove_chair", "chair": chair}

    # -- votes -----------------------------------------------------------------------------------------
    def _vote(self, obs: Observation) -> Action | None:
        spec = _legal(obs, "vote")
        if spec is None:
            return None
        candidates = spec["params"]["candidate"]["choice"]
        if self.seat in candidates:
            return {"type": "vote", "candidate": self.seat}
        patron = self._patron(obs.view)
        if patron in candidates:
            return {"type": "vote", "candidate": patron}
        if obs.view["tempo"] == "real-time" and obs.view["vote_at_totem"] and candidates == [BLANK]:
            return {"type": "run_to_totem"} if obs.view["people"][self.seat]["target"] != {"kind": "totem"} else None
        # No stake in any candidate. At a live table (real time) it names one by lot, as a person would rather
        # than abstain: every such ガヤ voting blank at once made 5 of 11 ballots of a first vote blank (issue
        # 29). The lot is drawn once a vote, so that a bot asked again casts the same ballot. The rounds tempo,
        # which the analyses and the bot figures play, keeps the blank ballot.
        named = [c for c in candidates if c != BLANK]
        if named and obs.view["tempo"] == "real-time":
            vote = (obs.view["period"], obs.view["rerun"], obs.view["phase"])
            if self.lot.get(vote) not in named:
                self.lot[vote] = self.rng.choice(named)
            return {"type": "vote", "candidate": self.lot[vote]}
        return {"type": "vote", "candidate": BLANK}

    def _gather(self, obs: Observation, board: Board) -> Action | None:
        """Between the race and the vote: to the voting place when only ballots cast near the totem count
        (a ガヤ holding no remaining player's medals has no stake in it and stays put until the vote opens); else it waits."""
        view = obs.view
        me = view["people"][self.seat]
        if not view["vote_at_totem"] or _legal(obs, "run_to_totem") is None:
            return None
        if me["role"] != "player" and self._patron(view) is None:
            return None
        if board.where(self.seat) == board.totem or (me["target"] or {}).get("kind") == "totem":
            return None
        return {"type": "run_to_totem"}

    @staticmethod
    def _patron(view: dict[str, Any]) -> int | None:
        """The remaining player whose medals this seat holds most (ties: the lower seat)."""
        held = {int(name): n for name, n in view["my_medals"].items() if int(name) in view["remaining"]}
        if not held:
            return None
        return max(held, key=lambda p: (held[p], -p))

    # -- ガヤ ------------------------------------------------------------------------------------------
    def _gallery(self, obs: Observation, board: Board) -> Action | None:
        view = obs.view
        if _legal(obs, "pass"):
            return {"type": "pass"}
        hold = _legal(obs, "hold")
        if hold is None or view["phase"] not in ("break", "race"):
            return None
        patron = self._patron(view)
        if patron is None:
            return {"type": "stop"} if view["tempo"] == "rounds" else None
        chair = self._chair_for(board, patron)
        me = view["people"][self.seat]
        if chair is None:
            return {"type": "stop"} if view["tempo"] == "rounds" else None
        if view["tempo"] == "real-time":
            target = me["target"] or {}
            if me["holding"] == chair and board.chairs[chair]["for"] == patron:
                return None
            # Heading for the chair for the patron, or there already: asking again would only restart the walk
            # (at the chair, a walk of no length, at the same instant, without end).
            if target.get("chair") == chair and me["hold_for"] == patron:
                return None
        return {"type": "hold", "chair": chair, "player": patron}

    def _chair_for(self, board: Board, patron: int) -> int | None:
        """The chair nearest the totem the patron may sit on that no other ガヤ holds and nobody occupies."""
        mine = board.people[self.seat]["holding"]
        usable = [n for n, c in board.chairs.items()
                  if n != board.people[patron]["last_chair"] and c["holder"] in (None, self.seat)
                  and c["occupant"] in (None, patron)]
        if mine in usable:
            return int(mine)
        return min(usable, key=lambda n: (board.ms(board.totem, board.chairs[n]["at"]), n), default=None)


class SearchBot(search.SearchBot):
    """The search bot (`engine/search.py`) with this game's heuristic as rollout policy and prior."""
