"""What applying a flags file to a server would change: `make_plan` reads the server as
`flagtui export` does (the file's projects, environments and named flags), a page at a time,
and compares each page with the file as it comes, through drift's one comparison
(`differences(..., everything=True)`: the server's side "before", the file's "after"), lists
the segments and context fields the file has and the server lacks (or holds otherwise),
evaluates every flag whose evaluation changes
(`plan_preview`), and names who changed each changed flag last, from the event log (one
search per flag, at most MAX_LAST_CHANGES, CONCURRENT_READS at a time).

The plan is data an apply can send as it is: each object's action (`create`, `update`; a flag
on the server only is `absent`, left alone, or `prune` with `--prune`) and its `desired` shape,
the file's own."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flagtui.api import errors
from flagtui.fleet.drift import Side, differences
from flagtui.fleet.flag_export import Selection, read_catalog, read_flags
from flagtui.fleet.flag_pages import CONCURRENT_READS
from flagtui.fleet.flag_shape import (
    FILE_VERSION,
    context_field_shape,
    flag_record,
    segment_shape,
)
from flagtui.fleet.plan_preview import SideOfPlan, evaluate_change

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Feature
    from flagtui.fleet.flag_export import Catalog
    from flagtui.fleet.flags_file import FlagsFile

MAX_LAST_CHANGES = 200
Key = tuple[str, str]


@dataclass
class Compared:
    """The server read against the file, a page at a time: the differences (the server's side
    "before", the file's "after"), and the server's flags an evaluation needs (the changed
    ones, and those the file's flags depend on)."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    server: dict[Key, Feature] = field(default_factory=dict)
    seen: set[Key] = field(default_factory=set)


async def compare_with_server(
    client: AdminClient,
    file: FlagsFile,
    desired: Mapping[Key, dict[str, Any]],
    segment_ids: Mapping[str, int],
    catalog: Catalog,
    changed_segments: Collection[str] = (),
) -> Compared:
    """Only a page of the server's flags is held at a time, besides what `Compared` keeps."""
    from flagtui.api.models import Feature  # here, not at the top: it loads pydantic

    selection = Selection(file.projects, file.environments, file.selected)
    wanted_envs = set(file.environments)
    parents = depended_on(desired)
    changed_ids = {s.id for s in catalog.segments if s.name in changed_segments}
    segment_names = {i: n for n, i in segment_ids.items()}

    def in_file(keys: Iterable[Key]) -> dict[Key, Feature]:
        return {k: Feature.model_validate(flag_record(desired[k], segment_ids)) for k in keys}

    done = Compared()

    def compared(server: dict[Key, Feature], wanted: dict[Key, Feature]) -> None:
        rows = differences(Side("before", server, catalog.names),
                           Side("after", wanted, dict(segment_names)), everything=True)  # fmt: skip
        done.rows += rows
        changed = {(r["project"], r["featureName"]) for r in rows}
        done.server.update(
            (k, f) for k, f in server.items()
            if k in changed or k[1] in parents or uses(f, changed_ids)
        )  # fmt: skip

    async for page in read_flags(client, selection, missing_ok=True):  # to create
        server = {}
        for flag in page:
            envs = [e for e in flag.environments or [] if e.name in wanted_envs]
            server[(flag.project or "", flag.name)] = flag.model_copy(update={"environments": envs})
        done.seen |= server.keys()
        compared(server, in_file(k for k in server if k in desired))
    compared({}, in_file(k for k in desired if k not in done.seen))  # creations
    done.rows.sort(key=lambda row: (row["project"], row["featureName"]))  # stable
    return done


def uses(flag: Feature, segment_ids: Collection[int]) -> bool:
    """True if a strategy of the flag (in any environment read) names one of the segments."""
    return bool(segment_ids) and any(
        int(i) in segment_ids
        for e in flag.environments or [] for s in e.strategies or [] for i in s.segments or []
    )  # fmt: skip


def uses_by_name(shape: Mapping[str, Any], names: Collection[str]) -> bool:
    """True if a strategy of the file's flag names one of the segments."""
    return bool(names) and any(
        n in names
        for e in shape["environments"].values() for s in e.get("strategies") or []
        for n in s.get("segments") or []
    )  # fmt: skip


def depended_on(desired: Mapping[Key, Mapping[str, Any]]) -> set[str]:
    """The names the file's flags depend on."""
    return {str(d["feature"]) for f in desired.values() for d in f.get("dependencies") or []}


def segment_ids_of(file: FlagsFile, catalog: Catalog) -> dict[str, int]:
    """Every segment name the file uses or defines: the server's id, or a stand-in (negative)
    for one the server lacks. A name neither defines is an error."""
    ids = {s.name: s.id for s in catalog.segments}
    defined = {str(s["name"]) for s in file.segments}
    for i, flag in enumerate(file.flags):
        for env_name, env in flag["environments"].items():
            for j, strategy in enumerate(env.get("strategies") or []):
                for name in strategy.get("segments") or []:
                    if name not in ids and name not in defined:
                        where = f"flags[{i}].environments.{env_name}.strategies[{j}].segments"
                        raise errors.InvalidArgument(where, f"{name!r} is not in segments")
    for name in sorted(defined - ids.keys()):
        ids[name] = -1 - len([i for i in ids.values() if i < 0])
    return ids


def object_changes(
    kind_shapes: Sequence[Mapping[str, Any]], server: Mapping[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    planned = []
    for shape in sorted(kind_shapes, key=lambda s: str(s["name"])):
        have = server.get(str(shape["name"]))
        desired = dict(shape)
        if have is None:
            planned.append({"name": shape["name"], "action": "create", "desired": desired})
            continue
        changes = [
            {"what": k, "before": have.get(k), "after": desired.get(k)}
            for k in sorted(have.keys() | desired.keys())
            if have.get(k) != desired.get(k)
        ]
        if changes:
            planned.append({"name": shape["name"], "action": "update", "changes": changes,
                            "desired": desired})  # fmt: skip
    return planned


async def _parents(
    client: AdminClient, compared: Compared, desired: Mapping[Key, dict[str, Any]]
) -> dict[str, Feature]:
    """The flags the file's or the server's flags depend on that the comparison did not keep
    (outside the file's selection, or read and let go), read from the server, and theirs: an
    evaluation needs them."""
    found: dict[str, Feature] = {}
    server = compared.server
    known = {n for _, n in server} | {n for k, n in desired if (k, n) not in compared.seen}
    wanted = [(p, str(d["feature"])) for (p, _), r in desired.items()
              for d in r.get("dependencies") or []]  # fmt: skip
    wanted += [(p, d.feature) for (p, _), f in server.items() for d in f.dependencies or []]
    while wanted:
        project, name = wanted.pop()
        if name in known:
            continue
        known.add(name)
        try:
            found[name] = flag = await client.features.get(project, name)
        except errors.NotFoundError:
            continue
        wanted += [(project, d.feature) for d in flag.dependencies or []]
    return found


async def _last_changes(client: AdminClient, keys: Sequence[Key]) -> dict[Key, dict[str, Any]]:
    gate = asyncio.Semaphore(CONCURRENT_READS)

    async def last(key: Key) -> dict[str, Any]:
        async with gate:
            try:
                page = await client.events.search(project=key[0], feature=key[1], limit=1)
            except (errors.NotSupported, errors.NotFoundError, errors.NoAccessError) as exc:
                return {"unknown": str(exc)}
        if not page.events:
            return {"unknown": "the event log has no event of this flag"}
        event = page.events[0]
        return {"by": event.created_by, "at": event.created_at.isoformat(), "type": event.type}

    looked = list(keys[:MAX_LAST_CHANGES])
    found = dict(zip(looked, await asyncio.gather(*(last(k) for k in looked)), strict=True))
    for key in keys[MAX_LAST_CHANGES:]:
        found[key] = {"unknown": f"not looked up: over {MAX_LAST_CHANGES} changed flags"}
    return found


async def make_plan(
    client: AdminClient,
    file: FlagsFile,
    *,
    users: int,
    contexts: Sequence[Mapping[str, Any]] = (),
    prune: bool = False,
) -> dict[str, Any]:
    catalog = await read_catalog(client)
    ids = segment_ids_of(file, catalog)
    desired = {(str(f["project"]), str(f["name"])): f for f in file.flags}
    segments = object_changes(
        [plain_shape(s) for s in file.segments],
        {s.name: segment_shape(s) for s in catalog.segments},
    )
    changed_segments = {str(s["name"]) for s in segments if s["action"] == "update"}
    compared = await compare_with_server(client, file, desired, ids, catalog, changed_segments)
    server = compared.server
    rows = compared.rows
    by_flag: dict[Key, list[dict[str, Any]]] = {}
    for row in rows:
        by_flag.setdefault((row["project"], row["featureName"]), []).append(row)

    segments_after = [{"id": ids[str(s["name"])], **segment_shape_record(s)} for s in file.segments]
    defined = {str(s["name"]) for s in file.segments}
    segments_after += [
        s.model_dump(mode="json", by_alias=True, exclude_none=True)
        for s in catalog.segments
        if s.name not in defined
    ]
    parents = await _parents(client, compared, desired)
    # The file's records an evaluation reads: the changed flags', those flags depend on, and
    # those that use a changed segment.
    depended = depended_on(desired)

    def read_by_an_evaluation(key: Key, flag: Mapping[str, Any]) -> bool:
        return key in by_flag or key[1] in depended or uses_by_name(flag, changed_segments)

    records = {k: flag_record(f, ids) for k, f in desired.items() if read_by_an_evaluation(k, f)}
    on_server = {**parents, **{n: f for (_, n), f in server.items()}}
    before_side = SideOfPlan(on_server, catalog.segments_json())
    after_side = SideOfPlan(
        {**on_server, **{n: r for (_, n), r in records.items()}}, segments_after
    )
    flags: list[dict[str, Any]] = []
    for key in sorted(by_flag):
        found = by_flag[key]
        present = next((r for r in found if r["what"] == "present"), None)
        if present is not None and present["before"]:
            flags.append({"project": key[0], "name": key[1],
                          "action": "prune" if prune else "absent"})  # fmt: skip
            continue
        entry: dict[str, Any] = {"project": key[0], "name": key[1]}
        entry["action"] = "create" if present is not None else "update"
        entry["changes"] = [
            {"what": r["what"], "before": r["before"], "after": r["after"]}
            for r in found if r["what"] != "present"
        ]  # fmt: skip
        entry["desired"] = desired[key]
        evaluations = []
        for env in file.environments:
            evaluated = evaluate_change(key[1], env, before_side, after_side, users=users,
                                        contexts=contexts)  # fmt: skip
            if evaluated is not None:
                evaluations.append(evaluated.as_json())
        entry["evaluation"] = evaluations
        flags.append(entry)
    updated = {(f["project"], f["name"]): f for f in flags if f["action"] == "update"}
    for key, last in (await _last_changes(client, list(updated))).items():
        updated[key]["lastChange"] = last

    for item in segments:  # a segment changed: who gets each flag of the file that uses it
        if item["action"] == "update":
            item["affects"] = _affected(item["name"], file, before_side, after_side, users,
                                        contexts)  # fmt: skip
    fields = object_changes(
        [plain_shape(f) for f in file.context_fields],
        {f.name: context_field_shape(f) for f in catalog.context_fields},
    )
    count = {a: sum(1 for f in flags if f["action"] == a)
             for a in ("create", "update", "absent", "prune")}  # fmt: skip
    changes = bool(count["create"] or count["update"] or count["prune"] or segments or fields)
    return {
        "version": FILE_VERSION,
        "projects": file.projects,
        "environments": file.environments,
        "changes": changes,
        "summary": {**count, "segments": len(segments), "contextFields": len(fields)},
        "segments": segments,
        "contextFields": fields,
        "flags": flags,
    }


def _affected(
    segment: str,
    file: FlagsFile,
    before: SideOfPlan,
    after: SideOfPlan,
    users: int,
    contexts: Sequence[Mapping[str, Any]],
) -> list[dict[str, Any]]:
    found = []
    for flag in file.flags:
        used = {n for env in flag["environments"].values() for s in env.get("strategies") or []
                for n in s.get("segments") or []}  # fmt: skip
        if segment not in used:
            continue
        evaluations = []
        for env in file.environments:
            evaluated = evaluate_change(str(flag["name"]), env, before, after, users=users,
                                        contexts=contexts)  # fmt: skip
            if evaluated is not None:
                evaluations.append(evaluated.as_json())
        found.append({"project": flag["project"], "name": flag["name"],
                      "evaluation": evaluations})  # fmt: skip
    return found


def plain_shape(shape: Mapping[str, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in shape.items()}


def segment_shape_record(shape: Mapping[str, Any]) -> dict[str, Any]:
    """A file's segment as the engine reads it (name, constraints)."""
    return {"name": shape["name"], "constraints": list(shape.get("constraints") or [])}
