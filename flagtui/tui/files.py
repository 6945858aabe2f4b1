"""The TUI's own small files (remembered state, cached rows, start hints): read as JSON objects
that may be missing or broken, and written whole or not at all, 0600 in a 0700 folder
(flagtui/private_files.py). None of them is worth stopping the app for: a file that cannot be
read is empty, one that cannot be written is skipped. One over the size cap is not read at all
and said once, as a toast when the app starts (`take_notices`)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from flagtui.private_files import TooLarge, read_capped, write_private

_notices: list[str] = []  # files ignored before the app could say so


def read_object(path: Path) -> dict[str, Any]:
    """The file's JSON object; {} when it is missing, unreadable, too large, not JSON or not
    an object."""
    try:
        data = json.loads(read_capped(path))
    except TooLarge as exc:
        notice = f"{exc}: ignored (delete it; flagtui writes it again)"
        if notice not in _notices:
            _notices.append(notice)
        return {}
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def take_notices() -> list[str]:
    """What was ignored so far, each said once."""
    taken = list(_notices)
    _notices.clear()
    return taken


def replace_quietly(path: Path, text: str) -> None:
    with contextlib.suppress(OSError):
        write_private(path, text)
