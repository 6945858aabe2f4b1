"""`flagtui apply FILE [-P PROFILE] [--prune] [--yes] [--dry-run]`: make the profile's server
what a flags file (`flagtui export`'s) says. The plan is `flagtui plan`'s own (one function,
fleet/plan.py), shown, asked once (a production profile: its name typed; else the word
`apply`; --yes skips), then sent object by object with the client's writes (fleet/apply.py):
context fields created or changed first, then segments created or changed (a new one before
the strategies that name it), then flags created or patched (their tags and links, then
dependencies), then each environment's strategies in the file's order (the order then set) and
its variants, and on/off last, so no one is served a half-configured flag.

Each write is said done, refused (why) or unknown; the first that fails stops the apply, and
the result says what was sent and what was not; each object written is read back afterwards.
A flag's links on a server that keeps none (Unleash before 7, the sandbox) are refused before
anything is sent, naming the server.

Not Unleash's features-batch import route: its export side loses the strategies' order (on
6.10.1, 7.5.1 and 8.2.0), so each object goes through the route that keeps it."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable
from flagtui.display import clean

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.fleet.apply_objects import Step

HELP = __doc__


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, apply, write="apply flags file", destructive=True)
    p.add_argument("file", metavar="FILE", help="a flags file, as `flagtui export` writes it")
    p.add_argument(
        "--prune", action="store_true",
        help="archive the flags on the server but not in the file (default: left alone)",
    )  # fmt: skip
    p.add_argument(
        "--users", type=int, default=1_000, metavar="N",
        help="synthetic users each changed flag of the plan is evaluated for (default 1,000)",
    )  # fmt: skip


async def apply(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    # Here, not at the top: they load the client's models and the SDKs' engine
    from flagtui.cli.commands.plan import MAX_USERS
    from flagtui.cli.exits import UsageError
    from flagtui.fleet.flags_file import load
    from flagtui.fleet.plan import make_plan

    if not 1 <= args.users <= MAX_USERS:
        raise UsageError(f"--users: from 1 to {MAX_USERS:,}")
    file = load(args.file)
    planned = await make_plan(client, file, users=args.users, prune=args.prune)
    question = f"apply {args.file} to profile {args.selected_profile.name}"
    return await send_plan(client, out, args, planned, question, "apply")


async def send_plan(
    client: AdminClient,
    out: Printer,
    args: argparse.Namespace,
    planned: dict[str, Any],
    question: str,
    word: str,
) -> int:
    """A plan shown, asked once (`question`; a production profile: its name typed, else
    `word`), sent, and read back: `apply`'s and `promote`'s one way to send a plan."""
    # Here, not at the top: they load the client's models and the SDKs' engine
    from flagtui.api.edits import EditConflict
    from flagtui.cli.exits import UsageError
    from flagtui.cli.session import confirm
    from flagtui.fleet.apply import apply_plan, steps, unsupported, where
    from flagtui.fleet.plan_words import lines

    for line in [] if out.is_json else lines(planned):  # JSON: the plan is in the answer
        _note(out, line)
    if not planned["changes"]:
        if out.is_json:
            nothing = {"complete": True, "steps": [], "applied": 0, "notApplied": 0, "readBack": []}
            out.one({"plan": planned, "apply": nothing})
        return 0
    if cannot := unsupported(planned, client.server):
        for line in cannot:
            _note(out, f"cannot apply: {line}")
        raise UsageError(f"{word}: " + "; ".join(cannot) + "; nothing was sent")
    if args.dry_run:  # every write in order; the runner shows the first as it would leave
        for step in steps(planned):
            _note(out, f"would send: {where(step.as_json())}")
    profile = getattr(args, "production_profile", None)
    confirm(args, question, profile or word)
    try:
        result, failed = await apply_plan(
            client, planned, dry_run=args.dry_run, progress=lambda s: _said(out, s)
        )
    except EditConflict as moved:  # changed while asked: nothing sent, said, exit 2
        for line in moved.lines():
            _note(out, f"changed since the plan: {line}")
        raise
    if out.is_json:
        out.one({"plan": planned, "apply": result})
    for back in result["readBack"]:
        state = back["state"] + (f" ({', '.join(back['differs'])})" if "differs" in back else "")
        what = f"{back['kind']} {back['name']}" if "kind" in back else \
            f"{back['project']}/{back['name']}"  # fmt: skip
        _note(out, f"read back {what}: {state}")
    if failed is not None:
        unsent = [s for s in result["steps"] if s["outcome"] == "not sent"]
        _note(out, f"stopped: {result['applied']} of {len(result['steps'])} writes applied, "
                   f"{len(unsent)} not sent: " + "; ".join(where(s) for s in unsent))  # fmt: skip
        raise failed
    _note(out, f"applied: {result['applied']} writes")
    return 0


def _said(out: Printer, step: Step) -> None:
    from flagtui.fleet.apply import step_line

    _note(out, step_line(step))


def _note(out: Printer, line: str) -> None:
    """Stdout stays the data with JSON output; else the line is the output."""
    print(clean(line, multiline=False), file=sys.stderr if out.is_json else sys.stdout)
