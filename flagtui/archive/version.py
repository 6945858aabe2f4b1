"""The schema version the newest migration leaves, known without importing SQLAlchemy: a
SQLite archive already at it is read with the standard library's sqlite3 (`sqlite_reads`),
one at an older version is migrated first (`migrations`, whose list ends at this number)."""

LATEST = 7
