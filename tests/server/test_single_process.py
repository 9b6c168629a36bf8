"""SQLite serves one process: a second `partygames serve` on the same database file refuses to start and
says why, in English and Japanese (many processes need PostgreSQL: tests/cluster/); so does `partygames db
upgrade` while it serves. Alembic brings the file to the newest revision either way."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, text

from partygames.server import migrations
from tests.server.live import ROOT, LiveServer, free_port

ENV = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}


def test_a_second_process_on_the_same_sqlite_file_refuses_to_start_and_says_why(tmp_path: Path) -> None:
    first = LiveServer(tmp_path).start()
    try:
        second = subprocess.run([sys.executable, "-m", "partygames.server", "--port", str(free_port()),
                                 "--data-dir", str(tmp_path)], env=ENV, capture_output=True, text=True, timeout=60)
        assert second.returncode == 1
        assert "Another partygames process already serves" in second.stderr and "PostgreSQL" in second.stderr
        assert "別の partygames プロセスが使用中です" in second.stderr
        # The lock file still names the process that holds it (the refused one emptied it: issue #31).
        assert first.proc is not None
        assert (tmp_path / "partygames.sqlite3.lock").read_text() == str(first.proc.pid)
        upgrade = subprocess.run([sys.executable, "-m", "partygames.cli.main", "db", "upgrade", "--database-url",
                                  f"sqlite:///{tmp_path / 'partygames.sqlite3'}"], env=ENV, capture_output=True,
                                 text=True, timeout=60)
        assert upgrade.returncode == 1 and "Another partygames process" in upgrade.stderr
        assert (tmp_path / "partygames.sqlite3.lock").read_text() == str(first.proc.pid)
        assert first.proc is not None and first.proc.poll() is None  # the first one serves on
    finally:
        first.stop()
    # Once the first has stopped, the file is free again (the kernel drops a dead process's lock too).
    upgrade = subprocess.run([sys.executable, "-m", "partygames.cli.main", "db", "upgrade", "--database-url",
                              f"sqlite:///{tmp_path / 'partygames.sqlite3'}"], env=ENV, capture_output=True,
                             text=True, timeout=60)
    assert upgrade.returncode == 0, upgrade.stderr
    assert f"revision {migrations.head()}" in upgrade.stdout
    engine = create_engine(f"sqlite:///{tmp_path / 'partygames.sqlite3'}")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == migrations.head()
    engine.dispose()
