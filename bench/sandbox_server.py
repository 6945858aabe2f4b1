"""Bench-only sandbox launcher: the flagtui sandbox behind a request-counting ASGI middleware.

    python bench/sandbox_server.py --db PATH [--size demo|large] [--port 0]

Creates the database if it does not exist, serves it on 127.0.0.1 (port 0 = a free port) and
prints one JSON line {"url", "admin", "viewer", "pid"} once it accepts connections. Every request
is counted by "METHOD path" except the bench's own routes:

    GET  /__bench__/requests   -> {"total": n, "by_route": {"GET /api/...": n, ...}}
    POST /__bench__/reset      -> zero the counters
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from flagtui.sandbox import SandboxServer, create_database
from flagtui.sandbox.rate_limit import PLENTY

BENCH_PREFIX = "/__bench__/"


class CountingMiddleware:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.counts: Counter[str] = Counter()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path.startswith(BENCH_PREFIX):
            await self._bench(scope, send)
            return
        self.counts[f"{scope['method']} {path}"] += 1
        await self.app(scope, receive, send)

    async def _bench(self, scope: dict[str, Any], send: Any) -> None:
        if scope["path"] == BENCH_PREFIX + "reset":
            self.counts.clear()
        body = json.dumps(
            {"total": sum(self.counts.values()), "by_route": dict(self.counts)}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--size", default="demo")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    db = Path(args.db)
    if not db.exists():
        create_database(db, size=args.size)
    server = SandboxServer(db, port=args.port, search_limit=PLENTY)
    server.app = CountingMiddleware(server.app)  # type: ignore[assignment]
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    with server:
        print(
            json.dumps(
                {
                    "url": server.url,
                    "admin": server.admin_token,
                    "viewer": server.viewer_token,
                    "pid": os.getpid(),
                }
            ),
            flush=True,
        )
        stop.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
