"""`flagtui feature enable|disable`: switch flags on or off in one environment; in an
environment of type production, confirm first. Several names (or --stdin) make one plan, asked
once, each flag's outcome its own (cli/bulk.py); every flag it switches previewed, before →
after (the plan's: 1,000 synthetic userIds a flag)."""

from __future__ import annotations

import argparse
import asyncio
from typing import TYPE_CHECKING, Any

from flagtui.cli import bulk
from flagtui.cli.context_input import context_of
from flagtui.cli.done import done
from flagtui.cli.output import Printer
from flagtui.cli.rollout_preview import (
    Said,
    preview_of,
    preview_options,
    previewed,
    previewed_json,
    sent,
)
from flagtui.cli.session import confirm, scriptable
from flagtui.words import counted, in_production

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.bulk import Plan
    from flagtui.api.models import Feature


def enable_options(p: argparse.ArgumentParser) -> None:
    _options(p, "enable")


def disable_options(p: argparse.ArgumentParser) -> None:
    _options(p, "disable")


def _options(p: argparse.ArgumentParser, verb: str) -> None:
    scriptable(p, feature_switch, write=f"{verb} feature", destructive=True, columns=bulk.COLUMNS)
    bulk.add_project_and_names(p)
    p.add_argument("environment", metavar="ENV")
    preview_options(p)


READS_AT_ONCE = 4  # the plan's flags read again for their previews


async def feature_switch(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    """`feature enable|disable`: in an environment of type production, confirm first."""
    # Here, not at the top: it loads pydantic and the SDK engine
    from flagtui.api.bulk_changes import Change
    from flagtui.preview.share import PLAN_USERS, switched

    names = bulk.names_of(args)
    enabled = args.verb == "enable"
    state = "on" if enabled else "off"
    if bulk.is_bulk(args):
        context_of(args.context or [], "the command's ENV")  # a bad one refused before reading

        async def previews(plan: Plan) -> dict[str, Said]:
            gate = asyncio.Semaphore(READS_AT_ONCE)

            def turned(flag: Feature) -> dict[str, Any]:
                return switched(flag, args.environment, enabled, plan.default_strategy)

            async def one(name: str) -> Said:
                async with gate:
                    return await preview_of(client, args, turned, name, users=PLAN_USERS)

            said = await asyncio.gather(*(one(name) for name in plan.to_send))
            return dict(zip(plan.to_send, said, strict=True))

        def ask(plan: Plan) -> tuple[str, str] | None:
            if not plan.production:
                return None
            count = len(plan.to_send)
            what = f"switch {counted(count, 'flag')} {state} {in_production(args.environment)}"
            return what, args.environment

        change = Change("enable" if enabled else "disable", args.environment)
        return await bulk.change_many(client, out, args, names, change, ask, previews)

    event = "feature-environment-enabled" if enabled else "feature-environment-disabled"
    # One read: whether to ask, and the strategy a switch-on adds (the project's default).
    # Failing, it stops the command before the preview: a switch-on count is not guessed.
    envs = await client.environments.list(args.project)
    env = next((e for e in envs if e.name == args.environment), None)
    default = env.default_strategy if env is not None else None

    def turned(flag: Feature) -> dict[str, Any]:
        return switched(flag, args.environment, enabled, default)

    share = await previewed(client, out, args, turned, names[0])
    if env is not None and env.type == "production":
        what = f"switch {names[0]} {state} {in_production(args.environment)}"
        confirm(args, what, args.environment)
    switch = client.features.set_environment_enabled(
        args.project, names[0], args.environment, enabled
    )
    await sent(switch, share)
    scope = {"project": args.project, "featureName": names[0], "environment": args.environment}
    done(out, event, **scope, **previewed_json(out, share))
    return 0
