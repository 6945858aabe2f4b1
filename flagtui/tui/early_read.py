"""A cold start's early read: the first page, read by a forked process while this one imports
Textual, so the rows come with the first frame rather than after the client's imports.

A start with no cached rows spends about half a second after its first frame importing httpx,
pydantic and the client before it can ask for the page; a bare Textual app is drawn by then.
On a machine with a second core, a child forked before Textual is imported does that work
beside it: it opens the profile the way the app will (the config validated, the token read),
reads the remembered project's first page with the same query and makes the area's rows,
saves them in the row cache, and exits. The app draws them from there as soon as the child
says so, as a returning start draws its cached rows, while it opens the profile in a thread
(so waiting for the child never delays the opening), then reads the page again, which
replaces them. On a busy machine with no core to spare the child only competes: it is
never started where there is one core.

The child writes to nothing but the row cache (which holds no URL and no token) and one byte
on a pipe saying it did; its stdin, stdout and stderr are /dev/null, so it can never draw on
the app's terminal. Any failure is silent: the app's own opening says what went wrong. A
profile whose token comes from a token_command is never read early (it may ask the terminal
for a passphrase), and neither is a start without fork (Windows).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from flagtui.tui.feature_rows import PAGE_SIZE, feature_row, start_filters
from flagtui.tui.row_cache import RowCache

if TYPE_CHECKING:
    from flagtui.tui.opening import Opened, Opener

AREA = "features"  # the area read early: its rows go in the row cache under this name
READ_LIMIT_S = 10.0
"""The child's whole read: a server that does not answer by then gets no second chance here."""
DONE = b"1"


@dataclass
class EarlyRead:
    """The parent's side: the child's pid and the pipe it says it is done on."""

    pid: int
    done_fd: int

    async def open_beside(
        self, opener: Opener, show_rows: Callable[[], Awaitable[object]]
    ) -> Opened | None:
        """The opener run in a thread (its imports no longer hold the event loop) while the
        child reads; `show_rows` draws the rows it saved if they come first. The child is
        stopped once the opener is done, whatever it got to."""
        opening = asyncio.ensure_future(asyncio.to_thread(opener))
        saved = asyncio.ensure_future(self.finished())
        try:
            await asyncio.wait({opening, saved}, return_when=asyncio.FIRST_COMPLETED)
            if saved.done() and saved.result():
                await show_rows()
            return await opening
        finally:
            saved.cancel()
            self.stop()

    async def finished(self) -> bool:
        """Whether the child saved the page (it says so, or exits without saying)."""
        loop = asyncio.get_running_loop()
        said: asyncio.Future[bytes] = loop.create_future()

        def readable() -> None:
            if not said.done():
                said.set_result(os.read(self.done_fd, 1))

        loop.add_reader(self.done_fd, readable)
        try:
            return await said == DONE
        finally:
            loop.remove_reader(self.done_fd)

    def stop(self) -> None:
        """The child stopped and reaped, the pipe closed; safe to call again."""
        if self.pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)
            os.close(self.done_fd)
            self.pid = 0


def start_early_read(profile_arg: str | None, project: str, rows_dir: Path) -> EarlyRead | None:
    """Fork the child (before Textual is imported: no thread runs yet); None without fork or
    a second core."""
    if not hasattr(os, "fork") or len(os.sched_getaffinity(0)) < 2:
        return None
    done_read, done_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(done_read)
        _child(profile_arg, project, rows_dir, done_write)
    os.close(done_write)
    return EarlyRead(pid, done_read)


def _child(profile_arg: str | None, project: str, rows_dir: Path, done_fd: int) -> None:
    code = 1
    try:
        quiet = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(quiet, fd)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if asyncio.run(
            asyncio.wait_for(_save_first_page(profile_arg, project, rows_dir), READ_LIMIT_S)
        ):
            os.write(done_fd, DONE)
            code = 0
    except BaseException:  # whatever it was, the app's own opening says it
        pass
    os._exit(code)  # no atexit, no buffers: nothing of the parent's runs twice


async def _save_first_page(profile_arg: str | None, project: str, rows_dir: Path) -> bool:
    from flagtui.api.feature_query import FeatureQuery
    from flagtui.config import load_config, make_client, resolve_token, select_profile
    from flagtui.tui.format import short_names
    from flagtui.tui.start_hint import asks_token_command

    profile = select_profile(load_config(), profile_arg)
    if asks_token_command(profile):
        return False
    async with make_client(profile, resolve_token(profile)) as client:
        page = await client.features.search(
            FeatureQuery(**start_filters(project), offset=0, limit=PAGE_SIZE)
        )
        cache = RowCache(rows_dir, profile.name, client.base_url)  # the area's, once open
    short = short_names({e.name for f in page.features for e in f.environments or []})
    rows = [feature_row(f, short) for f in page.features]
    cache.save(AREA, project, rows)
    return True
