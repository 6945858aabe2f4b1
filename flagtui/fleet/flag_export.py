"""Reading flags for a flags file, page by page, and writing the file as it is read.

`read_flags` walks each project's flags by name, PAGE at a time (the names from the project's
feature list: one read, not limited as the feature search is on Unleash 8.2), and reads each
page in full as `flag_pages` does (Unleash's export route, one request an
environment, and a read of each flag whose strategies' order the route does not say): one page
is held at a time, whatever the project's size.

`write_file` streams the file: a header, each flag as it comes (`[[flags]]`), then the
segments and context fields the flags use (`[[segments]]`, `[[contextFields]]`)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

import tomli_w

from flagtui.api import errors
from flagtui.api.flag_batch import EXPORT_PATH
from flagtui.fleet.flag_pages import in_full
from flagtui.fleet.flag_shape import (
    FILE_VERSION,
    context_field_shape,
    context_names,
    flag_shape,
    segment_shape,
)

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Feature
    from flagtui.api.rollout_models import ContextField, Segment

PAGE = 100  # names a page: one export an environment, a few flags read by themselves
SCHEMA = "docs/flags-file.schema.json"
# Characters that reorder or hide text in a reviewer's diff: written as \uXXXX escapes.
_HIDDEN = [
    *range(0x80, 0xA0),
    0x061C, 0x200B, 0x200E, 0x200F, *range(0x202A, 0x202F), 0x2060, *range(0x2066, 0x206A),
    0xFEFF, 0x2028, 0x2029,
]  # fmt: skip
_ESCAPED = str.maketrans({code: f"\\u{code:04X}" for code in _HIDDEN})


@dataclass(frozen=True)
class Selection:
    """What to read: projects (empty: every project), flags by name (empty: all of the
    projects'), environments (at least one)."""

    projects: Sequence[str]
    environments: Sequence[str]
    flags: Sequence[str] = ()


@dataclass
class Catalog:
    """The server's segments and context fields, read once."""

    segments: list[Segment]
    context_fields: list[ContextField]
    names: dict[int, str] = field(init=False)

    def __post_init__(self) -> None:
        self.names = {s.id: s.name for s in self.segments}

    def segments_json(self) -> list[dict[str, Any]]:
        """The segments as the admin API sends them (what the previews read)."""
        return [s.model_dump(mode="json", by_alias=True, exclude_none=True) for s in self.segments]


async def read_catalog(client: AdminClient) -> Catalog:
    try:
        segments = await client.segments.list()
    except (errors.NotSupported, errors.NotFoundError):
        segments = []
    return Catalog(segments, await client.context_fields.list())


async def resolve(client: AdminClient, selection: Selection) -> Selection:
    """The projects spelt out, and each environment checked against the first project's."""
    projects = list(selection.projects) or sorted(p.id for p in await client.projects.list())
    for project in projects:
        known = {e.name for e in await client.environments.list(project)}
        for env in selection.environments:
            if env not in known:
                raise errors.InvalidArgument(
                    "--env", f"{env!r} is not an environment of project {project!r} "
                    f"(it has: {', '.join(sorted(known)) or 'none'})",
                )  # fmt: skip
    return Selection(projects, selection.environments, selection.flags)


async def read_flags(
    client: AdminClient, selection: Selection, *, missing_ok: bool = False
) -> AsyncIterator[list[Feature]]:
    """The selection's live flags in full (its environments), a page at a time, by project
    then name. `missing_ok`: a flag named that the server does not have is left out, not an
    error."""
    named = sorted(set(selection.flags))
    if named:
        (_,) = selection.projects  # named flags are one project's
    for project in selection.projects:
        names = named or await client.features.names(project)
        for start in range(0, len(names), PAGE):
            asked = names[start : start + PAGE]
            found = await in_full(client, project, asked, selection.environments)
            if named and not missing_ok and len(found) < len(asked):
                missing = sorted(set(asked) - {f.name for f in found})
                said = f"project {project!r} has no live flag {missing[0]!r}"
                raise errors.NotFoundError("POST", EXPORT_PATH, message=said)
            yield found


def toml_text(data: dict[str, Any]) -> str:
    """TOML of `data`, with the characters that hide or reorder text escaped."""
    return tomli_w.dumps(data).translate(_ESCAPED)


def array_table(key: str, item: dict[str, Any]) -> str:
    """`item` as one `[[key]]` table of a file written a table at a time. (tomli-w alone
    would write a short one inline, `key = [{...}]`: after another table, a key of that one.)
    Its own tables' headers, the lines tomli-w starts with `[`, are put under `key`."""
    lines = toml_text(item).splitlines(keepends=True)
    under = [re.sub(r"^(\[\[?)", rf"\g<1>{key}.", line) if line.startswith("[") else line
             for line in lines]  # fmt: skip
    return f"[[{key}]]\n" + "".join(under)


def header(selection: Selection) -> str:
    lines = [
        "# Feature flags as code, written by `flagtui export` (flags file, JSON Schema:",
        f"# {SCHEMA}). `flagtui plan FILE` says what applying it would change.",
        "",
    ]
    head: dict[str, Any] = {"version": FILE_VERSION, "projects": list(selection.projects)}
    head["environments"] = sorted(selection.environments)
    if selection.flags:
        head["selected"] = sorted(set(selection.flags))
    return "\n".join(lines) + toml_text(head)


@dataclass
class Written:
    flags: int = 0
    segments: int = 0
    context_fields: int = 0


async def write_file(client: AdminClient, selection: Selection, out: TextIO) -> Written:
    """The flags file of `selection` (resolved) on `out`, flag by flag as read."""
    catalog = await read_catalog(client)
    written = Written()
    segments_used: set[str] = set()
    context_used: set[str] = set()
    out.write(header(selection))
    async for page in read_flags(client, selection):
        for flag in page:
            shape = flag_shape(flag, catalog.names, selection.environments)
            for env in shape["environments"].values():
                for strategy in env["strategies"]:
                    segments_used.update(strategy.get("segments") or [])
            context_used |= context_names([shape])
            out.write("\n" + array_table("flags", shape))
            written.flags += 1
    segments = [segment_shape(s) for s in catalog.segments if s.name in segments_used]
    context_used |= context_names(segments)
    for shape in sorted(segments, key=lambda s: str(s["name"])):
        out.write("\n" + array_table("segments", shape))
        written.segments += 1
    fields = [context_field_shape(f) for f in catalog.context_fields if f.name in context_used]
    for shape in sorted(fields, key=lambda f: str(f["name"])):
        out.write("\n" + array_table("contextFields", shape))
        written.context_fields += 1
    return written
