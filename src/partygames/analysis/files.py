"""Where analysis commands write the files a user did not name: the user data folder, never the
current folder (the same folder the web platform keeps its database in)."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir


def output_path(name: str) -> Path:
    """`<user data folder>/partygames/analysis/<name>`, its folder created."""
    folder = Path(user_data_dir("partygames", appauthor=False)) / "analysis"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name
