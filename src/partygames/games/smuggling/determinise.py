"""Smuggling Game matches a seat cannot tell from its own (docs/rules/smuggling.md, Determinisation):
the only secrets are votes in progress and the trunk during its inspection, each drawn as a random
player would have chosen it."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from partygames.engine.knowledge import Determiniser, SeatRecord, Template
from partygames.engine.match import Event, Match
from partygames.games.smuggling.options import SmugglingOptions
from partygames.games.smuggling.rules import TEAMS, team_of
from partygames.games.smuggling.settlement import LOAN, trunk_cap


class VotesHeard:
    """The votes announced with the representatives of the latest small game (public, but no view
    shows them until the small game's ledger entry)."""

    def __init__(self) -> None:
        self.small_game = 0
        self.votes: list[int] | None = None

    def see(self, view: Mapping[str, Any]) -> None:
        pass

    def hear(self, event: Event) -> None:
        if event.type == "representatives":
            self.small_game, self.votes = event.data["small_game"], event.data["votes"]


class SmugglingDeterminiser(Determiniser):
    """Public and own parts from the view; another seat's vote in progress, uniform over its team; the
    trunk a seat does not see, uniform over the amounts the smuggler could pack."""

    def __init__(self, record: SeatRecord) -> None:
        super().__init__(record)
        view, me, seats = self.view, self.seat, record.seats
        phase, smuggler, inspector = view["phase"], view["smuggler"], view["inspector"]
        accounts = view["accounts"]
        self.unit: int = view["unit"]
        options = record.options
        assert isinstance(options, SmugglingOptions)
        voting = phase == "vote"
        votes: list[int | None] = [None] * seats  # (never set under rotation)
        if voting:
            votes[me] = view["my_vote"]
        elif options.representatives == "vote" and options.team_size > 1:
            # This small game's votes, announced with its representatives.
            heard = record.memory
            if isinstance(heard, VotesHeard) and heard.small_game == view["small_game"] and heard.votes:
                votes = list(heard.votes)
            else:  # not heard (a record begun later): every member voted for its team's representative
                votes = [smuggler if team_of(s) == team_of(smuggler) else inspector for s in range(seats)]
        self.hidden_trunk = phase == "inspect" and me != smuggler
        self.state = Template({
            "third": [a["third"] for a in accounts],
            "opp": [a["opp"] for a in accounts],
            "trunk": view["trunk"] or 0,
            "organiser": -LOAN * seats,
            "first_smugglers": TEAMS.index(view["first_smuggling_team"]),
            "small_game": view["small_game"] - 1,
            "phase": phase,
            "votes": votes,
            "awaiting": list(view["to_act"]),
            "smuggler": smuggler,
            "inspector": inspector,
            "represented": view["represented"],
            "ledger": view["ledger"],
        })
        # Another seat's vote in progress: one of its team's members, as a random player votes.
        self.secret_votes = [s for s in range(seats) if voting and s != me and view["voted"][s]]
        # The trunk others do not see: the balance before packing is what they are shown.
        self.before = accounts[smuggler]["opp"] if self.hidden_trunk else 0

    @classmethod
    def memory(cls, seat: int) -> VotesHeard:
        return VotesHeard()

    def sample(self, rng: random.Random) -> Match:
        state: dict[str, Any] = self.state.copy()
        seats = self.record.seats
        votes = state["votes"]
        for seat in self.secret_votes:
            votes[seat] = 2 * rng.randrange(seats // 2) + team_of(seat)
        if self.hidden_trunk:
            trunk = self.unit * rng.randrange(trunk_cap(self.before) // self.unit + 1)
            state["trunk"] = trunk
            state["opp"][state["smuggler"]] = self.before - trunk
        return self.assemble(state, rng)
