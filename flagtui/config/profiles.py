"""Profiles: the config file (TOML under platformdirs' user config dir), read and validated.

Every problem with the file becomes a ConfigError naming the file and how to fix it, never a
traceback: a missing file is no profiles, a directory or an unreadable file says so.
"""

from __future__ import annotations

import os
import re
import ssl
import stat
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flagtui.config.rules import url_problem
from flagtui.config.schema import (
    PROFILE_KEYS,
    PROFILE_REQUIRED,
    TOP_LEVEL_KEYS,
    keymap_problem,
    table_problem,
)

# Defined there (a start reads them before importing this module), used and offered here.
from flagtui.profile import ENV_PROFILE as ENV_PROFILE
from flagtui.profile import Profile as Profile
from flagtui.profile import config_dir as config_dir
from flagtui.profile import config_path as config_path
from flagtui.value import Value

if TYPE_CHECKING:
    from flagtui.api import AdminClient

# Profile names end up in TOML keys, file names of state, messages and the header: keep them plain.
PROFILE_NAME_RULE = "1 to 64 letters, digits, '.', '-' or '_', starting with a letter or digit"
_PROFILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


class ConfigError(Exception):
    """A problem with the config or credentials, phrased with how to fix it."""


class Credential(Value):
    def __init__(self, token: str, source: str) -> None:
        self.token = token
        self.source = source

    def __repr__(self) -> str:  # never the token
        return f"Credential(source={self.source!r})"


class Config(Value):
    __hash__ = None  # type: ignore[assignment]  # changes as profiles are added: unhashable

    def __init__(
        self,
        path: Path,
        default_profile: str | None = None,
        profiles: dict[str, Profile] | None = None,
        keymap: dict[str, str] | None = None,
    ) -> None:
        self.path = path
        self.default_profile = default_profile
        self.profiles: dict[str, Profile] = {} if profiles is None else profiles
        # Binding ids to keys (`[keymap]`); the TUI checks that each id is one of its bindings.
        self.keymap: dict[str, str] = {} if keymap is None else keymap


def check_profile_name(name: str, *, new: bool = True) -> None:
    """Refuse a name that is not plain (quotes, spaces, newlines), or, for a profile being
    added, the one UNLEASH_URL uses."""
    if not _PROFILE_NAME.fullmatch(name):
        raise ConfigError(f"the profile name {name!r} is not allowed: use {PROFILE_NAME_RULE}")
    if new and name == ENV_PROFILE:
        raise ConfigError(f"the profile name {ENV_PROFILE!r} is reserved for UNLEASH_URL")


def check_url(url: str) -> None:
    problem = url_problem(url)
    if problem:
        raise ConfigError(problem)


def read_config_text(path: Path) -> str | None:
    """The config file's text, or None when there is none."""
    try:
        # O_NONBLOCK: a FIFO at the path must not hang flagtui (it is refused below).
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except PermissionError:
        raise ConfigError(
            f"{path} cannot be read (permission denied): fix it with: chmod u+r {path}"
        ) from None
    except OSError as exc:
        raise ConfigError(f"{path} cannot be read ({exc.strerror}): fix or remove it") from None
    try:
        kind = os.fstat(fd).st_mode
        if stat.S_ISDIR(kind):
            raise ConfigError(
                f"{path} is a directory, not a config file: remove it, or point FLAGTUI_CONFIG "
                "at a file"
            )
        if not stat.S_ISREG(kind):
            raise ConfigError(f"{path} is not a regular file: replace it with the config file")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as opened:
            data = opened.read()
    except OSError as exc:
        raise ConfigError(f"{path} cannot be read ({exc.strerror}): fix or remove it") from None
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text; fix or remove it") from None


def load_config(path: Path | None = None) -> Config:
    path = path or config_path()
    config = Config(path=path)
    text = read_config_text(path)
    if text is not None:
        parse_config_text(text, config)
    env_url = os.environ.get("UNLEASH_URL")
    if env_url and ENV_PROFILE not in config.profiles:
        config.profiles[ENV_PROFILE] = Profile(name=ENV_PROFILE, url=env_url)
    return config


def parse_config_text(text: str, config: Config) -> None:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{config.path}: not valid TOML ({exc}); fix or remove it") from None
    _parse_config(raw, config)


def _parse_config(raw: dict[str, Any], config: Config) -> None:
    problem = table_problem(raw, TOP_LEVEL_KEYS, top_level=True)
    if problem:
        raise ConfigError(f"{config.path}: {problem}")
    default = config.default_profile = raw.get("default_profile")
    for binding_id, keys in raw.get("keymap", {}).items():
        problem = keymap_problem(binding_id, keys)
        if problem:
            raise ConfigError(f"{config.path}: {problem}")
        config.keymap[binding_id] = keys
    for name, values in raw.get("profiles", {}).items():
        config.profiles[name] = _parse_profile(config.path, name, values)
    if default and default not in config.profiles:
        raise ConfigError(f"{config.path}: default_profile {default!r} is not a profile")


def _parse_profile(path: Path, name: str, values: object) -> Profile:
    where = f"{path}: [profiles.{name}]"
    try:
        check_profile_name(name, new=False)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    if not isinstance(values, dict):
        raise ConfigError(f"{where} must be a table")
    if "token" in values:
        raise ConfigError(
            f"{where}: tokens do not belong in the config file; "
            f"run `flagtui login --profile {name}` to store it in the credentials file"
        )
    problem = table_problem(values, PROFILE_KEYS, PROFILE_REQUIRED)
    if problem:
        raise ConfigError(f"{where}: {problem}")
    return Profile(name=name, **values)


def select_profile(config: Config, name: str | None) -> Profile:
    chosen = name or config.default_profile
    if chosen is None:
        if len(config.profiles) == 1:
            return next(iter(config.profiles.values()))
        if ENV_PROFILE in config.profiles:
            return config.profiles[ENV_PROFILE]
        if not config.profiles:
            raise ConfigError(
                "No profile is configured. Run `flagtui login --profile NAME --url URL`, "
                "set UNLEASH_URL and UNLEASH_API_TOKEN, or try `flagtui demo`."
            )
        raise ConfigError(
            f"Several profiles and no default_profile in {config.path}: "
            f"choose one with -P ({', '.join(sorted(config.profiles))})."
        )
    if chosen not in config.profiles:
        known = ", ".join(sorted(config.profiles)) or "none"
        raise ConfigError(f"No profile named {chosen!r} (known: {known}).")
    return config.profiles[chosen]


def check_ca_bundle(profile: Profile) -> None:
    """Refuse a ca_bundle that is missing, unreadable or holds no PEM certificate."""
    if not profile.ca_bundle:
        return

    where = f"ca_bundle {profile.ca_bundle} of profile {profile.name!r}"
    fix = f"fix the path in {config_path()} or point it at a PEM file of CA certificates"
    try:
        ssl.create_default_context(cafile=profile.ca_bundle)
    except FileNotFoundError:
        raise ConfigError(f"{where} does not exist: {fix}") from None
    except IsADirectoryError:
        raise ConfigError(f"{where} is a directory: {fix}") from None
    except PermissionError:
        raise ConfigError(f"{where} cannot be read (permission denied): {fix}") from None
    except (OSError, ssl.SSLError, ValueError):
        raise ConfigError(f"{where} holds no PEM certificate: {fix}") from None


def make_client(profile: Profile, credential: Credential) -> AdminClient:
    # Here, not at the top: it loads httpx and pydantic
    from flagtui.api import AdminClient  # here: reading the config needs no HTTP library

    check_ca_bundle(profile)
    return AdminClient(
        profile.url,
        credential.token,
        profile=profile.name,
        read_only=profile.read_only,
        timeout=profile.timeout,
        verify=profile.verify,
    )
