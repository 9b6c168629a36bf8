"""The match a room is playing: its `Session`, its clock, its event history, and the rows that store it.

A room plays one match at a time (play again, or a series, replaces it). Its `RoomMatch` turns wall time
into match time (`RoomClock`, held while reveals play for its audiences: the public and each human seat),
makes each step the session takes into the `log_entries` row that stores it (numbered on from the room's
earlier matches: `seq_offset`), keeps the step's events for catch-up (`EventHistory`) and where it came
from (`sources`: seat, bot or wake), and does what falls due without a client: wake-ups, then the bots'
turns. It rebuilds itself from a stored log after a restart (`replay`). Every engine call is guarded:
anything but a refusal (`IllegalAction`) is an engine bug that may have damaged the state, reported to
the room (`crashed`), which is then dropped and rebuilt from its log. It never imports the room.
"""

from __future__ import annotations

import json
import logging
import time
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from partygames.engine.actions import Action
from partygames.engine.bots import Bot, TableInfo
from partygames.engine.errors import IllegalAction
from partygames.engine.game import Game
from partygames.engine.log import Entry, MatchLog
from partygames.engine.match import TIMED_OUT, Event, Match
from partygames.engine.options import Options
from partygames.engine.search import Budget, SearchBot
from partygames.engine.session import Session, bot_seed
from partygames.server import storage as db
from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.frames import dumps
from partygames.server.history import EventHistory
from partygames.server.match_clock import RoomClock
from partygames.server.outbox import Recipient
from partygames.server.seats import SeatInfo, bot_kinds
from partygames.server.series import Finished
from partygames.server.settings import Settings
from partygames.server.storage import Write

log = logging.getLogger(__name__)

THINK_SHARE = 0.5
"""The share of `Settings.bot_delay` a search bot thinks per decision (docs/server.md, Bots)."""


class RoomMatch:
    """One match of room `code`: the room's `number`-th, whose log entries are stored after `seq_offset`.
    `crashed(error)` is told when the engine fails."""

    def __init__(self, code: str, game: Game, match: Match, seats: Sequence[SeatInfo], started_at: float,
                 settings: Settings, crashed: Callable[[BaseException], None], number: int = 1,
                 seq_offset: int = 0, bots: bool = True) -> None:
        self.code = code
        self.crashed = crashed
        self.game = game
        self.number = number  # the room's matches are numbered 1, 2, ... (play again, a series)
        self.seq_offset = seq_offset  # the stored `seq` of the last log entry before this match
        self.clock = RoomClock(started_at, settings.deadline_scale, settings.reveal_scale, settings.bot_delay,
                               settings.bot_pace)
        self.audiences: list[int | None] = [None, *(i for i, s in enumerate(seats) if s.kind == "human")]
        # Only the room's owner plays its bots (`bots`); a process following it replays what they did.
        # A search bot thinks half the bot delay, asked that much earlier (`head_start`): it thinks while
        # the delay and the reveal run, and its action lands when another bot's would.
        self.table, self.think, self.seed = TableInfo.of(game, match), settings.bot_delay * THINK_SHARE, match.seed
        players = {seat: self.make_bot(kind, seat) for seat, kind in bot_kinds(seats).items()} if bots else {}
        self.clock.head_start = {seat: self.think for seat, bot in players.items() if isinstance(bot, SearchBot)}
        self.session = Session(game, match, players, forgive_bots=True)  # its `on_entry` is set by the room
        self.history = EventHistory(settings.max_catchup)
        # Per log entry: "seat", "bot", "standin" (a bot playing for an absent person), "wake" (older logs:
        # "timer", "clock"); the stand-ins' kinds by the room's version of their steps (`by_standin`).
        self.sources: list[str] = []
        self.by_standin: dict[int, str] = {}
        self.standins: dict[int, str] = {}  # seat -> the kind of the bot standing in for its person now
        # Per perspective (a seat; None: the public), the versions of the steps it did not witness
        # (`Match.step_witnesses`), in order: it numbers the others 1, 2, ... (`seen`).
        self.hidden: dict[int | None, list[int]] = {}
        self.timed_out: set[int] = set()  # the seats that ran out of time in this match (`TIMED_OUT`)
        # The steps whose reveal may still be playing: (version, wall time its reveal ends), oldest first; and the
        # match as it was before the first of them, for someone arriving meanwhile (`revealing_from`, `view_at`).
        self.reveals: list[tuple[int, float]] = []
        self._before: tuple[int, Match] | None = None

    @property
    def match(self) -> Match:
        return self.session.match

    @property
    def version(self) -> int:
        """The protocol version: how many log entries (actions and wake-ups) have been applied."""
        return len(self.session.log.entries)

    def seen(self, seat: int | None, version: int | None = None) -> int:
        """`seat`'s version (None: the public's) at the room's `version` (default: now): how many of those
        steps it witnessed. Nobody counts a step it may not learn of (docs/server.md, Versions)."""
        version = self.version if version is None else version
        hidden = self.hidden.get(seat)
        return version - bisect_right(hidden, version) if hidden else version

    def numbering(self, seat: int | None) -> Callable[[int], int] | None:
        """The room's versions as `seat` numbers them (None: the same, as for anyone who missed no step)."""
        hidden = self.hidden.get(seat)
        return None if not hidden else lambda version: version - bisect_right(hidden, version)

    def step_of(self, seat: int | None, seen: int) -> int | None:
        """The room's version once `seat` had witnessed `seen` steps (the earliest such; None: it has not
        witnessed that many)."""
        hidden = self.hidden.get(seat)
        version = seen
        if hidden:
            while (skipped := bisect_right(hidden, version)) != version - seen:
                version = seen + skipped
        return version if seen >= 0 and version <= self.version else None

    @property
    def last_seq(self) -> int:
        """The stored `seq` of the match's last log entry."""
        return self.seq_offset + self.version

    @property
    def live(self) -> bool:
        """Whether the match is in real-time play: seats are awaited but it is nobody's turn (`Match.turns`)."""
        return not self.match.turns() and bool(self.match.to_act())

    def finished(self, options: Options) -> Finished:
        """This match, over, as a series plans the next from it (`options`: the ones it was played with)."""
        return Finished(self.code, self.number, self.game, options, self.match, self.clock.started_at, self.last_seq)

    def now(self, wall: float) -> int:
        """The match time at wall-clock time `wall` (never before the match's own time)."""
        return self.clock.now(wall, self.match.now)

    def reveal_ms(self, events: list[Event], private: bool = False) -> int:
        """How long a step's events take to show: the longest of its audiences' reveals; nothing for a
        `private` step, which holds nobody's clock (the others would notice the pause)."""
        return 0 if private else self.game.reveals.cost(events, self.audiences)

    def _witnessed(self, match: Match, version: int, entry: Entry, events: list[Event]) -> bool:
        """Notes who did not witness step `version` of `match` (`hidden`) and who ran out of time in it; returns
        whether it was private."""
        if entry.seat is None:
            self.timed_out.update(e.data["seat"] for e in events if e.type == TIMED_OUT)
        witnesses = match.step_witnesses(entry.seat, entry.action, events)
        if witnesses is None:
            return False
        for seat in (None, *range(match.seats)):
            if seat not in witnesses:
                self.hidden.setdefault(seat, []).append(version)
        return True

    def deadline_json(self, wall: float) -> dict[str, Any] | None:
        """The current time limit for clients: its phase, length and end on the wall clock."""
        deadline = self.match.deadline()
        return self.clock.deadline_json(deadline, wall) if deadline is not None else None

    # -- steps ---------------------------------------------------------------------------------------------
    def act(self, seat: int, action: Action, wall: float, blame: tuple[Recipient, Any]) -> bool:
        """A seat's action arriving at `wall` from the connection to `blame` (and the frame's `ref`) should the
        engine crash; IllegalAction passes through, False: the engine crashed."""
        now, session = self.now(wall), self.session

        def step() -> None:
            session.catch_up(now)  # a time limit that passed before this action arrived came first
            session.act(seat, action, now)

        return self._engine(step, blame, "catching up to %d, then applying %r for seat %d", now, action, seat)

    def _engine(self, step: Callable[[], object], blame: tuple[Recipient, Any] | None, doing: str,
                *args: object) -> bool:
        """Runs an engine step; IllegalAction passes through. Anything else is an engine bug that may have
        damaged the state: it is logged as `doing % args` (formatted only then: steps run often), the
        connection to `blame` (with the frame's `ref`) hears so first, the room is told (`crashed`), and
        False is returned."""
        try:
            step()
        except IllegalAction:
            raise
        except Exception as error:
            log.error("room %s: " + doing + " failed", self.code, *args, exc_info=error)
            if blame is not None:
                conn, ref = blame
                conn.send(ServerError(Code.SERVER_INTERNAL, "The server failed on this action; the room is reloaded.",
                                      "この操作でサーバーに障害が起きました。ルームを読み込み直します。", 500).frame(ref))
            self.crashed(error)
            return False
        return True

    def record(self, entry: Entry, events: list[Event], wall: float, epoch: int = 0) -> Write:
        """Keeps a step the session has just applied at `wall` and returns the write that stores it under the
        owner's `epoch` (with the result, once the match is over); the clock stands still while its reveal
        plays."""
        match = self.session.match
        standin = self.standins.get(entry.seat) if entry.seat is not None else None
        source = ("wake" if entry.seat is None else "standin" if standin is not None
                  else "bot" if entry.seat in self.session.bots else "seat")
        self.sources.append(source)
        version = self.history.record(events, standin, entry.seat)
        if standin is not None:
            self.by_standin[version] = standin
        private = self._witnessed(match, version, entry, events)
        write = Write(inserts=[(db.log_entries, {
            "room": self.code, "seq": self.seq_offset + version, "at": entry.at, "seat": entry.seat,
            "action": dumps(entry.action) if entry.action is not None else None, "source": source,
            "standin": standin, "epoch": epoch})], room=self.code, epoch=epoch)
        result = match.result() if match.is_over else None
        if result is not None:
            # The room's owner gives it up with its last step: whoever starts the next match owns that.
            write.updates.append((db.rooms, {"code": self.code}, {
                "status": "over", "result": dumps(result.to_json()), "finished_at": wall, "owner": None,
                "lease_until": None}))
            # In the same transaction: the match is to be rated (by this process once it has committed, else by
            # any process's catch-up: ratings.rate_pending).
            write.inserts.append((db.unrated_matches, {"room": self.code, "number": self.number, "ended_at": wall}))
        cost = self.reveal_ms(events, private)
        self.clock.step(wall, cost, entry.seat if source in ("bot", "standin") else None)
        if cost > 0 and self.clock.reveal_scale > 0:
            self.reveals = [r for r in self.reveals if r[1] > wall]
            self.reveals.append((version, self.clock.reveal_end))
        return write

    def replay_row(self, row: Mapping[str, Any]) -> None:
        """`replay` of a stored `log_entries` row (its action as JSON, its source and stand-in kind)."""
        action = json.loads(row["action"]) if row["action"] is not None else None
        self.replay(Entry(row["at"], row["seat"], action), row["source"], row.get("standin"))

    def replay(self, entry: Entry, source: str, standin: str | None = None) -> None:
        """Re-applies a stored log entry while the room is rebuilt (before the session's `on_entry` is set) or
        as a follower catches up with its owner; the reveals it held the clock for are held again, as they were. `standin`: the kind of the bot that
        played it for the seat's absent person."""
        events = self.session.replay_entry(entry)
        version = self.history.record(events, standin, entry.seat)
        if standin is not None:
            self.by_standin[version] = standin
        private = self._witnessed(self.session.match, version, entry, events)
        self.sources.append(source)
        cost = self.reveal_ms(events, private)
        self.clock.replay_step(entry.at, cost)
        if cost > 0 and self.clock.reveal_scale > 0:
            # Its reveal may still play: a follower replays the owner's steps as they come, and a rebuilt
            # room its last ones (the reveal ends where the owner's ended). Someone arriving on this
            # process meanwhile watches it from before it, as on the owner (`revealing_from`).
            now = time.time()
            if self.clock.reveal_end > now:
                self.reveals = [r for r in self.reveals if r[1] > now]
                self.reveals.append((version, self.clock.reveal_end))

    # -- arriving during a reveal -------------------------------------------------------------------------------
    def revealing_from(self, wall: float) -> int | None:
        """The first version whose reveal is still playing at `wall` (None: none is): someone arriving now is
        shown the match as it was before it, then its events, as everyone else still sees them."""
        return next((version for version, end in self.reveals if end > wall), None)

    def view_at(self, version: int, seat: int | None) -> dict[str, Any]:
        """`seat`'s view of the match as it was at `version` (the log replayed that far: only for someone
        arriving while a reveal plays, so it is kept for the next arrival)."""
        if self._before is None or self._before[0] != version:
            log = self.session.log
            before = MatchLog(log.game, log.seats, log.options, log.seed, log.entries[:version], bots=log.bots)
            self._before = (version, Session.replay(self.game, before).match)
        return self._before[1].view(seat)

    # -- stand-ins ------------------------------------------------------------------------------------------
    def stand_in(self, seat: int, kind: str | None) -> None:
        """A bot of `kind` plays `seat` from now on, while its person is away (None: the person again). The bot
        is told the events its seat saw so far (the log replayed for it), as a bot playing from the start
        would have been."""
        bots = self.session.bots
        if kind is None:
            bots.pop(seat, None)
            self.session.standins.discard(seat)
            self.standins.pop(seat, None)
            return
        if seat in bots:
            return
        bot = self.make_bot(kind, seat)
        Session.replay(self.game, self.session.log, {seat: bot})
        bots[seat] = bot
        # It never makes a choice only the person should (`Match.stand_in_actions`), and its steps are marked.
        self.session.standins.add(seat)
        self.standins[seat] = kind
        if isinstance(bot, SearchBot):
            self.clock.head_start[seat] = self.think
        else:
            self.clock.head_start.pop(seat, None)

    def make_bot(self, kind: str, seat: int) -> Bot:
        """The room's bot of `kind` at `seat`: seeded from the match, told the table, and (a search bot)
        given its share of the bot delay to think."""
        return self.game.make_bot(kind, seat, bot_seed(self.seed, seat), table=self.table,
                                  budget=Budget(ms=1000 * self.think))

    # -- what falls due --------------------------------------------------------------------------------------
    def run_due(self, wall: float) -> None:
        """Does what is due by `wall`: time passing, then the bots' turns; stops once the engine crashed."""
        session, now = self.session, self.now(wall)
        if not self._engine(partial(session.catch_up, now), None, "waking at %d", now) or wall < self.clock.first_bot_at():
            return
        for seat in session.bots_to_ask():
            # Each bot sees the match as the previous one left it (none is asked once the match is over).
            if (seat in session.bots_to_ask() and wall >= self.clock.bot_ready_at(seat, self.live)
                    and not self._engine(partial(session.bot_turn, seat, self.now(wall)), None, "the bot turn of seat %d", seat)):
                return

    def next_due(self) -> float | None:
        """When something next falls due on the wall clock: the match's next wake-up, or a bot turn."""
        bots = self.session.bots_to_ask() if self.session.bots else []
        return self.clock.next_due(self.match.wake_at(), bots, bool(bots) and self.live)
