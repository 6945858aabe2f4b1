"""Helpers for the config tests: files, token_command scripts, processes."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

SECRET = "*:*.config-secret-93a7"


def write_config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def python_command(tmp_path: Path, code: str, name: str = "token_command.py") -> str:
    """A token_command that runs a Python script with `code`, as the config file would say it."""
    script = tmp_path / name
    script.write_text(code)
    return f"{sys.executable} {script}"


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie waiting for a reaper counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def running_as_root() -> bool:
    return os.geteuid() == 0


def reads_any_file() -> bool:
    """Whether file modes do not stop this process (root with CAP_DAC_OVERRIDE)."""
    with tempfile.TemporaryDirectory() as folder:
        probe = Path(folder) / "probe"
        probe.write_text("")
        probe.chmod(0)
        try:
            probe.read_text()
        except PermissionError:
            return False
        return True
