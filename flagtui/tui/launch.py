"""`flagtui` without a subcommand: resolve the profile and its token, then run the app.

A problem with the config or credentials is one line naming the file and the fix (exit 2);
Ctrl-C or SIGTERM while a token_command runs stops it and exits 130 or 143, without a traceback.
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
from flagtui.tui.format import clean


def run_tui(args: argparse.Namespace) -> int:
    try:
        config = load_config()
        if config.keymap:
            from flagtui.tui.keymap import check_keymap

            check_keymap(config.keymap, config.path)
        profile = select_profile(config, getattr(args, "profile", None))
        client = make_client(profile, resolve_token(profile))
    except ConfigError as exc:
        print(f"flagtui: {clean(exc)}", file=sys.stderr)
        return 2
    except Interrupted as exc:
        print(f"flagtui: {clean(exc)}", file=sys.stderr)
        return exc.exit_code
    from flagtui.tui.app import FlagtuiApp

    app = FlagtuiApp(client, profile)
    app.set_keymap(config.keymap)
    app.run()
    return app.return_code or 0
