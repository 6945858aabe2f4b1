"""A cold start's early read: the first page, read by a forked process while this one imports
Textual, so the rows come soon after the first frame rather than after the client's imports.

A start with no cached rows spends about half a second after its first frame importing httpx,
pydantic and the client before it can ask for the page; a bare Textual app is drawn by then.
The launch forks the child first thing, on a terminal and a machine with a second core, before
anything costly is imported and before the start is decided (`launch.py`): deciding (the
config, the start hints and the UI state read, with their imports) then runs in both processes
side by side, instead of before the fork. The child decides as the launch does
(`start_plan.py`), and goes on only for a cold start (nothing recalled for its inputs, no
token_command) of the features area with its project remembered; the launch stops it at once
for any other start. The child opens the profile the way the app will (the config validated,
the token read), sends the search for that project's first page with the standard library's
HTTP (`flagtui/api/early_search.py`: the client's own request, sent before pydantic, the
models and httpx are imported; the models then load while it travels), makes the area's rows
from the answer, saves them in the row cache and says so on a pipe. Once its first frame is
drawn, the app opens the profile in a thread, reads the page itself and shows it; if the child
says so before the opening is done (heard from the app's mount on), the app draws its rows
from the row cache meanwhile, as a returning start draws cached rows.

The child writes to nothing but the row cache (which holds no URL and no token) and one byte
on the pipe; its stdin, stdout and stderr are /dev/null, so it can never draw on the app's
terminal. Any failure is silent: the app's own opening says what went wrong. A profile whose
token comes from a token_command is never read early (it may ask the terminal for a
passphrase; the child checks the validated profile again), nor with a proxy in the
environment, and there is no early read without fork (Windows) or a second core. The child
ends itself after READ_LIMIT_S.
"""

from __future__ import annotations

import os

# Nothing but `os` at the top, not even typing or dataclasses (0.01 s with what they import): the
# launch imports this module and forks at once, and the child does the rest beside the app.
TYPE_CHECKING = False  # typing's, without importing typing; mypy reads any such name as true
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from flagtui.tui.opening import Opened, Opener

READ_LIMIT_S = 10
"""The child's whole life, in seconds: a server that does not answer by then gets no second
chance here."""
DONE = b"1"


class EarlyRead:
    """The parent's side: the child's pid and the pipe it says it is done on."""

    def __init__(self, pid: int, done_fd: int) -> None:
        self.pid, self.done_fd = pid, done_fd

    async def open_beside(
        self,
        opener: Opener,
        show_rows: Callable[[], Awaitable[object]],
        after_refresh: Callable[[Callable[[], None]], object],
    ) -> Opened | None:
        """The rows the child saved, shown by `show_rows` as soon as it says so, and the opener,
        run in a thread once the app's first frame is out (`after_refresh` calls back then: the
        opener's imports would hold the frame back). Rows the child saved before the opener is
        done are shown; the child is stopped once the opener is done, whatever it got to.

        The child is heard from the app's mount on: it is often done before the first frame
        is, and its rows then wait neither for the frame's next refresh nor for the opener.
        The opener once waited up to 0.15 s for the rows, to leave drawing them the CPU: the
        bench measured no gain for the rows, and the app's own page that much later on a slow
        network (1.3-1.5 round trips to it against 0.6-0.7 without the wait)."""
        import asyncio

        saved = asyncio.ensure_future(self.finished())
        drawn = asyncio.Event()
        after_refresh(drawn.set)
        framed = asyncio.ensure_future(drawn.wait())
        shown = False

        async def show_if_saved() -> None:
            nonlocal shown
            if not shown and saved.done() and saved.result():
                shown = True
                await show_rows()

        try:
            await asyncio.wait({saved, framed}, return_when=asyncio.FIRST_COMPLETED)
            await show_if_saved()
            await framed
            opening = asyncio.ensure_future(asyncio.to_thread(opener))
            await asyncio.wait({opening, saved}, return_when=asyncio.FIRST_COMPLETED)
            await show_if_saved()
            return await opening
        finally:
            saved.cancel()
            framed.cancel()
            self.stop()

    async def finished(self) -> bool:
        """Whether the child saved the page (it says so, or exits without saying)."""
        import asyncio

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
            import contextlib
            import signal

            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)
            os.close(self.done_fd)
            self.pid = 0


def start_early_read(profile_arg: str | None) -> EarlyRead | None:
    """Fork the child that decides the start and, for a cold start of the features area, reads
    its project's first page (before any thread runs and anything costly is imported); None
    without fork or a second core."""
    if not hasattr(os, "fork") or len(os.sched_getaffinity(0)) < 2:
        return None
    done_read, done_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(done_read)
        _child(profile_arg, done_write)
    os.close(done_write)
    return EarlyRead(pid, done_read)


def _child(profile_arg: str | None, done_fd: int) -> None:
    code = 1
    try:
        import signal

        quiet = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(quiet, fd)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.alarm(READ_LIMIT_S)  # SIGALRM's default ends the child, saying nothing
        os.nice(10)  # the app's first frame first, where the two share a core
        from flagtui.tui.start_plan import plan_start

        project = plan_start(profile_arg, terminal=True).early_project
        # A cold start of the features area, as the launch decides too.
        if project is not None and _save_first_page(profile_arg, project):
            os.write(done_fd, DONE)
            code = 0
    except BaseException:  # whatever it was, the app's own opening says it
        pass
    os._exit(code)  # no atexit, no buffers: nothing of the parent's runs twice


def _save_first_page(profile_arg: str | None, project: str) -> bool:
    """The search sent first (`early_search`: the standard library's HTTP), then what makes
    the rows imported while it travels: pydantic, the models, rich."""
    from flagtui.api.early_search import send_search
    from flagtui.api.feature_query import FeatureQuery
    from flagtui.config import load_config, resolve_token, select_profile
    from flagtui.profile import asks_token_command
    from flagtui.tui.feature_rows import PAGE_SIZE, start_filters

    profile = select_profile(load_config(), profile_arg)
    if asks_token_command(profile):
        return False
    query = FeatureQuery(**start_filters(project), offset=0, limit=PAGE_SIZE)
    token = resolve_token(profile).token
    # A bad ca_bundle fails in send_search, before anything is sent (the app's opening says
    # why): checking it first, as opening the client does, would load the bundle twice.
    answer = send_search(profile.url, token, query, verify=profile.verify, timeout=profile.timeout)
    if answer is None:
        return False
    from flagtui.row_cache_file import default_cache_dir
    from flagtui.tui.feature_rows import feature_row
    from flagtui.tui.format import short_names
    from flagtui.tui.row_cache import RowCache
    from flagtui.tui.start_plan import EARLY_AREA

    page = answer()
    if page is None:
        return False
    short = short_names({e.name for f in page.features for e in f.environments or []})
    rows = [feature_row(f, short) for f in page.features]
    cache = RowCache(default_cache_dir(), profile.name, profile.url.rstrip("/"))  # the app's key
    cache.save(EARLY_AREA, project, rows)
    return True
