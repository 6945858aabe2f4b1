"""The TUI's own small files (remembered state, cached rows, start hints): read as JSON objects
that may be missing or broken, and written whole or not at all. None of them is worth stopping
the app for: a file that cannot be read is empty, one that cannot be written is skipped."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any


def read_object(path: Path) -> dict[str, Any]:
    """The file's JSON object; {} when it is missing, unreadable, not JSON or not an object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def replace_quietly(path: Path, text: str) -> None:
    """Written beside it, then renamed over it: a reader never sees half a file."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
