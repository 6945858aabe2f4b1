"""Archive tests run on both back ends: a SQLite file in tmp_path, and PostgreSQL when
FLAGTUI_TEST_ARCHIVE_PG names a server to create databases on (`./dev test` and CI set it to
the PostgreSQL that scripts/unleash-oss runs for Unleash). Each PostgreSQL test gets its own
database, dropped afterwards.

- `archive_url`: an empty archive's URL (parametrised: sqlite, postgresql).
- `another_archive_url`: a second one, on the same back end.
- `collector`: a `Collector` on the `sandbox` server (retention on) and that archive.
- `patch_many(sandbox, n)`: n recorded events on the sandbox, each delivered to its integrations.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from skip_reasons import NO_POSTGRESQL

from flagtui.api import AdminClient
from flagtui.archive.collector import Collector
from flagtui.archive.location import sqlite_url
from flagtui.archive.store import Archive

PG_ENV = "FLAGTUI_TEST_ARCHIVE_PG"
FLAG = "/api/admin/projects/default/features/admin-async-emails"


def _pg_admin_url() -> str | None:
    return os.environ.get(PG_ENV) or None


@pytest.fixture(params=["sqlite", "postgresql"])
def archive_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from _empty_archive(request.param, tmp_path / "archive.db")


@pytest.fixture
def another_archive_url(archive_url: str, tmp_path: Path) -> Iterator[str]:
    """A second empty archive on the same back end as `archive_url`."""
    kind = "sqlite" if archive_url.startswith("sqlite") else "postgresql"
    yield from _empty_archive(kind, tmp_path / "another.db")


def _empty_archive(kind: str, sqlite_path: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield sqlite_url(sqlite_path)
        return
    admin = _pg_admin_url()
    if admin is None:
        pytest.skip(NO_POSTGRESQL)
    name = f"flagtui_archive_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    base, _, _ = admin.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
async def admin_client(sandbox) -> AsyncIterator[AdminClient]:
    async with AdminClient(sandbox.url, sandbox.admin_token, profile="archive-test") as client:
        await client.connect()
        yield client


@pytest.fixture
def archive(archive_url: str, sandbox) -> Iterator[Archive]:
    opened = Archive.open(archive_url, sandbox.url)
    yield opened
    opened.close()


@pytest.fixture
def collector(admin_client: AdminClient, archive: Archive) -> Collector:
    return Collector(admin_client, archive, log=lambda line: None)


def patch_many(sandbox, times: int, label: str = "archive") -> None:
    with httpx.Client(
        base_url=sandbox.url, headers={"Authorization": sandbox.admin_token}, timeout=30
    ) as http:
        for i in range(times):
            body = [{"op": "replace", "path": "/description", "value": f"{label} {i}"}]
            http.patch(FLAG, json=body).raise_for_status()
