"""`flagtui sandbox`: serve the embedded sandbox server.

The sandbox parses its own options (sandbox/options.py, imported only when it runs): they
reach it as the arguments the command line does not know, `--help` among them.
"""

from __future__ import annotations

import argparse

from flagtui.sandbox.options import sandbox_parser


def options(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(start=start)


def own_parser() -> argparse.ArgumentParser:
    """The sandbox's own options, as `flagtui sandbox` reads them."""
    return sandbox_parser("flagtui sandbox")


def start(args: argparse.Namespace, rest: list[str]) -> int:
    options = own_parser().parse_args(rest)  # before the server's import: --help needs none
    # Here, not at the top: it loads pydantic, Starlette and the SDK engine
    from flagtui.sandbox.server import run_sandbox_command

    return run_sandbox_command(options)
