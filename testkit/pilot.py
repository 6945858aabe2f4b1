"""Waiting for a Textual app under Pilot to be idle: the Pilot tests' own wait, shared by
scripts/screenshots.py and the bench's in-process figure (bench/figures/requests.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.worker import Worker, WorkerCancelled, WorkerFailed, WorkerState

from flagtui.tui.app import FlagtuiApp

SETTLE_LIMIT_S = 10.0


async def until_idle(
    app: App[Any], pilot: Pilot[Any], limit_s: float = SETTLE_LIMIT_S
) -> list[BaseException]:
    """Wait until no worker is pending or running (at most `limit_s`), and return what the
    workers it waited for raised. Screens debounce typing with workers that sleep first, so
    a search about to start counts as work; a finished worker's messages may start another,
    so the app must be found idle across two refreshes in a row. Never a fixed quiet period.

    Shared by the Pilot tests, scripts/screenshots.py and the bench."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit_s
    failures: list[BaseException] = []
    calm = 0
    while calm < 2 and loop.time() < deadline:
        busy = [w for w in app.workers if not w.is_finished]
        if busy:
            calm = 0
            waits = [asyncio.ensure_future(_outcome(w, failures)) for w in busy]
            _, late = await asyncio.wait(waits, timeout=max(0.0, deadline - loop.time()))
            for wait in late:
                wait.cancel()
        else:
            calm += 1
        await pilot.pause()
    return failures


async def _outcome(worker: Worker[Any], failures: list[BaseException]) -> None:
    while worker.state is WorkerState.PENDING:  # `wait` refuses a worker not started yet
        await asyncio.sleep(0.005)
    try:
        await worker.wait()
    except WorkerFailed as failed:
        failures.append(failed)
    except WorkerCancelled:
        pass


async def settle(
    app: FlagtuiApp, pilot: Pilot[Any], rounds: int = 4, failures: bool = False
) -> None:
    """Wait until the app is idle, then let the screen catch up for `rounds` refreshes. A
    worker that failed meanwhile raises its WorkerFailed here, unless `failures` are expected
    (they are then shown on screen, which is what such a test checks)."""
    failed = await until_idle(app, pilot)
    for _ in range(rounds):
        await pilot.pause()
    if failed and not failures:
        raise failed[0]


async def press_confirm(app: App[Any], pilot: Pilot[Any]) -> None:
    """A question's action button pressed from the keyboard, as a person does: Enter where it
    has the focus (an action that adds or saves), else Tab to it first (Cancel focused)."""
    keys = ("tab", "enter") if getattr(app.screen, "destructive", True) else ("enter",)
    await pilot.press(*keys)
