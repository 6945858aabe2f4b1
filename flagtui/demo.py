"""`flagtui demo`: the embedded sandbox with demo data on a free loopback port, and the TUI on it.

The SQLite file lives in the user data dir, so changes survive a restart; `--reset` starts fresh.
A delivery collector runs beside the server (`flagtui.archive.demo`), its archive a SQLite file
next to the demo database, seeded with a week of history no server keeps.

The server side runs in a process of its own (`flagtui.demo_server`), started before the TUI
is imported, so the two start side by side; it ends when the TUI does.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from platformdirs import user_data_dir

from flagtui.archive.location import sqlite_url
from flagtui.config import Profile
from flagtui.private_files import private_dir, private_file


class DemoFailed(Exception):
    """The demo's server did not come up; the message says why (the end of its log)."""


def demo_db_path(size: str) -> Path:
    folder = Path(user_data_dir("flagtui", appauthor=False))
    private_dir(folder, ours=True)  # the demo's database and archive: 0600 in a 0700 folder
    return folder / ("demo.db" if size == "demo" else f"demo-{size}.db")


def demo_archive_path(db_path: Path) -> Path:
    return db_path.with_name(f"{db_path.stem}-archive.db")


def demo_log_path(db_path: Path) -> Path:
    return db_path.with_name(f"{db_path.stem}-server.log")


class DemoServer:
    """The server process: started at once, waited for when the TUI is ready for it."""

    def __init__(self, db_path: Path, size: str, archive_url: str) -> None:
        self.log_path = demo_log_path(db_path)
        private_file(self.log_path)
        with open(self.log_path, "w") as log:  # this run's messages only
            self.process = subprocess.Popen(
                [sys.executable, "-m", "flagtui.demo_server", str(db_path), size, archive_url],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
            )

    def ready(self) -> tuple[str, str]:
        """The server's URL and admin token, once it serves."""
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        try:
            started = json.loads(line)
            return started["url"], started["token"]
        except (ValueError, KeyError, TypeError):
            self.process.wait()
            log = self.log_path.read_text(errors="replace").strip().splitlines()
            raise DemoFailed("\n".join(["the demo server did not start:", *log[-15:]])) from None

    def stop(self) -> None:
        """Closing its stdin tells it to stop; it stops its collector and server first."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def run_demo(args: argparse.Namespace) -> int:
    db_path = demo_db_path(args.size)
    archive_path = demo_archive_path(db_path)
    if args.reset:
        for path in (db_path, archive_path):
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
    if not db_path.exists():
        print(f"Creating {args.size} data in {db_path} ...", flush=True)
    archive_url = sqlite_url(archive_path)
    server = DemoServer(db_path, args.size, archive_url)
    try:
        # Textual and the client (httpx, pydantic), imported while the server process makes
        # the data and starts.
        from flagtui.api import AdminClient
        from flagtui.tui.app import FlagtuiApp

        try:
            url, token = server.ready()
        except DemoFailed as failed:
            print(f"flagtui demo: {failed}", file=sys.stderr)
            return 1
        profile = Profile(name="demo", url=url, archive_url=archive_url)
        client = AdminClient(url, token, profile=profile.name)
        FlagtuiApp(client, profile).run()
    finally:
        server.stop()
    return 0
