"""How long each game's default table takes with bots on the real server, beside the lobby's estimate.

Starts `python -m partygames.server` with its own pacing (reveals at their declared pace, bots thinking
`bot_delay` = 0.8 s, real-time bots at most one action per 3 s: the server's defaults), creates one room
per game at the lobby's default table (`Game.default_seats` and the default options, or a preset's table
with `--preset`), every seat a heuristic bot and the host watching, starts them all at once and times
each to its end on the wall clock. A bots' match is the floor of a match with people: the reveals, the
real-time clocks and the bots' thinking, where people take longer to decide (the estimate counts a quick
decision at people's pace, a click 2 s, a choice 6 s, and any other at half its time limit, docs/engine.md). Prints a table; asserts nothing.

    .venv/bin/python benchmarks/match_length.py [--games smuggling,quiz] [--preset original]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from partygames import games
from partygames.engine.length import whole_minutes

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(games.ids()), help="comma-separated game ids")
    parser.add_argument("--preset", default=None, help="a preset's table instead of the default one")
    args = parser.parse_args()
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}"}
        server = subprocess.Popen([sys.executable, "-m", "partygames.server", "--port", str(port), "--data-dir", data,
                                   "--set", "http_rate_burst=10000"], env=env, cwd=ROOT,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            rows = _play(url, args.games.split(","), args.preset)
        finally:
            server.terminate()
            server.wait(10)
    print("| game | seats | estimate | bots on the server | steps |\n|---|---|---|---|---|")
    for game_id, seats, estimate, took, steps in rows:
        print(f"| {game_id} | {seats} | {estimate / 60:.1f} min (\"about {whole_minutes(estimate)} min\") | "
              f"{took / 60:.1f} min | {steps} |")


def _play(url: str, ids: list[str], preset: str | None) -> list[tuple[str, int, float, float, int]]:
    started: dict[str, tuple[str, int, float, float]] = {}
    with httpx.Client(base_url=url, timeout=30) as http:
        for game_id in ids:
            game = games.get(game_id)
            if preset is not None:
                if preset not in game.presets:
                    continue
                seats, options = game.preset_table(preset)
                body_options = dict(game.presets[preset].options)
            else:
                seats = game.default_seat_count(None)
                options, body_options = game.options_for(seats, {}), {}
            bot = "heuristic" if "heuristic" in game.bots else next(iter(game.bots))
            created = http.post("/api/rooms", json={"game": game_id, "seats": seats, "options": body_options,
                                                    "seat_kinds": [f"bot:{bot}"] * seats, "host_seat": None}).json()
            http.post(f"/api/rooms/{created['code']}/start", json={}, headers={"X-Host-Token": created["host_token"]})
            started[game_id] = (created["code"], seats, options.estimated_seconds(seats) or 0, time.monotonic())
        done: dict[str, tuple[str, int, float, float, int]] = {}
        while len(done) < len(started):
            time.sleep(1)
            for game_id, (code, seats, estimate, began) in started.items():
                if game_id in done:
                    continue
                room = http.get(f"/api/rooms/{code}").json()
                if room["status"] == "over":
                    steps = room["version"]
                    done[game_id] = (game_id, seats, estimate, time.monotonic() - began, steps)
                    print(f"{game_id}: {done[game_id][3] / 60:.1f} min", file=sys.stderr, flush=True)
    return [done[g] for g in ids if g in done]


if __name__ == "__main__":
    main()
