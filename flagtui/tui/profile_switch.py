"""Opening another profile from inside the app: the config read again, the profile's token
resolved (a token command included) and its admin client built, as `flagtui -P NAME` does.

Done in a thread: a token command may take seconds, and the UI thread never waits. The TUI
hides stderr, so a toast says that the token command runs (until it ends); one still running
when the app leaves is stopped then (`stop_token_commands`, from the app's unmount)."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.app import App

from flagtui.api import AdminClient
from flagtui.config import Profile, load_config, make_client, resolve_token, select_profile
from flagtui.config.token_command import TIMEOUT


async def open_profile(app: App[Any], name: str) -> tuple[Profile, AdminClient]:
    """The profile and a new client for it; ConfigError or Interrupted say why not."""
    announced = False

    def announce(running: str) -> None:  # in the worker thread
        nonlocal announced
        announced = True
        app.call_from_thread(
            app.notify, f"Switching to profile {name}: {running}…", timeout=TIMEOUT
        )

    def open_it() -> tuple[Profile, AdminClient]:
        profile = select_profile(load_config(), name)
        return profile, make_client(profile, resolve_token(profile, announce))

    try:
        return await asyncio.to_thread(open_it)
    finally:
        if announced:  # the toast said it runs: it does not any more
            app.clear_notifications()
