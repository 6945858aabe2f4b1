"""What the app remembers between runs, per profile: the last area and project.

A small JSON file under platformdirs' user state dir. A missing or broken file means "nothing
remembered"; failing to write it never stops the app.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from platformdirs import user_state_dir

from flagtui.tui.files import read_object, replace_quietly


def default_state_path() -> Path:
    return Path(user_state_dir("flagtui", appauthor=False)) / "state.json"


class UiState:
    """Reads the file once, at the first `get`; `set` reads it again just before writing, so
    what another flagtui (another profile) wrote meanwhile is kept."""

    def __init__(self, path: Path, profile: str) -> None:
        self.path = path
        self.profile = profile
        self._mine: dict[str, Any] | None = None  # this profile's entry, once read

    def _read_all(self) -> dict[str, Any]:
        return read_object(self.path)

    def _entry(self, data: dict[str, Any]) -> dict[str, Any]:
        entry = data.get(self.profile)
        return entry if isinstance(entry, dict) else {}

    def get(self, key: str) -> str | None:
        if self._mine is None:
            self._mine = self._entry(self._read_all())
        value = self._mine.get(key)
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> None:
        if self.get(key) == value:
            return
        data = self._read_all()
        entry = data[self.profile] = self._entry(data)
        entry[key] = value
        self._mine = dict(entry)
        replace_quietly(self.path, json.dumps(data, indent=1, sort_keys=True))

    def get_ids(self, key: str) -> list[int]:
        """Numbers kept as "1,2,3" (an empty list when missing or not that)."""
        return [int(i) for i in (self.get(key) or "").split(",") if i.isdecimal()]

    def set_ids(self, key: str, ids: list[int]) -> None:
        self.set(key, ",".join(map(str, ids)))
