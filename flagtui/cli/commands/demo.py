"""`flagtui demo`: the sandbox with demo data on a free loopback port, and the TUI on it."""

from __future__ import annotations

import argparse

from flagtui.demo import run_demo


def options(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(start=start)
    parser.add_argument("--reset", action="store_true", help="start from fresh demo data")
    parser.add_argument(
        "--size",
        default="demo",
        choices=["demo", "hostile", "large"],
        help="demo: realistic data; hostile: the same plus a project whose text attacks"
        " terminals (markup, escape sequences); large: 50,000 flags",
    )


def start(args: argparse.Namespace, rest: list[str]) -> int:
    return run_demo(args)
