"""The demo's server side, in a process of its own: `python -m flagtui.demo_server DB SIZE ARCHIVE`.

`flagtui demo` starts it first thing, so the demo data is made (and the sandbox, SQLAlchemy
and Starlette imported) while the TUI is imported in the other process: on two cores the
first rows come that much sooner. It also keeps the server's work off the TUI's interpreter.

It makes the demo database if missing, serves it on a free loopback port with the demo's
collector beside it, and writes one JSON line on stdout: `{"url", "token"}`. It stops when
its stdin closes: when the TUI ends, however it ends (a quit, a crash, a hang-up, kill -9), so
no demo server outlives its TUI. Its messages go to stderr, which `flagtui demo` points at a
log file: the terminal belongs to the TUI.
"""

from __future__ import annotations

import contextlib
import json
import signal
import sys
from pathlib import Path

from flagtui.sandbox import SandboxServer, create_database


class Stop(Exception):
    """A stop signal, raised where the process waits."""


def _stop(signum: int, frame: object) -> None:
    raise Stop


def main(argv: list[str]) -> int:
    db_path, size, archive_url = Path(argv[0]), argv[1], argv[2]
    # Ctrl-C before the TUI's first frame reaches the whole process group: the TUI side
    # stops, and its end closes our stdin. A hang-up or SIGTERM stops us the same way.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for stop_signal in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(stop_signal, _stop)

    # Here, not at the top: it loads httpx, pydantic and SQLAlchemy
    from flagtui.archive.demo import DemoCollector

    if not db_path.exists():
        create_database(db_path, size=size, now=None, progress=False)  # present-day dates
    # Here, not at the top: it loads Starlette
    from flagtui.sandbox.rate_limit import PLENTY

    with SandboxServer(db_path, search_limit=PLENTY) as server:  # trying the app, not the limit
        collector = DemoCollector(archive_url, server.url, server.admin_token).start()
        try:
            print(json.dumps({"url": server.url, "token": server.admin_token}), flush=True)
            sys.stdout.close()
            with contextlib.suppress(Stop):
                sys.stdin.read()  # until the TUI's end closes it
        finally:
            collector.stop()
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main(sys.argv[1:]))
    except Stop:  # before the server was up: nothing to stop
        raise SystemExit(0) from None
