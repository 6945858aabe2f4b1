"""Whether a SQLite reader's lock on a file is held, asked from another process: a POSIX lock
never conflicts with its owner's, so only another process sees a lock the owner dropped (closing
any descriptor of a file drops every lock the process holds on it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# A write lock over SQLite's shared byte range conflicts with any reader's lock there.
PROBE = """
import fcntl, os, struct, sys
SHARED_FIRST = 0x40000000 + 2  # SQLite's PENDING_BYTE + 2
fd = os.open(sys.argv[1], os.O_RDONLY)
asked = struct.pack("hhqqi4x", fcntl.F_WRLCK, 0, SHARED_FIRST, 510, 0)
answer = fcntl.fcntl(fd, fcntl.F_GETLK, asked)
print("held" if struct.unpack("hhqqi4x", answer)[0] != fcntl.F_UNLCK else "free")
"""


def seen_from_another_process(path: Path) -> str:
    """ "held" or "free": a reader's lock on the database at `path`."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()
