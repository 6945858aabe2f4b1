"""`flagtui feature enable|disable`: switch flags on or off in one environment; in an
environment of type production, confirm first. Several names (or --stdin) make one plan, asked
once, each flag's outcome its own (cli/bulk.py)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from flagtui.cli import bulk
from flagtui.cli.session import confirm, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.cli.output import Printer


def enable_options(p: argparse.ArgumentParser) -> None:
    _options(p, "enable")


def disable_options(p: argparse.ArgumentParser) -> None:
    _options(p, "disable")


def _options(p: argparse.ArgumentParser, verb: str) -> None:
    scriptable(p, feature_switch, write=f"{verb} feature", destructive=True, columns=bulk.COLUMNS)
    p.add_argument("project")
    bulk.add_names(p)
    p.add_argument("environment", metavar="ENV")


async def feature_switch(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    """`feature enable|disable`: in an environment of type production, confirm first."""
    from flagtui.cli.done import done

    names = bulk.names_of(args)
    enabled = args.verb == "enable"
    state = "on" if enabled else "off"
    event = "feature-environment-enabled" if enabled else "feature-environment-disabled"

    async def switch(name: str) -> dict[str, Any]:
        await client.features.set_environment_enabled(args.project, name, args.environment, enabled)
        return {"done": event, "project": args.project, "environment": args.environment}

    envs = await client.environments.list(args.project)
    env = next((e for e in envs if e.name == args.environment), None)
    production = env is not None and env.type == "production"
    if not bulk.is_bulk(args):
        if production:
            what = f"switch {names[0]} {state} in production environment {args.environment}"
            confirm(args, what, args.environment)
        await switch(names[0])
        done(out, event, project=args.project, featureName=names[0], environment=args.environment)
        return 0
    what = f"switch {len(names)} flags {state} in environment {args.environment}"
    if production:
        what = f"switch {len(names)} flags {state} in production environment {args.environment}"
        if sys.stdin.isatty() and not (args.yes or args.dry_run):
            bulk.show_plan(what, names)
        confirm(args, what, args.environment)
    return bulk.outcomes(out, await bulk.each(names, switch))
