"""`flagtui project default-strategy show|set PROJECT --env ENV`: the strategy a flag of the
project gets when it is switched on in ENV with no strategy of its own.

What setting it changes (real Unleash 6.10.1 to 8.2.0): no flag's evaluation now, existing
strategies stay as they are; a flag created afterwards starts with no strategy as before. A
flag switched on in ENV while it has no enabled strategy gets a copy of it (an empty group id
becomes the flag's name) instead of Unleash's own gradual rollout at 100 %. Only a gradual
rollout (flexibleRollout) can be a default strategy. An environment of type production asks
for its name (or --yes)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from flagtui.api import NothingToSend
from flagtui.cli.done import done, unchanged
from flagtui.cli.output import Printer
from flagtui.cli.rollout_target import confirm_in_production
from flagtui.cli.session import scriptable
from flagtui.cli.strategy_options import built, strategy_options
from flagtui.rollout_words import strategy_lines

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Strategy

EFFECT = (
    "changes no flag now; a flag switched on in {env} with no enabled strategy gets it (a flag"
    " created gets no strategy)"
)
_EACH_FLAG = "\x00each-flag"  # the group id Unleash fills in with the flag's name


def show_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, default_strategy_show)
    p.add_argument("project")
    p.add_argument("--env", required=True, metavar="ENV", dest="environment")


def set_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, default_strategy_set, write="set default strategy", destructive=True)
    p.add_argument("project")
    p.add_argument("--env", required=True, metavar="ENV", dest="environment")
    strategy_options(p, setting=False)


def _said(strategy: Strategy, built_in: bool) -> dict[str, Any]:
    body = strategy.model_dump(mode="json", by_alias=True, exclude_none=True)
    return {"defaultStrategy": body, "builtIn": built_in}


async def default_strategy_show(
    client: AdminClient, out: Printer, args: argparse.Namespace
) -> None:
    # Here, not at the top: it loads pydantic
    from flagtui.api.default_strategies import BUILT_IN

    found = await client.default_strategies.get(args.project, args.environment)
    strategy = found or BUILT_IN
    scope = {"project": args.project, "environment": args.environment}
    if out.is_json or out.format == "csv":
        out.one({**scope, **_said(strategy, found is None)})
        return
    whose = "Unleash's own (none set)" if found is None else "the project's"
    out.note(f"default strategy of {args.project} in {args.environment}: {whose}")
    for line in strategy_lines(strategy, {}):
        out.note(f"  {line}")


async def default_strategy_set(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    # Here, not at the top: it loads pydantic
    from flagtui.api import rollout_rules
    from flagtui.api.models import Strategy

    catalog = await client.rollouts.catalog()
    kind = rollout_rules.strategy_type(args.type, catalog, adding=True)
    wanted = built(args, Strategy(name=kind.name, disabled=args.disabled or None), catalog)
    checked = rollout_rules.strategy(wanted, catalog, feature=_EACH_FLAG)
    parameters = dict(checked.parameters or {})
    if parameters.get("groupId") == _EACH_FLAG:
        parameters["groupId"] = ""
    checked = checked.model_copy(update={"parameters": parameters})
    try:
        plan = await client.default_strategies.plan_set(args.project, args.environment, checked)
    except NothingToSend as same:
        unchanged(out, same, project=args.project, environment=args.environment)
        return
    effect = EFFECT.format(env=args.environment)
    out.note(f"this {effect}")
    await confirm_in_production(client, args, f"set the default strategy of project {args.project}")
    stored = await client.default_strategies.send(plan)
    scope = {"project": args.project, "environment": args.environment}
    if out.is_json or out.format == "csv":
        done(out, "default-strategy-updated", **scope, **_said(stored, False), effect=effect)
        return
    done(out, "default-strategy-updated", **scope)
    for line in strategy_lines(stored, {}):
        out.note(f"  {line}")
