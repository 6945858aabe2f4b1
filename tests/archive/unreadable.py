"""Rows a newer or broken writer left in an archive, for the tests of what a reader does then."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def break_two_failures(path: Path) -> list[tuple[int, int]]:
    """The newest two failures get a bad time and a bad event; their (integration, id)."""
    with sqlite3.connect(path) as db:
        keys = db.execute(
            "SELECT integration_id, delivery_id FROM deliveries WHERE failed = 1"
            " ORDER BY created_at DESC LIMIT 2"
        ).fetchall()
        db.execute(
            "UPDATE deliveries SET created_at = 'yesterday-ish'"
            " WHERE integration_id = ? AND delivery_id = ?",
            keys[0],
        )
        db.execute(  # an event row of its own: the others sharing its event stay readable
            "INSERT INTO events (server_id, event_id, event) SELECT server_id, NULL, '{not json'"
            " FROM deliveries WHERE integration_id = ? AND delivery_id = ?",
            keys[1],
        )
        db.execute(
            "UPDATE deliveries SET event_row = last_insert_rowid()"
            " WHERE integration_id = ? AND delivery_id = ?",
            keys[1],
        )
    return keys
