"""`python -m flagtui.sandbox [--host] [--port] [--db] [--size] [--reset]`."""

import sys

from flagtui.sandbox.options import sandbox_parser
from flagtui.sandbox.server import run_sandbox_command

sys.exit(run_sandbox_command(sandbox_parser("python -m flagtui.sandbox").parse_args()))
