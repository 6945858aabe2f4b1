"""Apply's steps, and its writes of what is not a flag's rollout: context fields created or
changed, segments created or changed (before the strategies that name them: a new segment's id
is the one those strategies are sent with), and a flag's links made the file's (deleted and
added; Unleash 7 on). Each is one `Step`, said done, refused (why) or unknown, and read back.

What a server cannot keep (links on a server without them) is named by `refusals` before
anything is sent."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flagtui.api import errors
from flagtui.api.feature_links import keeps_links
from flagtui.fleet.flag_shape import context_field_shape, segment_shape

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import FeatureLink, ServerInfo
    from flagtui.api.rollout_catalog import RolloutCatalog

CONTEXT_FIELD = "context field"
SEGMENT = "segment"


@dataclass
class Step:
    """One object's write: a context field, a segment, a flag, its strategies or variants in
    an environment, its links, its on/off. A context field's or a segment's has no project."""

    project: str
    flag: str
    what: str
    environment: str | None = None
    outcome: str = "not sent"
    why: str | None = None
    requests: list[str] = field(default_factory=list)

    @property
    def kind(self) -> str | None:
        """`context field` or `segment` for those objects' steps; None for a flag's."""
        for kind in (CONTEXT_FIELD, SEGMENT):
            if self.what.endswith(" " + kind):
                return kind
        return None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"project": self.project, "flag": self.flag, "what": self.what}
        if self.environment is not None:
            out["environment"] = self.environment
        out["outcome"] = self.outcome
        if self.why is not None:
            out["why"] = self.why
        if self.requests:
            out["requests"] = self.requests
        return out


def object_steps(planned: Mapping[str, Any]) -> list[Step]:
    """The context fields' writes, then the segments' (a segment's constraints may name a new
    field), in the plan's order."""
    fields, segments = planned["contextFields"], planned["segments"]
    found = [Step("", f["name"], f"{f['action']} {CONTEXT_FIELD}") for f in fields]
    return found + [Step("", s["name"], f"{s['action']} {SEGMENT}") for s in segments]


def writes_links(flag: Mapping[str, Any]) -> bool:
    if flag["action"] == "create":
        return bool(flag["desired"].get("links"))
    if flag["action"] == "update":
        return any(c["what"] == "links" for c in flag["changes"])
    return False


def refusals(planned: Mapping[str, Any], server: ServerInfo | None) -> list[str]:
    """What the plan asks that this server cannot keep: one line each (empty: none)."""
    why = keeps_links(server)
    if why is None:
        return []
    return [f"flag {f['project']}/{f['name']}: {why}"
            for f in planned["flags"] if f["action"] in ("create", "update")
            and (writes_links(f) or f["desired"].get("links"))]  # fmt: skip


class ObjectWriter:
    """The writes of context fields, segments and links; `ids` and `names` (segment name to
    id and back) gain each segment it creates."""

    def __init__(self, client: AdminClient, ids: dict[str, int], names: dict[int, str]) -> None:
        self.client = client
        self.ids = ids
        self.names = names
        self._projects: list[str] | None = None

    async def context_field(
        self, step: Step, desired: Mapping[str, Any], catalog: RolloutCatalog
    ) -> None:
        from flagtui.api.rollout_models import ContextField, LegalValue

        fields = self.client.context_fields
        if step.what == f"create {CONTEXT_FIELD}":
            step.requests.append("create context field")
            await fields.create(ContextField.model_validate(desired))
            return
        current = catalog.context_field(step.flag)
        if current is None:
            current = await fields.get(step.flag)
        legal = [LegalValue.model_validate(v) for v in desired.get("legalValues") or []]
        changes: dict[str, Any] = {"legal_values": legal,
                                   "stickiness": bool(desired.get("stickiness"))}  # fmt: skip
        if desired.get("description") or current.description:  # absent: the server keeps it
            changes["description"] = desired.get("description") or ""
        try:
            edit = fields.plan_edit(current, **changes)
        except errors.NothingToSend:
            return
        step.requests.append("edit context field")
        await _unless_same(fields.send_edit(edit))

    async def segment(
        self, step: Step, desired: Mapping[str, Any], catalog: RolloutCatalog
    ) -> None:
        from flagtui.api.rollout_models import Constraint
        from flagtui.api.segments import SegmentSpec

        segments = self.client.segments
        if self._projects is None:
            self._projects = [p.id for p in await self.client.projects.list()]
        constraints = [Constraint.model_validate(c) for c in desired.get("constraints") or []]
        spec = SegmentSpec(str(desired["name"]), desired.get("description"),
                           desired.get("project"), constraints)  # fmt: skip
        if step.what == f"create {SEGMENT}":
            planned = segments.plan_create(spec, catalog, self._projects)
            step.requests.append("create segment")
            made = await segments.create(planned)
            self.ids[made.name], self.names[made.id] = made.id, made.name
            return
        current = catalog.segment(step.flag)
        if current is None:
            current = await segments.find(step.flag)
        try:
            edit = segments.plan_edit(current, spec, catalog, self._projects)
        except errors.NothingToSend:
            return
        step.requests.append("edit segment")
        await _unless_same(segments.send_edit(edit))

    async def links(self, step: Step, project: str, flag: str, desired: Mapping[str, Any]) -> None:
        """Delete the server's links the file lacks, then add the file's the server lacks (a
        link is its URL and title)."""
        links = desired.get("links") or []
        want = [(str(link["url"]), link.get("title") or None) for link in links]
        have = await self.client.links.list(project, flag)
        kept: list[tuple[str, str | None]] = []
        extra: list[FeatureLink] = []
        for link in have:
            key = (link.url, link.title or None)
            if kept.count(key) < want.count(key):
                kept.append(key)
            else:
                extra.append(link)
        for link in extra:
            step.requests.append(f"delete link {link.url}")
            await self.client.links.remove(project, flag, link)
        for url, title in want:
            if (url, title) in kept:
                kept.remove((url, title))
                continue
            step.requests.append(f"add link {url}")
            await self.client.links.add(project, flag, url, title)


async def _unless_same(write: Awaitable[Any]) -> None:
    with contextlib.suppress(errors.NothingToSend):  # already so when it was read again
        await write


async def read_back_objects(
    client: AdminClient, planned: Mapping[str, Any], todo: Sequence[Step]
) -> list[dict[str, Any]]:
    """Each context field and segment a step wrote, read again: as the file, or what differs."""
    touched = [s for s in todo if s.kind is not None and s.requests]
    if not touched:
        return []
    found = []
    try:
        fields = {f.name: context_field_shape(f) for f in await client.context_fields.list()}
        segments = {s.name: segment_shape(s) for s in await client.segments.list()}
    except errors.FlagtuiError as exc:
        return [{"kind": s.kind, "name": s.flag, "state": "unknown", "why": str(exc)}
                for s in touched]  # fmt: skip
    for step in touched:
        kind, name = step.kind, step.flag
        listed = planned["contextFields"] if kind == CONTEXT_FIELD else planned["segments"]
        want = next(x["desired"] for x in listed if x["name"] == name)
        now = (fields if kind == CONTEXT_FIELD else segments).get(name)
        entry: dict[str, Any] = {"kind": kind, "name": name}
        if now is None:
            entry.update(state="differs", differs=["present"])
        else:
            differs = sorted(k for k in {*want, *now} if want.get(k) != now.get(k))
            entry["state"] = "differs" if differs else "as the file"
            if differs:
                entry["differs"] = differs
        found.append(entry)
    return found
