"""`flagtui env link`: link an environment to a project (its flags get it, switched off)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.done import done
from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, env_link, write="link environment")
    p.add_argument("project")
    p.add_argument("environment", metavar="ENV")


async def env_link(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    await client.environments.link(args.project, args.environment)
    done(out, "project-environment-added", project=args.project, environment=args.environment)
