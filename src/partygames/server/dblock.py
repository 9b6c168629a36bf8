"""One process per SQLite database: the lock that keeps a second `partygames serve` away.

SQLite is the single-process default (`make run`): two processes on one file would each think they own
every room. Many processes need PostgreSQL (docs/scaling.md). The lock is an exclusive `flock` on a file
beside the database, which the kernel releases when the process dies, so a crash never leaves it stale.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from sqlalchemy.engine import make_url


class DatabaseInUse(RuntimeError):
    """Another process serves this SQLite database."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.en = (f"Another partygames process already serves {path}. SQLite serves one process; stop the other, "
                   f"or run many processes on PostgreSQL (--database-url postgresql://...).")
        self.ja = (f"{path} は別の partygames プロセスが使用中です。SQLite は1プロセス専用です。もう一方を止めるか、"
                   f"複数プロセスには PostgreSQL を使ってください(--database-url postgresql://...)。")
        super().__init__(f"{self.en}\n{self.ja}")


_held: dict[Path, IO[bytes]] = {}  # the locks this process holds


def lock_sqlite(url: str) -> IO[bytes] | None:
    """Takes the lock of the SQLite database at `url` (None for an in-memory one, or on a system without
    `flock`); it is held until the returned file is closed or the process ends (taking it again in the same
    process gives the same file). Raises DatabaseInUse if another process holds it."""
    database = make_url(url).database
    if not database or database == ":memory:":
        return None
    try:
        import fcntl
    except ImportError:  # Windows: no flock; one process is the user's care there
        return None
    path = Path(database).resolve()
    held = _held.get(path)
    if held is not None and not held.closed:
        return held
    # Opened without truncating: a process refused here leaves the holder's PID in the file.
    handle = open(path.with_name(path.name + ".lock"), "ab")  # noqa: SIM115 - held open while serving
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise DatabaseInUse(path) from None
    handle.truncate(0)
    handle.write(str(os.getpid()).encode())
    handle.flush()
    _held[path] = handle
    return handle
