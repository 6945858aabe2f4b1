"""The sandbox's command-line options, defined once: `python -m flagtui.sandbox` and
`flagtui sandbox` both parse with `sandbox_parser` (the sandbox stands alone, so they live here)."""

from __future__ import annotations

import argparse


def sandbox_parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Serve the embedded sandbox server.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=4242)
    parser.add_argument("--db", default=None, help="SQLite file (default: in the user data dir)")
    parser.add_argument("--size", default="demo", choices=["empty", "demo", "hostile", "large"])
    parser.add_argument("--reset", action="store_true", help="recreate the database")
    parser.add_argument(
        "--keep-all-deliveries",
        action="store_true",
        help="keep every integration delivery (default: forget like real Unleash, keeping the"
        " newest 100 of the last 2 hours plus the latest per integration)",
    )
    return parser
