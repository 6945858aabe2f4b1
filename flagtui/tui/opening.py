"""What the app works with once a profile is open (`Opened`), and how a start that draws its
first frame before that hands the opening to the app (`Opener`, see `launch.py`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.profile import Profile


@dataclass(frozen=True)
class Opened:
    """The validated profile, its client, and the config's [keymap]."""

    client: AdminClient
    profile: Profile
    keymap: dict[str, str]


@dataclass(frozen=True)
class Pending:
    """The profile is chosen and its token comes from a command: `note` (that it runs) is shown
    first, then `resume` runs it and makes the client (None: it failed, or was stopped)."""

    note: str
    resume: Callable[[], Opened | None]


Opener = Callable[[], "Opened | Pending | None"]
"""Validates the config, reads the token and makes the client: called once the first frame is
on screen. None: it failed and keeps what to say, for when the terminal is back."""
