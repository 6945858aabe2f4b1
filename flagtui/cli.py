"""The `flagtui` command: open the TUI, run the sandbox or the demo, manage profiles."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from flagtui import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="flagtui", description=__doc__)
    parser.add_argument("--version", action="version", version=f"flagtui {__version__}")
    parser.add_argument("-P", "--profile", help="profile to open (default: default_profile)")
    sub = parser.add_subparsers(dest="command")

    sandbox = sub.add_parser("sandbox", help="serve the embedded sandbox server")
    _add_sandbox_arguments(sandbox)

    demo = sub.add_parser("demo", help="start the sandbox with demo data and open the TUI on it")
    demo.add_argument("--reset", action="store_true", help="start from fresh demo data")
    demo.add_argument("--size", default="demo", choices=["demo", "large"])

    login = sub.add_parser("login", help="store a token for a profile (read from a prompt)")
    login.add_argument("--profile", dest="login_profile", default=None)
    login.add_argument("--url", default=None)

    profiles = sub.add_parser("profiles", help="list profiles (never shows tokens)")
    profiles.add_argument(
        "--check",
        action="store_true",
        help="also ask each profile's server whether its token is accepted (and check ca_bundle)",
    )
    return parser


def _add_sandbox_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=4242)
    parser.add_argument("--db", default=None, help="SQLite file (default: in the user data dir)")
    parser.add_argument("--size", default="demo", choices=["empty", "demo", "large"])
    parser.add_argument("--reset", action="store_true", help="recreate the database")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "sandbox":
        from flagtui.sandbox.server import run_sandbox_command

        return run_sandbox_command(args)
    if args.command == "demo":
        from flagtui.demo import run_demo

        return run_demo(args)
    if args.command == "login":
        from flagtui.login import run_login

        return run_login(args)
    if args.command == "profiles":
        from flagtui.login import run_profiles

        return run_profiles(args)
    from flagtui.tui.launch import run_tui

    return run_tui(args)


if __name__ == "__main__":
    sys.exit(main())
