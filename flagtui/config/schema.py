"""The config file's shape, checked key by key (strictly: TOML already has types, and a bool
is not a number), and its problems phrased as flagtui's own ConfigError messages: each names
the table and the key, and says how to fix it. One problem is reported, as it always was: the
first unknown or wrong-typed key in the order of the file, then a missing url, then the first
value out of bounds.

Plain checks, not pydantic models: building the two models cost every start that reads a
config file about 0.1 s before anything else (issue 26), the whole of a `failures` answer
from an archive."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from flagtui.config.rules import ARCHIVE_SCHEMES, URL_FORBIDDEN, bounded_timeout, url_problem

Check = Callable[..., "str | None"]  # what is wrong with a value of the right type, or None


def _timeout_problem(timeout: float) -> str | None:
    try:
        bounded_timeout(timeout)
    except ValueError as exc:
        return str(exc)
    return None


def _archive_url_problem(url: str) -> str | None:
    if not url.startswith(ARCHIVE_SCHEMES) or URL_FORBIDDEN.search(url):
        return (
            f"archive_url must start with postgresql:// (or sqlite:/// for a file) and have no"
            f" spaces or control characters (it is {url.split('@')[-1]!r})"
        )
    return None


# One `[profiles.NAME]` table: each key's types and its check. A `token` key is refused before
# this, with its own fix.
PROFILE_KEYS: dict[str, tuple[tuple[type, ...], Check | None]] = {
    "url": ((str,), url_problem),
    "read_only": ((bool,), None),
    "production": ((bool,), None),
    "timeout": ((int, float), _timeout_problem),
    "verify_tls": ((bool,), None),
    "ca_bundle": ((str,), None),
    "token_command": ((str,), None),
    "archive_url": ((str,), _archive_url_problem),
}
PROFILE_REQUIRED = ("url",)
TOP_LEVEL_KEYS: dict[str, tuple[tuple[type, ...], Check | None]] = {
    "default_profile": ((str,), None),
    "profiles": ((dict,), None),  # each profile is checked apart, so its errors name its table
    "keymap": ((dict,), None),
}
TOP_LEVEL_PROBLEMS = {
    "default_profile": "default_profile must be a profile name",
    "profiles": "[profiles] must be a table of profiles",
    "keymap": '[keymap] must be a table of binding ids and keys, e.g. "features.reload" = "f5"',
}
# One key name (Textual's: "f5", "ctrl+r", "question_mark", "a"), or several separated by commas.
_KEYS = re.compile(r"[^\s,\x00-\x1f\x7f]+(,[^\s,\x00-\x1f\x7f]+)*")


def _typed(value: object, types: tuple[type, ...]) -> bool:
    return isinstance(value, types) and (bool in types or not isinstance(value, bool))


def table_problem(
    raw: Mapping[str, Any],
    keys: Mapping[str, tuple[tuple[type, ...], Check | None]],
    required: tuple[str, ...] = (),
    *,
    top_level: bool = False,
) -> str | None:
    """The one problem reported for a table (see the module's docstring), or None."""
    out_of_bounds = None
    for key, value in raw.items():
        rule = keys.get(key)
        if rule is None:
            return f"unknown key {key!r}" + (" at the top level" if top_level else "")
        types, check = rule
        if not _typed(value, types):
            if top_level:
                return TOP_LEVEL_PROBLEMS[key]
            return f"{key} has the wrong type ({type(value).__name__})"
        if out_of_bounds is None and check is not None:
            out_of_bounds = check(value)
    missing = next((key for key in required if key not in raw), None)
    if missing is not None:
        return f"{missing} is required"
    return out_of_bounds


def keymap_problem(binding_id: str, keys: object) -> str | None:
    """What is wrong with one `[keymap]` entry's keys, or None (the id is checked by the TUI,
    which knows its bindings)."""
    if isinstance(keys, str) and _KEYS.fullmatch(keys):
        return None
    return (
        f"[keymap] {binding_id!r} must be a key, or keys separated by commas without spaces "
        f'(e.g. "f5" or "r,ctrl+r"), not {keys!r}'
    )
