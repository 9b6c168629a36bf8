"""Processes seen through Linux's /proc: a server's children (its review workers), and whether one still runs."""

from __future__ import annotations

from pathlib import Path


def children(pid: int) -> list[int]:
    """The child processes of `pid`."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def alive(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie waiting for its reaper does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False
