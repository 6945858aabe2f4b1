"""`flagtui env remove`: remove an environment from a project (confirm, or `--yes`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.done import done
from flagtui.cli.output import Printer
from flagtui.cli.session import confirm, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, env_remove, write="remove environment", destructive=True)
    p.add_argument("project")
    p.add_argument("environment", metavar="ENV")


async def env_remove(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    confirm(
        args, f"remove environment {args.environment} from project {args.project}", args.environment
    )
    await client.environments.remove(args.project, args.environment)
    done(out, "project-environment-removed", project=args.project, environment=args.environment)
