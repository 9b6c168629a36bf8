"""A real server process (uvicorn via `python -m partygames.server`) on a free loopback port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Self

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_answering(proc: subprocess.Popen[bytes], url: str, log: Path, what: str, seconds: float) -> None:
    """Waits until `url` answers the lobby's game list (the server, or a proxy in front of servers); raises
    with the end of `log` if `proc` exits or nothing answers within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not answer:\n{log.read_text()[-3000:]}")


class LiveServer:
    """Starts, kills (SIGKILL) and restarts one server process on the same port and database."""

    def __init__(self, data_dir: Path, database_url: str | None = None, bot_delay: float = 0.05,
                 deadline_scale: float = 1.0, games: str | None = "tests.server.games:GAMES",
                 settings: dict[str, object] | None = None) -> None:
        self.port = free_port()
        self.data_dir = data_dir
        self.args = [sys.executable, "-m", "partygames.server", "--host", "127.0.0.1", "--port", str(self.port),
                     "--data-dir", str(data_dir), "--bot-delay", str(bot_delay),
                     "--deadline-scale", str(deadline_scale)]
        # Tests create rooms faster than people do, ask for rooms that do not exist on purpose, and do not
        # watch reveals; the lobby's own limits and the pacing of reveals are tested on their own.
        defaults = {"http_rate_burst": 10_000, "unknown_code_burst": 10_000, "reveal_scale": 0, "bot_pace": 0}
        for name, value in {**defaults, **(settings or {})}.items():
            self.args += ["--set", f"{name}={value}"]
        if games is not None:  # None: the real registry
            self.args += ["--games-module", games]
        if database_url:
            self.args += ["--database-url", database_url]
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, environment: dict[str, str] | None = None, seconds: float = 30) -> Self:
        """Starts the process (`environment`: variables of its own besides this one's) and waits until it
        answers (at most `seconds`)."""
        return self.launch(environment).wait(seconds)

    def launch(self, environment: dict[str, str] | None = None) -> Self:
        """Starts the process without waiting for it (several start together: `wait` for each)."""
        env = {**os.environ, **(environment or {}), "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}  # this checkout's code
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        return self

    def wait(self, seconds: float = 60) -> Self:
        """Waits until the launched process answers (at most `seconds`)."""
        assert self.proc is not None
        wait_until_answering(self.proc, self.url, self.log, "server", seconds)
        return self

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, like a power cut for the process."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
