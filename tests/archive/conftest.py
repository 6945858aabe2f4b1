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

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from pg_databases import fresh_database

from flagtui.api import AdminClient
from flagtui.archive.collector import Collector
from flagtui.archive.location import sqlite_url
from flagtui.archive.store import Archive

FLAG = "/api/admin/projects/default/features/admin-async-emails"


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
    yield from fresh_database("flagtui_archive_")


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
