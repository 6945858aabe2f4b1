"""The last rows each area showed, kept per profile and server, so the next start can draw them
before the server answers (marked as cached, with their age) and replace them when it does.

One small JSON file per profile and server under platformdirs' user cache dir, named by a hash
of both: another profile, or the same profile pointed at another server, never finds it. The
file holds only what the rows showed (the cells' text, already masked where the screen masks,
and what they belong to, like a project id): no URL, no token. It is server text all the same,
and goes through the display boundary again when shown. A file that cannot be read (missing,
corrupt, another version, another key) means "nothing cached"; failing to write never stops
the app.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.text import Text

from flagtui.row_cache_file import VERSION, cache_key, cache_path, default_cache_dir
from flagtui.tui.files import read_object, replace_quietly

__all__ = ["VERSION", "CachedRows", "RowCache", "default_cache_dir"]
MAX_ROWS = 200  # the first page is what a start shows; more is never drawn from here


@dataclass(frozen=True)
class CachedRows:
    scope: str
    """What the rows belong to (a project), as the screen said when saving them."""
    rows: list[tuple[str, list[str]]]
    saved_at: datetime


def _plain(cell: object) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


class RowCache:
    def __init__(self, directory: Path, profile: str, server_url: str) -> None:
        self.key = cache_key(profile, server_url)
        self.path = cache_path(directory, self.key)
        self._saved: dict[str, object] = {}  # what this run last wrote, per area

    def _read(self) -> dict[str, Any]:
        data = read_object(self.path)
        if data.get("version") != VERSION:
            return {}
        if data.get("key") != self.key or not isinstance(data.get("areas"), dict):
            return {}
        return data

    def load(self, area: str, columns: int, scope: str) -> CachedRows | None:
        """The area's rows as last saved for `scope` (a project); None unless they belong to
        it and each row has `columns` cells of text."""
        entry = self._read().get("areas", {}).get(area)
        try:
            saved_at = datetime.fromisoformat(entry["saved_at"])
            rows = [(key, list(cells)) for key, cells in entry["rows"]]
            saved_scope = entry["scope"]
        except (TypeError, KeyError, ValueError):
            return None
        if saved_scope != scope:
            return None
        texts = [*(key for key, _ in rows)]
        texts += [cell for _, cells in rows for cell in cells]
        if not all(isinstance(t, str) for t in texts) or saved_at.tzinfo is None:
            return None
        if len(rows) > MAX_ROWS or any(len(cells) != columns for _, cells in rows):
            return None
        return CachedRows(scope, rows, saved_at)

    def save(self, area: str, scope: str, rows: Sequence[tuple[str, Sequence[object]]]) -> None:
        """Written unless this run already wrote the same rows (PageUp back to the first
        page): its age then says when they were last read, which is what they still are."""
        plain = [[key, [_plain(c) for c in cells]] for key, cells in rows[:MAX_ROWS]]
        if self._saved.get(area) == (scope, plain):
            return
        self._saved[area] = scope, plain
        data = self._read() or {"version": VERSION, "key": self.key, "areas": {}}
        data["areas"][area] = {
            "scope": scope,
            "saved_at": datetime.now(UTC).isoformat(),
            "rows": plain,
        }
        replace_quietly(self.path, json.dumps(data, ensure_ascii=False))
