"""A pytest run of its own, in a subprocess on a temp dir, for the tests of how `./dev test`
runs the suite (its workers, its groups, its secret scan)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_pytest(
    where: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m pytest ARGS` in `where` (its rootdir), flagtui's checkout importable."""
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--rootdir", str(where)]
    environ = {**os.environ, **(env or {}), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [*argv, *args], cwd=where, env=environ, capture_output=True, text=True, timeout=120
    )
