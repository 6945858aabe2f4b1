"""`flagtui plan FILE [-P PROFILE]`: what applying a flags file (`flagtui export`'s) would
change on the profile's server, flag by flag and field by field, and for each flag whose
evaluation changes, how many of N synthetic users (`--users`, default 1,000) get it and which
variant, before → after, with the SDKs' engine, and what a typed context (`--context`) gets.
Segments and context fields the server lacks are creations; flags on the server but not in
the file are listed and left alone (`--prune` marks them to be removed by an apply). Each
changed flag names who changed it last, and when, from the event log: in cron or CI, `plan`
is the drift alarm. Reads only (fleet/plan.py).

Exit codes as `terraform plan -detailed-exitcode`: 0 nothing to do, 1 changes planned, and
the others as every command's (2 a file that is not a flags file, naming the field)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from flagtui.cli.context_input import context_option
from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable
from flagtui.display import clean

if TYPE_CHECKING:
    from flagtui.api import AdminClient

CHANGES_PLANNED = 1
MAX_USERS = 100_000
MARKS = {"create": "+", "update": "~", "prune": "-", "absent": "?"}


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, plan)
    p.add_argument("file", metavar="FILE", help="a flags file, as `flagtui export` writes it")
    p.add_argument(
        "--users", type=int, default=1_000, metavar="N",
        help="synthetic users (u-1 … u-N) each changed flag is evaluated for (default 1,000)",
    )  # fmt: skip
    said = ("a context field (repeatable) of the one context evaluated before and after, and"
            " given to the synthetic users (a property unless standard)")  # fmt: skip
    context_option(p, help=said)
    p.add_argument(
        "--prune", action="store_true",
        help="mark the flags on the server but not in the file for removal (default: left alone)",
    )  # fmt: skip


async def plan(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    # Here, not at the top: they load the client's models and the SDKs' engine
    from flagtui.cli.context_input import context_of
    from flagtui.cli.exits import UsageError
    from flagtui.fleet.flags_file import load
    from flagtui.fleet.plan import make_plan

    if not 1 <= args.users <= MAX_USERS:
        raise UsageError(f"--users: from 1 to {MAX_USERS:,}")
    contexts = [context_of(args.context)] if args.context else []
    file = load(args.file)
    planned = await make_plan(client, file, users=args.users, contexts=contexts,
                              prune=args.prune)  # fmt: skip
    return show(out, planned)


def show(out: Printer, planned: dict[str, Any]) -> int:
    """The plan on stdout (JSON, or lines for a person); the exit code it means."""
    if out.is_json:
        out.one(planned)
    else:
        for line in lines(planned):
            print(clean(line, multiline=False))
    return CHANGES_PLANNED if planned["changes"] else 0


def _said(value: Any) -> str:
    # Here, not at the top: it loads pydantic
    from flagtui.fleet.drift import words

    if isinstance(value, list) and value and isinstance(value[0], dict) and "name" in value[0]:
        return str(words(value))
    if value is None:
        return "absent"
    if isinstance(value, str):  # as it is: printed through the display boundary
        return f"“{value}”"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _population(side: dict[str, Any] | None, users: int) -> str:
    if side is None:
        return "—"
    variants = {k: v for k, v in side["variants"].items() if k != "disabled"}
    said = f"{side['enabled']:,} of {users:,}"
    if variants:
        said += " (" + ", ".join(f"{k} {v:,}" for k, v in variants.items()) + ")"
    return said


def _evaluations(evaluations: list[dict[str, Any]]) -> list[str]:
    said = []
    for ev in evaluations:
        if "error" in ev:
            said.append(f"    who gets it in {ev['environment']}: not evaluated ({ev['error']})")
            continue
        users = ev["users"]
        said.append(f"    who gets it in {ev['environment']}: "
                    f"{_population(ev.get('before'), users)} → "
                    f"{_population(ev.get('after'), users)} synthetic users")  # fmt: skip
        for typed in ev["contexts"]:
            b, a = typed["before"], typed["after"]
            said.append(f"      {_said(typed['context'])}: "
                        f"{'on' if b['enabled'] else 'off'} ({b['variant']}) → "
                        f"{'on' if a['enabled'] else 'off'} ({a['variant']})")  # fmt: skip
    return said


def lines(planned: dict[str, Any]) -> list[str]:
    """The plan for a person, terraform-like: + create, ~ update, - prune, ? left alone."""
    said: list[str] = []
    for kind, title in (("contextFields", "context field"), ("segments", "segment")):
        for item in planned[kind]:
            said.append(f"{MARKS[item['action']]} {title} {item['name']} ({item['action']})")
            for change in item.get("changes", []):
                said.append(f"    {change['what']}: {_said(change['before'])} → "
                            f"{_said(change['after'])}")  # fmt: skip
            for flag in item.get("affects", []):
                said.append(f"    used by {flag['project']}/{flag['name']}")
                said.extend(_evaluations(flag["evaluation"]))
    for flag in planned["flags"]:
        name = f"{flag['project']}/{flag['name']}"
        if flag["action"] == "absent":
            said.append(f"? {name}: on the server, not in the file: left alone (--prune marks it)")
            continue
        said.append(f"{MARKS[flag['action']]} {name} ({flag['action']})")
        for change in flag.get("changes", []):
            said.append(f"    {change['what']}: {_said(change['before'])} → "
                        f"{_said(change['after'])}")  # fmt: skip
        said.extend(_evaluations(flag.get("evaluation", [])))
        last = flag.get("lastChange")
        if last:
            if "by" in last:
                said.append(f"    last changed by {last['by']} at {last['at']} ({last['type']})")
            else:
                said.append(f"    last change: {last['unknown']}")
    summary = planned["summary"]
    said.append(
        f"plan: {summary['create']} to create, {summary['update']} to change, "
        f"{summary['prune']} to prune, {summary['absent']} left alone; "
        f"{summary['segments']} segments and {summary['contextFields']} context fields to "
        "create or change"
        if planned["changes"] or summary["absent"]
        else "plan: nothing to do"
    )
    return said
