"""`flagtui profiles`: list profiles, never a token; `--check` asks each server whether its
token is accepted (flagtui/login.py)."""

from __future__ import annotations

import argparse


def options(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(start=start)
    parser.add_argument(
        "--check",
        action="store_true",
        help="also ask each profile's server whether its token is accepted (and check ca_bundle)",
    )


def start(args: argparse.Namespace, rest: list[str]) -> int:
    # Here, not at the top: it loads pydantic
    from flagtui.login import run_profiles

    return run_profiles(args)
