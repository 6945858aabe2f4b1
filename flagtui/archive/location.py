"""Where an archive lives and how its URL is written, without importing SQLAlchemy (about
0.1 s): the CLI's parser and the TUI import this to choose a source, and the database layer
only when an archive is read.

Default: one SQLite file per server in the user data dir, named from the server's URL, never
its token.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from urllib.parse import urlsplit

from platformdirs import user_data_dir

from flagtui.config import Profile


def server_key(url: str) -> str:
    """The server a URL names, written one way: scheme and host lowercased, no trailing slash."""
    parts = urlsplit(url.strip())
    path = parts.path.rstrip("/")
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{path}"


def default_archive_dir() -> Path:
    """flagtui's own folder of SQLite archives, in the user data dir."""
    return Path(user_data_dir("flagtui", appauthor=False)) / "archive"


def default_archive_path(url: str) -> Path:
    """The SQLite archive of the server at `url`."""
    key = server_key(url)
    host = re.sub(r"[^a-z0-9.-]+", "-", urlsplit(key).netloc)[:60] or "server"
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    return default_archive_dir() / f"{host}-{digest}.db"


def engine_url(archive_url: str) -> str:
    """`postgresql://…` as SQLAlchemy names psycopg 3; `sqlite:///…` and others unchanged."""
    for prefix in ("postgresql://", "postgres://"):
        if archive_url.startswith(prefix):
            return "postgresql+psycopg://" + archive_url[len(prefix) :]
    return archive_url


def sqlite_url(path: Path) -> str:
    return f"sqlite+pysqlite:///{path}"


def archive_url(profile: Profile) -> str | None:
    """The profile's archive: its `archive_url`, else the default SQLite file when it exists."""
    if profile.archive_url:
        return profile.archive_url
    path = default_archive_path(profile.url)
    return sqlite_url(path) if path.exists() else None


def collect_url(profile: Profile) -> str:
    """Where `flagtui collect` writes: the profile's `archive_url` or the default file."""
    return profile.archive_url or sqlite_url(default_archive_path(profile.url))
