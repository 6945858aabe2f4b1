"""The marker for reads that may be run again, and how to run a marked read again.

`@read` goes under `@work` on a worker method that only reads (its requests are GETs):

    @work(exclusive=True, group="types", exit_on_error=False)
    @read
    async def load(self) -> None: ...

A marked worker, when the server rate-limits it (429), is run again after Retry-After, with the
arguments it was first given, by calling the screen's method again (a new worker of the same
group): see `screens/base.py`. Its success and failure are also what a screen says about its
rows (read at, read failed). Writes are never marked: they are never re-run.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from functools import partial, wraps
from typing import Any, Concatenate, ParamSpec, TypeVar
from weakref import WeakKeyDictionary

from textual.worker import Worker, get_current_worker

T = TypeVar("T")
S = TypeVar("S")
P = ParamSpec("P")

_reruns: WeakKeyDictionary[Worker[Any], Callable[[], object]] = WeakKeyDictionary()


def read(
    method: Callable[Concatenate[S, P], Coroutine[Any, Any, T]],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, T]]:
    """Marks a worker method as a read that may be run again (see the module's docstring)."""

    @wraps(method)
    async def reading(self: S, *args: P.args, **kwargs: P.kwargs) -> T:
        again = partial(getattr(self, method.__name__), *args, **kwargs)
        _reruns[get_current_worker()] = again
        return await method(self, *args, **kwargs)

    return reading


def rerun_of(worker: Worker[Any]) -> Callable[[], object] | None:
    """How to run a marked read again (None for any other worker)."""
    return _reruns.get(worker)
