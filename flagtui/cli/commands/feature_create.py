"""`flagtui feature create`: create a flag. The name is checked by the server's validation
route first (a name taken by a live or an archived flag is refused there; not by --dry-run,
which sends only reads), the type against the server's feature types; every environment
starts off, without strategies."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.done import done
from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_create, write="create feature")
    p.add_argument("project")
    p.add_argument("name")
    p.add_argument("--type", help="a feature type of the server (default: release)")
    p.add_argument("--description")
    p.add_argument(
        "--impression-data", action="store_true", help="SDKs emit impression events for it"
    )


async def feature_create(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    created = await client.features.create(
        args.project,
        args.name,
        type=args.type,
        description=args.description,
        impression_data=args.impression_data,
        check_name=not args.dry_run,  # the server's name check is a POST: a dry run sends none
    )
    done(out, "feature-created", project=args.project, featureName=created.name, type=created.type)
    out.note(
        f"next: flagtui feature strategy add {args.project} {created.name} ENV --rollout PERCENT"
    )
