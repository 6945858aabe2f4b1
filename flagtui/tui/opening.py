"""What the app works with once a profile is open (`Opened`), and how a start that draws its
first frame before that hands the opening to the app (`Opener`, see `launch.py`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flagtui.profile import Profile

if TYPE_CHECKING:
    from flagtui.api import AdminClient


@dataclass(frozen=True)
class Opened:
    """The validated profile, its client, and the config's [keymap]."""

    client: AdminClient
    profile: Profile
    keymap: dict[str, str]


Opener = Callable[[], "Opened | None"]
"""Validates the config, reads the token and makes the client: called once the first frame is
on screen. None: it failed and keeps what to say, for when the terminal is back."""
