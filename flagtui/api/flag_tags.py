"""`client.tags`: a flag's tags and the server's tag types, with real Unleash's routes (6.10.1,
7.5.1 and 8.2.0 alike; the sandbox serves them the same way).

What real Unleash does, and what the client does about it:
- POST /api/admin/features/:f/tags `{type, value}` (201) records `tag-created` the first time
  the tag exists anywhere, then `feature-tagged`, even when the flag has the tag already (it
  keeps one copy): the client reads the flag's tags first and sends nothing then
  (NothingToSend).
- DELETE /api/admin/features/:f/tags/:type/:value (200) records `feature-untagged` whether or
  not the flag had the tag: the client sends it only for a tag the flag has.
- PUT /api/admin/features/:f/tags `{addedTags, removedTags}` changes several at once, each
  with its own event; used when a change adds or removes more than one tag.
- PUT /api/admin/projects/:p/tags `{features, tags: {addedTags, removedTags}}` does it on
  several flags of a project at once (200, no body); a name that is not a flag of the project
  is refused here first (real Unleash answers a 500 from its database, nothing applied).
- A tag's type and value are 2 to 50 characters, its type one of the server's tag types (a
  400 otherwise); a tag type's name is 2 to 50 URL-friendly characters, a taken one a 409.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from flagtui.api import errors
from flagtui.api.core import Core
from flagtui.api.models import Feature, Tag, TagType
from flagtui.api.records import Record
from flagtui.api.rollout_requests import PlannedWrite
from flagtui.api.wire import FeatureTags, adapter, seg
from flagtui.contract import TAG_MAX, TAG_MIN, is_tag_type_name


class TagTypes(Record):
    tag_types: list[TagType]


_TAG_TYPE = adapter(TagType)


def tag(text: str, *, field: str = "TAG") -> Tag:
    """`type:value` as typed (the first colon splits; no colon: the `simple` type)."""
    type_, sep, value = text.partition(":")
    if not sep:
        type_, value = "simple", text
    for part, said in ((type_, "type"), (value, "value")):
        if not TAG_MIN <= len(part) <= TAG_MAX:
            raise errors.InvalidArgument(
                field, f"{text!r}: a tag's {said} has {TAG_MIN} to {TAG_MAX} characters"
            )
    return Tag(type=type_, value=value)


def _wire(tags: Iterable[Tag]) -> list[dict[str, str]]:
    return [{"type": t.type, "value": t.value} for t in tags]


def _key(t: Tag) -> tuple[str, str]:
    return (t.type, t.value)


@dataclass(frozen=True)
class TagPlan:
    """One flag's tag change as it will be sent: the tags read just before, what it adds and
    removes (what it already has, or lacks, left out)."""

    feature: str
    before: list[Tag]
    added: list[Tag]
    removed: list[Tag]
    write: PlannedWrite


@dataclass(frozen=True)
class BulkTagPlan:
    project: str
    features: list[str]
    added: list[Tag]
    removed: list[Tag]
    write: PlannedWrite


class Tags:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self, feature: str) -> builtins.list[Tag]:
        """A flag's tags, whichever project it is in (an unknown flag: NotFoundError)."""
        path = f"/api/admin/features/{seg(feature)}/tags"
        return (await self._core.read("GET", path, adapter(FeatureTags))).tags

    async def types(self) -> builtins.list[TagType]:
        answer = await self._core.read("GET", "/api/admin/tag-types", adapter(TagTypes))
        return answer.tag_types

    async def _check_types(self, tags: Sequence[Tag]) -> None:
        if not tags:
            return
        known = {t.name for t in await self.types()}
        for t in tags:
            if t.type not in known:
                listed = ", ".join(sorted(known)) or "none"
                raise errors.InvalidArgument(
                    "TAG", f"{t.type}:{t.value}: its type is none of the server's tag types"
                    f" ({listed}; `flagtui tag type create` makes one)",
                )  # fmt: skip

    async def plan(
        self, feature: str, add: Sequence[Tag] = (), remove: Sequence[Tag] = ()
    ) -> TagPlan:
        """The change, checked (a read-only profile refused first; the types known), against
        the flag's tags read now. Nothing left to change: NothingToSend."""
        if not add and not remove:
            raise errors.InvalidArgument("TAG", "at least one tag to add or remove")
        self._core.require_writable("change tags")
        before = await self.list(feature)
        await self._check_types(add)
        has = {_key(t) for t in before}
        added = [t for t in {_key(t): t for t in add}.values() if _key(t) not in has]
        removed = [t for t in {_key(t): t for t in remove}.values() if _key(t) in has]
        if not added and not removed:
            asked = ", ".join(f"{t.type}:{t.value}" for t in (add or remove))
            state = f"already tagged {asked}" if add else f"not tagged {asked}"
            raise errors.NothingToSend(feature, state, "tag feature" if add else "untag feature")
        path = f"/api/admin/features/{seg(feature)}/tags"
        if len(added) == 1 and not removed:
            write = PlannedWrite("tag feature", "POST", path, _wire(added)[0])
        elif len(removed) == 1 and not added:
            t = removed[0]
            write = PlannedWrite("untag feature", "DELETE", f"{path}/{seg(t.type)}/{seg(t.value)}")
        else:
            body = {"addedTags": _wire(added), "removedTags": _wire(removed)}
            write = PlannedWrite("change tags", "PUT", path, body)
        return TagPlan(feature, before, added, removed, write)

    async def send(self, plan: TagPlan) -> builtins.list[Tag]:
        """The planned request; then the flag's tags, read again (what the admin now sees)."""
        w = plan.write
        await self._core.write(w.action, w.method, w.path, json=w.body)
        return await self.list(plan.feature)

    async def plan_bulk(
        self,
        project: str,
        features: Sequence[str],
        live: Sequence[Feature],
        add: Sequence[Tag] = (),
        remove: Sequence[Tag] = (),
    ) -> BulkTagPlan:
        """One request for several flags of `project` (`live`: its flags, as listed)."""
        if not add and not remove:
            raise errors.InvalidArgument("TAG", "at least one tag to add or remove")
        self._core.require_writable("change tags")
        names = builtins.list(dict.fromkeys(features))
        known = {f.name for f in live}
        if missing := [n for n in names if n not in known]:
            raise errors.InvalidArgument(
                "NAME", f"{', '.join(missing)}: no live flag of project {project}"
            )
        await self._check_types(add)
        body = {"features": names, "tags": {"addedTags": _wire(add), "removedTags": _wire(remove)}}
        path = f"/api/admin/projects/{seg(project)}/tags"
        return BulkTagPlan(
            project, names, builtins.list(add), builtins.list(remove),
            PlannedWrite("change tags", "PUT", path, body),
        )  # fmt: skip

    async def send_bulk(self, plan: BulkTagPlan) -> dict[str, builtins.list[Tag]]:
        """The planned request; then each flag's tags, read again."""
        w = plan.write
        await self._core.write(w.action, w.method, w.path, json=w.body)
        return {name: await self.list(name) for name in plan.features}

    async def create_type(self, name: str, description: str | None = None) -> TagType:
        """A new tag type (tag-type-created): 2 to 50 URL-friendly characters."""
        if not isinstance(name, str) or not is_tag_type_name(name):
            raise errors.InvalidArgument(
                "NAME", f"a tag type name of {TAG_MIN} to {TAG_MAX} letters, digits and"
                " - _ . ! ~ * ' ( ) (URL-friendly)",
            )  # fmt: skip
        body = {"name": name, **({"description": description} if description else {})}
        created = await self._core.write(
            "create tag type", "POST", "/api/admin/tag-types", _TAG_TYPE, body
        )
        assert created is not None
        return created
