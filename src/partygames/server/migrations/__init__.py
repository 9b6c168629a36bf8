"""The database's schema changes, as Alembic revisions (`versions/`), applied by `upgrade`.

Every process that opens the database runs `upgrade` in one transaction under a lock, so that N processes
starting at once against one PostgreSQL apply each revision exactly once (PostgreSQL: an advisory lock
held until the transaction ends; the others wait, then find nothing left to do). `partygames db upgrade`
runs the same without serving. Revision 0001 is the schema the server created by itself before Alembic
(and it moves a database from before the tables' rename into it), so a database from any earlier version
upgrades in place, keeping its data.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text

HERE = Path(__file__).resolve().parent
# Any fixed number: the advisory lock that serialises upgrades of one PostgreSQL database.
UPGRADE_LOCK = 7_391_846_205


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for this package's revisions (no alembic.ini), on `connection`."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision."""
    revision = ScriptDirectory.from_config(config()).get_current_head()
    assert revision is not None
    return revision


def current(connection: Connection) -> str | None:
    """The revision the database is at (None: never upgraded by Alembic)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection) -> None:
    """Brings the database to the newest revision, in `connection`'s transaction (its caller commits)."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": UPGRADE_LOCK})
    if current(connection) != head():
        command.upgrade(config(connection), "head")
