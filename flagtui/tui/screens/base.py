"""The base of every area screen: header, footer, read-only gate and the ONE error handler.

Workers are methods of screens (`@work(exclusive=True, group=..., exit_on_error=False)`);
when one fails, `on_worker_state_changed` hands the exception to `io_failed`, which notifies
the error's sentence. Screens that also show the error inline override `io_failed` and call
`super()`.

A read worker (named `load…` or `search…`, the house convention) that the server rate-limits
(429) is run again by the handler itself after `Retry-After` seconds; the timer is cancelled when
the screen is left or another worker of the group starts. Writes are never re-run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from flagtui.api.errors import FlagtuiError, NotConnected, RateLimited, ReadOnlyProfile
from flagtui.tui.format import Clock
from flagtui.tui.widgets.header import FlagtuiHeader
from flagtui.tui.widgets.keybar import KeyBar

if TYPE_CHECKING:
    from flagtui.tui.app import FlagtuiApp


def describe_error(error: BaseException) -> str:
    """The sentence shown to a person; never a traceback."""
    if isinstance(error, ReadOnlyProfile):
        return f"{read_only_refusal(error.profile)}: {error.action} was not sent."
    if isinstance(error, FlagtuiError):
        return str(error)
    return f"Unexpected {type(error).__name__}: {error}"


def read_only_refusal(profile: str) -> str:
    return f"profile {profile} is read-only"


READ_WORKER_PREFIXES = ("load", "search")
MAX_RATE_LIMIT_RETRIES = 5


def is_read(worker: Worker[Any], error: RateLimited) -> bool:
    """Only a worker that reads (by name) and whose refused request was a GET is re-run."""
    return error.method == "GET" and worker.name.startswith(READ_WORKER_PREFIXES)


class IOScreenMixin:
    """Shared by screens and modals: worker failures, read-only gating, typed app access."""

    WRITE_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    """Actions that change the server: hidden and refused on read-only profiles."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._retry_timers: dict[str, Timer] = {}
        self._retry_counts: dict[str, int] = {}
        self._times_utc = Clock.utc

    @property
    def flagtui(self) -> FlagtuiApp:
        return cast("FlagtuiApp", cast(Screen[Any], self).app)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action in self.WRITE_ACTIONS and self.flagtui.read_only)

    def on_key(self, event: events.Key) -> None:
        """A write key pressed on a read-only profile (where it is hidden) says why nothing
        happens, instead of doing nothing."""
        if not (self.WRITE_ACTIONS and self.flagtui.read_only):
            return
        for binding in getattr(type(self), "BINDINGS", []):
            if (
                isinstance(binding, Binding)
                and binding.action in self.WRITE_ACTIONS
                and event.key in binding.key.split(",")
            ):
                self.flagtui.notify(
                    f"{read_only_refusal(self.flagtui.profile.name)}: "
                    f"{binding.description or binding.action} is not offered.",
                    severity="warning",
                    timeout=4,
                )
                return

    def times_changed(self) -> None:
        """Local time or UTC was switched (format.Clock): redraw the times shown."""
        self._times_utc = Clock.utc
        self.redraw_times()

    def redraw_times(self) -> None:
        """Screens that show times draw them again from what they hold (no request)."""

    def on_screen_resume(self) -> None:
        if self._times_utc != Clock.utc:
            self.times_changed()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker, group = event.worker, event.worker.group
        if event.state is WorkerState.PENDING:
            self.cancel_retry(group)
        elif event.state is WorkerState.SUCCESS:
            self._retry_counts.pop(group, None)
        elif event.state is WorkerState.ERROR and worker.error is not None:
            error = worker.error
            limited = isinstance(error, RateLimited) and is_read(worker, error)
            if limited and self.retry_later(worker, cast(RateLimited, error)):
                return
            if isinstance(error, NotConnected):  # said once, on the connect screen
                self.flagtui.show_connect_failure(describe_error(error.reason))
                return
            self.io_failed(group, error)

    def on_screen_suspend(self) -> None:
        for group in list(self._retry_timers):
            self.cancel_retry(group)

    def on_unmount(self) -> None:
        self.on_screen_suspend()

    def retry_later(self, worker: Worker[Any], error: RateLimited) -> bool:
        """Run the same read again after the server's Retry-After; False once retries ran out."""
        tries = self._retry_counts.get(worker.group, 0) + 1
        if tries > MAX_RATE_LIMIT_RETRIES:
            self._retry_counts.pop(worker.group, None)
            return False
        self._retry_counts[worker.group] = tries
        screen = cast(Screen[Any], self)

        def rerun() -> None:
            self._retry_timers.pop(worker.group, None)
            screen.run_worker(
                worker._work,
                name=worker.name,
                group=worker.group,
                description=worker.description,
                exclusive=True,
                exit_on_error=False,
            )

        self.cancel_retry(worker.group)
        self._retry_timers[worker.group] = screen.set_timer(error.retry_after, rerun)
        message = f"Rate limited by the server: retrying in {error.retry_after:g} s"
        self.show_retry(worker.group, message)
        self.flagtui.notify(f"{message}.\n{error}", title="Rate limited", severity="warning")
        return True

    def cancel_retry(self, group: str) -> None:
        timer = self._retry_timers.pop(group, None)
        if timer is not None:
            timer.stop()

    def show_retry(self, group: str, message: str) -> None:
        """Shown in the screen's status line, if it has one (the notification says it anyway)."""
        lines = cast(Screen[Any], self).query(".status-line").results(Static)
        for line in lines:
            line.update(message)
            break

    def io_failed(self, group: str, error: BaseException) -> None:
        self.flagtui.notify(describe_error(error), title="Request failed", severity="error")


class AreaScreen(IOScreenMixin, Screen[None]):
    """A full screen of one area (or a view inside it, like a feature's detail)."""

    AREA: ClassVar[str] = ""

    def compose(self) -> ComposeResult:
        yield FlagtuiHeader(area=self.AREA)
        yield from self.compose_body()
        yield KeyBar()

    def compose_body(self) -> ComposeResult:
        yield from ()


class FlagtuiModal(IOScreenMixin, ModalScreen[Any]):
    """A modal dialog that may run workers of its own."""
