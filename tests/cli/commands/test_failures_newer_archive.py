"""`flagtui failures` and `flagtui collect` on a delivery archive a newer flagtui wrote: said
so (which schema version, what this one reads, what to do), exit 2, never an internal error."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import insert

from flagtui.archive import schema
from flagtui.archive.engine import create_archive_engine
from flagtui.archive.location import default_archive_path, sqlite_url
from flagtui.archive.migrations import LATEST

from .helpers import collect_once


@pytest.mark.parametrize("argv", [("failures",), ("collect", "--once")])
def test_an_archive_of_a_newer_schema_is_said_to_be_a_newer_flagtuis(run, sandbox, argv):
    collect_once(sandbox)
    url = sqlite_url(default_archive_path(sandbox.url))
    engine = create_archive_engine(url)
    with engine.begin() as conn:
        conn.execute(
            insert(schema.schema_version).values(version=LATEST + 1, applied_at=datetime.now(UTC))
        )
    engine.dispose()
    result = run(*argv, "-o", "json")
    assert result.code == 2, result.err
    error = result.error
    assert error["kind"] == "archive-too-new"
    assert error["message"].endswith(
        f" was written by a newer flagtui (schema version {LATEST + 1}; this flagtui reads up to"
        f" {LATEST}): upgrade flagtui, or give this profile another archive_url"
    )
    assert error["message"].startswith("the delivery archive ")
