"""Frozen DDL: a released migration's statements, word for word, for each back end.

`table` lays a CREATE TABLE out as SQLAlchemy 2.0 does (one tab-indented line a column), so a
table created by the frozen text reads in SQLite's `sqlite_master` exactly as one created by
the released code. Released migrations depend on it: it never changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import Connection

Statements = Mapping[str, Sequence[str]]  # dialect name ("sqlite", "postgresql") -> statements


def table(name: str, *lines: str) -> str:
    body = ", \n\t".join(lines)
    return f"CREATE TABLE {name} (\n\t{body}\n)"


def execute(conn: Connection, statements: Statements) -> None:
    for statement in statements[conn.dialect.name]:
        conn.exec_driver_sql(statement)
