"""Shell completion (bash, zsh, fish) with argcomplete: `flagtui completion SHELL` prints the
script a shell sources; that script runs `flagtui` with `_ARGCOMPLETE` set on each TAB, and
`complete()` answers from the same parser the commands use (commands, options, choices), with
the profile names of the config file for -P, and project and flag names from the TUI's row
cache (what its features area last showed for the profile, names valid by the contract's rule
only; no request is made). argcomplete is imported only then."""

from __future__ import annotations

import argparse
import os
import tomllib
from typing import Any

from flagtui.contract import is_flag_name
from flagtui.profile import config_path
from flagtui.row_cache_file import cached_keys, default_cache_dir

SHELLS = ("bash", "zsh", "fish")


def completing() -> bool:
    return "_ARGCOMPLETE" in os.environ


def complete(parser: argparse.ArgumentParser) -> None:
    """Answer the shell's TAB from `parser` and exit (argcomplete writes to the shell's file
    descriptor)."""
    # Here, not at the top: it loads argcomplete
    import argcomplete

    argcomplete.autocomplete(parser, always_complete_options="long")


def profile_names(**_: Any) -> list[str]:
    """The config file's profiles: the values -P takes (none when it cannot be read)."""
    try:
        config = tomllib.loads(config_path().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []
    profiles = config.get("profiles")
    return sorted(str(name) for name in profiles) if isinstance(profiles, dict) else []


def _config() -> dict[str, Any]:
    try:
        return tomllib.loads(config_path().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _cached_features(parsed_args: argparse.Namespace | None) -> tuple[str, list[str]]:
    """The project and flag names the TUI's features area last cached for the profile, only
    those valid by the contract's name rule: a cached name is server text, and one with a
    control character, a newline or `$( )` is no flag's name, typed into a shell line."""
    config = _config()
    profiles = config.get("profiles")
    name = getattr(parsed_args, "profile", None) or config.get("default_profile")
    profile = profiles.get(name) if isinstance(profiles, dict) and isinstance(name, str) else None
    url = profile.get("url") if isinstance(profile, dict) else None
    if not isinstance(url, str):
        return "", []
    project, names = cached_keys(default_cache_dir(), str(name), url, "features")
    if not is_flag_name(project):  # Unleash's project ids are URL-friendly names too
        return "", []
    return project, [n for n in names if is_flag_name(n)]


def cached_projects(parsed_args: argparse.Namespace | None = None, **_: Any) -> list[str]:
    project, _names = _cached_features(parsed_args)
    return [project] if project else []


def cached_flags(parsed_args: argparse.Namespace | None = None, **_: Any) -> list[str]:
    """Flag names, when the project typed is the one cached."""
    project, names = _cached_features(parsed_args)
    return names if project and getattr(parsed_args, "project", None) == project else []


def attach_cached_names(parser: argparse.ArgumentParser) -> None:
    """Project and flag positionals (`project`, then `name` or `feature`) complete from the
    row cache."""
    positionals = [a for a in parser._actions if not a.option_strings]
    dests = [a.dest for a in positionals]
    for action in positionals:
        if action.dest == "project":
            action.completer = cached_projects  # type: ignore[attr-defined]
        elif action.dest in ("name", "feature") and "project" in dests:
            action.completer = cached_flags  # type: ignore[attr-defined]


def script(shell: str) -> str:
    # Here, not at the top: it loads argcomplete
    import argcomplete

    return str(argcomplete.shellcode(["flagtui"], shell=shell))
