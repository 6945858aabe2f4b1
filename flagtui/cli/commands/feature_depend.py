"""`flagtui feature depend PROJECT CHILD PARENT` and `feature undepend PROJECT CHILD [PARENT]`:
a flag on only where its parent flag is on (or off, `--disabled`; or gives one of `--variant`),
and back. Checked as real Unleash checks it before anything is sent (one level only: no parent
with a parent of its own, no child other flags depend on, no cycle, no flag of another
project), each refusal saying why; who gets the child in each of its environments before and
after is previewed with the SDKs' engine (the parents evaluated beside it) and said first.
A change in an environment of type production asks for the child's name (or --yes)."""

from __future__ import annotations

import argparse
import asyncio
from typing import TYPE_CHECKING, Any

from flagtui.api import NothingToSend
from flagtui.cli.context_input import context_of
from flagtui.cli.done import done, unchanged
from flagtui.cli.output import Printer
from flagtui.cli.rollout_preview import preview_options, sentence, tell
from flagtui.cli.session import DryRunStop, confirm, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.dependencies import DependencyPlan


def depend_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_depend, write="add dependency", destructive=True)
    p.add_argument("project")
    p.add_argument("child", help="the flag that will depend on PARENT")
    p.add_argument("parent", help="a flag of the same project, with no parent of its own")
    on = p.add_mutually_exclusive_group()
    on.add_argument("--enabled", dest="enabled", action="store_true", default=True,
                    help="CHILD is on only where PARENT is on (the default)")  # fmt: skip
    on.add_argument("--disabled", dest="enabled", action="store_false",
                    help="CHILD is on only where PARENT is off")  # fmt: skip
    p.add_argument("--variant", action="append", default=[], metavar="V",
                   help="CHILD is on only where PARENT gives one of these variants"
                   " (repeatable; with --enabled)")  # fmt: skip
    preview_options(p)


def undepend_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_undepend, write="remove dependency", destructive=True)
    p.add_argument("project")
    p.add_argument("child")
    p.add_argument("parent", nargs="?", help="the parent CHILD depends on (default: whichever)")
    preview_options(p)


async def feature_depend(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    try:
        plan = await client.dependencies.plan_add(
            args.project, args.child, args.parent, enabled=args.enabled, variants=args.variant
        )
    except NothingToSend as same:
        unchanged(out, same, project=args.project)
        return
    await _previewed_and_sent(client, out, args, plan, "feature-dependency-added")


async def feature_undepend(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    try:
        plan = await client.dependencies.plan_remove(args.project, args.child, args.parent)
    except NothingToSend as same:
        unchanged(out, same, project=args.project)
        return
    event = "feature-dependency-removed" if args.parent else "feature-dependencies-removed"
    await _previewed_and_sent(client, out, args, plan, event)


async def _preview(
    client: AdminClient, args: argparse.Namespace, plan: DependencyPlan
) -> tuple[dict[str, Any], list[str]]:
    """Per environment: the JSON and the sentence (`rollout_preview`'s), before → after."""
    # Here, not at the top: it loads pydantic and the SDK engine
    from flagtui.preview import PreviewError
    from flagtui.preview.dependency import dependency_shares, with_dependency

    context = context_of(args.context or [], "the child's environments")
    related = [plan.parent] if plan.parent is not None else []
    if plan.replaces is not None and plan.replaces.feature != getattr(plan.parent, "name", None):
        related.append(await client.features.get(args.project, plan.replaces.feature))
    after = with_dependency(plan.child, plan.dependency)
    uses_segments = any(
        s.segments for e in plan.child.environments or [] for s in e.strategies or []
    )
    segments = await client.segments.list() if uses_segments else []
    shares = await asyncio.to_thread(
        dependency_shares, plan.child, after, related=related, context=context, segments=segments
    )
    json: dict[str, Any] = {}
    lines: list[str] = []
    for env, share in shares.items():
        if isinstance(share, PreviewError):
            json[env] = {"error": str(share)}
            lines.append(f"{env}: not available ({share})")
        else:
            json[env] = share.as_json()
            lines.append(sentence(share))
    return json, lines


async def _previewed_and_sent(
    client: AdminClient,
    out: Printer,
    args: argparse.Namespace,
    plan: DependencyPlan,
    event: str,
) -> None:
    preview, lines = await _preview(client, args, plan)
    for line in lines:
        tell(out, f"preview: {line}")
    envs = {e.name: e.type for e in await client.environments.list(args.project)}
    changed = [e for e, p in preview.items() if "error" in p or p["before"] != p["after"]]
    if any(envs.get(e) == "production" for e in changed):
        what = f"change who gets {args.child} in production ({', '.join(changed)})"
        confirm(args, what, args.child)
    try:
        stored = await client.dependencies.send(plan)
    except DryRunStop as stop:
        stop.shown["preview"] = preview
        raise
    now = [d.model_dump(exclude_none=True) for d in stored.dependencies or []]
    scope = {"project": args.project, "featureName": args.child}
    if out.is_json:
        done(out, event, **scope, dependencies=now, preview=preview)
    else:
        done(out, event, **scope)
        said = ", ".join(d["feature"] for d in now) or "none"
        out.note(f"  {args.child} now depends on: {said}")
