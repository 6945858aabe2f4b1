"""Two settings of the Python interpreter for an interactive app, measured on Enter (bench/).

**Frames reach the terminal at once.** Textual hands each frame to a writer thread. When the
main thread goes on working after a frame (a screen's reads starting, say), the writer waits
for the interpreter's lock, by default up to 5 ms. With a 1 ms switch interval, a detail
screen's frame reached the terminal about 3 ms sooner (Enter: 25 to 27 → 23 ms).

**The cycle collector stays out of the keystrokes.** A full collection walks every object the
process holds: once Textual, httpx, pydantic and flagtui are imported, about 45 to 60 ms, paid
by whichever key triggered it (about one Enter in ten). Once the profile is open, what exists
is almost all long-lived (modules, classes, the client), so it is frozen, and later
collections walk only what was made since (about 17 ms after a dozen Enters). What the first
frame's screen leaves behind when the remembered area replaces it is frozen too: a few
widgets, once per process (a profile switch freezes nothing more)."""

from __future__ import annotations

import gc
import sys

SWITCH_INTERVAL_S = 0.001


def prompt_frames() -> None:
    sys.setswitchinterval(SWITCH_INTERVAL_S)


def freeze_long_lived() -> None:
    """Once per process: a test session runs many apps, each of which would freeze the
    garbage the earlier ones left."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
