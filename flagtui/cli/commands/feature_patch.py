"""`flagtui feature patch`: change a flag with a JSON patch, from `--set FIELD=VALUE` or a file.

A write: it names its action (`write_action`), so a read-only profile is refused before any
request; `--dry-run` prints the request instead of sending it (`cli/dry_run.py`).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from flagtui.api import InvalidArgument, validation
from flagtui.cli.exits import UsageError
from flagtui.cli.output import Printer
from flagtui.cli.session import read_json_input, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_patch, write="patch feature")
    p.add_argument("project")
    p.add_argument("name")
    p.add_argument(
        "--set",
        action="append",
        metavar="FIELD=VALUE",
        help="replace a field (VALUE is JSON when it parses); repeatable",
    )
    p.add_argument("--json-patch", metavar="FILE|-", help="RFC 6902 operations from a file")


def set_operations(assignments: list[str]) -> list[dict[str, Any]]:
    """`--set FIELD=VALUE` as replace operations; VALUE is JSON when it parses, else a string.
    A value JSON cannot carry (NaN, too deep) is refused here, naming the option's field."""
    ops = []
    for assignment in assignments:
        field, sep, raw = assignment.partition("=")
        if not sep or not field:
            raise UsageError(f"--set {assignment!r}: expected FIELD=VALUE")
        option = f"--set {field}"
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        except RecursionError:
            limit = f"nested deeper than {validation.MAX_JSON_DEPTH} levels"
            raise InvalidArgument(option, limit) from None
        validation.json_value(option, value)
        path = field if field.startswith("/") else "/" + field.replace(".", "/")
        ops.append({"op": "replace", "path": path, "value": value})
    return ops


async def feature_patch(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    if bool(args.set) == bool(args.json_patch):
        raise UsageError("give either --set FIELD=VALUE (repeatable) or --json-patch FILE|-")
    ops = set_operations(args.set) if args.set else read_json_input(args.json_patch, "--json-patch")
    if not isinstance(ops, list):
        raise UsageError("--json-patch: expected a JSON array of operations")
    out.one(await client.features.patch(args.project, args.name, ops))
