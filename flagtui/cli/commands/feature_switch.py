"""`flagtui feature enable|disable`: switch a flag on or off in one environment; in an
environment of type production, confirm first."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.done import done
from flagtui.cli.output import Printer
from flagtui.cli.session import confirm, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def enable_options(p: argparse.ArgumentParser) -> None:
    _options(p, "enable")


def disable_options(p: argparse.ArgumentParser) -> None:
    _options(p, "disable")


def _options(p: argparse.ArgumentParser, verb: str) -> None:
    scriptable(p, feature_switch, write=f"{verb} feature", destructive=True)
    p.add_argument("project")
    p.add_argument("name")
    p.add_argument("environment", metavar="ENV")


async def feature_switch(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    """`feature enable|disable`: in an environment of type production, confirm first."""
    enabled = args.verb == "enable"
    envs = await client.environments.list(args.project)
    env = next((e for e in envs if e.name == args.environment), None)
    if env is not None and env.type == "production":
        state = "on" if enabled else "off"
        what = f"switch {args.name} {state} in production environment {args.environment}"
        confirm(args, what, args.environment)
    await client.features.set_environment_enabled(
        args.project, args.name, args.environment, enabled
    )
    event = "feature-environment-enabled" if enabled else "feature-environment-disabled"
    done(out, event, project=args.project, featureName=args.name, environment=args.environment)
