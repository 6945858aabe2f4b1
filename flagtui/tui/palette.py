"""The command palette's actions: find any registered action (`actions.py`) by its title or the
words people use for it, from any area, and run it (asking for a flag first when it needs one).

Textual's system commands (see `FlagtuiApp.get_system_commands`) keep offering "Go to <area>"
and the current screen's keys; this provider adds the registry's actions next to them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from importlib import import_module
from typing import Any, Protocol, cast

from textual.app import App, SystemCommand
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.markup import escape
from textual.screen import Screen

from flagtui.tui.actions import PALETTE_ACTIONS, PaletteAction
from flagtui.tui.areas import AREAS
from flagtui.tui.context import FlagtuiContext
from flagtui.tui.format import clean

DEFAULT_PROJECT = "default"  # Unleash's own, there on every server: before a project is picked

# Offered by the palette otherwise (the registry's "Switch profile…"), or meaningless in it.
NOT_IN_PALETTE = frozenset({"app.profile", "app.leave-field"})


class PaletteHost(Protocol):
    """What running an action needs of the app besides Textual's own (`FlagtuiApp` is checked
    against it)."""

    def switch_area(self, name: str) -> Awaitable[object]: ...


def palette_entry(title: str, help_text: str, callback: Callable[[], object]) -> SystemCommand:
    """The palette parses a command's title and help as markup: both are shown as written."""
    return SystemCommand(escape(clean(title)), escape(clean(help_text)), callback)


def system_commands(app: App[Any], screen: Screen[object]) -> Iterator[SystemCommand]:
    """After Textual's own: a jump to every area, then every action the screen offers."""
    enterprise = cast("FlagtuiContext", app).enterprise
    for area in AREAS:
        title = f"Go to {area.title}"
        if area.enterprise_only and not enterprise:
            title += " (needs Enterprise)"
        switch = partial(cast(PaletteHost, app).switch_area, area.name)
        yield palette_entry(title, area.description, switch)
    for active in screen.active_bindings.values():
        binding = active.binding
        if not active.enabled or not binding.description or binding.action == "command_palette":
            continue
        if binding.id and (binding.id.startswith("area.") or binding.id in NOT_IN_PALETTE):
            continue
        run = partial(app.run_action, binding.action, active.node)
        yield palette_entry(binding.description, binding.tooltip, run)


def offered(app: FlagtuiContext) -> Iterator[tuple[PaletteAction, str]]:
    """The registry's actions this profile may run, each with the title shown for it."""
    for entry in PALETTE_ACTIONS:
        if entry.write and app.read_only:
            continue
        title = entry.title
        if entry.enterprise_only and not app.enterprise:
            title += " (needs Enterprise)"
        yield entry, title


async def perform(app: App[Any], entry: PaletteAction) -> None:
    if entry.flag is not None:
        # Here, not at the top: the detail loads the client (httpx, pydantic), which the
        # app's start does not.
        from flagtui.tui.screens.feature_detail import FeatureDetailScreen
        from flagtui.tui.screens.flag_picker import FlagPickerModal

        def picked(choice: tuple[str, str] | None) -> None:
            if choice is not None:
                project, name = choice
                app.push_screen(FeatureDetailScreen(project, name, then=entry.action))

        project = cast("FlagtuiContext", app).project
        app.push_screen(FlagPickerModal(entry.title, entry.flag, project), picked)
    elif entry.screen is not None:
        module, _, name = entry.screen.partition(":")
        view = getattr(import_module(module), name)
        app.push_screen(view(cast("FlagtuiContext", app).project or DEFAULT_PROJECT))
    elif entry.area is not None:
        await cast(PaletteHost, app).switch_area(entry.area)
        if entry.action is not None:
            await app.screen.run_action(entry.action)
    elif entry.action is not None:
        await app.run_action(entry.action)


class ActionsProvider(Provider):
    """Matches the query against each action's title and words (the best of them counts)."""

    def _run(self, entry: PaletteAction) -> Callable[[], Awaitable[None]]:
        return partial(perform, self.app, entry)

    async def discover(self) -> Hits:
        for entry, title in offered(cast("FlagtuiContext", self.app)):
            yield DiscoveryHit(title, self._run(entry), help=entry.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for entry, title in offered(cast("FlagtuiContext", self.app)):
            by_title = matcher.match(title)
            by_word = max(matcher.match(word) for word in entry.words)
            score = max(by_title, by_word)
            if score <= 0:
                continue
            score += by_title / 1000  # among equals, the entry whose title has the word first
            shown = matcher.highlight(title) if by_title >= by_word else Content(title)
            said = entry.help if by_title >= by_word else f"{entry.help} ({', '.join(entry.words)})"
            yield Hit(score, shown, self._run(entry), text=title, help=said)
