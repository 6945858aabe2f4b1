"""The archive's errors, importable without the database layer."""

from __future__ import annotations


class ArchiveUnavailable(Exception):
    """The archive could not be opened (PostgreSQL unreachable, a file that cannot be read)."""


class ArchiveTooNew(Exception):
    """The archive was migrated by a newer flagtui than this one: its schema version, and the
    newest this one reads."""

    def __init__(self, version: int, latest: int, where: str = "the delivery archive") -> None:
        self.version, self.latest = version, latest
        super().__init__(
            f"{where} was written by a newer flagtui (schema version {version}; this flagtui"
            f" reads up to {latest}): upgrade flagtui, or give this profile another archive_url"
        )


class CollectorBusy(Exception):
    """Another collector holds the archive's lock for this server (`lease.py`): a SQLite
    archive has one collector at a time, and `collect --once` never waits for its turn."""
