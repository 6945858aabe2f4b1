"""Command palette provider: jump to any area, or run any action of the current screen."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from flagtui.tui.format import clean, safe
from flagtui.tui.screens import AREAS

if TYPE_CHECKING:
    from flagtui.tui.app import FlagtuiApp

Command = tuple[str, Callable[[], Any], str]


class FlagtuiCommands(Provider):
    def _commands(self) -> Iterator[Command]:
        app = cast("FlagtuiApp", self.app)
        for area in AREAS:
            title = f"Go to {area.title}"
            if area.enterprise_only and not app.enterprise:
                title += " (needs Enterprise)"
            yield title, partial(app.switch_area, area.name), area.description
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if not active.enabled or not binding.description or binding.action == "command_palette":
                continue
            if binding.id and binding.id.startswith("area."):
                continue
            yield (
                binding.description,
                partial(self.app.run_action, binding.action, active.node),
                binding.tooltip,
            )

    def _shown(self) -> Iterator[Command]:
        """Titles and help as data: the palette parses both as markup (`help` always)."""
        for title, command, help_text in self._commands():
            yield clean(title), command, escape(clean(help_text))

    async def discover(self) -> Hits:
        for title, command, help_text in self._shown():
            yield DiscoveryHit(safe(title), command, text=title, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, command, help_text in self._shown():
            score = matcher.match(title)
            if score > 0:
                shown = matcher.highlight(escape(title))  # which parses markup
                yield Hit(score, shown, command, text=title, help=help_text)
