"""`flagtui promote -P FROM -P TO [--project P]… [FLAG…]`: one server's flags made another's
(one Unleash per stage); `flagtui promote [-P PROFILE] --env FROM --env TO`: one environment's
made another's, on one server. The two sides are named as `flagtui diff` names them, the
source first; with two servers, `--env E` (repeatable) picks the environments promoted
(default: every one the projects share).

Export, plan and apply in one, through their own code: the source's flags file is made in
memory by export's writer and read back by plan's reader (fleet/promote.py), its projects
(`--rewrite-project`) or environment renamed for the target, planned against the target by
plan's `make_plan`, shown as `plan` shows it, asked once and sent and read back by apply's
own path (a production target: its profile's name typed). `--dry-run`: the plan only, as
`flagtui plan` says it (exit 1: changes planned); nothing is sent.

The target is the one written: a read-only target is refused before any request; the source
is only read (its client stops any write)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from flagtui.cli.completion import profile_names
from flagtui.cli.exits import USAGE
from flagtui.cli.formats import FORMATS
from flagtui.cli.output import Printer

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.fleet.flags_file import FlagsFile

WRITE_ACTION = "promote flags"


def options(p: argparse.ArgumentParser) -> None:
    p.set_defaults(start=start)
    p.add_argument(
        "flags", nargs="*", metavar="FLAG",
        help="these flags only (with one --project); default: every flag of the projects",
    )  # fmt: skip
    p.add_argument(
        "-P", "--profile", dest="profiles", action="append", default=[], metavar="PROFILE",
        help="twice: the source's server, then the target's; once (or not: default_profile)"
        " with two --env",
    ).completer = profile_names  # type: ignore[attr-defined]  # fmt: skip
    p.add_argument(
        "--env", dest="envs", action="append", default=[], metavar="ENV",
        help="twice: the source environment, then the target, of one server; with -P twice,"
        " an environment to promote (repeatable; default: every one the projects share)",
    )  # fmt: skip
    p.add_argument(
        "--project", dest="projects", action="append", default=[], metavar="PROJECT",
        help="a project to promote (repeatable; default: every project)",
    )  # fmt: skip
    p.add_argument(
        "--rewrite-project", metavar="PROJECT",
        help="the flags land in this project of the target (default: each in its own)",
    )  # fmt: skip
    p.add_argument(
        "--prune", action="store_true",
        help="archive the target's flags of the projects that the source lacks "
        "(default: left alone)",
    )  # fmt: skip
    p.add_argument(
        "--users", type=int, default=1_000, metavar="N",
        help="synthetic users each changed flag of the plan is evaluated for (default 1,000)",
    )  # fmt: skip
    p.add_argument(
        "--dry-run", action="store_true",
        help="the plan only, as `flagtui plan` says it (exit 1: changes); send nothing",
    )  # fmt: skip
    p.add_argument("--yes", action="store_true", help="do not ask; required when not on a terminal")
    p.add_argument(
        "-o", "--output", choices=FORMATS, default=None,
        help="table on a terminal, json when piped (default); jsonl: one record per line",
    )  # fmt: skip


def start(args: argparse.Namespace, rest: list[str]) -> int:
    # Here, not at the top: it loads the runner's config and error reporting
    from flagtui.cli.runner import run

    two_servers = len(args.profiles) == 2
    two_envs = len(args.profiles) <= 1 and len(args.envs) == 2
    said = None
    if not (two_servers or two_envs):
        said = ("give -P twice (from one server to another) or --env twice (from one "
                "environment to another of one server)")  # fmt: skip
    elif args.flags and len(args.projects) != 1:
        said = "flags named need exactly one --project (theirs)"
    if said:
        print(f"flagtui: promote: {said}", file=sys.stderr)
        return USAGE
    # The runner opens the target, the profile written to: its read-only refusal, production
    # question and errors are every write's.
    args.profile = args.profiles[-1] if args.profiles else None
    args.write_action, args.asks_itself = WRITE_ACTION, True
    return run(args, promote)


async def promote(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    # Here, not at the top: they load the client's models and the SDKs' engine
    from flagtui.cli.commands.plan import MAX_USERS
    from flagtui.cli.exits import UsageError
    from flagtui.cli.runner import open_client
    from flagtui.config import load_config, select_profile

    if not 1 <= args.users <= MAX_USERS:
        raise UsageError(f"--users: from 1 to {MAX_USERS:,}")
    if len(args.profiles) == 2:
        source = select_profile(load_config(), args.profiles[0])
        async with open_client(source, dry_run=True) as reader:  # reads only, whatever happens
            await reader.connect()
            file = await _file_of(reader, args)
        where = f"from profile {source.name} to profile {args.selected_profile.name}"
    else:
        file = await _file_of(client, args)
        where = (f"from {args.envs[0]} to {args.envs[1]} on profile "
                 f"{args.selected_profile.name}")  # fmt: skip
    return await _plan_and_send(client, out, args, file, where)


async def _file_of(client: AdminClient, args: argparse.Namespace) -> FlagsFile:
    """The source's flags file, renamed for the target."""
    from flagtui.fleet.promote import promotion_file

    if len(args.profiles) < 2:
        return await promotion_file(client, args.projects, environments=args.envs[:1],
                                    to_environment=args.envs[1], flags=args.flags,
                                    rewrite_project=args.rewrite_project)  # fmt: skip
    return await promotion_file(client, args.projects, environments=args.envs, flags=args.flags,
                                rewrite_project=args.rewrite_project)  # fmt: skip


async def _plan_and_send(
    client: AdminClient, out: Printer, args: argparse.Namespace, file: FlagsFile, where: str
) -> int:
    from flagtui.cli.commands.apply import send_plan
    from flagtui.cli.commands.plan import show
    from flagtui.fleet.plan import make_plan
    from flagtui.fleet.promote import check_target

    await check_target(client, file)
    planned = await make_plan(client, file, users=args.users, prune=args.prune)
    if args.dry_run:
        return show(out, planned)
    projects = ", ".join(file.projects)
    question = f"promote the flags of {projects} {where}"
    return await send_plan(client, out, args, planned, question, "promote")
