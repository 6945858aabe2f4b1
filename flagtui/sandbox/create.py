"""Creating a sandbox database file: schema, random tokens, then demo data of a given size."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from flagtui.sandbox.auth import Tokens, new_tokens
from flagtui.sandbox.db import SCHEMA, connect
from flagtui.sandbox.demo_data import DEMO_NOW, DEMO_SEED, populate
from flagtui.sandbox.demo_tables import SIZES


def create_database(
    db_path: Path | str,
    size: str = "demo",
    seed: int = DEMO_SEED,
    now: datetime | None = DEMO_NOW,
) -> Tokens:
    """(Re)create the database at db_path; returns its freshly generated tokens.

    The data is generated relative to `now`: by default a fixed moment (DEMO_NOW, so tests and
    screenshots are stable); `now=None` means the present (for people: `flagtui sandbox`,
    `flagtui demo`), so the server's own clock agrees with the data's ages."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}")
    path = Path(db_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    tokens = new_tokens()
    conn = connect(path)
    try:
        conn.execute("PRAGMA synchronous=OFF")  # one bulk load; durable once closed
        conn.executescript(SCHEMA)
        conn.execute("BEGIN")
        populate(conn, tokens, size, seed, datetime.now(UTC) if now is None else now)
        conn.execute("COMMIT")
        conn.execute("ANALYZE")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return tokens
