"""What a profile is, and where the config file lives: plain data, no validation.

The config package reads and validates the file (with pydantic); this module is what a start
needs before that, to draw its first frame (see `flagtui/tui/start_hint.py`), so it imports
nothing heavier than platformdirs.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_dir

from flagtui.value import Value

ENV_PROFILE = "env"  # the profile UNLEASH_URL makes when the config has none of that name


class Profile(Value):
    def __init__(
        self,
        name: str,
        url: str,
        read_only: bool = False,
        production: bool = False,
        timeout: float = 10.0,
        verify_tls: bool = True,
        ca_bundle: str | None = None,
        token_command: str | None = None,
        archive_url: str | None = None,
    ) -> None:
        self.name = name
        self.url = url
        self.read_only = read_only
        self.production = production
        self.timeout = timeout
        self.verify_tls = verify_tls
        self.ca_bundle = ca_bundle
        self.token_command = token_command
        # The delivery archive (`flagtui collect`); None: the SQLite file in the user data dir.
        self.archive_url = archive_url

    @property
    def verify(self) -> bool | str:
        """What the client checks the server's certificate with (`api/connection.py`): the
        ca_bundle's path, else whether to check it at all."""
        return self.ca_bundle or self.verify_tls

    @property
    def tls_verification_off(self) -> bool:
        return not self.verify_tls and not self.ca_bundle


def env_token_applies(profile: Profile) -> bool:
    """UNLEASH_API_TOKEN is the profile's token: it is set, and UNLEASH_URL is unset or names
    the profile's server."""
    if not os.environ.get("UNLEASH_API_TOKEN"):
        return False
    env_url = os.environ.get("UNLEASH_URL")
    return env_url is None or env_url.rstrip("/") == profile.url.rstrip("/")


def asks_token_command(profile: Profile) -> bool:
    """Whether opening `profile` runs its token_command (it may ask the terminal for a
    passphrase): a start validates such a profile before its first frame, so the command
    runs while the terminal is still the command's."""
    return bool(profile.token_command) and not env_token_applies(profile)


def config_dir() -> Path:
    return Path(user_config_dir("flagtui", appauthor=False))


def config_path() -> Path:
    override = os.environ.get("FLAGTUI_CONFIG")
    return Path(override) if override else config_dir() / "config.toml"
