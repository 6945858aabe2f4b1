"""Keys typed ahead follow the field they were typed for.

Textual posts each key to the widget focused when the key arrives, and runs non-priority
bindings when the key bubbles back to the app. Keys of one burst (a paste, a fast typist over
SSH) are all posted before the first one has run, so after `s` opened a search box the name's
letters still went to the table behind it, and a `7` in the name switched to Users. A key that
comes back to the app after the focus moved into a text field is sent on to that field.

Until a start has opened its profile (after its first frame), keys are kept, not run (nothing
but leaving works yet), and sent on in order once it is open."""

from __future__ import annotations

from collections import OrderedDict

from textual import events
from textual.message_pump import MessagePump
from textual.widget import Widget

from flagtui.tui.widgets.focus import takes_text

KEPT = 64  # keys in flight at once; a key a binding used never comes back


class TypeAhead:
    def __init__(self) -> None:
        self._sent_to: OrderedDict[int, tuple[events.Key, Widget]] = OrderedDict()
        self._held: list[events.Key] | None = None

    def hold(self) -> None:
        self._held = []

    def kept(self, key: events.Key) -> bool:
        """Whether `key` is kept for `release` (keys are held)."""
        if self._held is not None:
            self._held.append(key)
        return self._held is not None

    def release(self, app: MessagePump) -> None:
        held, self._held = self._held or [], None
        for key in held:
            app.post_message(key)

    def sent(self, key: events.Key, target: Widget) -> None:
        """`key` arrived from the terminal while `target` had the focus."""
        self._sent_to[id(key)] = (key, target)
        while len(self._sent_to) > KEPT:
            self._sent_to.popitem(last=False)

    def reroute(self, key: events.Key, focused: Widget | None) -> bool:
        """Send a key that came back unhandled on to the text field focused since; True when
        it was sent."""
        kept = self._sent_to.pop(id(key), None)
        if kept is None or kept[0] is not key or focused is None or focused is kept[1]:
            return False
        if not takes_text(focused):
            return False
        self.sent(key, focused)
        focused.post_message(key)
        return True
