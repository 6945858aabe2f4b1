"""Shell completion (bash, zsh, fish) with argcomplete: `flagtui completion SHELL` prints the
script a shell sources; that script runs `flagtui` with `_ARGCOMPLETE` set on each TAB, and
`complete()` answers from the same parser the commands use (commands, options, choices), with
the profile names of the config file for -P. argcomplete is imported only then."""

from __future__ import annotations

import argparse
import os
import tomllib
from typing import Any

SHELLS = ("bash", "zsh", "fish")


def completing() -> bool:
    return "_ARGCOMPLETE" in os.environ


def complete(parser: argparse.ArgumentParser) -> None:
    """Answer the shell's TAB from `parser` and exit (argcomplete writes to the shell's file
    descriptor)."""
    import argcomplete

    argcomplete.autocomplete(parser, always_complete_options="long")


def profile_names(**_: Any) -> list[str]:
    """The config file's profiles: the values -P takes (none when it cannot be read)."""
    from flagtui.profile import config_path

    try:
        config = tomllib.loads(config_path().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []
    profiles = config.get("profiles")
    return sorted(str(name) for name in profiles) if isinstance(profiles, dict) else []


def script(shell: str) -> str:
    import argcomplete

    return str(argcomplete.shellcode(["flagtui"], shell=shell))
