"""A cold start's early read (flagtui/tui/early_read.py): a child forked before Textual reads
the remembered project's first page from the real sandbox and saves the area's rows in the row
cache, and the app draws them while its own opening is still running. Every run forks in a
subprocess of its own (never the test process, whose threads a fork would copy), and a test
bounds its waits without asserting any time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from early_reads import remembering
from hostile_pty import flagtui_env

from testkit.pty_term import Term

from .row_cache_state import first_project, server_first_page

# Two orders of a cold start. "frame first": the first frame is out at once, and the opener
# waits until the rows were shown (bounded), so an early read that did not draw before the
# opening finished fails the run. "rows first": the first frame comes only once the rows were
# shown (bounded), so an early read that waited for the frame before hearing the child fails.
BESIDE = """
import asyncio, contextlib, json, sys, threading
from flagtui.row_cache_file import default_cache_dir
from flagtui.tui.early_read import start_early_read
from flagtui.tui.start_plan import EARLY_AREA
from flagtui.tui.row_cache import RowCache

project, url, bound, order = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
early = start_early_read(None)
shown, frame_out = threading.Event(), threading.Event()
seen = {}

def opener():
    seen["opener_after_frame"] = frame_out.is_set()
    if order == "rows first":
        return "opened"
    return "opened" if shown.wait(bound) else "the rows were never shown"

async def show_rows():
    cached = RowCache(default_cache_dir(), "env", url).load(EARLY_AREA, 6, project)
    seen["rows"] = [key for key, _ in cached.rows] if cached else None
    seen["before_frame"] = not frame_out.is_set()
    shown.set()

async def main():
    def after_refresh(callback):
        async def frame():
            if order == "rows first":
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.to_thread(shown.wait, bound), bound)
            frame_out.set()
            callback()
        seen["frame"] = asyncio.ensure_future(frame())
    opened = await early.open_beside(opener, show_rows, after_refresh)
    del seen["frame"]
    return opened

opened = asyncio.run(main())
print(json.dumps({"opened": opened, "rows": seen.get("rows"), "pid": early.pid, "seen": seen}))
"""


def beside(
    env: dict[str, str], project: str, url: str, wait_s: float, order: str = "frame first"
) -> dict[str, Any]:
    """BESIDE run in a process of its own: what its opener returned, the rows it was shown."""
    argv = [sys.executable, "-c", BESIDE, project, url, str(wait_s), order]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


async def test_the_early_read_saves_the_first_page_and_shows_it_while_the_app_opens(
    sandbox: Any, tmp_path: Path
) -> None:
    project, env = await cold_home(sandbox, tmp_path)
    said = beside(env, project, sandbox.url, 60)
    assert said["seen"].pop("opener_after_frame") is True
    assert said["seen"].pop("before_frame") is False
    rows = server_first_page(sandbox, project)
    assert said == {"opened": "opened", "rows": rows, "pid": 0, "seen": {"rows": rows}}
    # The rows file holds what the screen shows: no URL, no token.
    rows_dir = tmp_path / "cache" / "flagtui" / "rows"
    written = "".join(p.read_text() for p in rows_dir.iterdir())
    assert sandbox.url.split("//")[1] not in written and sandbox.admin_token not in written


async def test_rows_saved_before_the_first_frame_is_out_wait_neither_for_it_nor_the_opener(
    sandbox: Any, tmp_path: Path
) -> None:
    """The child is heard from the app's mount on: its rows are shown at once, and the opener
    (whose imports would hold the first frame back) still starts only once the frame is out."""
    project, env = await cold_home(sandbox, tmp_path)
    said = beside(env, project, sandbox.url, 60, order="rows first")
    assert said["rows"] == server_first_page(sandbox, project)
    assert said["seen"]["before_frame"] is True
    assert said["seen"]["opener_after_frame"] is True
    assert said["opened"] == "opened" and said["pid"] == 0


async def test_a_token_command_profile_is_never_read_early(sandbox: Any, tmp_path: Path) -> None:
    """Its command may ask the terminal for a passphrase: the child never runs it."""
    project = await first_project(sandbox)
    remembering(tmp_path, project, profile="a")
    ran = tmp_path / "the token_command ran"
    script = tmp_path / "token.py"
    script.write_text(f"open({str(ran)!r}, 'w')\nprint('a token')\n")
    config = tmp_path / "config" / "flagtui" / "config.toml"
    config.parent.mkdir(parents=True)
    command = f"{sys.executable} {script}"
    config.write_text(f'[profiles.a]\nurl = "{sandbox.url}"\ntoken_command = "{command}"\n')
    env = flagtui_env(tmp_path, sandbox.admin_token)
    del env["UNLEASH_API_TOKEN"]
    said = beside(env, project, sandbox.url, 2)
    assert said["opened"] == "the rows were never shown" and said["rows"] is None
    assert not ran.exists() and not (tmp_path / "cache" / "flagtui" / "rows").exists()


async def cold_home(sandbox: Any, home: Path) -> tuple[str, dict[str, str]]:
    """The sandbox's first project remembered in `home`, and flagtui's environment there."""
    project = await first_project(sandbox)
    remembering(home, project)
    return project, flagtui_env(home, sandbox.admin_token, sandbox.url)


def alive_with(marker: str) -> list[int]:
    """Processes whose environment holds `marker`: the app's and any child of it."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


async def test_a_cold_start_with_its_project_remembered_shows_the_servers_page(
    sandbox: Any, tmp_path: Path
) -> None:
    project, env = await cold_home(sandbox, tmp_path)
    env["EARLY_READ_TEST"] = marker = f"early-{os.getpid()}-{tmp_path.name}"
    first = server_first_page(sandbox, project)[0]
    with Term([sys.executable, "-m", "flagtui"], env, cols=100, rows=24) as term:
        term.wait_for(lambda t: t.has("page 1/") and t.has(first), 60, "the first page")
        term.settle(0.2)
        term.send("q")
        assert term.wait_exit(30) == 0
    assert alive_with(marker) == []  # the early read never outlives the app


async def test_a_server_that_never_answers_leaves_no_early_read_behind(
    sandbox: Any, tmp_path: Path
) -> None:
    """The child waits on a server that accepts and never answers; quitting the app stops it."""
    import socket

    project = await first_project(sandbox)
    remembering(tmp_path, project)
    silent = socket.create_server(("127.0.0.1", 0))
    silent.listen(8)
    url = f"http://127.0.0.1:{silent.getsockname()[1]}"
    env = flagtui_env(tmp_path, sandbox.admin_token, url)
    env["EARLY_READ_TEST"] = marker = f"silent-{os.getpid()}-{tmp_path.name}"
    try:
        with Term([sys.executable, "-m", "flagtui"], env, cols=100, rows=24) as term:
            term.wait_for(lambda t: t.has("connecting…"), 60, "the first frame")
            term.settle(0.5)
            term.send("q")
            assert term.wait_exit(30) == 0
        assert alive_with(marker) == []
    finally:
        silent.close()


# The child forked, its pid said, and kept until stdin closes (then stopped and reaped).
FORKED = """
import sys
from flagtui.tui.early_read import start_early_read

early = start_early_read(None)
print(early.pid, flush=True)
sys.stdin.read()
early.stop()
"""


def nice_of(pid: int) -> int:
    """A process's niceness: /proc's stat, the 17th field after the command's parenthesis."""
    fields = (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()
    return int(fields[16])


async def test_the_early_read_yields_the_cpu_to_the_app(sandbox: Any, tmp_path: Path) -> None:
    """Where the two share a core, the app's first frame comes first: on a busy machine the
    child's imports beside it made the first frame bimodal (0.37 or 0.45 s in the bench)."""
    import socket

    project = await first_project(sandbox)
    remembering(tmp_path, project)
    silent = socket.create_server(("127.0.0.1", 0))  # the child waits on it, alive
    url = f"http://127.0.0.1:{silent.getsockname()[1]}"
    env = flagtui_env(tmp_path, sandbox.admin_token, url)
    argv = [sys.executable, "-c", FORKED]
    with (
        silent,
        subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE) as app,
    ):
        assert app.stdout is not None and app.stdin is not None
        child = int(app.stdout.readline())
        deadline = time.monotonic() + 30  # a bound on the wait, not a time asserted
        while nice_of(child) != 10 and time.monotonic() < deadline:
            time.sleep(0.01)  # until the child has lowered itself, or never
        niceness = nice_of(child)
        app.stdin.close()
        assert app.wait(30) == 0
    assert niceness == 10


async def test_keys_typed_while_the_profile_opens_beside_the_early_read_are_kept(
    sandbox: Any, tmp_path: Path
) -> None:
    """The opening runs in a thread while the early rows show; a key typed then (2: the feature
    types) waits for it, as it did when the opening held the event loop, instead of being
    dropped as a key nothing can run yet."""
    _, env = await cold_home(sandbox, tmp_path)
    with Term([sys.executable, "-m", "flagtui"], env, cols=100, rows=24) as term:
        term.wait_for(lambda t: t.has("connecting…"), 60, "the first frame")
        term.send("2")
        term.wait_for(lambda t: t.has("experiment") and t.has("kill-switch"), 60, "the types")
        assert not term.has("page 1/")


# The app launched as `flagtui` launches it, os.fork observed: which of the modules that decide
# the start (or cost more) the process had imported when the early read forked.
FORK_OBSERVED = """
import json, os, sys
fork, seen_at = os.fork, sys.argv[1]
DECIDING = (
    "flagtui.tui.start_plan", "flagtui.tui.start_hint", "tomllib", "platformdirs", "dataclasses",
    "typing", "asyncio", "textual", "httpx", "pydantic",
)

def observed_fork():
    with open(seen_at, "w") as said:
        json.dump([name for name in DECIDING if name in sys.modules], said)
    return fork()

os.fork = observed_fork
from flagtui.cli import main
sys.exit(main([]))
"""


async def test_the_early_read_forks_before_the_start_is_decided(
    sandbox: Any, tmp_path: Path
) -> None:
    """The child decides the start itself, beside the app: the config, the start hints and the
    UI state are read, with their imports, in both processes at once (0.03-0.04 s sooner for
    the child than when it forked once the start was decided)."""
    project, env = await cold_home(sandbox, tmp_path)
    seen_at = tmp_path / "imported at the fork.json"
    first = server_first_page(sandbox, project)[0]
    argv = [sys.executable, "-c", FORK_OBSERVED, str(seen_at)]
    with Term(argv, env, cols=100, rows=24) as term:
        term.wait_for(lambda t: t.has("page 1/") and t.has(first), 60, "the first page")
        term.send("q")
        assert term.wait_exit(30) == 0
    assert json.loads(seen_at.read_text()) == []


# `q` waits for the features' filters: quitting while they mount once ended the app with exit 1
# and Textual's NoMatches for a Select's overlay (2 runs in about 45 of this file under load),
# a race of its own that this test is not about.
FILTERS_MOUNTED = "any type"


async def test_a_returning_start_stops_the_early_read_at_once(sandbox: Any, tmp_path: Path) -> None:
    """A start with cached rows needs no early read: the child, forked before the start was
    decided, is stopped before the first frame is drawn."""
    project, env = await cold_home(sandbox, tmp_path)
    first = server_first_page(sandbox, project)[0]
    with Term([sys.executable, "-m", "flagtui"], env, cols=100, rows=24) as term:  # a cold one
        term.wait_for(lambda t: t.has("page 1/") and t.has(first), 60, "the cold start's page")
        term.wait_for(lambda t: t.has(FILTERS_MOUNTED), 60, "the filters")
        term.send("q")
        assert term.wait_exit(30) == 0
    # What makes the next start a returning one: the profile this start opened, remembered.
    assert (tmp_path / "cache" / "flagtui" / "rows" / "starts.json").exists()
    env["EARLY_READ_TEST"] = marker = f"returning-{os.getpid()}-{tmp_path.name}"
    with Term([sys.executable, "-m", "flagtui"], env, cols=100, rows=24) as term:
        term.wait_for(lambda t: t.has(first), 60, "the returning start's rows")
        assert alive_with(marker) == [term.proc.pid]
        term.wait_for(lambda t: t.has("page 1/"), 60, "the returning start's page")
        term.wait_for(lambda t: t.has(FILTERS_MOUNTED), 60, "the filters")
        term.send("q")
        assert term.wait_exit(30) == 0
