"""`flagtui feature strategy copy`: copy a flag's strategies (all, or `--strategy ID`) from one
environment to another, as the web UI's "Copy to environment" does: one POST of each strategy
to the target's strategies (feature-strategy-add each), after the ones there, nothing replaced.
First the requests are checked against the server's catalog and who gets the flag in the target
environment is previewed, before and after (the SDKs' engine, as `strategy add` says it); a
production target asks for its name (or --yes). --dry-run prints every request, unsent."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from flagtui.cli.done import done
from flagtui.cli.output import Printer
from flagtui.cli.rollout_preview import preview_options, previewed, previewed_json
from flagtui.cli.rollout_target import confirm_in_production
from flagtui.cli.session import scriptable
from flagtui.display import clean

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Feature


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, strategy_copy, write="add strategy", destructive=True)
    p.add_argument("project")
    p.add_argument("name")
    p.add_argument("--from-env", required=True, metavar="A", help="the environment copied from")
    p.add_argument("--to-env", required=True, metavar="B", help="the environment copied to")
    p.add_argument(
        "--strategy",
        metavar="ID",
        help="only this strategy (its id, or the start of it, as `feature strategies` shows)",
    )
    preview_options(p)


async def strategy_copy(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    # Here, not at the top: it loads pydantic and the SDK engine
    from flagtui.api.flag_ops import PartlyCopied
    from flagtui.preview import with_strategy

    copy = await client.flag_ops.plan_copy(
        args.project, args.name, args.from_env, args.to_env, args.strategy
    )
    args.environment = args.to_env  # who gets the flag there; its production question
    bodies = [plan.body for plan in copy.plans]

    def after(flag: Feature) -> dict[str, Any]:
        record: Any = flag
        for body in bodies:
            record = with_strategy(record, args.to_env, body)
        return dict(record)

    share = await previewed(client, out, args, after)
    if args.dry_run:
        _show_unsent(out, [p.shown() for p in copy.plans], previewed_json(out, share))
        return
    n = len(bodies)
    what = f"copy {n} strateg{'y' if n == 1 else 'ies'} of {args.name} from {args.from_env}"
    await confirm_in_production(client, args, what)
    scope = {"project": args.project, "featureName": args.name, "environment": args.to_env}
    try:
        stored = await client.flag_ops.copy(args.project, copy)
    except PartlyCopied as partly:
        ids = [s.id for s in partly.stored]
        done(out, "feature-strategy-add", **scope, strategyIds=ids, complete=False)
        raise partly.cause from None
    ids = [s.id for s in stored]
    done(out, "feature-strategy-add", **scope, fromEnvironment=args.from_env, strategyIds=ids,
         **previewed_json(out, share))  # fmt: skip


def _show_unsent(out: Printer, requests: list[dict[str, Any]], preview: dict[str, Any]) -> None:
    if out.is_json:  # a row per request, as a plan's dry run prints them
        out.many({"dryRun": True, **request, **preview} for request in requests)
        return
    for request in requests:
        print(clean(f"dry run: would send {request['method']} {request['path']}"))
        print(json.dumps(request["body"], indent=2))
    print("nothing was sent")
