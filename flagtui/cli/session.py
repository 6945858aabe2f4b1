"""What a scriptable command's module uses while the command line is built and when it runs:
its first options (`scriptable`), the typed-name confirmation of destructive commands, JSON
input. `runner.py` runs the command (the profile's client, connected; errors to exit codes;
--dry-run).

Every command's module imports this one for its options, so `--help` imports it: it imports no
client, no model and no HTTP library (tests/cli/test_start_imports.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from flagtui.cli.exits import Refused, UsageError
from flagtui.cli.output import Printer
from flagtui.config import Profile
from flagtui.display import clean

if TYPE_CHECKING:
    import httpx

    from flagtui.api import AdminClient

    Command = Callable[[AdminClient, Printer, argparse.Namespace], Awaitable[int | None]]


def scriptable(
    parser: argparse.ArgumentParser,
    run: Command,
    *,
    columns: tuple[str, ...] = (),
    write: str | None = None,
    destructive: bool = False,
) -> None:
    """A scriptable command's first options: its run function and its table's columns; for a
    write, the action a read-only profile refuses, `--dry-run` and `--yes` (a production
    profile asks before every write; a destructive command asks on any profile)."""
    parser.set_defaults(run=run, columns=columns, write_action=write, asks_itself=destructive)
    if write:
        parser.add_argument(
            "--dry-run", action="store_true", help="print the request; send nothing"
        )
    if write or destructive:
        asks = "" if destructive else " (a production profile asks before any write)"
        parser.add_argument(
            "--yes", action="store_true", help=f"do not ask{asks}; required when not on a terminal"
        )


class DryRunStop(Exception):
    """The write a --dry-run would have sent, stopped before it left (cli/dry_run.py); the
    runner prints it."""

    def __init__(self, request: httpx.Request) -> None:
        self.request = request
        self.shown: dict[str, Any] = {}  # what the command adds to it (a preview)
        super().__init__(f"{request.method} {request.url.path}")


def confirm_production(args: argparse.Namespace, profile: Profile) -> None:
    """A write on a production profile, whatever the environment's type: `--yes`, or on a
    terminal one typed question; otherwise refused before any request. A command with its own
    question (`destructive`) says the profile in that question (`confirm`) instead of asking a
    second one; where it has none to ask, the profile's is asked before its first write
    (`production_before_write`). Any other write asks now."""
    if not (profile.production and getattr(args, "write_action", None)):
        return
    if getattr(args, "asks_itself", False) and not _needs_no_question(args) and _on_terminal():
        args.production_profile = profile.name
        return
    confirm(args, f"{args.write_action} on production profile {profile.name}", profile.name)


def production_before_write(args: argparse.Namespace) -> Callable[[str], None]:
    """The client's last step before a write: the production profile's question, if the
    command's own question has not said it yet."""

    refused: list[Refused] = []  # once refused, every write of the command is (bulk sends)

    def ask(_action: str) -> None:
        if refused:
            raise refused[0]
        if name := getattr(args, "production_profile", None):
            args.production_profile = None  # the question below says it once
            try:
                confirm(args, f"{args.write_action} on production profile {name}", name)
            except Refused as no:
                refused.append(no)
                raise

    return ask


def confirm(args: argparse.Namespace, what: str, name: str) -> None:
    """Destructive commands: `--yes`, or on a terminal the typed name; otherwise refused. On a
    production profile the one question says so too."""
    if _needs_no_question(args):
        return
    if not _on_terminal():
        raise Refused(f"{what} needs --yes when not run on a terminal; nothing was sent")
    if profile := getattr(args, "production_profile", None):
        what = f"{what}, on production profile {profile}"
    print(clean(f"This will {what}. Type {name!r} to confirm: "), end="", file=sys.stderr)
    sys.stderr.flush()
    try:
        typed = sys.stdin.readline().strip()
    except KeyboardInterrupt:
        typed = ""
    if typed != name:
        raise Refused(f"not confirmed (expected {name!r}); nothing was sent")
    args.production_profile = None  # said and answered: the client does not ask it again


def _needs_no_question(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "yes", False) or getattr(args, "dry_run", False))


def _on_terminal() -> bool:
    return sys.stdin.isatty() and sys.stderr.isatty()


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
