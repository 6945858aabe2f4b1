"""What every scriptable command shares: its first options (`scriptable`); the profile's client,
connected; errors to exit codes; the typed-name confirmation of destructive commands; --dry-run.

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
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from flagtui.api import AdminClient, ReadOnlyProfile
from flagtui.cli.exits import OK, Refused, UsageError, report
from flagtui.cli.output import Printer, default_format
from flagtui.config import Profile, check_ca_bundle, load_config, resolve_token, select_profile
from flagtui.display import clean

Command = Callable[[AdminClient, Printer, argparse.Namespace], Awaitable[int | None]]


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


def scriptable(
    parser: argparse.ArgumentParser,
    run: Command,
    *,
    columns: tuple[str, ...] = (),
    write: str | None = None,
    destructive: bool = False,
) -> None:
    """A scriptable command's first options: its run function and its table's columns; for a
    write, the action a read-only profile refuses and `--dry-run`; `--yes` if destructive."""
    parser.set_defaults(run=run, columns=columns, write_action=write)
    if write:
        parser.add_argument(
            "--dry-run", action="store_true", help="print the request; send nothing"
        )
    if destructive:
        parser.add_argument(
            "--yes", action="store_true", help="do not ask (required when not on a terminal)"
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


def confirm(args: argparse.Namespace, what: str, name: str) -> None:
    """Destructive commands: `--yes`, or on a terminal the typed name; otherwise refused."""
    if getattr(args, "yes", False) or getattr(args, "dry_run", False):
        return
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        raise Refused(f"{what} needs --yes when not run on a terminal; nothing was sent")
    print(clean(f"This will {what}. Type {name!r} to confirm: "), end="", file=sys.stderr)
    sys.stderr.flush()
    try:
        typed = sys.stdin.readline().strip()
    except KeyboardInterrupt:
        typed = ""
    if typed != name:
        raise Refused(f"not confirmed (expected {name!r}); nothing was sent")


def read_json_input(source: str, option: str) -> Any:
    """A JSON document from a file, or stdin for `-`, given as `option`."""
    named = f"{option} {source}"
    try:
        text = sys.stdin.read() if source == "-" else open(source, encoding="utf-8").read()  # noqa: SIM115
    except OSError as exc:
        raise UsageError(f"{named}: cannot be read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{named}: not UTF-8 text ({exc.reason})") from None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise UsageError(f"{named}: not valid JSON ({exc})") from None
    except RecursionError:
        raise UsageError(f"{named}: nested too deeply to read as JSON") from None
