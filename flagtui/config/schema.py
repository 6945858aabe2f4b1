"""The config file's shape, declared once with pydantic (strict: TOML already has types), and
its validation errors phrased as flagtui's own ConfigError messages: each names the file, the
table and the key, and says how to fix it."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError

from flagtui.config.rules import ARCHIVE_SCHEMES, URL_FORBIDDEN, bounded_timeout, url_problem


def _plain_url(url: str) -> str:
    problem = url_problem(url)
    if problem:
        raise ValueError(problem)
    return url


def _archive_url(url: str) -> str:
    if not url.startswith(ARCHIVE_SCHEMES) or URL_FORBIDDEN.search(url):
        raise ValueError(
            f"archive_url must start with postgresql:// (or sqlite:/// for a file) and have no"
            f" spaces or control characters (it is {url.split('@')[-1]!r})"
        )
    return url


class ProfileTable(BaseModel):
    """One `[profiles.NAME]` table. A `token` key is refused before this, with its own fix."""

    model_config = ConfigDict(extra="forbid", strict=True)

    url: Annotated[str, AfterValidator(_plain_url)]
    read_only: bool = False
    production: bool = False
    timeout: Annotated[int | float, AfterValidator(bounded_timeout)] = 10.0
    verify_tls: bool = True
    ca_bundle: str | None = None
    token_command: str | None = None
    archive_url: Annotated[str, AfterValidator(_archive_url)] | None = None


class ConfigTable(BaseModel):
    """The file's top level; each profile is checked apart, so its errors name its table."""

    model_config = ConfigDict(extra="forbid", strict=True)

    default_profile: str | None = None
    profiles: dict[str, Any] = {}
    keymap: dict[str, Any] = {}


TOP_LEVEL_PROBLEMS = {
    "default_profile": "default_profile must be a profile name",
    "profiles": "[profiles] must be a table of profiles",
    "keymap": '[keymap] must be a table of binding ids and keys, e.g. "features.reload" = "f5"',
}
# One key name (Textual's: "f5", "ctrl+r", "question_mark", "a"), or several separated by commas.
_KEYS = re.compile(r"[^\s,\x00-\x1f\x7f]+(,[^\s,\x00-\x1f\x7f]+)*")


def keymap_problem(binding_id: str, keys: object) -> str | None:
    """What is wrong with one `[keymap]` entry's keys, or None (the id is checked by the TUI,
    which knows its bindings)."""
    if isinstance(keys, str) and _KEYS.fullmatch(keys):
        return None
    return (
        f"[keymap] {binding_id!r} must be a key, or keys separated by commas without spaces "
        f'(e.g. "f5" or "r,ctrl+r"), not {keys!r}'
    )


def first_problem(error: ValidationError, raw: dict[str, Any], top_level: bool = False) -> str:
    """The problem flagtui reports (one, as it always has): the first wrong or unknown key in
    the order of the file, then a missing url, then a value out of bounds."""
    order = {key: i for i, key in enumerate(raw)}

    def rank(problem: Any) -> tuple[int, int]:
        key = str(problem["loc"][0]) if problem["loc"] else ""
        if problem["type"] == "missing":
            return 1, 0
        if problem["type"] == "value_error":
            return 2, order.get(key, 0)
        return 0, order.get(key, 0)

    problem = min(error.errors(), key=rank)
    key = str(problem["loc"][0]) if problem["loc"] else ""
    if problem["type"] == "extra_forbidden":
        return f"unknown key {key!r}" + (" at the top level" if top_level else "")
    if top_level:
        return TOP_LEVEL_PROBLEMS[key]
    if problem["type"] == "missing":
        return f"{key} is required"
    if problem["type"] == "value_error":
        return str(problem["ctx"]["error"])
    return f"{key} has the wrong type ({type(raw[key]).__name__})"
