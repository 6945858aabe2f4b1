"""`flagtui demo`: the embedded sandbox with demo data on a free loopback port, and the TUI on it.

The SQLite file lives in the user data dir, so changes survive a restart; `--reset` starts fresh.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from platformdirs import user_data_dir

from flagtui.api import AdminClient
from flagtui.config import Profile


def demo_db_path(size: str) -> Path:
    folder = Path(user_data_dir("flagtui", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / ("demo.db" if size == "demo" else f"demo-{size}.db")


def run_demo(args: argparse.Namespace) -> int:
    from flagtui.sandbox import SandboxServer, create_database
    from flagtui.tui.app import FlagtuiApp

    db_path = demo_db_path(args.size)
    if args.reset:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    if not db_path.exists():
        print(f"Creating {args.size} data in {db_path} ...")
        create_database(db_path, size=args.size, now=None, progress=True)  # present-day dates
    with SandboxServer(db_path) as server:
        profile = Profile(name="demo", url=server.url)
        client = AdminClient(server.url, server.admin_token, profile=profile.name)
        FlagtuiApp(client, profile).run()
    return 0
