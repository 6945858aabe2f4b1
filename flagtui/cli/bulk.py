"""Several flags in one command (`feature archive|revive PROJECT NAME... | --stdin`): the plan
first (`--dry-run` prints it, each request unsent), asked once, then one request per flag, a few
at a time; each flag's own outcome is said (done, nothing to do, refused and why, unknown and how
to check), never all or nothing. One name without --stdin stays the one-flag command.

Per-flag requests, not Unleash's bulk routes: each flag is read first (already archived? there at
all?) and its outcome is its own, where a bulk route refuses or applies the whole list at once.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from flagtui.cli.exits import (
    AUTH,
    NOT_FOUND,
    NOT_SUPPORTED,
    OK,
    OUTCOME_UNKNOWN,
    UNREACHABLE,
    USAGE,
    UsageError,
    classify,
    envelope,
)
from flagtui.cli.output import Printer, say
from flagtui.display import clean

MAX_FLAGS = 1000
# Requests in flight at once: a server's rate limits are shared with the people using it.
CONCURRENT = 4
# The exit code of a mixed result: the outcome that most needs a person's eyes first.
WORST_FIRST = (OUTCOME_UNKNOWN, UNREACHABLE, AUTH, NOT_FOUND, NOT_SUPPORTED, USAGE)
COLUMNS = ("featureName", "outcome", "detail")

One = Callable[[str], Awaitable[dict[str, Any]]]


def add_names(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", nargs="*", help="one flag or several")
    p.add_argument(
        "--stdin", action="store_true", help="read the flags' names from stdin, one a line"
    )


def names_of(args: argparse.Namespace) -> list[str]:
    """The flags asked for, in order, each once."""
    names = list(args.name)
    if args.stdin:
        if names:
            raise UsageError("name: give the flags' names or --stdin, not both")
        names = [line.strip() for line in sys.stdin if line.strip()]
    if not names:
        raise UsageError("name: give at least one flag's name, or --stdin")
    names = list(dict.fromkeys(names))
    if len(names) > MAX_FLAGS:
        raise UsageError(f"name: {len(names)} flags; at most {MAX_FLAGS} in one command")
    return names


def is_bulk(args: argparse.Namespace) -> bool:
    return bool(args.stdin) or len(args.name) > 1


def show_plan(what: str, names: list[str]) -> None:
    """On a terminal, before asking: every flag the change will touch."""
    print(clean(f"{what}:"), file=sys.stderr)
    for name in names:
        print(clean(f"  {name}"), file=sys.stderr)


async def each(names: list[str], one: One) -> list[dict[str, Any]]:
    """`one` for every flag, CONCURRENT at a time; each flag's outcome as a record."""
    import asyncio  # here: the command line loads this module to add its options

    from flagtui.api import NothingToSend
    from flagtui.cli.runner import DryRunStop, request_shown

    gate = asyncio.Semaphore(CONCURRENT)

    async def outcome(name: str) -> dict[str, Any]:
        async with gate:
            try:
                return {"featureName": name, "outcome": "done", **await one(name)}
            except NothingToSend as already:
                return {"featureName": name, "outcome": "unchanged", "detail": str(already)}
            except DryRunStop as stop:
                sent = request_shown(stop.request)
                detail = f"would send {sent['method']} {sent['path']}"
                return {"featureName": name, "outcome": "planned", "detail": detail, **sent}
            except Exception as exc:  # this flag's outcome, not the command's
                _, code = classify(exc)
                said = "unknown" if code == OUTCOME_UNKNOWN else "refused"
                if code == UNREACHABLE:
                    said = "failed"
                error = envelope(exc)["error"]
                return {"featureName": name, "outcome": said, "detail": error["message"],
                        "exitCode": code, "error": error}  # fmt: skip

    return list(await asyncio.gather(*(outcome(name) for name in names)))


def outcomes(out: Printer, results: list[dict[str, Any]]) -> int:
    """Every flag's outcome; the exit code of the worst (0 when each is done or unchanged)."""
    for row in results:
        row.setdefault("detail", row.get("done") or "")
    out.many(results)
    codes = {row["exitCode"] for row in results if "exitCode" in row}
    counts: dict[str, int] = {}
    for row in results:
        counts[row["outcome"]] = counts.get(row["outcome"], 0) + 1
    summary = ", ".join(f"{n} {outcome}" for outcome, n in counts.items())
    unsent = "; nothing was sent" if "planned" in counts else ""
    say(out, f"{len(results)} flags: {summary}{unsent}", {"flags": len(results), **counts})
    return next((code for code in WORST_FIRST if code in codes), OK)
