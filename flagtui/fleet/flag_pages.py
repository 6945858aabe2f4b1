"""A page of flags in full, in a few requests: one export (`client.flag_batch`) per environment
for the page's flags, then one read of each flag that has more than one strategy in one of
those environments.

Why the second read: the export route says every strategy but not its sort order, and lists
them in no set order (6.10.1, 7.5.1, 8.2.0), so the order the server evaluates them in is
known only where there is one strategy. A flag with several in an environment is read in full
(its strategies in the server's order; its tags are the export's), CONCURRENT_READS at a time.
So a page costs its environments' exports plus its flags with several strategies somewhere."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

from flagtui.api import errors
from flagtui.api.models import Feature, FeatureEnvironment, FeatureLink, Tag

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.flag_batch import ExportAnswer
    from flagtui.api.rollout_models import Strategy

CONCURRENT_READS = 8


def _environment(answer: ExportAnswer, env: str) -> dict[str, FeatureEnvironment]:
    strategies: dict[str, list[Strategy]] = {}
    for s in answer.feature_strategies:
        strategies.setdefault(s.feature_name or "", []).append(s)
    by_name = {}
    for e in answer.feature_environments:
        by_name[e.feature_name] = FeatureEnvironment(
            name=env,
            enabled=e.enabled,
            variants=e.variants or [],
            strategies=strategies.get(e.feature_name, []),
        )
    return by_name


def assemble(project: str, answers: Sequence[tuple[str, ExportAnswer]]) -> list[Feature]:
    """The project's live flags of the answers (one per environment, the same names asked),
    by name; each environment's strategies as the route listed them."""
    first = answers[0][1]
    per_env = [(env, _environment(answer, env)) for env, answer in answers]
    tags: dict[str, list[Tag]] = {}
    for t in first.feature_tags:
        tags.setdefault(t.feature_name, []).append(Tag(type=t.tag_type, value=t.tag_value))
    dependencies = {d.feature: d.dependencies for d in first.dependencies}
    links: dict[str, list[FeatureLink]] | None = None
    if first.links is not None:
        links = {entry.feature: entry.links for entry in first.links}
    flags = []
    for f in sorted(first.features, key=lambda f: f.name):
        if f.archived or f.project != project:
            continue
        envs = [by_name[f.name] for _, by_name in per_env if f.name in by_name]
        flags.append(
            f.model_copy(update={
                "environments": envs, "tags": tags.get(f.name, []),
                "dependencies": dependencies.get(f.name, []),
                "links": None if links is None else links.get(f.name, []),
            })
        )  # fmt: skip
    return flags


def needs_order(flag: Feature) -> bool:
    return any(len(e.strategies or []) > 1 for e in flag.environments or [])


async def in_full(
    client: AdminClient, project: str, names: Sequence[str], environments: Sequence[str]
) -> list[Feature]:
    """The named flags of `project` that it has (live), in full for `environments`, by name."""
    answers = await asyncio.gather(*(client.flag_batch.export(names, e) for e in environments))
    flags = assemble(project, list(zip(environments, answers, strict=True)))
    gate = asyncio.Semaphore(CONCURRENT_READS)

    async def ordered(flag: Feature) -> Feature:
        if not needs_order(flag):
            return flag
        async with gate:
            try:
                read = await client.features.get(project, flag.name, tags=False)
            except errors.NotFoundError:  # archived since the export: as if not there
                return flag.model_copy(update={"archived": True})
        envs = {e.name: e for e in read.environments or []}
        return flag.model_copy(update={
            "environments": [
                e.model_copy(update={"strategies": envs[e.name].strategies}) if e.name in envs
                else e
                for e in flag.environments or []
            ],
        })  # fmt: skip

    done = await asyncio.gather(*(ordered(f) for f in flags))
    return [f for f in done if not f.archived]
