"""The base of every area screen: header, footer, read-only gate and the ONE error handler.

Workers are methods of screens (`@work(exclusive=True, group=..., exit_on_error=False)`);
when one fails, `on_worker_state_changed` hands the exception to `io_failed`, which notifies
the error's sentence. Screens that also show the error inline override `io_failed` and call
`super()`.

A read worker (marked `@read`, see `flagtui/tui/rerunnable_reads.py`) that the server
rate-limits (429) is run again by the handler itself after `Retry-After` seconds (the client
caps it at a few minutes); the screen says when, and its reload key retries at once: the timer
is cancelled when the screen is left or another worker of the group starts. Writes are never re-run.

Any other failed read is said in the area's status line (`READ_STATUS`), replacing whatever
"loading…" it showed: "Read failed: …; r: try again" when nothing was read yet, or "rows from
14:03 CET, 2 min ago; refresh failed: …" when the rows on screen come from an earlier read. A
read the server's version cannot serve (`NotSupported`) says only what it needs, with no toast.

A write whose outcome is unknown (`OutcomeUnknown`: sent, then no answer proving it) says how to
check; `write_in_flight` lets a screen refuse a second write while one is under way.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, ClassVar, cast

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from flagtui.api.errors import (
    FlagtuiError,
    NotConnected,
    NotSupported,
    OutcomeUnknown,
    RateLimited,
    ReadOnlyProfile,
)
from flagtui.archive.errors import ArchiveTooNew, ArchiveUnavailable
from flagtui.tui.context import FlagtuiContext
from flagtui.tui.files import take_notices
from flagtui.tui.format import Clock, age_note, safe, when
from flagtui.tui.rerunnable_reads import rerun_of
from flagtui.tui.widgets.header import FlagtuiHeader
from flagtui.tui.widgets.keybar import KeyBar
from flagtui.tui.widgets.table import ResourceTable, Row


def describe_error(error: BaseException) -> str:
    """The sentence shown to a person; never a traceback."""
    if isinstance(error, ReadOnlyProfile):
        return f"{read_only_refusal(error.profile)}: {error.action} was not sent."
    if isinstance(error, FlagtuiError | ArchiveTooNew | ArchiveUnavailable):
        return str(error)  # each says what happened and what to do
    return f"Unexpected {type(error).__name__}: {error}"


def read_only_refusal(profile: str) -> str:
    return f"profile {profile} is read-only"


MAX_RATE_LIMIT_RETRIES = 5


def is_read(worker: Worker[Any], error: RateLimited) -> bool:
    """Only a worker marked as a read and whose refused request was a GET is re-run."""
    return error.method == "GET" and is_read_worker(worker)


def is_read_worker(worker: Worker[Any]) -> bool:
    return rerun_of(worker) is not None


class IOScreenMixin:
    """Shared by screens and modals: worker failures, read-only gating, typed app access."""

    WRITE_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    """Actions that change the server: hidden and refused on read-only profiles."""
    READ_STATUS: ClassVar[str] = ".status-line"
    """The Static that says how the area's reads went (the first one matching)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._retry_timers: dict[str, Timer] = {}
        self._retry_counts: dict[str, int] = {}
        self._read_at: dict[str, datetime] = {}
        self._cached_at: dict[str, datetime] = {}  # rows shown from the row cache, saved then
        self._unsupported: set[str] = set()  # groups whose read the server's version lacks
        self._times_utc = Clock.utc

    @property
    def flagtui(self) -> FlagtuiContext:
        return cast("FlagtuiContext", cast(Screen[Any], self).app)

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
                and binding.action.partition("(")[0] in self.WRITE_ACTIONS  # `bulk('mark')`
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

    def restyle(self) -> None:
        """Alarms are drawn another way (format.Ink, as the theme changed): drawn again from
        what the screen holds, as times are."""
        self.redraw_times()

    def on_screen_resume(self) -> None:
        if self._times_utc != Clock.utc:
            self.times_changed()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker, group = event.worker, event.worker.group
        if event.state is WorkerState.PENDING:
            self.cancel_retry(group)
        elif event.state is WorkerState.SUCCESS:
            self._retry_counts.pop(group, None)
            if is_read_worker(worker):
                self._read_at[group] = datetime.now(UTC)
                line = self.read_status_line()
                if line is not None:
                    line.remove_class("-failed")
        elif event.state is WorkerState.ERROR and worker.error is not None:
            error = worker.error
            limited = isinstance(error, RateLimited) and is_read(worker, error)
            if limited and self.retry_later(worker, cast(RateLimited, error)):
                return
            if isinstance(error, NotConnected):  # said once, on the connect screen
                self.flagtui.show_connect_failure(describe_error(error.reason))
                return
            if is_read_worker(worker):
                self.show_read_failure(group, error)
            self.io_failed(group, error)

    def on_screen_suspend(self) -> None:
        for group in list(self._retry_timers):
            self.cancel_retry(group)

    def on_unmount(self) -> None:
        self.on_screen_suspend()

    def retry_later(self, worker: Worker[Any], error: RateLimited) -> bool:
        """Run the same read again after the server's Retry-After; False once retries ran out."""
        again = rerun_of(worker)
        if again is None:  # not a read: never re-run
            return False
        tries = self._retry_counts.get(worker.group, 0) + 1
        if tries > MAX_RATE_LIMIT_RETRIES:
            self._retry_counts.pop(worker.group, None)
            return False
        self._retry_counts[worker.group] = tries
        screen = cast(Screen[Any], self)

        def rerun() -> None:
            self._retry_timers.pop(worker.group, None)
            again()

        self.cancel_retry(worker.group)
        self._retry_timers[worker.group] = screen.set_timer(error.retry_after, rerun)
        due = datetime.now(UTC).timestamp() + error.retry_after + 59  # HH:MM, rounded up
        at = when(datetime.fromtimestamp(due, UTC))
        message = f"Rate limited by the server: retrying in {error.retry_after:g} s (by {at})"
        key = self.reload_key()
        if key:
            message += f"; {key} retries now"
        self.show_retry(worker.group, message)
        self.flagtui.notify(f"{message}.\n{error}", title="Rate limited", severity="warning")
        return True

    def write_in_flight(self, group: str) -> bool:
        """True while this screen's worker of `group` is pending or running: a write already
        sent is never sent again by a second key press."""
        return any(
            worker.node is self
            and worker.group == group
            and worker.state in (WorkerState.PENDING, WorkerState.RUNNING)
            for worker in cast(Screen[Any], self).app.workers
        )

    def still_sending(self, group: str) -> bool:
        """True (and the screen says so) while a write of `group` is in flight: the caller then
        sends nothing."""
        if not self.write_in_flight(group):
            return False
        self.flagtui.notify(
            "sending… the last change is still waiting for its answer: not sent again",
            severity="warning",
            timeout=4,
        )
        return True

    def reload_key(self) -> str | None:
        """The key of the screen's reload action, as the key bar shows it."""
        for binding in getattr(self, "BINDINGS", []):
            if isinstance(binding, Binding) and binding.action == "reload":
                return cast(Screen[Any], self).app.get_key_display(binding)
        return None

    def cancel_retry(self, group: str) -> None:
        timer = self._retry_timers.pop(group, None)
        if timer is not None:
            timer.stop()

    def show_retry(self, group: str, message: str) -> None:
        """Shown in the screen's status line, if it has one (the notification says it anyway)."""
        line = self.read_status_line()
        if line is not None:
            line.update(safe(self.rows_age(group, message)))

    def read_status_line(self) -> Static | None:
        for line in cast(Screen[Any], self).query(self.READ_STATUS).results(Static):
            return line
        return None

    def rows_age(self, group: str, then: str, shown: str = "rows") -> str:
        """`then` after the age of what is shown, if an earlier read of the group succeeded
        (or the rows shown are the cached ones of an earlier run)."""
        read_at = self._read_at.get(group)
        if read_at is None and group in self._cached_at:
            read_at, shown = self._cached_at[group], f"cached {shown}"
        if read_at is None:
            return then
        return age_note(shown, read_at, then)

    def read_failure_text(self, group: str, error: BaseException, shown: str = "rows") -> str:
        """What a failed read means for what is on screen."""
        if isinstance(error, NotSupported):  # no retry helps: what the server needs, alone
            return str(error)
        said = describe_error(error)
        if group in self._read_at or group in self._cached_at:
            return self.rows_age(group, f"refresh failed: {said}", shown)
        key = self.reload_key()
        return f"Read failed: {said}" + (f"; {key}: try again" if key else "")

    def detail_after_failure(self, group: str, error: BaseException, shown: Text | None) -> Text:
        """A detail view's text after a failed read: the failure, then what it showed before
        (only if it came from an earlier read)."""
        note = safe(self.read_failure_text(group, error, shown="details"), style="red")
        return note if shown is None else Text.assemble(note, "\n\n", shown)

    def show_read_failure(self, group: str, error: BaseException) -> None:
        """A read of the group failed: say so in the status line, never leave "loading…"."""
        line = self.read_status_line()
        if line is not None:
            line.update(safe(self.read_failure_text(group, error)))
            line.set_class(not isinstance(error, NotSupported), "-failed")
            if isinstance(error, NotSupported):
                self._unsupported.add(group)

    def io_failed(self, group: str, error: BaseException) -> None:
        if isinstance(error, OutcomeUnknown):
            key = self.reload_key()
            check = f"press {key} to " if key else ""
            self.flagtui.notify(
                f"{describe_error(error)}.\nTo check, {check}read the current state before"
                " trying again.",
                title="Outcome unknown",
                severity="error",
            )
            return
        if isinstance(error, NotSupported) and group in self._unsupported:
            return  # the status line says it, as the Enterprise areas do
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

    def show_cached_rows(self, group: str, table: ResourceTable[Any], scope: str) -> str | None:
        """Put in `table` the rows this area showed for `scope` at the end of an earlier run
        (see `row_cache`), until the read of `group` brings fresh ones; returns the status
        line's text saying they are cached, and how old, or None when none are."""
        cached = self.flagtui.row_cache.load(self.AREA, len(table.specs), scope)
        for notice in take_notices():  # a file too large to read (see tui/files.py)
            self.app.notify(notice, severity="warning", timeout=10)
        if cached is None:
            return None
        table.set_rows(cached.rows)
        self._cached_at[group] = cached.saved_at
        return self.rows_age(group, "refreshing…")

    def showing_cached(self, group: str) -> bool:
        return group in self._cached_at

    def rows_read(self, group: str, scope: str, rows: Sequence[Row], *, keep: bool) -> None:
        """Fresh rows of `group` are shown instead of the cached ones; `keep`: they are what
        the next start shows first (the first page, unfiltered), so they are cached."""
        self._cached_at.pop(group, None)
        if keep:  # once they are drawn: a file write must not delay them
            cast(Screen[Any], self).call_after_refresh(
                self.flagtui.row_cache.save, self.AREA, scope, rows
            )


class FlagtuiModal(IOScreenMixin, ModalScreen[Any]):
    """A modal dialog that may run workers of its own."""
