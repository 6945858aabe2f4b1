"""The footer of every screen: its keys on one line, ` q Quit  ? Help  enter Open …  ^p palette`.

Textual's Footer mounts one widget per key, and mounts them all again whenever the bindings
change (every focus change, every screen switch); that was about 40 ms of flagtui's start and
some of every focus change. This is one Static, updated only when its text changes. Clicking a
key presses it, as in Textual's Footer.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

Hint = tuple[str, str, str, bool]  # key, key as shown, description, enabled


def hints_of(screen: Screen[Any]) -> list[Hint]:
    """The shown bindings of the focused chain, one per action (first key wins), like Footer."""
    active = screen.active_bindings  # computed on each access: walks the focus chain
    hints: dict[str, Hint] = {}
    for _node, binding, enabled, _tooltip in active.values():
        if binding.show and binding.action not in hints:
            display = screen.app.get_key_display(binding)
            hints[binding.action] = (binding.key, display, binding.description, enabled)
    palette = active.get(screen.app.COMMAND_PALETTE_BINDING)
    if screen.app.ENABLE_COMMAND_PALETTE and palette is not None:
        binding = palette[1]
        hints.setdefault(binding.action, (binding.key, "^p", "palette", palette[2]))
    return list(hints.values())


class KeyBar(Static):
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        width: 1fr;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        color: $footer-foreground;
        background: $footer-background;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self._hints: list[Hint] = []
        self._spans: list[tuple[int, int, str]] = []  # x from, x to, key

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._show()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen: Screen[Any]) -> None:
        self.call_after_refresh(self._show)

    def _show(self) -> None:
        if not self.is_attached:
            return
        hints = hints_of(self.screen)
        if hints == self._hints:
            return
        self._hints = hints
        parts: list[Content] = []
        self._spans = []
        x = 0
        for key, display, description, enabled in hints:
            part = Content.assemble(
                (f" {display} ", "bold $footer-key-foreground on $footer-key-background"),
                (f"{description} ", "$footer-description-foreground"),
            )
            if not enabled:
                part = part.stylize("dim")
            parts.append(part)
            self._spans.append((x, x + part.cell_length, key))
            x += part.cell_length
        self.update(Content("").join(parts))

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
