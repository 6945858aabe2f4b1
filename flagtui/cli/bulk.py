"""Several flags in one command (`feature archive|revive|enable|disable|mark-stale|unmark-stale
PROJECT NAME... | --stdin`): the plan first (`--dry-run` prints it: each flag's step and the
request that would carry it, unsent), asked once, then sent by `client.bulk` (Unleash's batch
route where the server has it, one request per flag otherwise); each flag's own outcome is said
(done, nothing to do, refused and why, unknown and how to check), proven by a read afterwards,
never all or nothing. One name without --stdin stays the one-flag command.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from flagtui.cli.exits import (
    AUTH,
    NOT_FOUND,
    NOT_SUPPORTED,
    OK,
    OUTCOME_UNKNOWN,
    UNREACHABLE,
    USAGE,
    UsageError,
    classify,
    envelope,
)
from flagtui.cli.output import Printer, say
from flagtui.cli.rollout_preview import Said, previewed_json, tell
from flagtui.cli.session import confirm
from flagtui.display import clean
from flagtui.words import counted

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.bulk import Outcome, Plan
    from flagtui.api.bulk_changes import Change

MAX_FLAGS = 1000
# The exit code of a mixed result: the outcome that most needs a person's eyes first.
WORST_FIRST = (OUTCOME_UNKNOWN, UNREACHABLE, AUTH, NOT_FOUND, NOT_SUPPORTED, USAGE)
COLUMNS = ("featureName", "outcome", "detail")


def add_project_and_names(p: argparse.ArgumentParser) -> None:
    """A bulk verb's arguments: the project, then its flags (or --stdin)."""
    p.add_argument("project")
    p.add_argument("name", nargs="*", help="one flag or several")
    p.add_argument(
        "--stdin", action="store_true", help="read the flags' names from stdin, one a line"
    )


def names_of(args: argparse.Namespace) -> list[str]:
    """The flags asked for, in order, each once."""
    names = list(args.name)
    if args.stdin:
        if names:
            raise UsageError("name: give the flags' names or --stdin, not both")
        names = [line.strip() for line in sys.stdin if line.strip()]
    if not names:
        raise UsageError("name: give at least one flag's name, or --stdin")
    names = list(dict.fromkeys(names))
    if len(names) > MAX_FLAGS:
        raise UsageError(f"name: {len(names)} flags; at most {MAX_FLAGS} in one command")
    return names


def is_bulk(args: argparse.Namespace) -> bool:
    return bool(args.stdin) or len(args.name) > 1


async def change_many(
    client: AdminClient,
    out: Printer,
    args: argparse.Namespace,
    names: list[str],
    change: Change,
    ask: Callable[[Plan], tuple[str, str] | None],
    previews: Callable[[Plan], Awaitable[dict[str, Said]]] | None = None,
) -> int:
    """Plan, ask (`ask` gives what to confirm and the word to type, or None), send, report.
    `previews`: who gets each flag the plan sends, before → after, said before the question
    and in each flag's row (`preview`), the dry run's too."""
    plan = await client.bulk.plan(args.project, change, names)
    said = await previews(plan) if previews is not None and plan.to_send else {}
    for name, preview in said.items():
        tell(out, f"preview of {name}: {preview.sentence}")

    def with_preview(row: dict[str, Any]) -> dict[str, Any]:
        return {**row, **previewed_json(out, said.get(row["featureName"]))}

    if args.dry_run:
        return outcomes(out, [with_preview(row) for row in _planned_rows(plan)])
    asked = ask(plan) if plan.to_send else None  # nothing to send: nothing to ask
    if asked is not None:
        what, word = asked
        if sys.stdin.isatty() and not args.yes:
            _show_plan(what, plan)
        confirm(args, what, word)
    # Here, not at the top: it loads pydantic
    from flagtui.api.edits import EditConflict

    try:
        sent = await client.bulk.send(plan)
    except EditConflict as moved:  # changed while asked: nothing sent, said, exit 2
        for line in moved.lines():
            out.note(f"changed since the plan: {line}")
        raise
    return outcomes(out, [with_preview(_row(plan, o)) for o in sent])


def _show_plan(what: str, plan: Plan) -> None:
    """On a terminal, before asking: every flag and what will happen to it."""
    print(clean(f"{what}:"), file=sys.stderr)
    for p in plan.flags:
        print(clean(f"  {p.feature}: {p.detail}"), file=sys.stderr)


def _planned_rows(plan: Plan) -> list[dict[str, Any]]:
    """A dry run's rows: the request each flag would go in, or why it needs none."""
    # Here, not at the top: it loads httpx and pydantic
    from flagtui.api.bulk import Outcome

    carried = {n: r for r in plan.requests for n in r.body["features"]}
    rows = []
    for p in plan.flags:
        request = carried.get(p.feature)
        if request is None:
            unsent = Outcome(p.feature, "unchanged", p.detail, p.before)
            if p.step == "refused":
                unsent = Outcome(p.feature, "refused", p.detail, p.before, p.error)
            rows.append(_row(plan, unsent))
            continue
        sent = {
            "dryRun": True,
            "method": request.method,
            "path": request.path,
            "body": request.body,
        }
        detail = f"would send {request.method} {request.path}"
        rows.append({"featureName": p.feature, "outcome": "planned", "detail": detail, **sent})
    return rows


def _row(plan: Plan, outcome: Outcome) -> dict[str, Any]:
    row: dict[str, Any] = {"featureName": outcome.feature, "outcome": outcome.outcome,
                           "detail": outcome.detail}  # fmt: skip
    if outcome.outcome == "done":
        row.update(done=plan.change.event, project=plan.project, **_facts(plan, outcome))
    elif outcome.outcome in ("refused", "unknown"):
        code = OUTCOME_UNKNOWN
        if outcome.error is not None:
            _, code = classify(outcome.error)
            row["error"] = envelope(outcome.error)["error"]
        if outcome.outcome == "unknown":
            code = OUTCOME_UNKNOWN
        elif code == UNREACHABLE:
            row["outcome"] = "failed"
        row["exitCode"] = code
    return row


def _facts(plan: Plan, outcome: Outcome) -> dict[str, Any]:
    """What the change did to this flag, beyond its event."""
    change = plan.change
    was_on = [e.name for e in (outcome.before and outcome.before.environments) or [] if e.enabled]
    if change.verb == "archive":
        return {"wasEnabledIn": was_on}
    if change.verb == "revive":
        return {"wasEnabledIn": was_on, "enabledIn": []}
    if change.environment is not None:
        return {"environment": change.environment}
    return {"stale": change.verb == "stale"}


def outcomes(out: Printer, results: list[dict[str, Any]]) -> int:
    """Every flag's outcome; the exit code of the worst (0 when each is done or unchanged)."""
    out.many(results)
    codes = {row["exitCode"] for row in results if "exitCode" in row}
    counts: dict[str, int] = {}
    for row in results:
        counts[row["outcome"]] = counts.get(row["outcome"], 0) + 1
    summary = ", ".join(f"{n} {outcome}" for outcome, n in counts.items())
    unsent = "; nothing was sent" if "planned" in counts else ""
    say(
        out,
        f"{counted(len(results), 'flag')}: {summary}{unsent}",
        {"flags": len(results), **counts},
    )
    return next((code for code in WORST_FIRST if code in codes), OK)
