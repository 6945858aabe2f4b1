"""Runs one scriptable command: picks the profile, opens its client (connected), calls the
command's run function; errors to exit codes; --dry-run stops the first write unsent.

Read-only profiles are refused before any request (before connecting, too): the client's own
check stays the one that holds for every write, this one only saves a round trip. A write on a
production profile is confirmed too, in one question (`session.confirm_production`).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import gc
import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flagtui.api.errors import ReadOnlyProfile
from flagtui.cli.exits import OK, report
from flagtui.cli.output import Printer, default_format, warn
from flagtui.cli.session import DryRunStop, confirm_production, production_before_write
from flagtui.config import Profile, check_ca_bundle, resolve_token
from flagtui.config.profiles import load_config, select_profile
from flagtui.display import clean

if TYPE_CHECKING:
    import httpx

    from flagtui.api import AdminClient
    from flagtui.cli.session import Command

TLS_UNVERIFIED = (
    "profile {profile} does not verify the server's TLS certificate (verify_tls = false): anyone"
    " on the way can read its token and answer for the server; set ca_bundle instead"
)


def open_client(
    profile: Profile,
    *,
    dry_run: bool = False,
    before_write: Callable[[str], None] | None = None,
    stop_reads: bool = False,
) -> AdminClient:
    """The profile's client (the HTTP library and the models imported now); with `dry_run`
    its writes are stopped unsent, and its reads too with `stop_reads`."""
    # Here, not at the top: they load httpx and pydantic
    from flagtui.api import AdminClient
    from flagtui.cli.dry_run import stop_every, stop_writes

    check_ca_bundle(profile)
    return AdminClient(
        profile.url,
        resolve_token(profile).token,
        profile=profile.name,
        read_only=profile.read_only,
        timeout=profile.timeout,
        verify=profile.verify,
        request_hook=(stop_every if stop_reads else stop_writes) if dry_run else None,
        before_write=before_write,
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
        confirm_production(args, profile)
        if profile.tls_verification_off and profile.url.startswith("https:"):
            warn(printer, "tls-unverified", TLS_UNVERIFIED.format(profile=profile.name))

        return asyncio.run(_run(profile, command, printer, args)) or OK
    except DryRunStop as stop:
        show_request(printer, stop.request, stop.shown)
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
    dry_run = getattr(args, "dry_run", False)
    ask = production_before_write(args)
    stop_reads = getattr(args, "dry_run_stops_reads", False)
    async with open_client(
        profile, dry_run=dry_run, before_write=ask, stop_reads=stop_reads
    ) as client:
        if getattr(args, "connect_first", True):  # `collect` and `failures` connect themselves
            await client.connect()
        return await command(client, printer, args)


def request_shown(request: httpx.Request) -> dict[str, Any]:
    """A request --dry-run stopped, as printed: method, path and body."""
    body: Any = json.loads(request.content) if request.content else None
    return {"dryRun": True, "method": request.method, "path": request.url.path, "body": body}


def show_request(
    printer: Printer, request: httpx.Request, shown: dict[str, Any] | None = None
) -> None:
    sent = {**request_shown(request), **(shown or {})}
    body = sent["body"]
    if printer.is_json:
        printer.line(sent) if printer.format == "jsonl" else printer.one(sent)
    else:
        print(clean(f"dry run: would send {request.method} {sent['path']}"))
        if body is not None:
            print(json.dumps(body, indent=2))
        print("nothing was sent")
