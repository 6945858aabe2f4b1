"""`flagtui feature clone`: a copy of a live flag under a new name, by Unleash's clone route (as
the web UI's "Clone"): its type, description and impression data, each environment's
strategies and variants, every environment off. The new name is checked as `feature create`
checks it (not by --dry-run, which sends only reads)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.done import done
from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_clone, write="clone feature")
    p.add_argument("project")
    p.add_argument("name", help="the flag to clone")
    p.add_argument("new_name", metavar="NEW_NAME", help="the clone's name (URL-friendly, free)")
    p.add_argument(
        "--replace-group-id",
        action="store_true",
        help="the clone's gradual rollouts group users by its own name (other users than the"
        " original's); without it they keep the original's groupId: the same users get both",
    )


async def feature_clone(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    created = await client.flag_ops.clone(
        args.project,
        args.name,
        args.new_name,
        replace_group_id=args.replace_group_id,
        check_name=not args.dry_run,  # the server's name check is a POST: a dry run sends none
    )
    copied = sum(len(e.strategies or []) for e in created.environments or [])
    done(
        out,
        "feature-created",
        project=args.project,
        featureName=created.name,
        clonedFrom=args.name,
        strategies=copied,
        replaceGroupId=args.replace_group_id,
    )
    out.note(f"next: flagtui feature enable {args.project} {created.name} ENV (every one is off)")
