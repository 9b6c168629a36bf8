"""The Smuggling Game for learning agents: the observation vector of a seat's view and the action codec
(layout in docs/rules/smuggling.md, Encoding)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from partygames.engine.encoding import ActionCodec, Encoder, Layout, Move, Vector, Writer, as_vector, one_hot
from partygames.engine.match import Match
from partygames.engine.options import Options
from partygames.games.smuggling.options import HUNDRED_MILLION, SmugglingOptions
from partygames.games.smuggling.rules import TEAMS, SmugglingMatch, team_of

PHASES = ("vote", "pack", "inspect", "over")
OUTCOMES = ("passed", "caught", "empty_doubted", "under_doubted")
#: Trunk and doubt amounts as fractions of the legal range, in tenths.
LEVELS = tuple(i / 10 for i in range(11))
YEN = float(HUNDRED_MILLION)
#: A ledger row of the information state: played, smuggled by my team, smuggler and inspector are me,
#: trunk, doubt (/ 1億), outcome one-hot.
LEDGER_ROW = 6 + len(OUTCOMES)


class SmugglingEncoder(Encoder):
    def __init__(self, seats: int, options: Options) -> None:
        super().__init__(seats, options)
        assert isinstance(options, SmugglingOptions)
        n = seats
        self.layout = Layout((
            ("me", n), ("my_team", 2), ("phase", len(PHASES)), ("small_game", 1), ("smuggling_team_is_mine", 1),
            ("smuggler", n), ("inspector", n), ("third", n), ("opp", n), ("totals", 2), ("trunk", 1),
            ("voted", n), ("my_vote", n), ("represented", n),
            ("last_trunk", 1), ("last_doubt", 1), ("last_outcome", len(OUTCOMES)), ("last_smuggled_by_mine", 1),
        ))
        self._history = Layout((*self.layout.parts, ("ledger", options.small_games * LEDGER_ROW)))
        self.codec = ActionCodec([
            *(Move("vote", {"candidate": s}) for s in range(n)),
            *(Move("pack", scaled={"amount": f}) for f in LEVELS),
            Move("pass"),
            *(Move("doubt", scaled={"amount": f}) for f in LEVELS),
        ])

    @property
    def information_layout(self) -> Layout:
        return self._history

    def observe(self, view: Mapping[str, Any]) -> Vector:
        return self._write(view, Writer(self.layout)).done()

    def observe_match(self, match: Match, seat: int) -> Vector:
        """`observe(match.view(seat))` read straight from the state, part by part as in `_write`: the
        environments call it at every step, and a view copies the whole ledger. What only some seats know
        is read as the view shows it: the trunk (the smuggler's until the inspection ends; the others see
        the old balance) and the votes (each seat its own; the others whether it voted)."""
        assert isinstance(match, SmugglingMatch)
        n, mine, phase, games = self.seats, team_of(seat), match.phase, match.opts.small_games
        smuggler, voting = match.smuggler, phase == "vote"
        opp = list(match.opp)
        inspecting = phase == "inspect"
        if inspecting and seat != smuggler:
            assert smuggler is not None
            opp[smuggler] += match.trunk
        v = one_hot(seat, n)
        v += one_hot(mine, 2)
        v += one_hot(PHASES.index(phase), len(PHASES))
        v += (min(match.small_game + 1, games) / games, float(phase != "over" and match.smuggling_team == mine))
        v += one_hot(smuggler, n)
        v += one_hot(match.inspector, n)
        v += [t / YEN for t in match.third]
        v += [o / YEN for o in opp]
        totals = match.team_totals()
        v += (totals[TEAMS[0]] / (YEN * n), totals[TEAMS[1]] / (YEN * n))
        v.append(match.trunk / YEN if inspecting and seat == smuggler else 0.0)
        v += [float(c is not None) for c in match.votes] if voting else [0.0] * n
        v += one_hot(match.votes[seat] if voting else None, n)
        v += [r / games for r in match.represented]
        last = match.ledger[-1] if match.ledger else None
        if last is None:
            v += [0.0] * (2 + len(OUTCOMES) + 1)
        else:
            v += (last["trunk"] / YEN, 0.0 if last["doubt"] is None else last["doubt"] / YEN)
            v += one_hot(OUTCOMES.index(last["outcome"]), len(OUTCOMES))
            v.append(float(TEAMS.index(last["smuggling_team"]) == mine))
        return as_vector(v, self.layout)

    def information_state(self, view: Mapping[str, Any]) -> Vector:
        """The observation, then every small game of the ledger so far (rows of zeros for those to come):
        whom a team sends and how a smuggler packs is a history worth remembering."""
        w = self._write(view, Writer(self._history))
        seat = view["seat"]
        mine = None if seat is None else TEAMS[team_of(seat)]
        rows: list[float] = []
        for entry in view["ledger"]:
            rows += [1.0, float(entry["smuggling_team"] == mine), float(entry["smuggler"] == seat),
                     float(entry["inspector"] == seat), entry["trunk"] / YEN, (entry["doubt"] or 0) / YEN,
                     *one_hot(OUTCOMES.index(entry["outcome"]), len(OUTCOMES))]
        rows += [0.0] * (self._history.size - self.layout.size - len(rows))
        w.put("ledger", rows)
        return w.done()

    def _write(self, view: Mapping[str, Any], w: Writer) -> Writer:
        n, seat = self.seats, view["seat"]
        mine = None if seat is None else team_of(seat)
        w.put("me", one_hot(seat, n))
        w.put("my_team", one_hot(mine, 2))
        w.put("phase", one_hot(PHASES.index(view["phase"]), len(PHASES)))
        w.put("small_game", [view["small_game"] / view["small_games"]])
        smuggling = view["smuggling_team"]
        w.put("smuggling_team_is_mine", [float(smuggling is not None and mine is not None
                                               and TEAMS.index(smuggling) == mine)])
        w.put("smuggler", one_hot(view["smuggler"], n))
        w.put("inspector", one_hot(view["inspector"], n))
        accounts = view["accounts"]
        w.put("third", [a["third"] / YEN for a in accounts])
        w.put("opp", [a["opp"] / YEN for a in accounts])
        totals = view["team_totals"]
        w.put("totals", [totals[t] / (YEN * n) for t in TEAMS])
        w.put("trunk", [(view["trunk"] or 0) / YEN])
        voted = view["voted"]
        w.put("voted", [float(v) for v in voted] if voted else [0.0] * n)
        w.put("my_vote", one_hot(view["my_vote"], n))
        w.put("represented", [r / view["small_games"] for r in view["represented"]])
        last = view["ledger"][-1] if view["ledger"] else None
        w.put("last_trunk", [0.0 if last is None else last["trunk"] / YEN])
        w.put("last_doubt", [0.0 if last is None or last["doubt"] is None else last["doubt"] / YEN])
        w.put("last_outcome", one_hot(None if last is None else OUTCOMES.index(last["outcome"]), len(OUTCOMES)))
        w.put("last_smuggled_by_mine", [float(last is not None and mine is not None
                                              and TEAMS.index(last["smuggling_team"]) == mine)])
        return w
