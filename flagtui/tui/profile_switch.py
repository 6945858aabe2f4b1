"""Opening another profile from inside the app: the config read again, the profile's token
resolved (a token command included) and its admin client built, as `flagtui -P NAME` does.

Done in a thread: a token command may take seconds, and the UI thread never waits."""

from __future__ import annotations

import asyncio

from flagtui.api import AdminClient
from flagtui.config import Profile, load_config, make_client, resolve_token, select_profile


def _open(name: str) -> tuple[Profile, AdminClient]:
    profile = select_profile(load_config(), name)
    return profile, make_client(profile, resolve_token(profile))


async def open_profile(name: str) -> tuple[Profile, AdminClient]:
    """The profile and a new client for it; ConfigError or Interrupted say why not."""
    return await asyncio.to_thread(_open, name)
