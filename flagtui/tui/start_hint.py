"""Which profile a start will open, known before the config is validated, so that its first
frame can show that profile's cached rows before pydantic, httpx and the client are imported.

A start is decided by its inputs: the config file (path and bytes), UNLEASH_URL, whether
UNLEASH_API_TOKEN is set, and `-P`. Each start that opened a profile remembers which one, under
a digest of those inputs (`starts.json` beside the row cache: profile names only). The next
start with the same digest opens the same profile, so its profile is rebuilt from the same
inputs with no validation: the config table's values as they are (they passed validation with
these very bytes), or UNLEASH_URL's. Any change to the inputs, or anything that cannot be read,
is no hint, and the start validates first, as it always did. A profile whose token comes from a
token_command is never started early: the command may ask the terminal for a passphrase.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flagtui.profile import ENV_PROFILE, Profile, asks_token_command, config_path
from flagtui.tui.files import read_object, replace_quietly

HINTS_FILE = "starts.json"
KEPT = 32  # digests remembered: every way this user starts flagtui, many times over


@dataclass(frozen=True)
class StartInputs:
    digest: str
    config: dict[str, Any]
    """The config file's tables as TOML read them ({} without a file)."""


def start_inputs(profile_arg: str | None) -> StartInputs | None:
    """What decides this start's profile; None when the config file cannot be read as TOML
    (the validated start says why)."""
    path = config_path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = None
    except OSError:
        return None
    try:
        config = tomllib.loads(data.decode()) if data is not None else {}
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    seen = [
        str(path),
        "-" if data is None else hashlib.sha256(data).hexdigest(),
        os.environ.get("UNLEASH_URL", "\0"),
        "token set" if os.environ.get("UNLEASH_API_TOKEN") else "no token",
        profile_arg or "\0",
    ]
    return StartInputs(hashlib.sha256("\n".join(seen).encode()).hexdigest(), config)


def _read(path: Path) -> dict[str, str]:
    return {k: v for k, v in read_object(path).items() if isinstance(v, str)}


def recall(directory: Path, inputs: StartInputs) -> Profile | None:
    """The profile a start with these inputs opened last time, rebuilt from them; None when
    there is no such start, or its token comes from a command."""
    name = _read(directory / HINTS_FILE).get(inputs.digest)
    if name is None:
        return None
    table = inputs.config.get("profiles", {}).get(name)
    env_url = os.environ.get("UNLEASH_URL")
    try:
        if isinstance(table, dict):
            profile = Profile(name=name, **table)
        elif name == ENV_PROFILE and env_url:
            profile = Profile(name=name, url=env_url)
        else:
            return None
    except TypeError:  # a key Profile does not have: not what validated
        return None
    if asks_token_command(profile):
        return None
    return profile


def remember(directory: Path, inputs: StartInputs, profile_name: str) -> None:
    """Written only when it changes; the oldest digests go first. Failing never stops a start."""
    path = directory / HINTS_FILE
    hints = _read(path)
    if hints.get(inputs.digest) == profile_name:
        return
    hints.pop(inputs.digest, None)
    hints[inputs.digest] = profile_name
    replace_quietly(path, json.dumps(dict(list(hints.items())[-KEPT:])))


def provisional(inputs: StartInputs | None, profile_arg: str | None) -> Profile:
    """For a first frame's header only, until the config is validated: the profile this start
    names (`-P`, default_profile, the only one, or UNLEASH_URL's), as its table says, unchecked.
    "…" where nothing names one (validation will say why)."""
    config = inputs.config if inputs is not None else {}
    tables = config.get("profiles")
    tables = tables if isinstance(tables, dict) else {}
    env_url = os.environ.get("UNLEASH_URL")
    name = profile_arg or config.get("default_profile")
    if not isinstance(name, str):
        name = next(iter(tables)) if len(tables) == 1 else ENV_PROFILE if env_url else "…"
    table = tables.get(name)
    table = table if isinstance(table, dict) else {}
    url = table.get("url")
    command = table.get("token_command")
    return Profile(
        name=name,
        url=url if isinstance(url, str) else env_url or "",
        read_only=table.get("read_only") is True,
        production=table.get("production") is True,
        token_command=command if isinstance(command, str) else None,
    )
