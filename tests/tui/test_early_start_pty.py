"""A returning user's start in a real terminal (issue 17): the real `flagtui` draws the rows it
showed last time before it validates the config or asks the server, marked as cached, then the
server's; another profile never sees them; a problem found after the first frame is said once
the terminal is back, with the config's exit code."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pyte
from hostile_pty import flagtui_env

from flagtui.tui.row_cache import RowCache
from testkit.pty_term import Term

from .row_cache_state import CACHED, first_project

TWO_PROFILES = '[profiles.a]\nurl = "{url}"\n\n[profiles.b]\nurl = "{url}"\n'


def start(home: Path, token: str, *args: str, record: bool = False) -> Term:
    """The real flagtui on the profiles of `home`'s config (no UNLEASH_URL), at 100x24."""
    argv = [sys.executable, "-m", "flagtui", *args]
    return Term(argv, flagtui_env(home, token), cols=100, rows=24, record=record)


def rows_dir(home: Path) -> Path:
    return home / "cache" / "flagtui" / "rows"


async def returning_home(sandbox: Any, home: Path) -> None:
    """Profiles a and b on the sandbox; a started once (its project remembered, the start
    hint written), then marked rows put in a's row cache: only a start of a may draw them."""
    project = await first_project(sandbox)
    config = home / "config" / "flagtui" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(TWO_PROFILES.format(url=sandbox.url))
    with start(home, sandbox.admin_token, "-P", "a") as term:
        term.wait_for(lambda t: t.has("page 1/"), 30, "the first page")
        term.settle(0.2)  # the row cache is written once the page is drawn
        term.send("q")
        assert term.wait_exit(10) == 0
    RowCache(rows_dir(home), "a", sandbox.url).save("features", project, CACHED)


async def test_a_returning_start_draws_its_cached_rows_first_and_never_anothers(
    sandbox: Any, tmp_path: Path
) -> None:
    await returning_home(sandbox, tmp_path)
    with start(tmp_path, sandbox.admin_token, "-P", "b") as term:
        ever: list[bool] = []

        def fresh(t: Term) -> bool:
            ever.append(t.has("cached-only-flag"))
            return t.has("page 1/")

        term.wait_for(fresh, 30, "b's first page")
        assert not any(ever)

    with start(tmp_path, sandbox.admin_token, "-P", "a") as term:
        term.wait_for(lambda t: t.has("cached-only-flag"), 30, "a's cached rows")
        assert term.has("cached rows from") and term.has("refreshing…")
        assert term.has(" a ") and term.has("connecting…")
        term.wait_for(lambda t: t.has("page 1/"), 30, "a's fresh page")
        assert not term.has("cached-only-flag")

    written = "".join(p.read_text() for p in rows_dir(tmp_path).iterdir())
    assert sandbox.url.split("//")[1] not in written and sandbox.admin_token not in written


def first_frame(raw: bytes, cols: int, rows: int) -> str:
    """The screen as the app's first frame left it: the terminal fed the output up to the
    frame's move to the last line (Textual draws a whole frame top to bottom, line by line)."""
    last_line = re.search(rb"\x1b\[%d;1H" % rows, raw)
    assert last_line is not None, "no whole frame was drawn"
    screen = pyte.Screen(cols, rows)
    pyte.ByteStream(screen).feed(raw[: last_line.start()])
    return "\n".join(screen.display)


async def test_the_cached_rows_are_in_the_first_frame(sandbox: Any, tmp_path: Path) -> None:
    """Fails on the code before: the table added its rows once mounted, which Textual counts
    only after the screen's first frame, so that frame had an empty table under "cached rows
    from …" and the rows came in the next one."""
    await returning_home(sandbox, tmp_path)
    with start(tmp_path, sandbox.admin_token, "-P", "a", record=True) as term:
        term.wait_for(lambda t: t.has("cached-only-flag"), 30, "the cached rows")
        term.settle(0.2)
        frame = first_frame(bytes(term.raw), 100, 24)
    assert "cached rows from" in frame and "cached-only-flag" in frame


async def test_a_problem_found_after_the_first_frame_is_said_once_the_terminal_is_back(
    sandbox: Any, tmp_path: Path
) -> None:
    await returning_home(sandbox, tmp_path)
    # Same inputs as far as the hint knows (a token is set), but this one is refused.
    broken = f"{sandbox.admin_token}\nsecond line"
    with start(tmp_path, broken, "-P", "a", record=True) as term:
        term.wait_for(lambda t: t.has("cached-only-flag"), 30, "the cached rows")
        term.wait_for(lambda t: t.has("holds several lines"), 30, "the config's message")
        assert term.wait_exit(10) == 2
        term.settle(0.2)
        assert "flagtui: UNLEASH_API_TOKEN holds several lines" in term.text()
        # Said on the shell's screen: after the app left the alternate screen.
        raw = bytes(term.raw)
        assert raw.rindex(b"\x1b[?1049l") < raw.index(b"holds several lines")
