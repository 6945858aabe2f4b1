"""The options `feature strategy add` and `feature strategy set` share, and the strategy they
make of them: the one to add, or the one given with the options' changes (`set` replaces a
list the options name: constraints, segments, variants)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.api import InvalidArgument
from flagtui.cli import rollout_input
from flagtui.cli.exits import UsageError

if TYPE_CHECKING:
    from flagtui.api.models import Strategy, Variant
    from flagtui.api.rollout_catalog import RolloutCatalog

GRADUAL = {"rollout": "rollout", "stickiness": "stickiness", "group_id": "groupId"}
LISTS = ("constraint", "segment", "variant", "payload", "param")


def strategy_options(p: argparse.ArgumentParser, *, setting: bool) -> None:
    replacing = ", replacing the strategy's" if setting else ""
    if not setting:
        # rollout_rules.FLEXIBLE_ROLLOUT, written out: the options load no API module
        p.add_argument("--type", default="flexibleRollout", help="a strategy type the server lists")
    p.add_argument("--rollout", metavar="PERCENT", help="a gradual rollout's percentage, 0 to 100")
    p.add_argument(
        "--stickiness", help="what a gradual rollout hashes: default, random or a context field"
    )
    p.add_argument(
        "--group-id", metavar="GROUP", help="a gradual rollout's group (default: the flag's name)"
    )
    p.add_argument(
        "--param",
        action="append",
        metavar="KEY=VALUE",
        help="a parameter of the strategy's type (a list comma-separated); repeatable",
    )
    p.add_argument(
        "--constraint",
        action="append",
        metavar="EXPR",
        help=f"{rollout_input.CONSTRAINT_HELP}; repeatable{replacing}",
    )
    p.add_argument(
        "--segment",
        action="append",
        metavar="NAME|ID",
        help=f"a segment of the server; repeatable{replacing}",
    )
    p.add_argument(
        "--variant",
        action="append",
        metavar="NAME[=WEIGHT]",
        help=f"{rollout_input.VARIANT_HELP}{replacing}",
    )
    p.add_argument("--payload", action="append", metavar="SPEC", help=rollout_input.PAYLOAD_HELP)
    p.add_argument(
        "--variant-stickiness", metavar="S", help="the variants' stickiness (default: rollout's)"
    )
    p.add_argument("--title", help="the strategy's title ('' for none)")
    if setting:
        for name in ("constraints", "segments", "variants"):
            p.add_argument(f"--clear-{name}", action="store_true", help=f"remove its {name}")
    else:
        p.add_argument("--disabled", action="store_true", help="add it disabled")


def changes_asked(args: argparse.Namespace) -> bool:
    singles = (*GRADUAL, "variant_stickiness", "title")
    clears = ("clear_constraints", "clear_segments", "clear_variants")
    return (
        any(getattr(args, name) is not None for name in singles)
        or any(getattr(args, name) for name in LISTS)
        or any(getattr(args, name, False) for name in clears)
    )


def built(args: argparse.Namespace, base: Strategy, catalog: RolloutCatalog) -> Strategy:
    """`base` (the strategy to add, or the one to change) with the options' changes."""
    # Here, not at the top: it loads pydantic
    from flagtui.api.rollout_rules import FLEXIBLE_ROLLOUT, rollout, segment_ids

    if not changes_asked(args) and base.id is not None:
        raise UsageError("nothing to change: give --rollout, --constraint, --variant, … (--help)")
    parameters = dict(base.parameters or {})
    for option, key in GRADUAL.items():
        value = getattr(args, option)
        if value is None:
            continue
        if base.name != FLEXIBLE_ROLLOUT:
            flag = f"--{option.replace('_', '-')}"
            said = f"only a gradual rollout ({FLEXIBLE_ROLLOUT}) has one; this is {base.name}"
            raise InvalidArgument(flag, said)
        parameters[key] = str(rollout(value, where="--rollout")) if key == "rollout" else value
    parameters.update(rollout_input.parameters(args.param or []))
    constraints = [] if getattr(args, "clear_constraints", False) else base.constraints or []
    if args.constraint:
        constraints = [rollout_input.constraint(text) for text in args.constraint]
    segments = [] if getattr(args, "clear_segments", False) else base.segments or []
    if args.segment:
        segments = list(segment_ids(args.segment, catalog))
    return base.model_copy(
        update={
            "parameters": parameters,
            "constraints": constraints,
            "segments": segments,
            "variants": _variants(args, base),
            "title": base.title if args.title is None else args.title,
        }
    )


def _variants(args: argparse.Namespace, base: Strategy) -> list[Variant]:
    sticky = args.variant_stickiness
    if args.variant:
        return rollout_input.variants(args.variant, args.payload or [], stickiness=sticky)
    kept = [] if getattr(args, "clear_variants", False) else list(base.variants or [])
    if sticky is not None:
        kept = [v.model_copy(update={"stickiness": sticky}) for v in kept]
    return rollout_input.with_payloads(kept, args.payload or [])
