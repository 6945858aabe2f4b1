"""`flagtui segment list|show`: the server's segments (name, project, constraints in words,
how many flags use each), and one segment with where it is used (flags and strategies per
environment)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer, record
from flagtui.cli.segment_use import segment_argument, used_json, used_lines
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient

COLUMNS = ("id", "name", "project", "constraints", "usedInFeatures")


def list_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, segment_list, columns=COLUMNS)


def show_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, segment_show)
    segment_argument(p)


async def segment_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    from flagtui.rollout_words import constraints_text

    segments = await client.segments.list()
    if out.is_json:
        out.many(segments)
        return
    worded = [{**record(s), "constraints": constraints_text(s.constraints)} for s in segments]
    out.many([{**w, "constraints": w["constraints"] or "(none)"} for w in worded])


async def segment_show(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    from flagtui.rollout_words import constraints_text

    segment = await client.segments.find(args.segment)
    used = await client.segments.used_by(segment.id)
    if out.is_json or out.format == "csv":
        out.one({**record(segment), "usedBy": used_json(used)})
        return
    out.one(segment)
    out.note(f"constraints: {constraints_text(segment.constraints) or '(none: everyone)'}")
    for line in used_lines(used):
        out.note(line)
