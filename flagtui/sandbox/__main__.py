"""`python -m flagtui.sandbox [--host] [--port] [--db] [--size] [--reset]`."""

import argparse
import sys

from flagtui.sandbox.server import run_sandbox_command

parser = argparse.ArgumentParser(prog="python -m flagtui.sandbox")
parser.add_argument("--host", default="127.0.0.1")
parser.add_argument("--port", type=int, default=4242)
parser.add_argument("--db", default=None, help="SQLite file (default: in the user data dir)")
parser.add_argument("--size", default="demo", choices=["empty", "demo", "large"])
parser.add_argument("--reset", action="store_true", help="recreate the database")
sys.exit(run_sandbox_command(parser.parse_args()))
