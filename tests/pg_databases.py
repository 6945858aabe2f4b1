"""A database of its own for a test, on the real PostgreSQL FLAGTUI_TEST_ARCHIVE_PG names
(`./dev test` sets it while `scripts/unleash-oss start` runs); the test skips without it."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from skip_reasons import NO_POSTGRESQL

PG_ENV = "FLAGTUI_TEST_ARCHIVE_PG"


def fresh_database(prefix: str) -> Iterator[str]:
    """The URL of a new empty database named `prefix` and a random part, dropped afterwards."""
    admin = os.environ.get(PG_ENV)
    if not admin:
        pytest.skip(NO_POSTGRESQL)
    name = f"{prefix}{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    base, _, _ = admin.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
