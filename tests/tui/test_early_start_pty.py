"""A returning user's start in a real terminal (issue 17): the real `flagtui` draws the rows it
showed last time before it validates the config or asks the server, marked as cached, then the
server's; another profile never sees them; a problem found after the first frame is said once
the terminal is back, with the config's exit code."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from pty_term import Term

from flagtui.tui.row_cache import RowCache

from .test_row_cache import CACHED, first_project

ROOT = Path(__file__).resolve().parents[2]
TWO_PROFILES = '[profiles.a]\nurl = "{url}"\n\n[profiles.b]\nurl = "{url}"\n'


def start(home: Path, url: str, token: str, *args: str, record: bool = False) -> Term:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "HOME": str(home),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "UNLEASH_API_TOKEN": token,
    }
    argv = [sys.executable, "-m", "flagtui", *args]
    return Term(argv, env, cols=100, rows=24, record=record)


def rows_dir(home: Path) -> Path:
    return home / "cache" / "flagtui" / "rows"


def first_start(home: Path, url: str, token: str, profile: str) -> None:
    """Shows the fresh first page (the row cache is written once it is drawn) and quits."""
    with start(home, url, token, "-P", profile) as term:
        term.wait_for(lambda t: t.has("page 1/"), 30, "the first page")
        term.settle(0.2)
        term.send("q")
        assert term.proc.wait(10) == 0


async def test_a_returning_start_draws_its_cached_rows_first_and_never_anothers(
    sandbox: Any, tmp_path: Path
) -> None:
    project = await first_project(sandbox)
    config = tmp_path / "config" / "flagtui" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(TWO_PROFILES.format(url=sandbox.url))
    first_start(tmp_path, sandbox.url, sandbox.admin_token, "a")
    # Marked rows in a's cache: only a start of profile a may ever draw them.
    RowCache(rows_dir(tmp_path), "a", sandbox.url).save("features", project, CACHED)

    with start(tmp_path, sandbox.url, sandbox.admin_token, "-P", "b") as term:
        ever: list[bool] = []

        def fresh(t: Term) -> bool:
            ever.append(t.has("cached-only-flag"))
            return t.has("page 1/")

        term.wait_for(fresh, 30, "b's first page")
        assert not any(ever)

    with start(tmp_path, sandbox.url, sandbox.admin_token, "-P", "a") as term:
        term.wait_for(lambda t: t.has("cached-only-flag"), 30, "a's cached rows")
        assert term.has("cached rows from") and term.has("refreshing…")
        assert term.has(" a ") and term.has("connecting…")
        term.wait_for(lambda t: t.has("page 1/"), 30, "a's fresh page")
        assert not term.has("cached-only-flag")

    written = "".join(p.read_text() for p in rows_dir(tmp_path).iterdir())
    assert sandbox.url.split("//")[1] not in written and sandbox.admin_token not in written


async def test_a_problem_found_after_the_first_frame_is_said_once_the_terminal_is_back(
    sandbox: Any, tmp_path: Path
) -> None:
    project = await first_project(sandbox)
    config = tmp_path / "config" / "flagtui" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(TWO_PROFILES.format(url=sandbox.url))
    first_start(tmp_path, sandbox.url, sandbox.admin_token, "a")
    RowCache(rows_dir(tmp_path), "a", sandbox.url).save("features", project, CACHED)
    # Same inputs as far as the hint knows (a token is set), but this one is refused.
    broken = f"{sandbox.admin_token}\nsecond line"
    with start(tmp_path, sandbox.url, broken, "-P", "a", record=True) as term:
        term.wait_for(lambda t: t.has("cached-only-flag"), 30, "the cached rows")
        term.wait_for(lambda t: t.has("holds several lines"), 30, "the config's message")
        assert term.proc.wait(10) == 2
        term.settle(0.2)
        assert "flagtui: UNLEASH_API_TOKEN holds several lines" in term.text()
        # Said on the shell's screen: after the app left the alternate screen.
        raw = bytes(term.raw)
        assert raw.rindex(b"\x1b[?1049l") < raw.index(b"holds several lines")
