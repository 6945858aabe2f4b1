"""Serving the sandbox: `flagtui sandbox` and an in-process runner for tests and the demo."""

from __future__ import annotations

import argparse
import contextlib
import socket
import threading
import time
from datetime import datetime
from pathlib import Path
from types import TracebackType

import platformdirs
import uvicorn
from starlette.applications import Starlette

from flagtui.sandbox.app import attach_database, create_app
from flagtui.sandbox.auth import read_tokens
from flagtui.sandbox.create import create_database


def default_db_path() -> Path:
    return Path(platformdirs.user_data_dir("flagtui")) / "sandbox.db"


def _config(app: Starlette, host: str, port: int) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        lifespan="off",
        access_log=False,
        log_level="warning",
        timeout_graceful_shutdown=2,
    )


class SandboxServer:
    """Uvicorn serving the sandbox in a background thread (port 0 picks a free port)."""

    def __init__(
        self,
        db_path: Path | str,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        keep_all_deliveries: bool = False,
        search_limit: int | None = None,
    ) -> None:
        """`search_limit`: feature searches a minute per client IP (see `create_app`)."""
        self.db_path = Path(db_path)
        self.host = host
        self.port = port
        self.keep_all_deliveries = keep_all_deliveries
        self.search_limit = search_limit
        tokens = read_tokens(self.db_path)
        self.admin_token = tokens.admin
        self.viewer_token = tokens.viewer
        self.client_token = tokens.client
        self.app = create_app(
            self.db_path, keep_all_deliveries=keep_all_deliveries, search_limit=search_limit
        )
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def start(self, timeout: float = 10.0) -> SandboxServer:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        # proto IPPROTO_TCP (not 0): asyncio sets TCP_NODELAY on accepted connections only
        # then; without it every keep-alive response waits ~40 ms for a delayed ACK (Nagle).
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        self.port = sock.getsockname()[1]
        server = uvicorn.Server(_config(self.app, self.host, self.port))
        self._server = server
        self._thread = threading.Thread(
            target=server.run, kwargs={"sockets": [sock]}, name="flagtui-sandbox", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the sandbox server did not start")
            time.sleep(0.002)
        return self

    def use_database(
        self,
        db_path: Path | str,
        *,
        keep_all_deliveries: bool = False,
        search_limit: int | None = None,
    ) -> None:
        """Serve another database file from the next request on, without restarting; the
        search limit `search_limit`, else the server's, in a new window."""
        tokens = read_tokens(db_path)
        limit = self.search_limit if search_limit is None else search_limit
        attach_database(
            self.app, db_path, keep_all_deliveries=keep_all_deliveries, search_limit=limit
        )
        self.keep_all_deliveries = keep_all_deliveries
        self.db_path = Path(db_path)
        self.admin_token = tokens.admin
        self.viewer_token = tokens.viewer
        self.client_token = tokens.client

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)
        self._server = self._thread = None

    def __enter__(self) -> SandboxServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def run_sandbox_command(args: argparse.Namespace, *, now: datetime | None = None) -> int:
    """`flagtui sandbox`: create the database if needed, print URL and tokens, serve.

    A new database is generated around `now`, by default the present (people run this), so
    ages, staleness and "last seen" read naturally; tests and screenshots build theirs with
    `create_database`'s fixed default instead."""
    db_path = Path(args.db) if args.db else default_db_path()
    if args.reset or not db_path.exists():
        print(f"Creating {args.size} sandbox data in {db_path} ...", flush=True)
        create_database(db_path, size=args.size, now=now, progress=True)
    tokens = read_tokens(db_path)
    app = create_app(db_path, keep_all_deliveries=args.keep_all_deliveries)
    config = _config(app, args.host, args.port)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"flagtui sandbox serving {db_path}", flush=True)
    print(f"  URL:          http://{host}:{args.port}", flush=True)
    print(f"  admin token:  {tokens.admin}", flush=True)
    print(f"  viewer token: {tokens.viewer}", flush=True)
    if tokens.client is not None:  # databases made before client tokens have none
        print(f"  client token: {tokens.client}", flush=True)
    print("Press Ctrl-C to stop.", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run()
    return 0
