"""Processes writing one of the TUI's files at once (two terminals on one profile save the same
row cache and state) each write it whole.

Every writer used one temporary name beside the file, removing any it found: one writer could
remove another's temporary file while it was being written and rename a third's half-written
one into place (a torn file, read as empty: the cache or the state lost), or fail to rename its
own. Each writer now has a temporary file of its own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

WRITERS = 3
WRITES = 150
WRITER = """
import json, sys
from pathlib import Path
from flagtui.private_files import write_private
path, me = Path(sys.argv[1]), sys.argv[2]
text = json.dumps({"writer": me, "rows": [me * 40] * 2000})  # about 90 kB: written in parts
failed = []
for _ in range(int(sys.argv[3])):
    try:
        write_private(path, text)
    except OSError as exc:
        failed.append(type(exc).__name__)
print(json.dumps(failed))
"""


def test_writers_at_once_leave_one_whole_file_each_time(tmp_path: Path) -> None:
    path = tmp_path / "rows" / "cache.json"
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), f"w{i}", str(WRITES)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(WRITERS)
    ]
    seen: set[str] = set()
    torn = 0
    while any(w.poll() is None for w in writers):  # read while they write
        try:
            text = path.read_text()
        except FileNotFoundError:
            continue
        try:
            seen.add(json.loads(text)["writer"])
        except ValueError:
            torn += 1
    failures = [json.loads(w.communicate()[0]) for w in writers]
    assert failures == [[]] * WRITERS
    assert torn == 0
    assert json.loads(path.read_text())["writer"] in {f"w{i}" for i in range(WRITERS)}
    assert seen  # the reader saw the file while they wrote
    assert [p.name for p in path.parent.iterdir()] == ["cache.json"]  # no temporary file left
