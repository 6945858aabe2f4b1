"""`flagtui demo`: the embedded sandbox with demo data on a free loopback port, and the TUI on it.

The SQLite file lives in the user data dir, so changes survive a restart; `--reset` starts fresh.
A delivery collector runs beside the TUI (`flagtui.archive.demo`), its archive a SQLite file
next to the demo database, seeded with a week of history no server keeps.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from platformdirs import user_data_dir

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.private_files import private_dir


def demo_db_path(size: str) -> Path:
    folder = Path(user_data_dir("flagtui", appauthor=False))
    private_dir(folder, ours=True)  # the demo's database and archive: 0600 in a 0700 folder
    return folder / ("demo.db" if size == "demo" else f"demo-{size}.db")


def demo_archive_path(db_path: Path) -> Path:
    return db_path.with_name(f"{db_path.stem}-archive.db")


def run_demo(args: argparse.Namespace) -> int:
    from flagtui.archive.demo import DemoCollector
    from flagtui.archive.location import sqlite_url
    from flagtui.sandbox import SandboxServer, create_database
    from flagtui.tui.app import FlagtuiApp

    db_path = demo_db_path(args.size)
    archive_path = demo_archive_path(db_path)
    if args.reset:
        for path in (db_path, archive_path):
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
    if not db_path.exists():
        print(f"Creating {args.size} data in {db_path} ...")
        create_database(db_path, size=args.size, now=None, progress=True)  # present-day dates
    with SandboxServer(db_path) as server:
        archive_url = sqlite_url(archive_path)
        profile = Profile(name="demo", url=server.url, archive_url=archive_url)
        collector = DemoCollector(archive_url, server.url, server.admin_token).start()
        try:
            client = AdminClient(server.url, server.admin_token, profile=profile.name)
            FlagtuiApp(client, profile).run()
        finally:
            collector.stop()
    return 0
