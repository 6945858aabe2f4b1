"""What the schema gained after its first release, added to a database that lacks it when the
sandbox opens it (`Database.upgrade`): tag types and the tags ever used (real Unleash's tag
routes), and a project environment's default strategy."""

from __future__ import annotations

import json
import sqlite3

TAGS_SCHEMA = """
CREATE TABLE tag_types (name TEXT PRIMARY KEY, description TEXT NOT NULL, icon TEXT, color TEXT);
CREATE TABLE tags (type TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (type, value));
"""
# Real Unleash's one tag type on a fresh install.
SIMPLE = ("simple", "Used to simplify filtering of features", "#", "#FFFFFF")


def upgrade(conn: sqlite3.Connection) -> None:
    """Each part added once, in its own transaction; the tag tables filled from the flags'."""
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'tag_types'").fetchone():
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in TAGS_SCHEMA.strip().split(";\n"):
                conn.execute(statement)
            conn.execute("INSERT INTO tag_types VALUES (?, ?, ?, ?)", SIMPLE)
            for (tags,) in conn.execute("SELECT tags FROM features").fetchall():
                for tag in json.loads(tags):
                    conn.execute(
                        "INSERT OR IGNORE INTO tag_types VALUES (?, '', NULL, NULL)",
                        (tag["type"],),
                    )
                    conn.execute(
                        "INSERT OR IGNORE INTO tags VALUES (?, ?)", (tag["type"], tag["value"])
                    )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    columns = "SELECT 1 FROM pragma_table_info('project_environments') WHERE name = ?"
    if not conn.execute(columns, ("default_strategy",)).fetchone():
        conn.execute("ALTER TABLE project_environments ADD COLUMN default_strategy TEXT")
