"""The sandbox's database holds its tokens: the file, its -wal and its -shm are 0600, whether
the sandbox made it or was given one readable by others."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from flagtui.demo import demo_db_path
from flagtui.sandbox.auth import read_tokens
from flagtui.sandbox.create import create_database
from flagtui.sandbox.db import Database

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")


def modes(path: Path) -> dict[str, int]:
    files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
    return {f.name: stat.S_IMODE(f.stat().st_mode) for f in files if f.exists()}


def test_a_new_database_and_its_journal_are_private(tmp_path):
    path = tmp_path / "sandbox.db"
    old = os.umask(0o022)  # the usual umask, which would leave them 0644
    try:
        create_database(path, size="empty")
        db = Database(path)
        with db.read() as conn:
            conn.execute("SELECT count(*) FROM tokens").fetchone()
        found = modes(path)
    finally:
        os.umask(old)
    assert set(found) == {"sandbox.db", "sandbox.db-wal", "sandbox.db-shm"}
    assert found == dict.fromkeys(found, 0o600)


def test_a_database_given_readable_by_others_is_made_private(tmp_path):
    path = tmp_path / "sandbox.db"
    create_database(path, size="empty")
    path.chmod(0o644)
    assert read_tokens(path).admin
    assert modes(path)["sandbox.db"] == 0o600


def test_the_folders_it_creates_are_private(tmp_path):
    """Before, they were made 0755 under the usual umask (the file alone was 0600)."""
    path = tmp_path / "data" / "flagtui" / "sandbox.db"
    old = os.umask(0o022)
    try:
        create_database(path, size="empty")
    finally:
        os.umask(old)
    for folder in (path.parent, path.parent.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder


def test_the_demos_folder_is_private(tmp_path, monkeypatch):
    """`flagtui demo` keeps its database and its archive in the user data dir, which it
    created 0755 before (the files in it were 0600)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    old = os.umask(0o022)
    try:
        folder = demo_db_path("demo").parent
    finally:
        os.umask(old)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(folder.parent.stat().st_mode) == 0o700
