"""What differs between two sides (two servers, or two environments of one): flags on one side
only, a different type, and per environment the enabled state, the strategies (as they evaluate:
ids, sort numbers and titles left out, segments by name) and the variants, each as the flags
file holds it (`flag_shape`); with `everything`, every field of the file. `compare` reads two
sides through their admin clients, a page at a time as `flagtui export` does, and compares
them as they come; `differences` compares two sides as read; `words` says a side's
strategies or variants as the detail does (for a person; JSON keeps the shapes)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Collection, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from flagtui.api import errors
from flagtui.fleet.flag_export import Selection, read_flags
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


@dataclass(frozen=True)
class Reading:
    """One side to read: its label, its server, the project (None: every project), and the
    environment to look at (None: every one)."""

    label: str
    client: AdminClient
    project: str | None
    environment: str | None


async def _selection(side: Reading) -> Selection:
    client = side.client
    projects = (
        [side.project] if side.project else sorted(p.id for p in await client.projects.list())
    )
    if side.environment is not None:
        return Selection(projects, [side.environment])
    envs = {e.name for p in projects for e in await client.environments.list(p)}
    return Selection(projects, sorted(envs))


async def _segment_names(client: AdminClient) -> dict[int, str]:
    try:
        return {s.id: s.name for s in await client.segments.list()}
    except (errors.NotSupported, errors.NotFoundError):
        return {}


async def compare(
    left: Reading,
    right: Reading,
    *,
    everything: bool = False,
    rewrite_project: str | None = None,
    only: Collection[str] = (),
) -> list[dict[str, Any]]:
    """`differences` of the two sides, read a page of each at a time (`read_flags`) and
    compared as soon as a flag has been read on both: what is held is the flags read on one
    side and not yet on the other (a page or so when both list flags in the same order).
    `rewrite_project`: the left side's flags compared as if they were in this project (as
    `flagtui promote --rewrite-project` lands them; a flag's name is unique on a server,
    whatever its project); `only`: these flag names alone."""
    pages = []
    sides = []
    for side in (left, right):
        pages.append(aiter(read_flags(side.client, await _selection(side))))
        names = await _segment_names(side.client)
        sides.append(Side(side.label, {}, names, side.environment))
    held: list[dict[Key, Feature]] = [{}, {}]
    found: list[dict[str, Any]] = []
    going = [True, True]
    while any(going):
        read = await asyncio.gather(
            *(_next(p) if on else _none() for p, on in zip(pages, going, strict=True))
        )
        for i, page in enumerate(read):
            if page is None:
                going[i] = False
                continue
            project = rewrite_project if i == 0 and rewrite_project else None
            held[i].update(((project or f.project or "", f.name), f)
                           for f in page if not only or f.name in only)  # fmt: skip
        both = held[0].keys() & held[1].keys()
        if both or not any(going):
            keys = both if any(going) else held[0].keys() | held[1].keys()
            pair = [
                replace(side, flags={k: h.pop(k) for k in keys if k in h})
                for side, h in zip(sides, held, strict=True)
            ]
            found += differences(pair[0], pair[1], everything=everything)
    found.sort(key=lambda row: (row["project"], row["featureName"]))  # stable: a flag's own order
    return found


Key = tuple[str, str]


async def _next(pages: AsyncIterator[list[Feature]]) -> list[Feature] | None:
    try:
        return await anext(pages)
    except StopAsyncIteration:
        return None


async def _none() -> None:
    return None


def differences(left: Side, right: Side, *, everything: bool = False) -> list[dict[str, Any]]:
    """One record per difference, in flag order: project, featureName, what, and each side's.
    `everything`: every field the flags file holds (description, impression data, tags,
    dependencies, links, strategies' titles), not only what changes an evaluation."""
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
        shape_a, shape_b = _shape(left, a), _shape(right, b)
        if left.environment is None:  # two servers: the flag's own fields too
            differ("type", a.type, b.type)
            for field in FLAG_FIELDS if everything else ():
                # Links are not on every version: compared where both sides have them. Any
                # other field is absent from a shape where it is empty (a description unset).
                if field != "links" or (field in shape_a and field in shape_b):
                    differ(field, shape_a.get(field), shape_b.get(field))
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
