"""`flagtui login`: check a token against the server and store it (flagtui/login.py)."""

from __future__ import annotations

import argparse


def options(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(start=start)
    parser.add_argument("--profile", dest="login_profile", default=None)
    parser.add_argument("--url", default=None)
    parser.add_argument(
        "--user",
        default=None,
        metavar="USERNAME",
        help="sign in as this person (password asked, or read from stdin) and store a personal"
        " access token made for the profile, so the event log names them",
    )
    parser.add_argument(
        "--pat-days", type=int, default=90, help="days until that token expires (default 90)"
    )


def start(args: argparse.Namespace, rest: list[str]) -> int:
    # Here, not at the top: it loads pydantic
    from flagtui.login import run_login

    return run_login(args)
