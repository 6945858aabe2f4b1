"""What differs between two sides (two servers, or two environments of one): flags on one side
only, a different type, and per environment the enabled state, the strategies (as they evaluate:
ids, sort numbers and titles left out, segments by name) and the variants. `read_side` reads
one side through the admin client; `differences` compares two as read; `words` says a side's
strategies or variants as the detail does (for a person; JSON keeps the shapes)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flagtui.api import errors
from flagtui.rollout_words import strategy_lines, variant_text

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Feature, FeatureEnvironment
    from flagtui.api.rollout_models import Strategy, Variant


@dataclass(frozen=True)
class Side:
    """One side as read: its name (a profile, or an environment), its flags by (project, name),
    its segments' names by id, and the environment to look at (None: every one)."""

    label: str
    flags: dict[tuple[str, str], Feature]
    segment_names: dict[int, str]
    environment: str | None = None


CONCURRENT_READS = 8


async def read_side(client: AdminClient, project: str | None, label: str, env: str | None) -> Side:
    """Every live flag of the project (None: of every project) in full, 8 reads at a time."""
    projects = [project] if project else [p.id for p in await client.projects.list()]
    listed = [(p, f.name) for p in projects for f in await client.features.list(p)]
    gate = asyncio.Semaphore(CONCURRENT_READS)

    async def full(project: str, name: str) -> Feature:
        async with gate:
            return await client.features.get(project, name)

    flags = await asyncio.gather(*(full(p, name) for p, name in listed))
    try:
        segments = {s.id: s.name for s in await client.segments.list()}
    except (errors.NotSupported, errors.NotFoundError):
        segments = {}
    return Side(
        label, {(p, f.name): f for (p, _), f in zip(listed, flags, strict=True)}, segments, env
    )


def differences(left: Side, right: Side) -> list[dict[str, Any]]:
    """One record per difference, in flag order: project, featureName, what, and each side's."""
    found: list[dict[str, Any]] = []
    for key in sorted(left.flags.keys() | right.flags.keys()):
        a, b = left.flags.get(key), right.flags.get(key)
        project, name = key

        def differ(
            what: str, mine: Any, theirs: Any, project: str = project, name: str = name
        ) -> None:
            if mine != theirs:
                found.append({"project": project, "featureName": name, "what": what,
                              left.label: mine, right.label: theirs})  # fmt: skip

        if a is None or b is None:
            differ("present", a is not None, b is not None)
            continue
        if left.environment is None:  # two servers: the flag's own fields too
            differ("type", a.type, b.type)
        for env_a, env_b, where in _pairs(left, a, right, b):
            differ(f"enabled {where}".rstrip(), _enabled(env_a), _enabled(env_b))
            differ(
                f"strategies {where}".rstrip(), _strategies(left, env_a), _strategies(right, env_b)
            )
            differ(f"variants {where}".rstrip(), _variants(env_a), _variants(env_b))
    return found


def _pairs(
    left: Side, a: Feature, right: Side, b: Feature
) -> Iterable[tuple[FeatureEnvironment | None, FeatureEnvironment | None, str]]:
    envs_a = {e.name: e for e in a.environments or []}
    envs_b = {e.name: e for e in b.environments or []}
    if left.environment is not None and right.environment is not None:
        yield envs_a.get(left.environment), envs_b.get(right.environment), ""
        return
    for env in sorted(envs_a.keys() | envs_b.keys()):
        yield envs_a.get(env), envs_b.get(env), f"in {env}"


def _enabled(env: FeatureEnvironment | None) -> bool | None:
    return None if env is None else env.enabled


def _strategies(side: Side, env: FeatureEnvironment | None) -> list[dict[str, Any]] | None:
    if env is None:
        return None
    ordered = sorted(env.strategies or [], key=lambda s: s.sort_order or 0)
    return [_strategy(side, strategy) for strategy in ordered]


def _strategy(side: Side, strategy: Strategy) -> dict[str, Any]:
    shape = strategy.model_dump(
        mode="json", by_alias=True, exclude_none=True,
        exclude={"id", "title", "feature_name", "sort_order", "segments"},
    )  # fmt: skip
    shape["disabled"] = bool(strategy.disabled)
    ids = strategy.segments or []
    shape["segments"] = sorted(side.segment_names.get(int(i), f"#{i}") for i in ids)
    return shape


def _variants(env: FeatureEnvironment | None) -> list[dict[str, Any]] | None:
    if env is None:
        return None
    return sorted((_variant(v) for v in env.variants or []), key=lambda v: str(v["name"]))


def _variant(variant: Variant) -> dict[str, Any]:
    return variant.model_dump(mode="json", by_alias=True, exclude_none=True)


def words(value: object) -> object:
    """A side's strategies or variants (this module's shapes) in the detail's words; else as
    is (None: absent)."""
    # Here, not at the top: it loads pydantic
    from flagtui.api.rollout_models import Strategy, Variant

    if not isinstance(value, list):
        return "absent" if value is None else value
    if not value:
        return "none"
    if "weight" in value[0] or "weightType" in value[0]:
        return "; ".join(variant_text(Variant.model_validate(v)) for v in value)
    said = []
    for shape in value:
        segments = shape.get("segments") or []
        strategy = Strategy.model_validate({k: v for k, v in shape.items() if k != "segments"})
        lines = [line.strip() for line in strategy_lines(strategy, {})]
        if segments:
            lines.append("in segments " + ", ".join(segments))
        said.append(" ".join(lines))
    return " | ".join(said)
