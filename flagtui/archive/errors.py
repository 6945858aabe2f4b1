"""The archive's errors, importable without the database layer."""

from __future__ import annotations


class ArchiveUnavailable(Exception):
    """The archive could not be opened (PostgreSQL unreachable, a file that cannot be read)."""
