"""`flagtui` without a subcommand: run the app, which resolves the profile and its token once
its first frame is on screen.

A start whose inputs are those of an earlier one (`start_hint.py`) draws that profile's cached
rows first; any other start on a terminal draws the header and "connecting…" (its profile as
the config names it, unvalidated). Then, inside the app, the config is validated, the token read
and the client made. Without a terminal (nothing to draw on), and for a profile whose token
comes from a token_command (it may ask the terminal for a passphrase), it validates first.
Either way a problem with the config or credentials is one line naming the file and the fix
(exit 2), said once the terminal is back; Ctrl-C or SIGTERM while a token_command runs stops
it and exits 130 or 143, without a traceback.
"""

from __future__ import annotations

import argparse
import sys

from flagtui.config import (
    ConfigError,
    Interrupted,
    load_config,
    make_client,
    resolve_token,
    select_profile,
)
from flagtui.profile import asks_token_command
from flagtui.row_cache_file import default_cache_dir
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.format import clean
from flagtui.tui.interpreter import prompt_frames
from flagtui.tui.keymap import check_keymap
from flagtui.tui.opening import Opened
from flagtui.tui.start_hint import StartInputs, provisional, recall, remember, start_inputs


def open_profile(args: argparse.Namespace, inputs: StartInputs | None) -> Opened:
    """The config validated, the profile chosen, its token read and its client made; raises
    ConfigError or Interrupted."""
    config = load_config()
    if config.keymap:
        check_keymap(config.keymap, config.path)
    profile = select_profile(config, args.profile)
    client = make_client(profile, resolve_token(profile))
    if inputs is not None:
        remember(default_cache_dir(), inputs, profile.name)
    return Opened(client, profile, config.keymap)


def said(exc: ConfigError | Interrupted) -> int:
    print(f"flagtui: {clean(exc)}", file=sys.stderr)
    return exc.exit_code if isinstance(exc, Interrupted) else 2


def run_tui(args: argparse.Namespace) -> int:
    prompt_frames()
    args.profile = getattr(args, "profile", None)
    inputs = start_inputs(args.profile)
    expected = recall(default_cache_dir(), inputs) if inputs else None
    named = provisional(inputs, args.profile)
    failed: list[ConfigError | Interrupted] = []

    def opener() -> Opened | None:
        """None when the config or the token fails (`failed` keeps why)."""
        try:
            return open_profile(args, inputs)
        except (ConfigError, Interrupted) as exc:
            failed.append(exc)
            return None

    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if not terminal or (expected is None and asks_token_command(named)):
        # Validated first, said before the app: with no terminal nothing is drawn; a
        # token_command may ask the terminal for a passphrase before the app takes it.
        opened = opener()
        if opened is None:
            return said(failed[0])
        app = FlagtuiApp(opened.client, opened.profile)
        app.set_keymap(opened.keymap)
    elif expected is not None:  # the cached rows first; validated once they are on screen
        app = FlagtuiApp(None, expected, opener=opener)
    else:  # the header and "connecting…" first (no rows: the profile is only what is named)
        app = FlagtuiApp(None, named, opener=opener, cached=False)
    app.run()
    return said(failed[0]) if failed else app.return_code or 0
