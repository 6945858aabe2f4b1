"""Creating a sandbox database file: schema, random tokens, then demo data of a given size."""

from __future__ import annotations

import sqlite3
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from flagtui.sandbox.auth import Tokens, new_tokens
from flagtui.sandbox.catalog import seed_context_fields
from flagtui.sandbox.db import SCHEMA, connect
from flagtui.sandbox.demo_data import DEMO_NOW, DEMO_SEED, populate
from flagtui.sandbox.demo_tables import SIZES


def create_database(
    db_path: Path | str,
    size: str = "demo",
    seed: int = DEMO_SEED,
    now: datetime | None = DEMO_NOW,
    progress: bool = False,
) -> Tokens:
    """(Re)create the database at db_path; returns its freshly generated tokens.

    The data is generated relative to `now`: by default a fixed moment (DEMO_NOW, so tests and
    screenshots are stable); `now=None` means the present (for people: `flagtui sandbox`,
    `flagtui demo`), so the server's own clock agrees with the data's ages. `progress`: show a
    progress bar on a terminal's stderr while the rows are written (people wait for `large`)."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}")
    path = Path(db_path)
    _private_folders(path.parent)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    tokens = new_tokens()
    conn = connect(path)
    try:
        conn.execute("PRAGMA synchronous=OFF")  # one bulk load; durable once closed
        conn.executescript(SCHEMA)
        conn.execute("BEGIN")
        seed_context_fields(conn)
        with _progress_bar(conn, size, progress and sys.stderr.isatty()):
            populate(conn, tokens, size, seed, datetime.now(UTC) if now is None else now)
        conn.execute("COMMIT")
        conn.execute("ANALYZE")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return tokens


def _private_folders(folder: Path) -> None:
    """The missing folders made 0700 whatever the umask (the database holds the tokens);
    folders that exist are left as they are."""
    for missing in reversed([p for p in (folder, *folder.parents) if not p.exists()]):
        missing.mkdir(mode=0o700, exist_ok=True)
        missing.chmod(0o700)  # mkdir's mode goes through the umask


# Rows a size writes, about (measured with the default seed; the bar only needs the proportion).
# The generator builds each table's rows before writing them: the bar pauses while it does.
EXPECTED_ROWS = {"demo": 18_400, "hostile": 18_400, "large": 1_060_000}
PROGRESS_EVERY = 20_000  # SQLite VM steps between two looks at the row count


@contextmanager
def _progress_bar(conn: sqlite3.Connection, size: str, shown: bool) -> Iterator[None]:
    """A bar of the rows written so far, fed by SQLite's progress handler (the generator knows
    nothing of it); rich comes with Textual."""
    if not shown or size not in EXPECTED_ROWS:
        yield
        return
    # Here, not at the top: it loads Textual
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    total = EXPECTED_ROWS[size]
    start = conn.total_changes
    last = 0.0
    columns = (TextColumn(f"{size} data"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"))
    with Progress(
        *columns, TimeElapsedColumn(), console=Console(stderr=True), transient=True
    ) as bar:
        task = bar.add_task("rows", total=total)

        def written() -> int:
            nonlocal last
            if time.monotonic() - last > 0.1:
                last = time.monotonic()
                bar.update(task, completed=min(conn.total_changes - start, total - 1))
            return 0  # go on

        conn.set_progress_handler(written, PROGRESS_EVERY)
        try:
            yield
        finally:
            conn.set_progress_handler(None, 0)
        bar.update(task, completed=total)
