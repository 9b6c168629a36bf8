"""The Smuggling Game (密輸ゲーム) state machine: small games of vote, packing and inspection.

Seats: even seats are North (北の国), odd seats South (南の国); seat s is member s // 2 of team s % 2.
Phases of each small game: `vote` (both teams at once, secret), `pack` (the smuggler, secret),
`inspect` (the inspector declares pass or doubt), then settlement and the public ledger entry.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, ClassVar

from partygames.engine import (
    Action,
    ActionSpec,
    Event,
    Match,
    Result,
    SeatResult,
    choice,
    int_range,
    spec,
)
from partygames.engine.copying import Shape
from partygames.engine.match import TimeLimit
from partygames.engine.options import Options
from partygames.games.smuggling.options import SmugglingOptions
from partygames.games.smuggling.settlement import (
    LOAN,
    OPP_START,
    THIRD_START,
    doubt_cap,
    prize_shares,
    settle,
    trunk_cap,
)

TEAMS = ("north", "south")

#: Chance label of the only draw: which team smuggles in the first small game.
FIRST_SMUGGLERS_LABEL = "first_smugglers"


class Termination(StrEnum):
    """How a match of the Smuggling Game ends (`Result.termination`)."""

    LAST_SMALL_GAME = "last_small_game"
    """The last small game was settled: the only way a match ends."""


def _copy_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A copy of a ledger entry that shares nothing mutable with the state (cheaper than deepcopy)."""
    votes = entry["votes"]
    return {**entry, "votes": None if votes is None else list(votes), "totals": dict(entry["totals"]),
            "transfers": [dict(t) for t in entry["transfers"]]}


def team_of(seat: int) -> int:
    """0 for North (even seats), 1 for South (odd seats)."""
    return seat % 2


def rotation_pick(team: int, small_game: int, team_size: int) -> int:
    """The seat that rotation sends for `team` in small game `small_game` (0-based).

    Member m represents in small games 2m and 2m+1 (mod 2 x team size): once in each role.
    """
    return team + 2 * ((small_game // 2) % team_size)


class SmugglingMatch(Match):
    game_id = "smuggling"
    options_class = SmugglingOptions
    seat_counts = tuple(range(2, 19, 2))
    # A ledger entry is written once, when its small game is settled.
    CLONE_SHAPES: ClassVar[dict[str, Shape]] = {
        **dict.fromkeys(("third", "opp", "votes", "awaiting", "represented"), Shape.FLAT), "ledger": Shape.LOG}

    @classmethod
    def allowed_seat_counts(cls, options: Options) -> Sequence[int]:
        assert isinstance(options, SmugglingOptions)
        return (2 * options.team_size,)

    @property
    def opts(self) -> SmugglingOptions:
        assert isinstance(self.options, SmugglingOptions)
        return self.options

    # -- set-up and phases ------------------------------------------------------------------------
    def _setup(self) -> None:
        self.third = [THIRD_START] * self.seats
        self.opp = [OPP_START] * self.seats
        self.trunk = 0
        # The organiser's ledger: cash lent out counts negative, so accounts + trunk + organiser == 0.
        self.organiser = -LOAN * self.seats
        self.first_smugglers = TEAMS.index(self.chance.choice(FIRST_SMUGGLERS_LABEL, list(TEAMS)))
        self.small_game = 0
        self.phase = "vote"
        self.votes: list[int | None] = [None] * self.seats
        # The seats to_act() returns, kept up to date by every phase change (to_act is the hot path).
        self.awaiting: list[int] = []
        self.smuggler: int | None = None
        self.inspector: int | None = None
        self.represented = [0] * self.seats
        self.ledger: list[dict[str, Any]] = []
        self._start_small_game()

    @property
    def smuggling_team(self) -> int:
        return (self.first_smugglers + self.small_game) % 2

    def _start_small_game(self) -> list[Event]:
        self.smuggler = self.inspector = None
        if self.small_game >= self.opts.small_games:
            self.phase = "over"
            self.awaiting = []
            return []
        if self.opts.representatives == "rotation" or self.opts.team_size == 1:
            return self._appoint(self._rotation_seat(self.smuggling_team),
                                 self._rotation_seat(1 - self.smuggling_team), None)
        self.phase = "vote"
        self.votes = [None] * self.seats
        self.awaiting = list(range(self.seats))
        return [Event("vote_opened", {"small_game": self.small_game + 1,
                                      "smuggling_team": TEAMS[self.smuggling_team]})]

    def _rotation_seat(self, team: int) -> int:
        return rotation_pick(team, self.small_game, self.opts.team_size)

    def _appoint(self, smuggler: int, inspector: int, votes: list[int] | None) -> list[Event]:
        self.smuggler, self.inspector = smuggler, inspector
        self.represented[smuggler] += 1
        self.represented[inspector] += 1
        self.phase = "pack"
        self.awaiting = [smuggler]
        return [Event("representatives", {"small_game": self.small_game + 1,
                                          "smuggling_team": TEAMS[self.smuggling_team],
                                          "smuggler": smuggler, "inspector": inspector, "votes": votes})]

    def _vote_winner(self, team: int, votes: list[int]) -> int:
        """Plurality; a tie goes to the tied member who has represented least, then the lowest seat."""
        counts: dict[int, int] = {}
        for voter in range(team, self.seats, 2):
            counts[votes[voter]] = counts.get(votes[voter], 0) + 1
        return min(counts, key=lambda s: (-counts[s], self.represented[s], s))

    # -- the contract ----------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        return tuple(self.awaiting)

    def _legal_actions(self, seat: int) -> list[ActionSpec]:
        unit = self.opts.unit
        if self.phase == "vote":
            return [spec("vote", candidate=choice(list(range(team_of(seat), self.seats, 2))))]
        if self.phase == "pack":
            return [spec("pack", amount=int_range(0, trunk_cap(self.opp[seat]), unit))]
        specs = [spec("pass")]
        cap = doubt_cap(self.third[seat], unit)
        if cap >= unit:
            specs.append(spec("doubt", amount=int_range(unit, cap, unit)))
        return specs

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        if kind == "vote":
            return self._vote(seat, action["candidate"])
        if kind == "pack":
            return self._pack(seat, action["amount"])
        if kind in ("pass", "doubt"):
            return self._declare(action.get("amount"))
        raise AssertionError(f"unknown action {kind!r}: the base class checked it against the specs")

    def _vote(self, seat: int, candidate: int) -> list[Event]:
        self.votes[seat] = candidate
        self.awaiting.remove(seat)
        events = [Event("vote_cast", {"seat": seat})]
        if self.awaiting:
            return events
        votes = [v for v in self.votes if v is not None]
        smuggler = self._vote_winner(self.smuggling_team, votes)
        inspector = self._vote_winner(1 - self.smuggling_team, votes)
        return events + self._appoint(smuggler, inspector, votes)

    def _pack(self, seat: int, amount: int) -> list[Event]:
        self.opp[seat] -= amount
        self.trunk = amount
        self.phase = "inspect"
        assert self.inspector is not None
        self.awaiting = [self.inspector]
        return [Event("trunk_packed", {"smuggler": seat}),
                Event("trunk_contents", {"amount": amount}, to=(seat,))]

    def _declare(self, doubt: int | None) -> list[Event]:
        smuggler, inspector = self.smuggler, self.inspector
        assert smuggler is not None and inspector is not None
        trunk = self.trunk
        outcome = settle(trunk, doubt)
        transfers: list[dict[str, Any]] = []
        if outcome.trunk_to_smuggler:
            self.third[smuggler] += outcome.trunk_to_smuggler
            transfers.append({"kind": "trunk", "from": None, "to": smuggler, "amount": trunk})
        if outcome.trunk_to_inspector:
            self.third[inspector] += outcome.trunk_to_inspector
            transfers.append({"kind": "trunk", "from": None, "to": inspector, "amount": trunk})
        if outcome.compensation:
            self.third[inspector] -= outcome.compensation
            self.third[smuggler] += outcome.compensation
            transfers.append({"kind": "compensation", "from": inspector, "to": smuggler,
                              "amount": outcome.compensation})
        self.trunk = 0
        entry = {
            "small_game": self.small_game + 1,
            "smuggling_team": TEAMS[self.smuggling_team],
            "smuggler": smuggler,
            "inspector": inspector,
            "votes": list(self.votes) if self.phase_had_vote() else None,
            "trunk": trunk,
            "declaration": "pass" if doubt is None else "doubt",
            "doubt": doubt,
            "outcome": outcome.outcome,
            "transfers": transfers,
            "totals": self.team_totals(),
        }
        self.ledger.append(entry)
        # One public event carries the declaration and its settlement (the ledger entry).
        events = [Event("settled", _copy_entry(entry))]
        self.small_game += 1
        events += self._start_small_game()
        if self.phase == "over":
            events.append(Event("match_over", {"totals": self.team_totals()}))
        return events

    def phase_had_vote(self) -> bool:
        """Whether this match's representatives are voted (else rotation)."""
        return self.opts.representatives == "vote" and self.opts.team_size > 1

    def team_totals(self) -> dict[str, int]:
        """Each team's sum of third-country balances (what decides the winner)."""
        return {TEAMS[t]: sum(self.third[t::2]) for t in (0, 1)}

    # -- time ------------------------------------------------------------------------------------
    def time_limit(self) -> TimeLimit | None:
        number = self.small_game + 1
        if self.phase == "vote":
            rotation = [self._rotation_seat(team) for team in (0, 1)]  # once per team: asked after every step
            defaults: dict[int, Action] = {
                s: {"type": "vote", "candidate": rotation[team_of(s)]} for s in self.to_act()}
            return TimeLimit(f"vote:{number}", float(self.opts.vote_seconds), defaults)
        if self.phase == "pack":
            assert self.smuggler is not None
            return TimeLimit(f"pack:{number}", float(self.opts.packing_seconds),
                            {self.smuggler: {"type": "pack", "amount": 0}})
        if self.phase == "inspect":
            assert self.inspector is not None
            return TimeLimit(f"inspection:{number}", float(self.opts.inspection_seconds),
                            {self.inspector: {"type": "pass"}})
        return None

    # -- views -----------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        over = self.phase == "over"
        accounts = [{"third": t, "opp": o} for t, o in zip(self.third, self.opp, strict=True)]
        if self.phase == "inspect" and seat != self.smuggler:
            # The withdrawal is published with the ledger entry; until then others see the old balance.
            assert self.smuggler is not None
            accounts[self.smuggler]["opp"] += self.trunk
        voting = self.phase == "vote"
        return {
            "teams": {TEAMS[t]: list(range(t, self.seats, 2)) for t in (0, 1)},
            "my_team": None if seat is None else TEAMS[team_of(seat)],
            "unit": self.opts.unit,
            "small_games": self.opts.small_games,
            "small_game": min(self.small_game + 1, self.opts.small_games),
            "phase": self.phase,
            "first_smuggling_team": TEAMS[self.first_smugglers],
            "smuggling_team": None if over else TEAMS[self.smuggling_team],
            "smuggler": self.smuggler,
            "inspector": self.inspector,
            "accounts": accounts,
            "team_totals": self.team_totals(),
            "trunk": self.trunk if self.phase == "inspect" and seat == self.smuggler else None,
            "voted": [v is not None for v in self.votes] if voting else None,
            "my_vote": self.votes[seat] if voting and seat is not None else None,
            "represented": list(self.represented),
            "ledger": [_copy_entry(e) for e in self.ledger],
        }

    def perturb_secrets(self, owner: int | None, rng: random.Random) -> Match | None:
        if owner is None:
            return None  # the only draw (the first smuggling team) is public at once
        if self.phase == "vote" and self.votes[owner] is not None and self.opts.team_size > 1:
            other = self.clone()
            assert isinstance(other, SmugglingMatch)
            candidates = [s for s in range(team_of(owner), self.seats, 2) if s != self.votes[owner]]
            other.votes[owner] = rng.choice(candidates)
            return other
        if self.phase == "inspect" and owner == self.smuggler:
            before = self.opp[owner] + self.trunk
            steps = trunk_cap(before) // self.opts.unit
            if steps == 0:
                return None
            # Another trunk the smuggler could have packed: a random step other than the current one.
            current = self.trunk // self.opts.unit
            pick = rng.randrange(steps)
            other = self.clone()
            assert isinstance(other, SmugglingMatch)
            other.trunk = (pick + (pick >= current)) * self.opts.unit
            other.opp[owner] = before - other.trunk
            return other
        return None

    # -- the end ---------------------------------------------------------------------------------
    def prizes(self) -> tuple[list[dict[str, Any]], dict[str, int]]:
        """Each seat's prize figures, and the yen each team's pool leaves over (kept by the organiser).

        A player's prize: own third-country balance plus an equal share of the money left in the
        opposing players' opponent-country accounts (it lies in this player's country), minus the loan.
        """
        n = self.opts.team_size
        shares: list[int] = [0, 0]
        remainders: dict[str, int] = {}
        for team in (0, 1):
            pool = sum(self.opp[1 - team::2])
            shares[team], remainders[TEAMS[team]] = prize_shares(pool, n)
        figures = []
        for s in range(self.seats):
            share = shares[team_of(s)]
            gross = self.third[s] + share
            figures.append({"team": TEAMS[team_of(s)], "third": self.third[s], "opp": self.opp[s],
                            "share": share, "prize": gross, "repay": LOAN, "net": gross - LOAN,
                            "debt": max(0, LOAN - gross)})
        return figures, remainders

    def _ended(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        totals = self.team_totals()
        difference = totals["north"] - totals["south"]
        winner = None if difference == 0 else (0 if difference > 0 else 1)
        figures, remainders = self.prizes()
        seats = tuple(
            # Ranks as in every game (`Result`): a loser ranks behind every member of the winning team.
            SeatResult(seat=s, rank=1 if winner in (None, team_of(s)) else 1 + sum(team_of(t) == winner for t in range(self.seats)),
                       is_winner=winner in (None, team_of(s)), score=float(figures[s]["net"]),
                       holdings=figures[s])
            for s in range(self.seats))
        detail = {"team_totals": totals, "winning_team": None if winner is None else TEAMS[winner],
                  "difference": difference, "remainders": remainders,
                  "organiser_keeps": sum(remainders.values())}
        return Result(seats, Termination.LAST_SMALL_GAME, detail)
