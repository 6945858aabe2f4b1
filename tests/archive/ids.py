"""The deliveries an archive holds and those the server reports, as (integration, event) ids."""

from __future__ import annotations

import contextlib
import sqlite3

from sqlalchemy import select

from flagtui.archive import schema
from flagtui.archive.store import Archive


def stored_ids(archive: Archive) -> list[tuple[int, int]]:
    table = schema.deliveries
    with archive.reading() as conn:
        rows = conn.execute(select(table.c.integration_id, table.c.delivery_id)).all()
    return [(int(a), int(b)) for a, b in rows]


def server_ids(sandbox) -> set[tuple[int, int]]:
    with contextlib.closing(sqlite3.connect(sandbox.db_path)) as conn:
        return {tuple(r) for r in conn.execute("SELECT addon_id, id FROM integration_events")}
