"""FlagtuiApp: the profile it shows, opened at the start or switched to without leaving, the
app's own keys, SIGHUP, and the command palette's commands (Textual's system commands: every
area, every action of the current screen; the registry's actions, see palette.py). Its areas
are `modes.py`'s, its connection to the server `connection.py`'s.

A start opens the profile once its first frame is out: that frame is the row cache's rows (a
returning start, `start_hint.py`) or the header and "connecting…"; keys typed meanwhile wait
for the profile (`type_ahead.py`)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import App, SystemCommand
from textual.screen import Screen

from flagtui.config import ConfigError, Interrupted, load_config, stop_token_commands
from flagtui.profile import Profile
from flagtui.tui.app.connection import ServerConnection
from flagtui.tui.app.modes import CONNECT_MODE
from flagtui.tui.areas import DEFAULT_AREA, FEATURES
from flagtui.tui.context import FlagtuiContext
from flagtui.tui.format import Clock, Ink
from flagtui.tui.global_keys import APP_BINDINGS
from flagtui.tui.hang_up import leave_on_signals, stop_listening
from flagtui.tui.interpreter import freeze_long_lived
from flagtui.tui.opening import Opened, Opener
from flagtui.tui.palette import ActionsProvider, PaletteHost, system_commands
from flagtui.tui.row_cache import RowCache, default_cache_dir
from flagtui.tui.screens.base import IOScreenMixin
from flagtui.tui.screens.connect import ConnectScreen
from flagtui.tui.screens.features_layout import COLUMNS, CachedFeaturesScreen
from flagtui.tui.screens.opening_frame import OpeningScreen
from flagtui.tui.state import UiState, default_state_path
from flagtui.tui.type_ahead import TypeAhead
from flagtui.tui.widgets.focus import takes_text
from flagtui.tui.widgets.help import HelpScreen
from flagtui.tui.widgets.profile_picker import ProfilePickerModal

# Nothing above imports the client, pydantic or the areas: a start draws its first frame (the
# cached rows) with these alone, and imports the rest once it is on screen (see `on_ready`).
if TYPE_CHECKING:
    from flagtui.api import AdminClient


class FlagtuiApp(ServerConnection):
    CSS_PATH = "../flagtui.tcss"
    TITLE = "flagtui"
    COMMANDS = App.COMMANDS | {ActionsProvider}
    BINDINGS = APP_BINDINGS
    client: AdminClient
    """Set from the start, or by the opener once the first frame is drawn (see `opened`)."""

    def __init__(
        self,
        client: AdminClient | None,
        profile: Profile,
        *,
        opener: Opener | None = None,
        cached: bool = True,
        state_path: Path | None = None,
        cache_dir: Path | None = None,
    ) -> None:
        """With no `client`, `opener` makes it once the first frame is on screen: `profile` is
        then the one the start expects (`start_hint.py`), and that frame shows its cached rows;
        with `cached` False, what the start names (`provisional`), and "connecting…".
        `cache_dir`: where the last rows are kept (by default beside `state_path`)."""
        super().__init__()
        Ink.plain = self.no_color or self.native_ansi_color  # then as the theme changes
        self.profile = profile
        self._opener, self._cached_first = opener, cached
        self.opened = client is not None
        if client is not None:
            self.client = client
        self.ui_state = UiState(state_path or default_state_path(), profile.name)
        rows_dir = cache_dir or (state_path.parent / "rows" if state_path else default_cache_dir())
        self.row_cache = RowCache(rows_dir, profile.name, profile.url)
        self._type_ahead = TypeAhead()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            if self._type_ahead.kept(event):  # before the profile is open: sent on once it is
                return
            if not event.is_forwarded:
                self._type_ahead.sent(event, self.focused or self.screen)
            elif self._type_ahead.reroute(event, self.focused):
                return
        await super().on_event(event)

    @property
    def read_only(self) -> bool:
        return self.profile.read_only or (self.opened and self.client.read_only)

    @property
    def enterprise(self) -> bool:
        return self.opened and self.client.server is not None and self.client.server.enterprise

    def get_default_screen(self) -> Screen[None]:
        """Left at once for the remembered area; before the client exists, its cached rows, or
        the header and "connecting…"."""
        if self.opened:
            return Screen()
        area, project = self.ui_state.get("area") or DEFAULT_AREA, self.project
        if self._cached_first and area == FEATURES and project:
            cached = self.row_cache.load(FEATURES, len(COLUMNS), project)
            if cached is not None:
                return CachedFeaturesScreen(cached.rows, cached.saved_at)
        return OpeningScreen(area)

    def on_mount(self) -> None:
        self.set_class(self.profile.production, "-production")
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        leave_on_signals(partial(self.exit, return_code=0), watch_terminal=not self.is_headless)
        if not self.opened:  # opened once the first frame is out (`on_ready`)
            self._type_ahead.hold()  # keys typed meanwhile wait for the profile (`_opened`)
            return
        self.client.health.subscribe(self._health_changed)
        self._start()

    def on_ready(self) -> None:  # Textual's, as soon as the first frame is out
        if not self.opened:
            self._opened(self._opener() if self._opener else None)

    def _opened(self, opened: Opened | None) -> None:
        if opened is None:  # the config or the token failed: said once the terminal is back
            return self.exit(return_code=2)
        self._use(opened.client, opened.profile)
        self.set_keymap(opened.keymap)
        self._start()
        self._type_ahead.release(self)

    def _use(self, client: AdminClient, profile: Profile) -> None:
        """This profile's client, remembered state and row cache from now on."""
        self.client, self.profile, self.opened = client, profile, True
        self.ui_state = UiState(self.ui_state.path, profile.name)
        self.row_cache = RowCache(self.row_cache.path.parent, profile.name, client.base_url)
        self.set_class(profile.production, "-production")
        client.health.subscribe(self._health_changed)

    def _start(self) -> None:
        self.action_connect()  # the remembered area is built, and reads, while ui-config is read
        self.switch_area(self.ui_state.get("area") or DEFAULT_AREA)
        freeze_long_lived()  # the modules, the client: not walked by later collections

    def on_unmount(self) -> None:
        stop_token_commands()  # a profile switch's, still running: it must not outlive us
        if self.opened:
            self.client.health.unsubscribe(self._health_changed)
        self._failures.close()
        stop_listening()

    def _theme_changed(self, _: object) -> None:
        """An ansi theme draws alarms without colour (format.Ink): the open screens redraw."""
        Ink.plain = self.no_color or self.native_ansi_color
        for screen in self.screen_stack:
            if isinstance(screen, IOScreenMixin):
                screen.restyle()

    def action_switch_profile(self) -> None:
        """The config's profiles, read again now (it may have changed since the start)."""
        if isinstance(self.screen, ProfilePickerModal):
            return
        try:
            profiles = sorted(load_config().profiles.values(), key=lambda p: p.name)
        except ConfigError as exc:
            self.notify(str(exc), title="Cannot switch profile", severity="error")
            return
        self.push_screen(ProfilePickerModal(profiles, self.profile.name), self._profile_picked)

    def _profile_picked(self, name: str | None) -> None:
        if name is not None and name != self.profile.name:
            self._switch_profile(name)

    @work(exclusive=True, group="switch-profile", exit_on_error=False)
    async def _switch_profile(self, name: str) -> None:
        """A failing config or token changes nothing; a failing server: the connect screen."""
        # Here, not at the top: it loads httpx and pydantic
        from flagtui.tui.profile_switch import open_profile

        try:
            profile, client = await open_profile(self, name)
        except (ConfigError, Interrupted) as exc:
            self.notify(f"Could not switch to profile {name}: {exc}", severity="error")
            return
        old = self.client
        old.health.unsubscribe(self._health_changed)
        self._use(client, profile)
        self.area = self.ui_state.get("area") or DEFAULT_AREA
        self.connection_note = ""
        # Nothing of the old profile stays: its pushed screens go, every area is built anew.
        if self.current_mode != CONNECT_MODE:
            await self.switch_mode(CONNECT_MODE)
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        self._fresh_areas()
        if isinstance(self.screen, ConnectScreen):
            self.screen.show_connecting()
        self.action_connect()
        await old.aclose()

    def action_toggle_utc(self) -> None:
        """Every time in UTC, or local: open screens redraw now, others when shown again."""
        Clock.utc = not Clock.utc
        for screen in self.screen_stack:
            if isinstance(screen, IOScreenMixin):
                screen.times_changed()
        self.notify("Times in UTC" if Clock.utc else "Times in local time", timeout=3)

    def get_system_commands(self, screen: Screen[object]) -> Iterator[SystemCommand]:
        """Textual's own, then a jump to every area, then every action the screen offers."""
        yield from super().get_system_commands(screen)
        yield from system_commands(self, screen)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.opened:  # the first frame's cached rows: nothing works yet but leaving
            return action == "quit"
        if action == "leave_field":  # else Escape goes on to whatever else it does
            return takes_text(self.focused)
        return True

    def action_leave_field(self) -> None:
        """Escape moves to the screen's table (else to nothing): the next key is a key again."""
        tables = self.screen.query("ResourceTable")  # by name: no import of the widget here
        if tables:
            tables.first().focus()
        else:
            self.screen.set_focus(None)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))


def _offers_what_is_asked(app: FlagtuiApp) -> tuple[FlagtuiContext, PaletteHost]:
    """Never called: mypy checks that the app offers what screens, widgets and actions ask."""
    return app, app
