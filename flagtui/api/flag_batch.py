"""`client.flag_batch`: named flags of one environment in one request, through Unleash's export
route (`POST /api/admin/features-batch/export`, OSS on 6.10.1, 7.5.1 and 8.2.0; what the web
UI's export sends): the flags' own fields, their tags, dependencies and links (7.1 on), and in
that environment their on/off, variants and strategies.

What the route leaves out, so what a reader must not take from it: the strategies' sort order
(they come in no set order), a segment's constraints (segments are named by id), and names it
does not know (left out, not refused). Each answer records a `features-exported` event with
the answer as its data, as the web UI's export does."""

from __future__ import annotations

from collections.abc import Sequence

from flagtui.api.core import Core
from flagtui.api.models import Dependency, Feature, FeatureLink
from flagtui.api.records import Record
from flagtui.api.rollout_models import Strategy, Variant
from flagtui.api.wire import adapter

EXPORT_PATH = "/api/admin/features-batch/export"


class ExportedEnvironment(Record):
    feature_name: str
    enabled: bool = False
    variants: list[Variant] | None = None


class ExportedTag(Record):
    feature_name: str
    tag_type: str
    tag_value: str


class ExportedDependencies(Record):
    feature: str
    dependencies: list[Dependency]


class ExportedLinks(Record):
    feature: str
    links: list[FeatureLink]


class ExportAnswer(Record):
    """The route's answer; `links` None: the version has no links."""

    features: list[Feature]
    feature_strategies: list[Strategy]
    feature_environments: list[ExportedEnvironment]
    feature_tags: list[ExportedTag] = []
    dependencies: list[ExportedDependencies] = []
    links: list[ExportedLinks] | None = None


_ANSWER = adapter(ExportAnswer)


class FlagBatch:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def export(self, names: Sequence[str], environment: str) -> ExportAnswer:
        """The named flags in `environment` (a read: nothing changes but the event log)."""
        body = {"features": list(names), "environment": environment}
        return await self._core.read("POST", EXPORT_PATH, _ANSWER, json=body)
