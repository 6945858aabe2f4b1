"""The app leaves cleanly when its terminal goes away (SIGHUP: a dropped SSH session) or when it
is asked to stop (SIGTERM), rather than spinning on a dead terminal; Ctrl-C stops a start's
token_command."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import termios
from collections.abc import Callable, Iterator

LEAVE_ON = (signal.SIGHUP, signal.SIGTERM)


def leave_on_signals(leave: Callable[[], object]) -> None:
    loop = asyncio.get_running_loop()
    for signum in LEAVE_ON:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, leave)


def stop_listening() -> None:
    loop = asyncio.get_running_loop()
    for signum in LEAVE_ON:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.remove_signal_handler(signum)


@contextlib.contextmanager
def ctrl_c_interrupts() -> Iterator[None]:
    """While a token_command runs in the app's thread: the terminal's Ctrl-C sends SIGINT again
    (the app's raw mode turns it into a key, read only once the command is done), and SIGINT
    raises KeyboardInterrupt at once (asyncio's handler would only cancel the app's task), which
    stops the command (flagtui.config.token_command). Nothing to do without a terminal."""
    stdin = sys.__stdin__
    fd = stdin.fileno() if stdin is not None and stdin.isatty() else None
    before = termios.tcgetattr(fd) if fd is not None else None
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        if fd is not None and before is not None:
            keys = list(before)
            keys[3] |= termios.ISIG
            termios.tcsetattr(fd, termios.TCSANOW, keys)
        yield
    finally:
        if fd is not None and before is not None:
            termios.tcsetattr(fd, termios.TCSANOW, before)
        signal.signal(signal.SIGINT, handler)
