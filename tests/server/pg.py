"""A real PostgreSQL for the storage and restart tests.

Uses $PARTYGAMES_TEST_POSTGRES_URL when set; otherwise starts a throwaway server from Debian's
binaries (/usr/lib/postgresql/*/bin) in a temporary directory, on a free loopback port, as the
`postgres` user when running as root, and removes it afterwards. Without PostgreSQL installed the
tests are skipped, except under CI (environment variable CI set), where that is a failure.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.server.live import free_port


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def _as_postgres(args: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return args


def _run_as_postgres(args: list[str]) -> None:
    """Runs a PostgreSQL tool; its output is kept for the error if it fails."""
    subprocess.run(_as_postgres(args), check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


@contextmanager
def postgres_url() -> Iterator[str]:
    given = os.environ.get("PARTYGAMES_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    bin_dir = _bin_dir()
    if bin_dir is None:
        reason = "PostgreSQL is not installed (apt-get install postgresql, or set PARTYGAMES_TEST_POSTGRES_URL)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    root = Path(tempfile.mkdtemp(prefix="partygames-pg-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    data = root / "data"
    port = free_port()
    try:
        _run_as_postgres([str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                          "--no-sync", "-E", "UTF8"])
        _run_as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-w",
                          "-o", f"-p {port} -k {root} -c listen_addresses=127.0.0.1", "start"])
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        if data.exists():
            subprocess.run(_as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        shutil.rmtree(root, ignore_errors=True)


def fresh_database(url: str) -> str:
    """A new, empty database on the PostgreSQL server of `url` (for a test that needs one to itself);
    returns its URL."""
    import uuid

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = "t_" + uuid.uuid4().hex[:12]
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return make_url(url).set(database=name).render_as_string(hide_password=False)
