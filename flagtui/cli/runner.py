"""Runs one scriptable command: picks the profile, opens its client (connected), calls the
command's run function; errors to exit codes; --dry-run stops the first write unsent.

Read-only profiles are refused before any request (before connecting, too): the client's own
check stays the one that holds for every write, this one only saves a round trip.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import gc
import json
import os
import ssl
import sys
from typing import TYPE_CHECKING, Any

import httpx

from flagtui.api import AdminClient, ReadOnlyProfile
from flagtui.cli.exits import OK, report
from flagtui.cli.output import Printer, default_format
from flagtui.config import Profile, check_ca_bundle, load_config, resolve_token, select_profile
from flagtui.display import clean

if TYPE_CHECKING:
    from flagtui.cli.session import Command


# POSTs that change nothing: the event search, and the name check a flag's creation asks first.
READING_POSTS = ("/events/search", "/api/admin/features/validate")


class DryRunStop(Exception):
    """The write a --dry-run would have sent, stopped before it left."""

    def __init__(self, request: httpx.Request) -> None:
        self.request = request
        super().__init__(f"{request.method} {request.url.path}")


class DryRunTransport(httpx.AsyncBaseTransport):
    """Reads go to the server (a write may need the record it changes); the first write is
    stopped here, unsent."""

    def __init__(self, verify: bool | ssl.SSLContext) -> None:
        self._real = httpx.AsyncHTTPTransport(verify=verify)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method in ("GET", "HEAD") or request.url.path.endswith(READING_POSTS):
            return await self._real.handle_async_request(request)
        raise DryRunStop(request)

    async def aclose(self) -> None:
        await self._real.aclose()


def open_client(profile: Profile, *, dry_run: bool = False) -> AdminClient:
    check_ca_bundle(profile)
    verify: bool | str = profile.ca_bundle or profile.verify_tls
    transport = None
    if dry_run:
        context = ssl.create_default_context(cafile=verify) if isinstance(verify, str) else verify
        transport = DryRunTransport(context)
    return AdminClient(
        profile.url,
        resolve_token(profile).token,
        profile=profile.name,
        read_only=profile.read_only,
        timeout=profile.timeout,
        verify=verify,
        transport=transport,
    )


def run(args: argparse.Namespace, command: Command, *, columns: tuple[str, ...] = ()) -> int:
    """Run one scriptable command: pick the profile, connect, call `command`; map errors."""
    # At exit CPython collects every cyclic object before freeing the modules: 0.3 s and more
    # on a loaded machine with pydantic and SQLAlchemy loaded (most of `collect`'s stop on
    # SIGTERM), for memory the system takes back anyway. Frozen objects are left out of it.
    atexit.unregister(gc.freeze)  # once, however many commands one process runs (tests)
    atexit.register(gc.freeze)
    printer = Printer(args.output or default_format(), columns)
    try:
        return _attempt(args, command, printer)
    except BrokenPipeError:
        # The reader stopped (`| head`): nothing more to say; stdout goes nowhere from here on.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return OK


def _attempt(args: argparse.Namespace, command: Command, printer: Printer) -> int:
    try:
        profile = select_profile(load_config(), getattr(args, "profile", None))
        args.selected_profile = profile  # for commands that need more than the client
        action = getattr(args, "write_action", None)
        if action and profile.read_only:
            raise ReadOnlyProfile(profile.name, action)
        return asyncio.run(_run(profile, command, printer, args)) or OK
    except DryRunStop as stop:
        show_request(printer, stop.request)
        return OK
    except KeyboardInterrupt:
        print("flagtui: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        raise
    except Exception as exc:
        return report(exc, as_json=printer.is_json)


async def _run(
    profile: Profile, command: Command, printer: Printer, args: argparse.Namespace
) -> int | None:
    async with open_client(profile, dry_run=getattr(args, "dry_run", False)) as client:
        if getattr(args, "connect_first", True):  # `collect` connects itself, and retries
            await client.connect()
        return await command(client, printer, args)


def request_shown(request: httpx.Request) -> dict[str, Any]:
    """A request --dry-run stopped, as printed: method, path and body."""
    body: Any = json.loads(request.content) if request.content else None
    return {"dryRun": True, "method": request.method, "path": request.url.path, "body": body}


def show_request(printer: Printer, request: httpx.Request) -> None:
    sent = request_shown(request)
    body = sent["body"]
    if printer.is_json:
        printer.line(sent) if printer.format == "jsonl" else printer.one(sent)
    else:
        print(clean(f"dry run: would send {request.method} {request.url.path}"))
        if body is not None:
            print(json.dumps(body, indent=2))
        print("nothing was sent")
