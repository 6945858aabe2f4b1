"""A cold start's early read run as the launch runs it (`flagtui/tui/early_read.py`), in a
process of its own (never the test process, whose threads a fork would copy): the TUI tests'
and the conformance suite's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

# The child forked as the launch forks it; prints whether it saved the page.
EARLY = """
import asyncio, json
from flagtui.tui.early_read import start_early_read

early = start_early_read(None)
saved = asyncio.run(early.finished())
early.stop()
print(json.dumps(saved))
"""


def early_read(env: dict[str, str]) -> bool:
    """Whether the child, started in `env`, saved the first page in the row cache."""
    done = subprocess.run(
        [sys.executable, "-c", EARLY], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def remembering(home: Path, project: Any, profile: str = "env") -> None:
    """The features area of `project` remembered for `profile` (the environment's), nothing
    cached: a cold start that knows what it will show."""
    state = home / "state" / "flagtui" / "state.json"
    state.parent.mkdir(parents=True)
    state.write_text(json.dumps({profile: {"area": "features", "project": project}}))
