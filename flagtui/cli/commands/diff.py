"""`flagtui diff -P A -P B [--project P] [FLAG…]`: what differs between two servers (one Unleash
per stage); `flagtui diff [-P A] --env E1 --env E2`: between two environments of one. Flags on
one side only, their type, and per environment: on or off, the strategies as they evaluate, the
variants (fleet/drift.py). `--rewrite-project P`: the first side's flags compared as if they
were in P (the second side read in P), as `flagtui promote --rewrite-project P` lands them.
Reads only: both sides a page at a time (as `flagtui export`), compared as they are read."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys

from flagtui.cli.completion import profile_names
from flagtui.cli.exits import USAGE, report
from flagtui.cli.formats import FORMATS
from flagtui.cli.output import Printer, default_format
from flagtui.cli.runner import open_client
from flagtui.config import load_config, select_profile
from flagtui.words import counted


def options(p: argparse.ArgumentParser) -> None:
    p.set_defaults(start=start)

    p.add_argument(
        "flags", nargs="*", metavar="FLAG", help="these flags only (default: every flag)"
    )
    p.add_argument(
        "-P", "--profile", dest="profiles", action="append", default=[], metavar="PROFILE",
        help="twice: the two servers to compare; once (or not: default_profile) with two --env",
    ).completer = profile_names  # type: ignore[attr-defined]  # fmt: skip
    p.add_argument(
        "--env", dest="envs", action="append", default=[], metavar="ENV",
        help="twice: the two environments of one server to compare",
    )  # fmt: skip
    p.add_argument("--project", help="this project only (default: every project)")
    p.add_argument(
        "--rewrite-project", metavar="PROJECT",
        help="compare the first side's flags as if they were in this project, the second"
        " side's of this project (as promote --rewrite-project lands them)",
    )  # fmt: skip
    p.add_argument(
        "-o", "--output", choices=FORMATS, default=None,
        help="table on a terminal, json when piped (default); jsonl: one record per line",
    )  # fmt: skip


def start(args: argparse.Namespace, rest: list[str]) -> int:
    printer = Printer(args.output or default_format())
    two_servers = len(args.profiles) == 2 and not args.envs
    two_envs = len(args.profiles) <= 1 and len(args.envs) == 2
    if not (two_servers or two_envs):
        print("flagtui: diff: give -P twice (two servers) or --env twice (two environments "
              "of one server)", file=sys.stderr)  # fmt: skip
        return USAGE
    try:
        return asyncio.run(_diff(args, printer))
    except KeyboardInterrupt:
        print("flagtui: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        return report(exc, as_json=printer.is_json)


async def _diff(args: argparse.Namespace, out: Printer) -> int:
    # Here, not at the top: it loads the client's models
    from flagtui.fleet.drift import Reading, compare, words

    config = load_config()
    names = args.profiles or [None]
    profiles = [select_profile(config, name) for name in names]
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(open_client(p)) for p in profiles]
        for client in clients:
            await client.connect()
        # The second side is read in the project the first one's flags are compared in.
        projects = [args.project, args.rewrite_project or args.project]
        if len(profiles) == 2:
            pairs = zip(profiles, clients, projects, strict=True)
            left, right = (Reading(p.name, c, project, None) for p, c, project in pairs)
        else:
            left, right = (Reading(env, clients[0], project, env)
                           for env, project in zip(args.envs, projects, strict=True))  # fmt: skip
        found = await compare(left, right, rewrite_project=args.rewrite_project,
                              only=set(args.flags))  # fmt: skip
    out.columns = ("project", "featureName", "what", left.label, right.label)
    if out.is_json or out.format == "csv":
        out.many(found)
    else:  # a person reads strategies and variants in words, as the detail shows them
        out.many([{**row, left.label: words(row[left.label]),
                   right.label: words(row[right.label])} for row in found])  # fmt: skip
    if not out.is_json:
        print(f"flagtui: {counted(len(found), 'difference')} between {left.label} and"
              f" {right.label}",
              file=sys.stderr)  # fmt: skip
    return 0
