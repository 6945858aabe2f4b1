"""Where the TUI's row cache lives and how its file is named, UI-free, so that shell completion
can offer the flag names the TUI last showed (`flagtui.tui.row_cache` writes and reads the
file). No network, no Textual: completion runs on every TAB."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from platformdirs import user_cache_dir

from flagtui.private_files import TooLarge, read_capped

VERSION = 1


def default_cache_dir() -> Path:
    return Path(user_cache_dir("flagtui", appauthor=False)) / "rows"


def cache_key(profile: str, server_url: str) -> str:
    return hashlib.sha256(f"{profile}\0{server_url.rstrip('/')}".encode()).hexdigest()


def cache_path(directory: Path, key: str) -> Path:
    return directory / f"rows-{key[:32]}.json"


def cached_keys(directory: Path, profile: str, server_url: str, area: str) -> tuple[str, list[str]]:
    """The scope (a project) and row keys (flag names) of `area` as last cached for this
    profile and server; ("", []) when there is nothing readable."""
    key = cache_key(profile, server_url)
    try:
        data = json.loads(read_capped(cache_path(directory, key)))
        entry = data["areas"][area] if data["version"] == VERSION and data["key"] == key else {}
        scope, rows = entry["scope"], entry["rows"]
        names = [row[0] for row in rows if isinstance(row[0], str)]
    except (OSError, ValueError, TooLarge, TypeError, KeyError, IndexError):
        return "", []
    return (scope if isinstance(scope, str) else ""), names
