"""Versioned migrations: applied once, whoever opens the archive first, however often."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
from sqlalchemy import insert, select

from flagtui.archive import schema
from flagtui.archive.engine import create_archive_engine
from flagtui.archive.migrations import LATEST, ArchiveTooNew
from flagtui.archive.store import Archive

SERVER = "http://unleash.example:4242/"


def versions(url: str) -> list[int]:
    engine = create_archive_engine(url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(select(schema.schema_version.c.version)).scalars())
    finally:
        engine.dispose()


def test_opening_again_applies_nothing(archive_url):
    for _ in range(3):
        archive = Archive.open(archive_url, SERVER)
        assert archive.version == LATEST
        archive.close()
    assert versions(archive_url) == list(range(1, LATEST + 1))


def test_processes_opening_a_new_archive_at_once_migrate_it_once(archive_url):
    def open_and_close(_: int) -> int:
        archive = Archive.open(archive_url, SERVER)
        archive.close()
        return archive.version

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(open_and_close, range(4))) == [LATEST] * 4
    assert versions(archive_url) == list(range(1, LATEST + 1))


def test_an_archive_from_a_newer_flagtui_is_refused(archive_url):
    Archive.open(archive_url, SERVER).close()
    engine = create_archive_engine(archive_url)
    with engine.begin() as conn:
        conn.execute(
            insert(schema.schema_version).values(version=LATEST + 1, applied_at=datetime.now(UTC))
        )
    engine.dispose()
    with pytest.raises(ArchiveTooNew, match="upgrade flagtui"):
        Archive.open(archive_url, SERVER)


def test_the_server_key_ignores_case_and_a_trailing_slash(archive_url):
    archive = Archive.open(archive_url, "HTTP://Unleash.Example:4242/")
    assert archive.server == "http://unleash.example:4242"
    archive.close()
