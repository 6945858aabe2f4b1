"""`flagtui segment create|edit`: a segment's name, description, project and constraints,
checked against the server (its context fields, projects and segments) before anything is sent.
An edit says where the segment is used and previews every flag it changes: for each flag and
environment whose strategies use it, how many of N synthetic userIds get the flag before →
after (the SDKs' engine, on the segment as the server will store it); an edit of a segment in
use asks (its name typed) unless --yes."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli import rollout_input
from flagtui.cli.done import done, unchanged
from flagtui.cli.output import Printer, record
from flagtui.cli.rollout_preview import previewed_json, sent
from flagtui.cli.segment_use import preview_options, previewed, segment_argument, tell_used
from flagtui.cli.session import confirm, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.segments import SegmentSpec

CONSTRAINT_HELP = f"{rollout_input.CONSTRAINT_HELP}; repeatable"


def create_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, segment_create, write="create segment")
    p.add_argument("name")
    _field_options(p)


def edit_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, segment_edit, write="edit segment", destructive=True)
    segment_argument(p)
    p.add_argument("--name", help="a new name")
    _field_options(p)
    p.add_argument("--no-project", action="store_true", help="belong to no project (global)")
    p.add_argument(
        "--clear-constraints", action="store_true", help="no constraints (everyone matches)"
    )
    preview_options(p)
    p.add_argument(
        "--anyway",
        action="store_true",
        help="changed by someone else since it was read: send it all the same (else nothing is"
        " sent, exit 2)",
    )


def _field_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--description")
    p.add_argument("--project", help="the project it belongs to (default: none, global)")
    p.add_argument("--constraint", action="append", metavar="CONSTRAINT", help=CONSTRAINT_HELP)


async def segment_create(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    from flagtui.api.segments import SegmentSpec

    catalog = await client.rollouts.catalog()
    projects = [p.id for p in await client.projects.list()]
    constraints = [rollout_input.constraint(c) for c in args.constraint or []]
    spec = SegmentSpec(args.name, args.description, args.project, constraints)
    made = await client.segments.create(client.segments.plan_create(spec, catalog, projects))
    done(out, "segment-created", id=made.id, name=made.name)


def _spec(args: argparse.Namespace, now: SegmentSpec) -> SegmentSpec:
    from dataclasses import replace

    spec = replace(now, name=args.name if args.name is not None else now.name)
    if args.description is not None:
        spec = replace(spec, description=args.description or None)
    if args.no_project or args.project is not None:
        spec = replace(spec, project=None if args.no_project else args.project)
    if args.clear_constraints or args.constraint:
        typed = [rollout_input.constraint(c) for c in args.constraint or []]
        spec = replace(spec, constraints=typed)
    return spec


async def segment_edit(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    from flagtui.api import NothingToSend
    from flagtui.api.edits import EditConflict
    from flagtui.api.segments import SegmentSpec

    segment = await client.segments.find(args.segment)
    used = await client.segments.used_by(segment.id)
    catalog = await client.rollouts.catalog()
    projects = [p.id for p in await client.projects.list()]
    now = SegmentSpec(segment.name, segment.description, segment.project, segment.constraints)
    try:
        edit = client.segments.plan_edit(segment, _spec(args, now), catalog, projects)
    except NothingToSend as nothing:
        unchanged(out, nothing, id=segment.id)
        return
    tell_used(out, used)
    said = await previewed(client, out, args, segment, used, edit.plan.body["constraints"])
    if used:
        flags = len({(u.project_id, u.feature_name) for u in used})
        what = f"edit segment {segment.name}, changing who gets {flags} flags"
        confirm(args, what, segment.name)
    try:
        stored = await sent(client.segments.send_edit(edit, anyway=args.anyway), said)
    except EditConflict as moved:
        for line in moved.lines():
            out.note(f"changed since read: {line}")
        raise
    done(out, "segment-updated", id=stored.id, name=stored.name, **previewed_json(out, said))
    if not out.is_json:
        out.note(f"stored: {record(stored)}")
