"""Quitting while Selects are being mounted ends the app cleanly (exit 0, no traceback).

Textual handles a Select's Mount even when the app quit in between and its parts are already
gone; Textual's own Select then asks for them and the app ends with NoMatches and exit 1. Seen
as `q` pressed in the moment the features' filters appear (`flagtui/tui/widgets/select.py`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Select as TextualSelect

import flagtui
from flagtui.tui.screens.features import FeaturesScreen
from flagtui.tui.widgets.select import Select
from testkit.pilot import settle

from .helpers import visible_text

OPTIONS = [("one", "1"), ("two", "2")]


def quit_after(app: App[object], callbacks: int) -> None:
    """`q`'s action, after `callbacks` turns of the app's queue (0: at once)."""
    if callbacks == 0:
        app.call_next(app.action_quit)
    else:
        app.call_next(quit_after, app, callbacks - 1)


class MountsThenQuits(App[None]):
    def __init__(self, select: Callable[..., TextualSelect[str]], callbacks: int) -> None:
        super().__init__()
        self.select, self.callbacks = select, callbacks

    def on_mount(self) -> None:
        self.mount(
            self.select(OPTIONS, prompt="any", compact=True),
            self.select(OPTIONS, value="2", allow_blank=False, compact=True),
        )
        quit_after(self, self.callbacks)


@pytest.mark.parametrize("callbacks", [0, 1, 2, 3])
async def test_a_select_mounted_as_the_app_quits_ends_it_cleanly(callbacks: int) -> None:
    app = MountsThenQuits(Select[str], callbacks)
    async with app.run_test():
        pass  # run_test re-raises what the app failed with
    assert app.return_code == 0


async def test_textuals_own_select_still_fails_so_ours_is_still_needed() -> None:
    """When this fails, Textual has mended it: delete flagtui/tui/widgets/select.py."""
    app = MountsThenQuits(TextualSelect[str], 0)
    with pytest.raises(Exception, match="No nodes match"):
        async with app.run_test():
            pass


@pytest.mark.parametrize("callbacks", [0, 1, 2, 3])
async def test_q_as_the_features_filters_appear_quits_with_exit_0(
    make_app, monkeypatch, callbacks: int
) -> None:
    shown: list[str] = []
    show_filters = FeaturesScreen.show_filters

    def show_then_quit(screen: FeaturesScreen) -> None:
        show_filters(screen)
        shown.append(visible_text(screen.app, "#page-status"))
        quit_after(screen.app, callbacks)

    monkeypatch.setattr(FeaturesScreen, "show_filters", show_then_quit)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
    assert app.return_code == 0
    assert len(shown) == 1 and "page 1/" in shown[0]  # quit as the filters came, rows shown


def test_every_select_of_flagtui_is_the_safe_one() -> None:
    package = Path(flagtui.__file__).parent
    direct = re.compile(r"from textual\.widgets import [^\n]*\bSelect\b(?! as TextualSelect)")
    found = [p.name for p in package.rglob("*.py") if direct.search(p.read_text())]
    assert found == []
