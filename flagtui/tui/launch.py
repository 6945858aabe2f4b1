"""`flagtui` without a subcommand: resolve the profile and its token, then run the app."""

from __future__ import annotations

import argparse
import sys

from flagtui.config import ConfigError, load_config, make_client, resolve_token, select_profile


def run_tui(args: argparse.Namespace) -> int:
    try:
        config = load_config()
        profile = select_profile(config, getattr(args, "profile", None))
        client = make_client(profile, resolve_token(profile))
    except ConfigError as exc:
        print(f"flagtui: {exc}", file=sys.stderr)
        return 2
    from flagtui.tui.app import FlagtuiApp

    app = FlagtuiApp(client, profile)
    app.run()
    return app.return_code or 0
