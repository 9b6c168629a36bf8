"""The real platform in a subprocess (`python -m partygames.server`), killable and restartable on the
same port and database, for the browser tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PlatformProcess:
    """One server process; `kill()` is a SIGKILL, `start()` again reopens the same database."""

    def __init__(self, data_dir: Path, bot_delay: float = 0.05) -> None:
        self.port = free_port()
        self.data_dir = data_dir
        self.database_url = f"sqlite:///{data_dir / 'platform.sqlite3'}"
        self.args = [sys.executable, "-m", "partygames.server", "--host", "127.0.0.1", "--port", str(self.port),
                     "--database-url", self.database_url, "--data-dir", str(data_dir),
                     "--bot-delay", str(bot_delay)]
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> PlatformProcess:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.args, cwd=ROOT, env=dict(os.environ), stdout=out,
                                         stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not start:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
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
