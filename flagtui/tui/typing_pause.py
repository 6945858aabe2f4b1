"""Search as you type, once typing pauses: the one debounce of every search field.

    @after_typing_pause("users-typing")
    def search_typed(self) -> None:
        self.search()

Each call (each key) starts an exclusive worker of the group that sleeps first, cancelling the
one before: the method runs once, when no key came for `TYPING_PAUSE_S`. A worker, not a timer,
so whoever waits for the app to be idle (a test, a pilot) waits for the search too; a screen
that must stop a pending search (a submitted field) cancels the group.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec, TypeVar

from textual import work
from textual.dom import DOMNode
from textual.worker import Worker

S = TypeVar("S", bound=DOMNode)
P = ParamSpec("P")

TYPING_PAUSE_S = 0.4
"""People type 3 to 6 keys a second: no key for 0.4 s (two missed keys) means they stopped, so
a name typed at an ordinary pace sends one search, not one per character; much longer and the
rows seem slow to follow."""


def after_typing_pause(
    group: str,
) -> Callable[[Callable[Concatenate[S, P], object]], Callable[Concatenate[S, P], Worker[None]]]:
    def debounce(
        method: Callable[Concatenate[S, P], object],
    ) -> Callable[Concatenate[S, P], Worker[None]]:
        @wraps(method)
        async def after_pause(self: S, *args: P.args, **kwargs: P.kwargs) -> None:
            await asyncio.sleep(TYPING_PAUSE_S)
            method(self, *args, **kwargs)

        return work(exclusive=True, group=group, exit_on_error=False)(after_pause)

    return debounce
