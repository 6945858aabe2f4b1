"""What differs between two sides (two servers, or two environments of one): flags on one side
only, a different type, and per environment the enabled state, the strategies (as they evaluate:
ids, sort numbers and titles left out, segments by name) and the variants, each as the flags
file holds it (`flag_shape`); with `everything`, every field of the file. `read_side` reads
one side through the admin client; `differences` compares two as read; `words` says a side's
strategies or variants as the detail does (for a person; JSON keeps the shapes)."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flagtui.api import errors
from flagtui.fleet.flag_shape import flag_shape
from flagtui.rollout_words import strategy_lines, variant_text

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Feature


@dataclass(frozen=True)
class Side:
    """One side as read: its name (a profile, or an environment), its flags by (project, name),
    its segments' names by id, and the environment to look at (None: every one)."""

    label: str
    flags: dict[tuple[str, str], Feature]
    segment_names: dict[int, str]
    environment: str | None = None

    def keyed_in(self, project: str) -> dict[tuple[str, str], Feature]:
        """The flags keyed as if every one were in `project` (a flag's name is unique on a
        server, whatever its project, so no two meet on one key)."""
        return {(project, name): flag for (_, name), flag in self.flags.items()}


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


def differences(
    left: Side,
    right: Side,
    *,
    everything: bool = False,
    rewrite_project: str | None = None,
    only: Collection[str] = (),
) -> list[dict[str, Any]]:
    """One record per difference, in flag order: project, featureName, what, and each side's.
    `everything`: every field the flags file holds (description, impression data, tags,
    dependencies, links, strategies' titles), not only what changes an evaluation.
    `rewrite_project`: the left side's flags compared as if they were in this project (as
    `flagtui promote --rewrite-project` lands them); `only`: these flag names alone."""
    found: list[dict[str, Any]] = []
    left_flags = left.keyed_in(rewrite_project) if rewrite_project else left.flags
    keys = left_flags.keys() | right.flags.keys()
    for key in sorted(k for k in keys if not only or k[1] in only):
        a, b = left_flags.get(key), right.flags.get(key)
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
        shape_a, shape_b = _shape(left, a), _shape(right, b)
        if left.environment is None:  # two servers: the flag's own fields too
            differ("type", a.type, b.type)
            for field in FLAG_FIELDS if everything else ():
                if field in shape_a and field in shape_b:  # links: not on every version
                    differ(field, shape_a[field], shape_b[field])
        for env_a, env_b, where in _pairs(left, shape_a, right, shape_b):
            differ(f"enabled {where}".rstrip(), _get(env_a, "enabled"), _get(env_b, "enabled"))
            mine, theirs = _get(env_a, "strategies"), _get(env_b, "strategies")
            if not everything:  # titles do not change an evaluation
                mine, theirs = _untitled(mine), _untitled(theirs)
            differ(f"strategies {where}".rstrip(), mine, theirs)
            differ(f"variants {where}".rstrip(), _get(env_a, "variants"), _get(env_b, "variants"))
    return found


FLAG_FIELDS = ("description", "impressionData", "tags", "dependencies", "links")


def _shape(side: Side, flag: Feature) -> dict[str, Any]:
    names = [e.name for e in flag.environments or []]
    return flag_shape(flag, side.segment_names, names)


def _pairs(
    left: Side, a: dict[str, Any], right: Side, b: dict[str, Any]
) -> Iterable[tuple[dict[str, Any] | None, dict[str, Any] | None, str]]:
    envs_a, envs_b = a["environments"], b["environments"]
    if left.environment is not None and right.environment is not None:
        yield envs_a.get(left.environment), envs_b.get(right.environment), ""
        return
    for env in sorted(envs_a.keys() | envs_b.keys()):
        yield envs_a.get(env), envs_b.get(env), f"in {env}"


def _get(env: dict[str, Any] | None, key: str) -> Any:
    return None if env is None else env[key]


def _untitled(strategies: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    if strategies is None:
        return None
    return [{k: v for k, v in s.items() if k != "title"} for s in strategies]


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
