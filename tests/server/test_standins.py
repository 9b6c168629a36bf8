"""A bot standing in for an absent person keeps the seat alive and nothing more (issue #29): it never makes a
choice only the person should (`Match.PERSONAL`: dropping out, gifts, deals), waits a grace after a new
match begins (people reopen the room late after "Play again"), and its steps are marked as the bot's in
the events every screen's feed shows, in the log and in replays; the log still replays to the same match."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from partygames.engine.actions import sample
from partygames.engine.bots import Bot, Observation
from partygames.engine.session import Session
from partygames.games import all_games
from partygames.games import get as get_game
from tests.server.client import Lobby, Socket
from tests.server.live import LiveServer

PERSONAL = {"lucky-nine": {"drop_out"}, "musical-chairs": {"give"}, "pandemic": {"offer", "accept"}, "quiz": {"give"},
            "dice-derby": {"borrow"}, "smuggling": set(), "last-man-standing": set()}


EXTRA = {"dice-derby": {"loans": True}}  # options under which the golden table offers a personal choice


class Eager(Bot):
    """Takes a personal choice whenever it is offered one (the worst a stand-in could do), else a random one;
    remembers every choice it was offered."""

    def __init__(self, seat: int, seed: int = 0, personal: frozenset[str] = frozenset()) -> None:
        super().__init__(seat, seed)
        self.rng, self.personal, self.offered = random.Random(seed), personal, set[str]()

    def act(self, obs: Observation) -> dict[str, Any] | None:
        for spec in obs.legal:
            # (the Pandemic Game's rounds tempo seals an intent: `offer:3`, `accept:1`)
            intents = spec["params"].get("intent", {}).get("choice", []) if spec["type"] == "intend" else []
            self.offered |= {spec["type"], *(str(i).split(":")[0] for i in intents)}
            mine = [i for i in intents if personal(self.personal, {"type": "intend", "intent": i})]
            if mine:
                return {"type": "intend", "intent": self.rng.choice(mine)}
        chosen = [s for s in obs.legal if s["type"] in self.personal]
        return sample(chosen or obs.legal, self.rng)


def personal(kinds: frozenset[str], action: dict[str, Any] | None) -> bool:
    """Whether `action` is one of `kinds` (PERSONAL), as an action or as a sealed intent."""
    return action is not None and (action["type"] in kinds or str(action.get("intent", "")).split(":")[0] in kinds)


def test_every_game_names_the_choices_only_a_person_makes() -> None:
    assert {g.id: set(g.match_class.PERSONAL) for g in all_games()} == PERSONAL


@pytest.mark.parametrize("game_id", [g for g, kinds in PERSONAL.items() if kinds])
def test_a_stand_in_never_makes_a_person_s_own_choice_and_its_match_replays(game_id: str) -> None:
    game = get_game(game_id)
    setup = game.samples.golden
    assert setup is not None
    kinds = game.match_class.PERSONAL
    # The same table twice: seat 0 played by a bot that grabs every personal choice, as itself, then standing in.
    taken: dict[bool, set[str]] = {}
    for standin in (False, True):
        bots: dict[int, Bot] = {s: Eager(s, s + 1, kinds) for s in range(setup.seats)}
        session = Session.new(game, setup.seats, {**setup.options, **EXTRA.get(game_id, {})}, seed=5, bots=bots)
        if standin:
            session.standins.add(0)
        session.run_bots(max_entries=4000) if not standin else _run(session)
        taken[standin] = {str(e.action.get("intent", e.action["type"])).split(":")[0] for e in session.log.entries
                          if e.seat == 0 and e.action is not None and personal(kinds, e.action)}
        if standin:
            offered = bots[0]
            assert isinstance(offered, Eager) and not offered.offered & kinds  # never even offered
            assert Session.replay(game, session.log).match == session.match  # the log replays to the same match
    assert taken[False], f"{game_id}: the table never offered seat 0 a personal choice"
    assert not taken[True]


def _run(session: Session) -> None:
    with contextlib.suppress(RuntimeError):  # (a long match, cut short: what was played is what is checked)
        session.run_bots(max_entries=4000)


# -- on the server ---------------------------------------------------------------------------------------------
GRACE = 3.0


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # The real games, time limits 10 times faster, a short grace after a new match.
    live = LiveServer(tmp_path_factory.mktemp("standins"), bot_delay=0.0, deadline_scale=0.1, games=None,
                      settings={"presence_interval": 0.05, "standin_grace": GRACE}).start()
    yield live
    live.stop()


def _seat(frame: dict[str, Any], seat: int) -> dict[str, Any]:
    return dict(frame["room"]["seats"][seat])


QUICK = {"rounds": 4, "first_press_seconds": 5, "press_seconds": 5, "decide_seconds": 5, "claim_seconds": 5, "dropout_seconds": 5}


def test_a_room_s_stand_in_waits_its_grace_plays_safely_is_marked_and_gives_the_seat_back(real: LiveServer) -> None:
    lobby = Lobby(real.url)
    created = lobby.create("lucky-nine", 3, name="Aki", seat_kinds=["human", "human", "bot:random"], options=QUICK)
    code, host = created["code"], created["host_token"]
    ben = lobby.join(code, "Ben")["token"]
    lobby.start(code, host)
    aki = Socket(real.ws_url, code, created["token"])
    aki.update(0)
    # Ben never opens the room. The room waits its grace before any bot stands in for him.
    began = time.time()
    taken = aki.until(lambda f: f["type"] == "room" and _seat(f, 1)["standin"] is not None, timeout=30)
    assert time.time() - began >= GRACE - 0.5
    assert _seat(taken, 1)["standin"]["bot"] == "heuristic"
    # Aki plays on (by her defaults: she never acts); the stand-in's steps are marked as its own in the feed.
    marked: list[dict[str, Any]] = []

    def stand_in_step(frame: dict[str, Any]) -> bool:
        marked.extend(e for e in frame.get("events", []) if e.get("standin"))
        return bool(marked)

    aki.until(lambda f: f["type"] == "update" and stand_in_step(f), timeout=30)
    assert all(e["standin"] == "heuristic" and e["for"] == 1 for e in marked)
    # Ben comes back: the seat is his again; a reload shows the history with the same marks.
    back = Socket(real.ws_url, code, ben)
    fresh = back.update()
    assert any(e.get("standin") == "heuristic" for e in fresh["events"])
    aki.until(lambda f: f["type"] == "room" and _seat(f, 1)["standin"] is None, timeout=10)
    aki.until(lambda f: f["type"] == "room" and f["room"]["status"] == "over", timeout=120)
    # The log and the replay mark the stand-in's steps as the bot's, none of them a drop-out.
    log = lobby.http.get(f"/api/rooms/{code}/log", headers={"X-Host-Token": host}).json()
    played = {int(n): kind for n, kind in log["standins"].items()}
    assert played and set(played.values()) == {"heuristic"}
    assert all(log["entries"][n - 1][1] == 1 and log["entries"][n - 1][2]["type"] != "drop_out" for n in played)
    steps = lobby.http.get(f"/api/rooms/{code}/replay", params={"seat": 1}, headers={"X-Seat-Token": ben}).json()["steps"]
    assert {s["version"] for s in steps if s["source"] == "standin" and s["standin"] == "heuristic"} == set(played)
    # Play again, while Ben is away: the next match begins without stand-ins and waits its grace again.
    back.close()
    again = lobby.http.post(f"/api/rooms/{code}/next", json={}, headers={"X-Host-Token": host})
    assert again.status_code == 200, again.text
    began = time.time()
    assert again.json()["match"] == 2 and again.json()["seats"][1]["standin"] is None
    taken = aki.until(lambda f: f["type"] == "room" and f["room"]["match"] == 2 and _seat(f, 1)["standin"] is not None,
                      timeout=30)
    assert time.time() - began >= GRACE - 0.5, "a bot stood in before the grace was over"
    lobby.http.close()
