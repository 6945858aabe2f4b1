"""`flagtui segment delete`: delete a segment no strategy uses. Real Unleash refuses to delete
one in use (409): that is said before anything is sent, naming the strategies (exit 2). An
unused one is deleted after its name is typed (or --yes)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.done import done
from flagtui.cli.output import Printer
from flagtui.cli.segment_use import segment_argument, tell_used
from flagtui.cli.session import confirm, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, segment_delete, write="delete segment", destructive=True)
    segment_argument(p)


async def segment_delete(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    segment = await client.segments.find(args.segment)
    used = await client.segments.used_by(segment.id)
    tell_used(out, used)
    client.segments.plan_delete(segment, used)  # in use: refused here, nothing sent
    confirm(args, f"delete segment {segment.name} (id {segment.id})", segment.name)
    await client.segments.delete(segment)
    done(out, "segment-deleted", id=segment.id, name=segment.name)
