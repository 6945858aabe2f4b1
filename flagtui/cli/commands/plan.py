"""`flagtui plan FILE [-P PROFILE]`: what applying a flags file (`flagtui export`'s) would
change on the profile's server, flag by flag and field by field, and for each flag whose
evaluation changes, how many of N synthetic users (`--users`, default 1,000) get it and which
variant, before → after, with the SDKs' engine, and what a typed context (`--context`) gets.
Segments and context fields the server lacks are creations; flags on the server but not in
the file are listed and left alone (`--prune` marks them to be removed by an apply). Each
changed flag names who changed it last, and when, from the event log: in cron or CI, `plan`
is the drift alarm. Reads only (fleet/plan.py).

Exit codes as `terraform plan -detailed-exitcode`: 0 nothing to do, 1 changes planned, and
the others as every command's (2 a file that is not a flags file, naming the field)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from flagtui.cli.context_input import context_option
from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable
from flagtui.display import clean

if TYPE_CHECKING:
    from flagtui.api import AdminClient

CHANGES_PLANNED = 1
MAX_USERS = 100_000


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, plan)
    p.add_argument("file", metavar="FILE", help="a flags file, as `flagtui export` writes it")
    p.add_argument(
        "--users", type=int, default=1_000, metavar="N",
        help="synthetic users (u-1 … u-N) each changed flag is evaluated for (default 1,000)",
    )  # fmt: skip
    said = ("a context field (repeatable) of the one context evaluated before and after, and"
            " given to the synthetic users (a property unless standard)")  # fmt: skip
    context_option(p, help=said)
    p.add_argument(
        "--prune", action="store_true",
        help="mark the flags on the server but not in the file for removal (default: left alone)",
    )  # fmt: skip


async def plan(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    # Here, not at the top: they load the client's models and the SDKs' engine
    from flagtui.cli.context_input import context_of
    from flagtui.cli.exits import UsageError
    from flagtui.fleet.flags_file import load
    from flagtui.fleet.plan import make_plan

    if not 1 <= args.users <= MAX_USERS:
        raise UsageError(f"--users: from 1 to {MAX_USERS:,}")
    contexts = [context_of(args.context)] if args.context else []
    file = load(args.file)
    planned = await make_plan(client, file, users=args.users, contexts=contexts,
                              prune=args.prune)  # fmt: skip
    return show(out, planned)


def show(out: Printer, planned: dict[str, Any]) -> int:
    """The plan on stdout (JSON, or lines for a person); the exit code it means."""
    # Here, not at the top: the words of a plan are fleet's, the TUI's too
    from flagtui.fleet.plan_words import lines

    if out.is_json:
        out.one(planned)
    else:
        for line in lines(planned):
            print(clean(line, multiline=False))
    return CHANGES_PLANNED if planned["changes"] else 0
