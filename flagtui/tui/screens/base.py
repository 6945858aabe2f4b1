"""The base of every area screen: header, footer, read-only gate and the ONE error handler.

Workers are methods of screens (`@work(exclusive=True, group=..., exit_on_error=False)`);
when one fails, `on_worker_state_changed` hands the exception to `io_failed`, which notifies
the error's sentence. Screens that also show the error inline override `io_failed` and call
`super()`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual.app import ComposeResult
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer
from textual.worker import Worker, WorkerState

from flagtui.api.errors import FlagtuiError
from flagtui.tui.widgets.header import FlagtuiHeader

if TYPE_CHECKING:
    from flagtui.tui.app import FlagtuiApp


def describe_error(error: BaseException) -> str:
    """The sentence shown to a person; never a traceback."""
    if isinstance(error, FlagtuiError):
        return str(error)
    return f"Unexpected {type(error).__name__}: {error}"


class IOScreenMixin:
    """Shared by screens and modals: worker failures, read-only gating, typed app access."""

    WRITE_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    """Actions that change the server: hidden and refused on read-only profiles."""

    @property
    def flagtui(self) -> FlagtuiApp:
        return cast("FlagtuiApp", cast(Screen[Any], self).app)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action in self.WRITE_ACTIONS and self.flagtui.read_only)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            self.io_failed(event.worker.group, event.worker.error)

    def io_failed(self, group: str, error: BaseException) -> None:
        self.flagtui.notify(describe_error(error), title="Request failed", severity="error")


class AreaScreen(IOScreenMixin, Screen[None]):
    """A full screen of one area (or a view inside it, like a feature's detail)."""

    AREA: ClassVar[str] = ""

    def compose(self) -> ComposeResult:
        yield FlagtuiHeader(area=self.AREA)
        yield from self.compose_body()
        yield Footer()

    def compose_body(self) -> ComposeResult:
        yield from ()


class FlagtuiModal(IOScreenMixin, ModalScreen[Any]):
    """A modal dialog that may run workers of its own."""
