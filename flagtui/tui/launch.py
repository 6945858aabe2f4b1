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
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from flagtui.tui.app import FlagtuiApp
from flagtui.tui.format import clean
from flagtui.tui.opening import Opened, Pending
from flagtui.tui.row_cache import default_cache_dir
from flagtui.tui.start_hint import (
    StartInputs,
    asks_token_command,
    provisional,
    recall,
    remember,
    start_inputs,
)

if TYPE_CHECKING:
    from flagtui.config import ConfigError, Interrupted

T = TypeVar("T")


def open_profile(args: argparse.Namespace, inputs: StartInputs | None) -> Opened | Pending:
    """The config validated and the profile chosen, then its token read and its client made (at
    once, or by `Pending.resume` when a token_command gives the token); raises ConfigError or
    Interrupted."""
    from flagtui.config import load_config, make_client, resolve_token, select_profile
    from flagtui.config.credentials import command_gives_token
    from flagtui.config.token_command import running_note

    config = load_config()
    if config.keymap:
        from flagtui.tui.keymap import check_keymap

        check_keymap(config.keymap, config.path)
    profile = select_profile(config, args.profile)

    def connect() -> Opened:
        client = make_client(profile, resolve_token(profile, announce=lambda _: None))
        if inputs is not None:
            remember(default_cache_dir(), inputs, profile.name)
        return Opened(client, profile, config.keymap)

    if command_gives_token(profile):
        return Pending(running_note(profile), connect)
    return connect()


def open_first(args: argparse.Namespace, inputs: StartInputs | None) -> Opened:
    """Before the app (no terminal to draw on): the token_command announced on stderr."""
    opened = open_profile(args, inputs)
    if isinstance(opened, Pending):
        from flagtui.config.token_command import announce_on_stderr

        announce_on_stderr(opened.note)
        return opened.resume()  # type: ignore[return-value]  # raises rather than None
    return opened


def said(exc: ConfigError | Interrupted) -> int:
    from flagtui.config import Interrupted

    print(f"flagtui: {clean(exc)}", file=sys.stderr)
    return exc.exit_code if isinstance(exc, Interrupted) else 2


def run_tui(args: argparse.Namespace) -> int:
    args.profile = getattr(args, "profile", None)
    inputs = start_inputs(args.profile)
    expected = recall(default_cache_dir(), inputs) if inputs else None
    failed: list[ConfigError | Interrupted] = []

    def kept(step: Callable[[], T]) -> T | None:
        """None when the config or the token fails (`failed` keeps why)."""
        from flagtui.config import ConfigError, Interrupted

        try:
            return step()
        except (ConfigError, Interrupted) as exc:
            failed.append(exc)
            return None

    def opener() -> Opened | Pending | None:
        opened = kept(lambda: open_profile(args, inputs))
        if isinstance(opened, Pending):
            return Pending(opened.note, partial(kept, opened.resume))
        return opened

    named = provisional(inputs, args.profile)
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if not terminal or (expected is None and asks_token_command(named)):
        # Validated first, said before the app: with no terminal nothing is drawn; a
        # token_command may ask the terminal for a passphrase before the app takes it.
        first = kept(lambda: open_first(args, inputs))
        if first is None:
            return said(failed[0])
        app = FlagtuiApp(first.client, first.profile)
        app.set_keymap(first.keymap)
    elif expected is not None:  # the cached rows first; validated once they are on screen
        app = FlagtuiApp(None, expected, opener=opener)
    else:  # the header and "connecting…" first (no rows: the profile is only what is named)
        app = FlagtuiApp(None, named, opener=opener, cached=False)
    app.run()
    return said(failed[0]) if failed else app.return_code or 0
