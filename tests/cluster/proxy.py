"""The deploy/ proxy configurations, run for real in front of test processes: nginx (a hash on the room
code) and HAProxy (plain round robin), each from its file with only the servers' addresses and the port
swapped for the test's."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Self

import pytest

from tests.server.live import ROOT, free_port, wait_until_answering

DEPLOY = ROOT / "deploy"


def _binary(name: str) -> str:
    found = shutil.which(name) or next((p for p in (f"/usr/sbin/{name}", f"/usr/local/sbin/{name}")
                                        if Path(p).exists()), None)
    if found is None:
        import os

        reason = f"{name} is not installed (apt-get install {name}; .ci/run installs it)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return found


class Proxy:
    """nginx or HAProxy on a free port in front of `ports` (127.0.0.1), with deploy/'s configuration."""

    def __init__(self, kind: str, ports: list[int], workdir: Path) -> None:
        self.kind = kind
        self.port = free_port()
        self.dir = workdir / kind
        self.dir.mkdir(parents=True, exist_ok=True)
        self.proc: subprocess.Popen[bytes] | None = None
        if kind == "nginx":
            conf = (DEPLOY / "nginx.conf").read_text()

            def upstream(found: re.Match[str]) -> str:  # its servers, with the file's own parameters
                return "".join(f"        server 127.0.0.1:{p}{found[1]}\n" for p in ports)

            conf = re.sub(r"(?m)^        server app\d+:8000( [^\n]*)\n(?:        server app\d+:8000 [^\n]*\n)*", upstream, conf)
            conf = conf.replace("listen 80;", f"listen 127.0.0.1:{self.port};")
            (self.dir / "nginx.conf").write_text(conf)
            self.args = [_binary("nginx"), "-p", str(self.dir), "-c", str(self.dir / "nginx.conf"),
                         "-g", f"daemon off; pid {self.dir / 'nginx.pid'};"]
        else:
            conf = (DEPLOY / "haproxy.cfg").read_text()
            def backend(found: re.Match[str]) -> str:  # its servers, with the file's own parameters
                return "".join(f"    server app{i + 1} 127.0.0.1:{p}{found[1]}\n" for i, p in enumerate(ports))

            conf = re.sub(r"(?m)^    server app\d+ app\d+:8000( [^\n]*)\n(?:    server app\d+ app\d+:8000 [^\n]*\n)*", backend, conf)
            conf = conf.replace("bind :80", f"bind 127.0.0.1:{self.port}")
            (self.dir / "haproxy.cfg").write_text(conf)
            self.args = [_binary("haproxy"), "-f", str(self.dir / "haproxy.cfg"), "-db"]
        assert "127.0.0.1" in conf, "the deploy configuration's server lines were not found"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Self:
        with (self.dir / "proxy.log").open("ab") as log:
            self.proc = subprocess.Popen(self.args, stdout=log, stderr=subprocess.STDOUT, cwd=self.dir)
        wait_until_answering(self.proc, self.url, self.dir / "proxy.log", self.kind, 20)
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM if self.kind == "haproxy" else signal.SIGQUIT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
