"""The app leaves cleanly when its terminal goes away (SIGHUP: a dropped SSH session) or when it
is asked to stop (SIGTERM), rather than spinning on a dead terminal.

SIGHUP comes only to a process whose controlling terminal it is. On a terminal that is not
(a program that gives flagtui a pseudo-terminal without making it the controlling one), nothing
told the app, and Textual's input thread read the terminal's end in a loop: a core at 100 % for
good, after the user had gone. A thread also waits for the terminal's own hang-up."""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import sys
import threading
from collections.abc import Callable

LEAVE_ON = (signal.SIGHUP, signal.SIGTERM)


def leave_on_signals(leave: Callable[[], object], *, watch_terminal: bool = False) -> None:
    """`leave` on SIGHUP and SIGTERM, and, with `watch_terminal`, when stdin's terminal hangs
    up (not for a headless app, whose stdin is not its terminal)."""
    loop = asyncio.get_running_loop()
    for signum in LEAVE_ON:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, leave)
    if watch_terminal:
        _leave_on_hang_up(loop, leave)


def _leave_on_hang_up(loop: asyncio.AbstractEventLoop, leave: Callable[[], object]) -> None:
    try:
        fd = sys.__stdin__.fileno() if sys.__stdin__ is not None else -1
    except (OSError, ValueError):
        return
    if fd < 0 or not os.isatty(fd):
        return

    def wait() -> None:
        poller = select.poll()
        poller.register(fd, 0)  # asks for nothing: only a hang-up or an error wakes it
        if any(mask & (select.POLLHUP | select.POLLERR) for _, mask in poller.poll()):
            with contextlib.suppress(RuntimeError):  # the loop is closed: the app has left
                loop.call_soon_threadsafe(leave)

    threading.Thread(target=wait, name="flagtui-hang-up", daemon=True).start()


def stop_listening() -> None:
    loop = asyncio.get_running_loop()
    for signum in LEAVE_ON:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.remove_signal_handler(signum)
