"""`flagtui` without a subcommand: resolve the profile and its token, then run the app.

A start whose inputs are those of an earlier one (`start_hint.py`) draws that profile's cached
rows first and validates afterwards, inside the app; any other start validates first. Either
way a problem with the config or credentials is one line naming the file and the fix (exit 2),
said once the terminal is back; Ctrl-C or SIGTERM while a token_command runs stops it and exits
130 or 143, without a traceback.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from flagtui.tui.app import FlagtuiApp
from flagtui.tui.format import clean
from flagtui.tui.opening import Opened
from flagtui.tui.row_cache import default_cache_dir
from flagtui.tui.start_hint import StartInputs, recall, remember, start_inputs

if TYPE_CHECKING:
    from flagtui.config import ConfigError, Interrupted


def open_profile(args: argparse.Namespace, inputs: StartInputs | None) -> Opened:
    """The config validated, the profile chosen, its token read and its client made; raises
    ConfigError or Interrupted."""
    from flagtui.config import load_config, make_client, resolve_token, select_profile

    config = load_config()
    if config.keymap:
        from flagtui.tui.keymap import check_keymap

        check_keymap(config.keymap, config.path)
    profile = select_profile(config, args.profile)
    client = make_client(profile, resolve_token(profile))
    if inputs is not None:
        remember(default_cache_dir(), inputs, profile.name)
    return Opened(client, profile, config.keymap)


def said(exc: ConfigError | Interrupted) -> int:
    from flagtui.config import Interrupted

    print(f"flagtui: {clean(exc)}", file=sys.stderr)
    return exc.exit_code if isinstance(exc, Interrupted) else 2


def run_tui(args: argparse.Namespace) -> int:
    args.profile = getattr(args, "profile", None)
    inputs = start_inputs(args.profile)
    expected = recall(default_cache_dir(), inputs) if inputs else None
    failed: list[ConfigError | Interrupted] = []

    def opener() -> Opened | None:
        """None when the config or the token fails (`failed` keeps why)."""
        from flagtui.config import ConfigError, Interrupted

        try:
            return open_profile(args, inputs)
        except (ConfigError, Interrupted) as exc:
            failed.append(exc)
            return None

    if expected is None:  # validated first, said before the terminal is taken
        opened = opener()
        if opened is None:
            return said(failed[0])
        app = FlagtuiApp(opened.client, opened.profile)
        app.set_keymap(opened.keymap)
    else:  # the cached rows first; validated once they are on screen
        app = FlagtuiApp(None, expected, opener=opener)
    app.run()
    return said(failed[0]) if failed else app.return_code or 0
