"""Alembic's environment: revisions run on the connection `migrations.upgrade` hands over (in its
transaction), never from a URL of their own."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations through partygames.server.migrations.upgrade (or `partygames db upgrade`)")
context.configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
