"""`flagtui export --project P --env E [--env E2] [-f FILE]`: a project's flags (or several
projects', or the flags named) and one or more environments, as a flags file to review in a
pull request (TOML, its JSON Schema in docs/flags-file.schema.json; fleet/flag_export.py).

TOML rather than YAML: the standard library reads it (`tomllib`), tomli-w (a dependency
already) writes it, and it has no implicit typing (a value `no` or `1.10` stays what it was
written as). An export of an unchanged server is byte-identical: no ids, no dates, every list
in a fixed order. Flags are read a page at a time and written as they come; a file is written
beside FILE and moved over it once complete."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer, say
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, export)
    p.add_argument(
        "flags", nargs="*", metavar="FLAG",
        help="these flags only (with one --project); default: every flag of the projects",
    )  # fmt: skip
    p.add_argument(
        "--project", dest="projects", action="append", default=[], metavar="PROJECT",
        help="a project to export (repeatable; default: every project)",
    )  # fmt: skip
    p.add_argument(
        "--env", dest="envs", action="append", default=[], metavar="ENV", required=True,
        help="an environment to export (repeatable)",
    )  # fmt: skip
    p.add_argument(
        "-f", "--file", metavar="FILE", help="write the file here (default: standard output)"
    )


async def export(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    # Here, not at the top: they load the client's models
    from flagtui.cli.exits import UsageError
    from flagtui.fleet.flag_export import Selection, resolve, write_file

    if args.flags and len(args.projects) != 1:
        raise UsageError("export: flags named need exactly one --project (theirs)")
    selection = await resolve(client, Selection(args.projects, args.envs, args.flags))
    if not args.file:
        written = await write_file(client, selection, sys.stdout)
        sys.stdout.flush()
    else:
        partial = f"{args.file}.partial"
        try:
            with open(partial, "w", encoding="utf-8", newline="\n") as stream:
                written = await write_file(client, selection, stream)
            os.replace(partial, args.file)
        except BaseException:
            if os.path.exists(partial):
                os.unlink(partial)
            raise
    where = args.file or "standard output"
    requests = client.requests_sent
    fields = {"flags": written.flags, "segments": written.segments,
              "contextFields": written.context_fields, "requests": requests}  # fmt: skip
    said = (f"exported {written.flags} flags, {written.segments} segments and "
            f"{written.context_fields} context fields to {where} "
            f"({requests} requests)")  # fmt: skip
    say(out, said, fields)
    return 0
