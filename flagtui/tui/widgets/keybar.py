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

Hint = tuple[str, str, str, bool, str]  # key, key as shown, description, enabled, binding id
PALETTE = "palette"
# When the bar is narrower than every key, these give way first, in this order: the palette
# (ctrl+p works on every screen), then keys a screen offers beside its main ones (`?` lists
# every key of the screen). Help, Quit, Back and the screen's main keys stay; what still does
# not fit is cut at the end.
GIVE_WAY = (
    PALETTE,
    "features.create", "features.archived",  # before the bulk key: marks need it at hand
    "events.types", "events.search",
    "failures.grouped", "failures.follow",
    "detail.parent", "detail.tags",
    "detail.strategy-down", "detail.strategy-up", "detail.remove-strategy",
    "detail.enable-strategy", "detail.variants", "detail.edit-strategy", "detail.add-strategy",
    "detail.events", "detail.disable-strategy", "detail.roll-back", "detail.uncomplete",
)  # fmt: skip


def hints_of(screen: Screen[Any]) -> list[Hint]:
    """The shown bindings of the focused chain, one per action (first key wins), like Footer."""
    active = screen.active_bindings  # computed on each access: walks the focus chain
    hints: dict[str, Hint] = {}
    for _node, binding, enabled, _tooltip in active.values():
        if binding.show and binding.action not in hints:
            display = screen.app.get_key_display(binding)
            hints[binding.action] = (binding.key, display, binding.description, enabled,
                                     binding.id or "")  # fmt: skip
    palette = active.get(screen.app.COMMAND_PALETTE_BINDING)
    if screen.app.ENABLE_COMMAND_PALETTE and palette is not None:
        binding = palette[1]
        hints.setdefault(binding.action, (binding.key, "^p", "palette", palette[2], PALETTE))
    return list(hints.values())


def cells(hint: Hint) -> int:
    """The hint's width on the bar: ` key ` then `description `."""
    return len(hint[1]) + len(hint[2]) + 3


def fitted(hints: list[Hint], width: int) -> list[Hint]:
    """The hints, those of GIVE_WAY left out (in its order) until the rest fit `width`."""
    if width <= 0:
        return hints
    kept = list(hints)
    for gives_way in GIVE_WAY:
        if sum(map(cells, kept)) <= width:
            break
        kept = [hint for hint in kept if hint[4] != gives_way]
    return kept


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
        self._due = False  # a redraw is asked for after the next refresh

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        if self.size.width:  # else its first Resize draws it, its width known
            self._show()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen: Screen[Any]) -> None:
        # Once however often they change before the next refresh: a screen pushed signals a
        # few times (focus, mount, the server known), and each read walks the focus chain.
        if not self._due:
            self._due = True
            self.call_after_refresh(self._show_due)

    def _show_due(self) -> None:
        self._due = False
        self._show()

    def on_resize(self) -> None:
        self._hints = []  # another width may fit other keys
        self._show()

    def _show(self) -> None:
        if not self.is_attached:
            return
        hints = fitted(hints_of(self.screen), self.size.width)
        if hints == self._hints:
            return
        self._hints = hints
        parts: list[Content] = []
        self._spans = []
        x = 0
        for key, display, description, enabled, _id in hints:
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
