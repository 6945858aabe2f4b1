"""The app leaves cleanly when its terminal goes away (SIGHUP: a dropped SSH session) or when it
is asked to stop (SIGTERM), rather than spinning on a dead terminal."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable

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
