"""A room's match clock: the wall clock mapped to match time, standing still while reveals play.

Match time is milliseconds since the match started, on the wall clock divided by `deadline_scale` (tests
run time limits faster), less the time it stood still while reveals played: each step's reveal queues
after those before it (`reveal_end`), and `reveal_held` is the sum of them all, so a rebuilt room derives
it again from its log (docs/server.md, Reveals). It never runs backwards. Bots act `bot_delay` after the
last step and not before the reveal people watch has ended; while the match is live (real-time play:
nobody's turn), each bot also waits `bot_pace` after its own last action, so that people can keep up. A
bot that thinks (the search bot) is asked its think time earlier (`head_start`), so that its action still
lands when the others' would. Pure: the wall time is always passed in.
"""

from __future__ import annotations

from typing import Any

from partygames.engine.match import Deadline


class RoomClock:
    def __init__(self, started_at: float, deadline_scale: float = 1.0, reveal_scale: float = 1.0,
                 bot_delay: float = 0.0, bot_pace: float = 0.0) -> None:
        self.started_at = started_at
        self.deadline_scale = deadline_scale
        self.reveal_scale = reveal_scale  # 0: reveals are not paced
        self.bot_delay = bot_delay
        self.bot_pace = bot_pace
        self.bot_acted: dict[int, float] = {}  # bot seat -> wall time of its last action
        self.head_start: dict[int, float] = {}  # bot seat -> seconds it is asked early (its think time)
        self.changed_at = started_at  # wall time of the last step
        self.reveal_end = started_at  # the match clock stands still until then (wall clock)
        self.reveal_held = 0.0  # seconds it stood still in all since the start

    def now(self, wall: float, not_before: int = 0) -> int:
        """The match time at wall-clock time `wall`, never before `not_before` (the match's own time)."""
        running = max(wall, self.reveal_end) - self.started_at - self.reveal_held
        return max(round(running * 1000 / self.deadline_scale), not_before)

    def wall(self, at: int) -> float:
        """The wall-clock time at which the match clock reaches `at` (not before now), if no other reveal
        holds it on the way."""
        return self.started_at + self.reveal_held + at / 1000 * self.deadline_scale

    def reveal_seconds(self, cost_ms: int) -> float:
        """Wall seconds a reveal of `cost_ms` (the game's pace) holds the clock."""
        return cost_ms / 1000 * self.reveal_scale

    def step(self, wall: float, reveal_ms: int, bot: int | None = None) -> None:
        """A step was taken at `wall` (by the bot at seat `bot`, if one): bots wait from then, and the
        clock stands still while its reveal plays, after those shown before."""
        self.changed_at = wall
        if bot is not None:
            self.bot_acted[bot] = wall
        seconds = self.reveal_seconds(reveal_ms)
        if seconds > 0:
            self.reveal_end = max(self.reveal_end, wall) + seconds
            self.reveal_held += seconds

    def replay_step(self, at: int, reveal_ms: int) -> None:
        """A stored step taken at match time `at` is replayed while the room is rebuilt: the reveal it held
        the clock for is held again, as it was."""
        self.reveal_held += self.reveal_seconds(reveal_ms)
        self.reveal_end = self.wall(at)

    def reveal_remaining(self, wall: float) -> float | None:
        """Seconds until the reveals announced so far have had their time; None when reveals are not
        paced."""
        if self.reveal_scale <= 0:
            return None
        return round(max(0.0, self.reveal_end - wall), 3)

    def bots_at(self) -> float:
        """When bots may act: `bot_delay` after the last step, and not before the reveal has ended."""
        return max(self.changed_at + self.bot_delay, self.reveal_end)

    def bot_ready_at(self, seat: int, live: bool) -> float:
        """When the bot at `seat` may act: `bots_at()`, and while the match is `live` not before `bot_pace`
        after its own last action; less its `head_start` (a bot that thinks starts thinking then)."""
        ready = self.bots_at()
        acted = self.bot_acted.get(seat)
        ready = max(ready, acted + self.bot_pace) if live and acted is not None else ready
        return ready - self.head_start.get(seat, 0.0)

    def first_bot_at(self) -> float:
        """The earliest any bot may be asked (`bots_at()` less the largest head start)."""
        return self.bots_at() - max(self.head_start.values(), default=0.0)

    def next_due(self, wake_at: int | None, bots: list[int], live: bool) -> float | None:
        """When something next falls due on the wall clock: the match's next wake-up (match time
        `wake_at`), or the first turn of the awaited `bots`; None: nothing until someone acts."""
        due = self.wall(wake_at) if wake_at is not None else None
        for seat in bots:
            ready = self.bot_ready_at(seat, live)
            due = ready if due is None else min(due, ready)
        return due

    def deadline_json(self, deadline: Deadline, wall: float) -> dict[str, Any]:
        """A time limit for clients: its phase, length and end on the wall clock, and what remains."""
        ends_at = self.wall(deadline.ends_at)
        return {"phase": deadline.phase, "seconds": deadline.seconds * self.deadline_scale,
                "ends_at": ends_at, "remaining": max(0.0, ends_at - wall)}
