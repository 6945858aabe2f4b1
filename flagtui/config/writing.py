"""Adding a profile to the config file without ever leaving it broken.

The new table is serialised by tomli_w and appended to the file's text (so the user's comments
and layout stay as written); the result is parsed again and must hold exactly the new profile
before it replaces the file, atomically.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import tomli_w

from flagtui.config.profiles import (
    Config,
    ConfigError,
    Profile,
    check_profile_name,
    check_url,
    parse_config_text,
    read_config_text,
)


def add_profile(config: Config, profile: Profile) -> None:
    text = profile_added_text(config, profile)
    new_file = read_config_text(config.path) is None
    write_atomically(config.path, text)
    if new_file:
        config.default_profile = profile.name
    config.profiles[profile.name] = profile


def profile_added_text(config: Config, profile: Profile) -> str:
    """The config file's text with the profile added, checked; ConfigError if it cannot be."""
    check_profile_name(profile.name)
    check_url(profile.url)
    old = read_config_text(config.path)
    table = {"profiles": {profile.name: {"url": profile.url}}}
    if old is None:
        text = tomli_w.dumps({"default_profile": profile.name, **table})
    else:
        text = old + ("\n" if old and not old.endswith("\n") else "") + "\n" + tomli_w.dumps(table)
    written = Config(path=config.path)
    try:
        parse_config_text(text, written)
    except ConfigError as exc:
        raise ConfigError(
            f"adding profile {profile.name!r} would break {config.path} ({exc}); "
            "the file was left as it was"
        ) from None
    if written.profiles.get(profile.name) != Profile(name=profile.name, url=profile.url):
        raise ConfigError(
            f"{config.path}: profile {profile.name!r} could not be added as a table of its own; "
            "the file was left as it was: add the profile by hand"
        )
    return text


def write_atomically(path: Path, text: str) -> None:
    """Replace the file (the target of a symlink) with `text`, keeping its mode."""
    target = path.resolve()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            mode: int | None = target.stat().st_mode & 0o777
        except FileNotFoundError:
            mode = None
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                if mode is not None:
                    os.fchmod(out.fileno(), mode)
                os.fsync(out.fileno())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise ConfigError(
            f"{path} cannot be written ({exc.strerror or exc}): check the folder exists and "
            "is writable, or point FLAGTUI_CONFIG elsewhere"
        ) from None
