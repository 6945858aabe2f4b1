"""Files flagtui writes for itself (the delivery archive, the TUI's state, row cache and start
hints) are the user's alone: 0600 in a 0700 folder, whatever the umask. They hold server text
(event data, masked deliveries, profile names), which other local users have no business
reading. No UI library: the archive and the TUI both use this.

A JSON file over `MAX_JSON_BYTES` is refused before it is read (`TooLarge`): these files are
small by design, and one that grew is not worth reading whole at every start.
"""

from __future__ import annotations

import _thread
import os
import stat
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700
MAX_JSON_BYTES = 4 * 1024 * 1024


class TooLarge(Exception):
    """A file over the size it should ever have; not read."""


def private_dir(path: Path, *, ours: bool) -> None:
    """Create the folder (and any missing parent) 0700. `ours` (a folder only flagtui uses)
    also tightens it when it exists; a folder the user named (a custom archive path's) is
    left as it is when it exists."""
    missing = [p for p in (path, *path.parents) if not p.exists()]
    for folder in reversed(missing):
        folder.mkdir(mode=DIR_MODE, exist_ok=True)
        os.chmod(folder, DIR_MODE)  # mkdir's mode goes through the umask
    if ours and not missing and stat.S_IMODE(path.stat().st_mode) != DIR_MODE:
        os.chmod(path, DIR_MODE)


def private_file(path: Path) -> None:
    """Create the file empty if it is missing, 0600 either way (a file the user named: a
    symlink to it is theirs to make).

    A file that exists is never opened here: closing any descriptor of a file drops every
    POSIX lock this process holds on it, and SQLite's locks on an archive another connection
    of this process has open are such locks (another process could then take the archive for
    unused, and checkpoint or remove its WAL under that connection)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        os.chmod(path, FILE_MODE)
        return
    try:
        os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)


def write_private(path: Path, text: str, *, ours: bool = True) -> None:
    """Written 0600 beside it, then renamed over it: a reader never sees half a file. Each
    writer (process and thread) writes a temporary file of its own: writers at once (two
    terminals on one profile) each put a whole file in place. `ours`: as `private_dir`'s."""
    private_dir(path.parent, ours=ours)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{_thread.get_ident()}.tmp")
    tmp.unlink(missing_ok=True)  # left by a writer that died with this process and thread id
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, FILE_MODE)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def read_capped(path: Path, limit: int = MAX_JSON_BYTES) -> str:
    """The file's text; `TooLarge` when it is over `limit` bytes (checked on the open file,
    before reading it), OSError when it cannot be read."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size > limit:
            raise TooLarge(f"{path} is {size:,} bytes, over the {limit:,} it may have")
        data = file.read(limit + 1)
    if len(data) > limit:  # it grew while being read
        raise TooLarge(f"{path} is over the {limit:,} bytes it may have")
    return data.decode("utf-8")
